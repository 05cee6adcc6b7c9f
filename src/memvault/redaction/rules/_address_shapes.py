"""How street addresses are written, country by country: the RE2 shapes the address
rules (``_addresses``) look for.

Each shape names the part that is redacted as the group ``value``: the street, the
house number and what belongs to them (flat, postal code, city), never the label or
the preposition in front. Street types and labels are alternations of the words
addresses use, in the languages the filter reads.
"""

from __future__ import annotations

import unicodedata

# Words and numbers every shape is built of.
_CAP = r"\p{Lu}[\p{L}'’\-]*"
_CAPS = _CAP + r"(?: " + _CAP + r"){0,3}"
_STARTS = r"(?:(?m:^)|[^\p{L}\p{N}])"

# The street types of English-speaking and Indian addresses: "12 Main St", "76, MG Road".
_STREET_TYPES = (
    r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Square"
    r"|Terrace|Way|Circle|Parkway|Pkwy|Highway|Hwy|Crescent|Close|Gardens|Grove|Row|Mews|Marg"
    r"|Nagar|Salai|Trail|Plaza"
)
# Street types after the name in Turkish addresses: "İstiklal Cad. No:29/3".
TR_STREET_TYPES = r"Cad\.|Caddesi|Cd\.|Sok\.|Sokak|Sokağı|Sk\.|Bulvarı|Blv\.|Yolu"
# Russian street types, before or after the name: "ул. Садовая", "Невский пр.", "ш. Энтузиастов".
_RU_STREET_TYPES = (
    r"ул\.|улица|пр\.|пр-т|проспект|пер\.|переулок|ш\.|шоссе|наб\.|набережная|бульвар|б-р"
    r"|пл\.|площадь"
)
# Street types after the name in Hungarian, Latvian, Lithuanian, Estonian and South
# Slavic addresses: "Kossuth Lajos utca 12", "Brīvības iela 40", "Gedimino pr. 9",
# "Pärnu mnt 12", "Ilica ulica 5", "Slovenska cesta 3".
SUFFIX_STREET_TYPES = (
    r"utca|u\.|út|útja|körút|krt\.|tér|iela|gatvė|g\.|prospektas|pr\.|tänav|tn\.?"
    r"|maantee|mnt\.?|puiestee|pst\.?|ulica|ul\.|cesta|bulevar|trg"
)

# --- English, Indian, German, Dutch, French, Spanish, Italian, Polish, Russian, CJK ---------

# A Polish street name and its number: "Grunwaldzka 168", "Jana Pawła II 79", "Kwiatowa
# 175/10 m. 4" (the flat after "m." or "lok.").
_PL_STREET = (
    _CAP + r"(?: " + _CAP + r"){0,3} \d{1,4}[A-Za-z]?(?:/\d{1,4})?(?: (?:m\.|lok\.) ?\d{1,4})?"
)

# The street forms of many countries in one pattern, one branch each, with the postal
# code and city that follow where a country writes them after the street.
STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>"
    # 221B Baker Street, London NW1 6XE; 12 Main St, Springfield, IL 62704
    r"(?:(?:Apt|Apartment|Suite|Unit|Flat)\.? ?#?\d{1,4}[A-Za-z]?, )?"
    r"\d{1,5}[A-Za-z]?,? (?:(?:N|S|E|W|North|South|East|West)\.? )?"
    r"(?:" + _CAP + r"|\d{1,3}(?:st|nd|rd|th))(?: " + _CAP + r"){0,3} "
    r"(?:" + _STREET_TYPES + r")\b(?: (?:NW|NE|SW|SE|N|S|E|W)\b)?"
    r"(?:,? (?:Apt|Apartment|Suite|Ste|Unit|Flat|Floor|#)\.? ?#?[\w\-]{1,6})?"
    r"(?:\.?, ?" + _CAP + r"(?: " + _CAP + r"){0,2}(?:, [A-Z]{2} \d{5}(?:-\d{4})?"
    r"|,? [A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}))?"
    # Hauptstraße 12, Berliner Str. 5a, Kalverstraat 92, 1012 AB Amsterdam
    r"|\p{Lu}[\p{Ll}ß]+(?:straße|strasse|str\.|weg|gasse|platz|allee|damm|ufer|chaussee|straat"
    r"|gracht|laan|plein|kade|dijk|singel)"
    r" \d{1,4}[A-Za-z]?(?:-\d{1,4})?(?: (?:hs|huis|bis|bg|I{1,3})\b| / \d{1,2}\. OG\b)?"
    r"(?:, ?(?:\d{5}|\d{4} ?[A-Z]{2}) " + _CAP + r")?"
    r"|\p{Lu}[\p{Ll}ß]+(?:er)? (?:Straße|Strasse|Str\.|Weg|Gasse|Platz|Allee|Damm|Ring|[Aa]llee)"
    r" \d{1,4}[a-z]?(?:, ?\d{5} " + _CAP + r")?"
    # 12 rue de la Paix, 75002 Paris; 143 bis rue des Lilas
    r"|\d{1,4}(?: bis| ter)?(?:,? (?:rue|avenue|boulevard|bd|place|allée|chemin|impasse|quai"
    r"|route|faubourg|Rue|Avenue|Boulevard|Place|Allée|Chemin|Impasse|Quai)"
    r"|, (?:cours|Cours|passage|esplanade|promenade))"
    r" (?:(?:de la|de l'|de|du|des|la|le|les|l'|d')[ ]?)?"
    + _CAP
    + r"(?: (?:(?:de|du|des|la|le|et|sur) )?"
    + _CAP
    + r"){0,3}"
    r"(?:,? \d{5} " + _CAP + r")?"
    # Calle Mayor 5, C/ de Alcalá, 199, Via Roma 10, Rua Augusta, 467, Corso Vittorio Emanuele II 15
    r"|(?:Calle|C/|Avenida|Avda\.|Av\.|Plaza|Paseo|Camino|Carrer|Carretera|Ronda|Rambla"
    r"|Travessa|Travesía|Rua|Praça|Via|Viale|Piazza|Piazzale|Corso|Vicolo|Largo)"
    r" (?:(?:de la|de los|de las|del|de|da|das|do|dos|dei|degli|delle|della|di) )?"
    + _CAP
    + r"(?: (?:(?:de|del|di|da|do|y|e) )?"
    + _CAP
    + r"){0,3},? (?:n\.?[°o] ?)?\d{1,4}[A-Za-z]?"
    r"(?:,? \d{1,2}[°oa](?: ?(?:\d{1,2}[°oa]|[A-Z]\b|(?i:izq|izda|dcha|dch|der|centro|ctro)\b\.?))?"
    r"|, (?:bajo|ático|entlo\.|entresuelo|pral\.|principal)\b)?"
    r"(?:,? \d{5} " + _CAP + r")?"
    # Indian: 76, MG Road / 243, Gandhi Marg
    r"|\d{1,4}, (?:(?:" + _CAP + r"|\d{1,2}(?:st|nd|rd|th)) ){1,3}"
    r"(?:Road|Marg|Nagar|Salai|Street|Lane|Block|Layout|Colony|Sector|Cross|Main)\b"
    # Polish: ul. Grunwaldzka 168, os. Jana Pawła II 79, ul. Kwiatowa 175/10
    r"|(?:ul\.|os\.|ulica|aleja|osiedle) "
    + _PL_STREET
    # ул. Садовая, д. 79, кв. 112
    + r"|(?:ул\.|улица|пр-т|проспект|пер\.|переулок|шоссе|наб\.|бульвар|б-р) "
    + _CAP
    + r"(?: "
    + _CAP
    + r")?,? (?:д\.|дом) ?\d{1,4}[а-я]?(?:,? (?:кв\.|корп\.|стр\.) ?\d{1,4})*"
    # 北京市朝阳区建国路88号, 東京都渋谷区神南1-2-3
    r"|\p{Han}{1,4}(?:市|都|道|府|県|省)\p{Han}{1,6}(?:区|市|県|町|村)\p{Han}{1,8}"
    r"(?:\d{1,5}号|\d{1,4}-\d{1,4}(?:-\d{1,4})?|\d{1,3}丁目(?:\d{1,4}番地?(?:\d{1,4}号)?)?)"
    # the building and flat of a Chinese address: 22栋1754室, 3号楼2单元501室
    r"(?:\d{1,4}(?:栋|幢|号楼|座)(?:\d{1,2}单元)?(?:\d{1,5}(?:室|号))?)?"
    # Theodor-Heuss-Ring 100, Konrad-Adenauer-Straße 5
    r"|\p{Lu}[\p{Ll}ß]+(?:-\p{Lu}[\p{Ll}ß]+)+-(?:Straße|Strasse|Str\.|Weg|Gasse|Platz|Allee"
    r"|Damm|Ring|Ufer|Chaussee) \d{1,4}[a-z]?(?:, ?\d{5} " + _CAP + r")?"
    # India: मकान नं. 97, Hill Road, Bandra West; House No. 268, शिवाजी नगर; Flat No 4, Sector 21
    r"|(?:(?:मकान (?:नं\.?|नंबर|संख्या)|(?i:house|flat|plot|h\.) ?(?i:no\.?|number|#))"
    r" ?\d{1,5}[A-Za-z]?(?:[-/]\d{1,5})?|(?:Flat|House|Plot) \d{1,5}[A-Za-z]?(?:[-/]\d{1,5})?,"
    r" (?:\p{Lu}\p{Ll}+ ){1,3}(?:Apartments|Residency|Towers?|Enclave|Heights|Complex|Society))"
    r"(?:,? (?:\p{Lu}[\p{L}]*|\p{Devanagari}+|\d{1,6}\b)"
    r"(?: (?:No\. \d{1,4}\b|\p{Lu}[\p{L}]*|\p{Devanagari}+|\d{1,6}\b)){0,3}){1,3}"
    r")"
)

# al. Jana Pawła II 13 m. 60, pl. Wolności 5: "al." and "pl." only where an address starts
# (a line, a comma, "przy"), so a citation's "et al. Nature 521" is no street.
PL_STREET_PREFIXED = (
    r"(?:(?m:^)[ \t]*|[,:;(][ \t]*|(?i:przy|adres)[ \t]+)(?P<value>(?:al|pl)\. " + _PL_STREET + ")"
)

# Am Anger 23a, An der Alster 4, Im Winkel 7: a preposition names the street. The number
# must end the phrase, so "Im Jahr 2024" (four digits) and "Am Freitag 15 Uhr" stay.
PREPOSITION_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>(?:Am|An der|An den|Auf der|Auf dem|Im|In der|In den"
    r"|Zum|Zur|Unter den|Hinter der|Vor dem) \p{Lu}[\p{Ll}ß]+ \d{1,3}[a-z]?)"
    r"(?:[,;)]|\.?\r?(?m:$)|,? \d{5} )"
)

# --- further countries ------------------------------------------------------------------------

# Kungsgatan 59, Björkvägen 65 A, Tallstigen 30, lgh 1102; Storgata 5, Vestergade 12
NORDIC_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>\p{Lu}\p{Ll}+(?:gatan|gata|gaten|gade|vägen|veien"
    r"|vegen|vej|vei|stigen|gränd|torget|backen|allén|leden|plan|stråket) \d{1,4}(?: ?[A-Z]\b)?"
    r"(?:, (?:lgh|Lgh) \d{3,4})?)(?:[^\p{L}\p{N}]|$)"
)
# İstiklal Cad. No:29/3, Bağdat Caddesi No:32 D:4, İstiklal Cad. No:142 Daire 12
TR_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>"
    + _CAP
    + r"(?: "
    + _CAP
    + r"){0,2} (?:"
    + TR_STREET_TYPES
    + r") No ?: ?\d{1,5}[A-Z]?(?:/\d{1,4})?"
    r"(?: (?:D|Daire|Kat) ?:? ?\d{1,4})*)"
)
# Невский пр., дом 124, корп. 2, кв. 181; ш. Энтузиастов, дом 129, кв. 41
RU_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>(?:(?:"
    + _RU_STREET_TYPES
    + r") "
    + _CAP
    + r"(?: "
    + _CAP
    + r")?|"
    + _CAP
    + r"(?: "
    + _CAP
    + r")? (?:"
    + _RU_STREET_TYPES
    + r"))"
    r",? (?:д\.|дом) ?\d{1,4}[а-я]?(?:,? (?:кв\.|корп\.|стр\.|к\.) ?\d{1,4})*)"
)
# شارع الشيخ زايد 497، مبنى 4
AR_STREET = (
    r"(?P<value>(?:شارع|طريق) \p{Arabic}+(?: \p{Arabic}+){0,3} \d{1,5}"
    r"(?:[،,] ?(?:مبنى|بناية|عمارة|شقة|فيلا) \d{1,4})*)"
)
# 177/12 Điện Biên Phủ, Phường Bến Nghé; 61 Trần Hưng Đạo, Phường 7; 316/12 Phố Huế, Quận 3
VI_STREET = (
    r"(?:(?m:^)|[^\p{L}\p{N}])(?P<value>\d{1,4}[A-Z]?(?:/\d{1,4}[A-Z]?){0,2} "
    + _CAP
    + r"(?: (?:"
    + _CAP
    + r"|\d{1,4})){0,4}, (?:Phường|Quận|Xã|Huyện|Thị trấn) (?:\d{1,2}\b|"
    + _CAP
    + r"(?: "
    + _CAP
    + r"){0,3}))"
)
# 경기도 성남시 분당구 판교역로 89, 101동 1203호; 서울특별시 강남구 테헤란로 285; ... 105 5층
KO_STREET = (
    r"(?P<value>(?:\p{Hangul}+(?:도|시) )?\p{Hangul}+(?:시|군|구)(?: \p{Hangul}+(?:구|읍|면))?"
    r" \p{Hangul}+\d{0,3}(?:로|길)(?: \d{1,3}(?:번)?길)? \d{1,5}(?:-\d{1,4})?"
    r"(?:,? \d{1,4}동(?: \d{1,5}호)?|,? \d{1,5}호| \d{1,3}층)?)"
)
# Romanian: Str. Victoriei nr. 25, bl. A6, sc. 2, ap. 57; Bd. Unirii nr. 3
RO_STREET = (
    _STARTS + r"(?P<value>(?:Str\.|Strada|Bd\.|Bdul\.|B-dul|Bulevardul|Calea|Șos\.|Şos\."
    r"|Șoseaua|Aleea|Splaiul|Piața) " + _CAPS + r",? nr\. ?\d{1,4}[A-Za-z]?"
    r"(?:, ?(?:bl|sc|et|ap)\. ?[\p{L}\d]{1,4})*)"
)
# Indonesian: Jl. Diponegoro No. 34, RT 11/RW 04; Jalan Sudirman No. 112
ID_STREET = (
    _STARTS + r"(?P<value>(?:Jl\.|Jln\.|Jalan|Gg\.|Gang) " + _CAPS + r",? No\.? ?\d{1,4}[A-Za-z]?"
    r"(?:,? RT\.? ?\d{1,3} ?/ ?RW\.? ?\d{1,3})?)"
)
# Ukrainian and Russian with the number straight after the street: вул. Сумська, 34, кв. 28
UA_STREET = (
    _STARTS + r"(?P<value>(?:вул\.|вулиця|просп\.|проспект|пров\.|провулок|бульв\.|бульвар"
    r"|пл\.|площа|наб\.|ул\.|пр-т|пр\.) " + _CAP + r"(?: " + _CAP + r")?,? (?:буд\. ?)?"
    r"\d{1,4}[а-яієї]?(?:/\d{1,3})?(?:,? (?:кв\.|корп\.|к\.) ?\d{1,4})*)"
)
# Greek: Οδός Ερμού 131, Πάτρα; Λεωφ. Σταδίου 64, 105 64 Αθήνα
GR_STREET = (
    _STARTS
    + r"(?P<value>(?:Οδός|Οδ\.|Λεωφ\.|Λεωφόρος|Πλατεία|Πλ\.) "
    + _CAPS
    + r",? \d{1,4}[Α-Ωα-ω]?(?:, ?(?:\d{3} ?\d{2} )?"
    + _CAP
    + r"(?: "
    + _CAP
    + r")?)?)"
)
# Hebrew: רחוב בן יהודה 66, חיפה; שדרות רוטשילד 12, תל אביב
_HE_WORD = r"\p{Hebrew}[\p{Hebrew}׳'\"\-]*"
HE_STREET = (
    r"(?P<value>(?:רחוב|רח׳|רח'|שדרות|שד׳|שד'|דרך|סמטת) "
    + _HE_WORD
    + r"(?: "
    + _HE_WORD
    + r"){0,2} \d{1,4}(?:, ?"
    + _HE_WORD
    + r"(?: "
    + _HE_WORD
    + r")?)?)"
)
# Finnish: Kauppakatu 1 C 17, Puistotie 24 C 13, Koivukuja 3 as 5
FI_STREET = (
    _STARTS + r"(?P<value>\p{Lu}\p{Ll}+(?:katu|tie|kuja|polku|väylä|kaari|raitti|tori)"
    r" \d{1,4}(?: ?[A-Z](?: ?\d{1,3})?| as\.? \d{1,3})?)(?:[^\p{L}\p{N}]|$)"
)
# Czech: a street adjective and its house/orientation numbers (Korunní 580/5,
# Vinohradská 2977/70), or any street after "bytem" (resident at).
CZ_STREET = (
    _STARTS + r"(?P<value>(?:náměstí |nábřeží |třída )?\p{Lu}\p{Ll}{2,}(?:ská|cká|ní|ova|ého|ovo)"
    r"(?: \p{Lu}?\p{Ll}+)? \d{1,5}/\d{1,4}[a-z]?)(?:[^\p{L}\p{N}/]|$)"
)
CZ_RESIDENT = (
    r"(?:(?m:^)|[^\p{L}])(?i:bytem|bydliště:?|trvale bytem) (?P<value>"
    + _CAPS
    + r" \d{1,5}(?:/\d{1,4}[a-z]?)?)(?:[^\p{L}\p{N}/]|$)"
)
# Portuguese: Estrada Haddock Lobo, 628 - apto 13; Rua Santos, 1074 - apto 34
PT_STREET = (
    _STARTS + r"(?P<value>(?:Rua|Avenida|Av\.|Estrada|Travessa|Alameda|Praça|Rodovia|Largo)"
    r" (?:(?:da|do|das|dos|de) )?"
    + _CAP
    + r"(?: (?:(?:da|do|das|dos|de|e) )?"
    + _CAP
    + r"){0,3},? (?:n[°o]\.? ?)?\d{1,5}(?:[ \t]*[-–,][ \t]*(?:apto\.?|apt\.?|ap\.|apartamento"
    r"|casa|bloco|sala|conj\.?) ?\d{1,5}[A-Z]?)?)"
)
# Thai: 138/65 ถนนรัชดาภิเษก แขวงลาดยาว เขตจตุจักร. In the form the filter reads (NFKC), where
# SARA AM (ำ) is written as NIKHAHIT and SARA AA (ํา).
TH_STREET = unicodedata.normalize(
    "NFKC",
    r"(?P<value>\d{1,4}(?:/\d{1,4})? (?:หมู่ ?\d{1,2} )?(?:ถนน|ถ\.|ซอย|ซ\.)\p{Thai}+"
    r"(?: (?:ถนน|ถ\.)\p{Thai}+)?(?: (?:แขวง|ตำบล|ต\.)\p{Thai}+)?(?: (?:เขต|อำเภอ|อ\.)\p{Thai}+)?)",
)
# Chinese and Japanese addresses after the word for address: 新地址广州市天河区珞喻路328号6栋1096室,
# 新住所は京都府京都市左京区下鴨9丁目3番11号
CJK_STREET = (
    r"(?:地址|住所|所在地|居住地)[ \t]*(?:[:：は为是][ \t]*)?"
    r"(?P<value>\p{Han}{1,4}(?:市|都|道|府|県|省)"
    r"\p{Han}{1,6}(?:区|市|県|町|村)\p{Han}{1,8}(?:\d{1,5}号|\d{1,4}-\d{1,4}(?:-\d{1,4})?"
    r"|\d{1,3}丁目(?:\d{1,4}番地?(?:\d{1,4}号)?)?)"
    r"(?:\d{1,4}(?:栋|幢|号楼|座)(?:\d{1,2}单元)?(?:\d{1,5}(?:室|号))?)?)"
)
# German compounds of a street word: Lindenstieg 4, Schlossgraben 12 and "Zur alten
# Post 58c" (a preposition, an adjective, a noun). Endings that English words share
# ("-ring", "-tor", "-wall": "Monitoring 2", "Editor 3", "Firewall 2") are left out, and
# a house number has at most three digits ("Heidelberg 2025" is an event).
DE_STREET = (
    _STARTS + r"(?P<value>\p{Lu}[\p{Ll}ß]+(?:stieg|steig|pfad|markt|graben|hof|feld|brücke)"
    r" \d{1,3}[a-z]?"
    r"|(?:Zur|Zum|Am|An der|Auf der|Im|In der|Unter den|Hinter der) \p{Ll}+(?:en|er|es|e)"
    r" \p{Lu}[\p{Ll}ß]+ \d{1,3}[a-z]?)(?:[^\p{L}\p{N}]|$)"
)
# Kossuth Lajos utca 12, Brīvības iela 40, Gedimino pr. 9, Pärnu mnt 12, Slovenska cesta 3
SUFFIX_STREET = (
    _STARTS + r"(?P<value>" + _CAP + r"(?: " + _CAP + r"){0,2} (?:" + SUFFIX_STREET_TYPES + r")"
    r" \d{1,4}[A-Za-z]?(?:[/\-]\d{1,4})?(?:[,.] ?\d{1,2}\. ?(?:em|emelet|ajtó)\.?)?)"
    r"(?:[^\p{L}\p{N}]|$)"
)

# --- labels and keys ---------------------------------------------------------------------------

# Keys of a street address in JSON and API bodies.
ADDRESS_KEYS = (
    r"street|street_?address|street_?line_?\d?|address_?line_?\d?|postal_?address|home_?address"
    r"|mailing_?address|billing_?address|shipping_?address|residential_?address|adresse|anschrift"
    r"|strasse|straße|alamat|domiciliu|adresa|адреса|адрес|ที่อยู่|כתובת|διεύθυνση|osoite"
    r"|katuosoite|endereço|endereco|dirección|direccion|indirizzo|住所|地址"
)
# Labels of an address on forms and in notes, opening a line.
ADDRESS_LABELS = (
    r"address|home address|postal address|street address|mailing address|adresse|anschrift"
    r"|wohnadresse|alamat|domiciliu|adresa|adres|adrese|адреса|адрес|ที่อยู่|כתובת|διεύθυνση"
    r"|osoite|endereço|dirección|domicilio|indirizzo|住所|地址|cím|lakcím"
)
# Values of address keys in JSON and XML: "street": "...", <postalAddress>...</postalAddress>
ADDRESS_FIELD = (
    r"(?:\\?[\"'](?i:" + ADDRESS_KEYS + r")\\?[\"'][ \t]*:[ \t]*\\?[\"']"
    r"|<(?:[\w\-]+:)?(?i:" + ADDRESS_KEYS + r")>)"
    r"(?P<value>[\p{L}\d][^\"\\<>\r\n]{2,78}[\p{L}\d.])(?:\\?[\"']|</)"
)
# A line that opens with an address label, the address on it or indented on the next:
# "Adresse: Lindenallee 5, 10115 Berlin", "Alamat:\n    Jl. ...".
ADDRESS_LABELLED = (
    r"(?m:^)[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?i:" + ADDRESS_LABELS + r")(?:\*\*)?[ \t]*[:：]"
    r"(?:\*\*)?[ \t]*(?:\r?\n[ \t]+)?(?P<value>[\p{L}\d][^\r\n]{4,98}[\p{L}\d])[ \t]*\.?\r?(?m:$)"
)
