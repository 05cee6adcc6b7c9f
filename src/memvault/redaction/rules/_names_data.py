"""Word lists for the name and address rules (:mod:`vault._rules_names`).

Alternations here are RE2 fragments, each one group's worth of words; sets are lower
case and hold the words that disqualify a would-be name.
"""

from __future__ import annotations

# The street types of English-speaking and Indian addresses: "12 Main St", "76, MG Road".
STREET_TYPES = (
    r"Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Court|Ct|Place|Pl|Square"
    r"|Terrace|Way|Circle|Parkway|Pkwy|Highway|Hwy|Crescent|Close|Gardens|Grove|Row|Mews|Marg"
    r"|Nagar|Salai|Trail|Plaza"
)

# Closings of letters and mails, before the writer's name on the next or the same line.
CLOSINGS = (
    r"best regards|kind regards|warm regards|regards|best wishes|cheers|thanks|thank you"
    r"|many thanks|sincerely|yours sincerely|yours truly|best|all the best|take care"
    r"|mit freundlichen grüßen|mit freundlichen grüssen|freundliche grüße|viele grüße"
    r"|liebe grüße|beste grüße|grüße|gruß|cordialement|bien cordialement|bien à vous"
    r"|amicalement|saludos|saludos cordiales|atentamente|un saludo|cordiali saluti"
    r"|distinti saluti|un saluto|met vriendelijke groet|groet|groeten|atenciosamente|att\.?"
    r"|abraços|pozdrawiam|z poważaniem|с уважением|всего доброго|敬具|此致敬礼"
)

# Words of labels, headings and things that take the shapes of names: "Action Items:",
# "Standup Meeting 10:00", {"name": "Production Cluster"}.
_LABEL_WORDS = """
    action actions item items note notes step steps summary next root cause causes question
    questions issue issues plan plans criteria message messages error errors warning info
    debug trace details detail status update updates decision decisions risk risks context
    background goal goals scope result results team server servers service services cluster
    database build deploy deployment release version customer customers client clients user
    users system bot admin support meeting meetings agenda minutes open known key keys
    takeaways follow todo done review test tests report reports total date time subject
    title description type code number address phone email name account project product
    order invoice payment payments billing shipping delivery request response feature bug
    fix task tasks ticket incident alert alerts monitor job pipeline stage production
    staging prod dev main default primary secondary general random channel bank workspace
    welcome new old today tomorrow yesterday monday tuesday wednesday thursday friday
    saturday sunday january february march april may june july august september october
    november december morning afternoon evening night daily weekly monthly standup sync
    call calls office dept department division unit group inc corp ltd llc gmbh api app
    web cloud data file files folder config settings notifications security team's sir
    madam world everyone all there folks guys hr finance legal sales marketing engineering
    operations ops devops platform infra infrastructure backend frontend mobile
    connection refused failed failure timeout exception started stopped retry retrying
    health check worker process queue cache proxy gateway host node
"""
NOT_A_PERSON = frozenset(_LABEL_WORDS.split())

# Han words that take 様 or さん and are roles, not names: "担当者様", "会員様", "社長さん".
_HAN_ROLE_WORDS = """
    担当 担当者 会員 会員各位 社長 部長 課長 係長 店長 院長 所長 先生 皆 各位 関係者 利用者
    顧客 患者 御中 社員 職員 運営 事務局 管理者 作者 読者 神 王 仏 奥 旦那 大家
"""
HAN_ROLES = frozenset(_HAN_ROLE_WORDS.split())

# Labels of a person on forms in Swedish, Turkish, Russian, Vietnamese, Arabic, Spanish,
# French, German and English, before a colon: "Anställd:", "Müşteri:", "ФИО:", "Họ tên:",
# "الموظف:", "Trabajador/a:", "Astreinte :", "Angehörige:", "Parent/guardian:".
FORM_LABELS = (
    r"anställd|elev|vårdnadshavare|anhörig|namn|kund|kontaktperson|sökande|hyresgäst"
    r"|handläggare|müşteri|sürücü|ad soyad|adı soyadı|ad-soyad|hasta(?: adı)?|çalışan|personel"
    r"|sigortalı|başvuran|yetkili|ilgili kişi|isim|alıcı|gönderen|sorumlu|фио|пациент(?:ка)?"
    r"|сотрудник|клиент|заявитель|ответственный|контактное лицо|получатель|отправитель"
    r"|работник|họ tên(?: người bệnh| bệnh nhân)?|họ và tên|bệnh nhân|nhân viên|người yêu cầu"
    r"|liên hệ|khách hàng|người nhận|người liên hệ|người bệnh|الاسم|اسم المريض|الموظف|المسؤول"
    r"|المريض|العميل|اسم العميل|الاسم الكامل|مقدم الطلب|المستفيد|trabajador(?:/a|a)?|titular"
    r"|astreinte|patiente?|salariée?|angehörige[rn]?|student|parent/guardian|guardian"
    r"|organi[sz]er|on-call|next of kin|patient|employee"
)

# Korean labels, with or without a colon: "환자명: 최도윤", "보호자: 장예준", "받는 사람 장하은".
KOREAN_LABELS = r"이름|성명|환자명?|보호자|담당자?|고객명?|수령인|신청인|받는 ?사람|직원"

# Phrases of running text before a name: "review with Jane Doe", "escalate to Jane Doe",
# "avisar a", "Yedek sorumlusu", "спросить у".
NAME_AFTER = (
    r"review with|meeting with|call with|sync with|1:1 with|lunch with|interview with"
    r"|escalate to|reach out to|avisar a|contactar (?:a|con)|preguntar a|hablar con"
    r"|sorumlusu|спросить у|уточнить у|узнать у|обратиться к|согласовать с"
)

# Street types after the name in Turkish addresses: "İstiklal Cad. No:29/3".
TR_STREET_TYPES = r"Cad\.|Caddesi|Cd\.|Sok\.|Sokak|Sokağı|Sk\.|Bulvarı|Blv\.|Yolu"

# Russian street types, before or after the name: "ул. Садовая", "Невский пр.", "ш. Энтузиастов".
RU_STREET_TYPES = (
    r"ул\.|улица|пр\.|пр-т|проспект|пер\.|переулок|ш\.|шоссе|наб\.|набережная|бульвар|б-р"
    r"|пл\.|площадь"
)

# Keys and XML elements whose value is a person's name in records and API bodies:
# {"holder": ...}, <fullName>, "beneficiary", "accountHolderName", "payee".
FIELD_KEYS = (
    r"holder|holder_?name|account_?holder(?:_?name)?|card_?holder(?:_?name)?|beneficiary"
    r"|beneficiary_?name|full_?name|legal_?name|person_?name|customer_?name|client_?name"
    r"|patient_?name|contact_?name|payee|payee_?name|payer_?name|debtor_?name|creditor_?name"
    r"|guarantor|policy_?holder|insured_?name|next_?of_?kin|emergency_?contact_?name"
    r"|passenger_?name|guest_?name|tenant_?name|employee_?name|recipient_?name|sender_?name"
    r"|owner_?name|display_?name|given_?names?|family_?name|first_?name|last_?name|surname"
    r"|nombre_?completo|nome_?completo|nom_?complet|vollst(?:ä|ae)ndiger_?name|kontoinhaber"
    r"|beg(?:ü|ue)nstigter|empf(?:ä|ae)nger(?:_?name)?|titular|titulaire|b(?:é|e)n(?:é|e)ficiaire"
    r"|beneficiario|destinatario|ordenante|remitente|odbiorca|p(?:ř|r)(?:í|i)jemce|saaja"
    r"|vastaanottaja|penerima|nama_?lengkap|получатель|отримувач|δικαιούχος|מוטב|ผู้รับ|收款人"
    r"|户名|戶名|受取人|名義人"
)

# Labels of a person's full name on forms, with ":" or "=": "Nama lengkap :", "שם מלא =",
# "Nume și prenume:", "ПІБ:", "ชื่อ-นามสกุล :", "Ονοματεπώνυμο:", "Jméno a příjmení:".
FULL_NAME_LABELS = (
    r"nama lengkap|nama|שם מלא|שם המטופל|שם הלקוח|nome completo|nome e cognome|nom et prénom"
    r"|nom complet|nume și prenume|nume si prenume|numele complet|nombre completo"
    r"|nombre y apellidos"
    r"|氏名|姓名|お名前|піб|прізвище,? ім['’]я(?: та по батькові)?|ім['’]я|прізвище"
    r"|ชื่อ-นามสกุล|ชื่อ-สกุล|ชื่อและนามสกุล|ονοματεπώνυμο|ονοματεπωνυμο|jméno a příjmení"
    r"|jméno|příjmení|koko nimi|nimi|täydellinen nimi|vollständiger name|owner|holder"
    r"|account holder|beneficiary|(?:as shown on your [\p{L} ]{0,30}return\))"
)

# Role words that stand before a name with or without a colon: "customer Doe, Jane",
# "zákazník Jane Doe", "πελάτης:", "לקוח:", "pasien", "ผู้ป่วย", "asiakas:".
ROLE_WORDS = (
    r"customer|client|cliente|klient|klientka|zákazník|zákaznice|πελάτης|πελάτισσα|ασθενής"
    r"|לקוח|לקוחה|מטופל|מטופלת|pasien|pelanggan|nasabah|asiakas|potilas|ผู้ป่วย|ลูกค้า"
    r"|клієнт|клієнтка|пацієнт|пацієнтка|pacient|pacientka|pacientul|pacienta|clientul|clienta"
    r"|klant|kund|kunde|kundin|müşteri|hasta|ügyfél|beteg|klientas|pacientas|klients|pacients"
)

# Labels of a note or memo: the name after one is the person the note is about.
NOTE_LABELS = (
    r"note|notes|memo|notiz|nota|notă|poznámka|muistiinpano|muistio|нотатка|заметка|примітка"
    r"|σημείωση|הערה|catatan|บันทึก|备注|備註|メモ|備考|opmerking|anteckning"
)

# Labels of a list of people: "Attendees:", "Teilnehmer:", "Osallistujat:", "参加者："
LIST_LABELS = (
    r"attendees|participants|present|invitees|teilnehmer|teilnehmende|anwesend|présents"
    r"|participantes|asistentes|partecipanti|presenti|deelnemers|aanwezig|osallistujat|läsnä"
    r"|účastníci|přítomni|participanți|participanti|prezenți|συμμετέχοντες|παρόντες|учасники"
    r"|присутні|участники|присутствуют|משתתפים|נוכחים|peserta|hadir|ผู้เข้าร่วม|参加者|出席者"
    r"|参会人员|参会人|与会者|出席人员"
)

# Phrases before a name and the phone number to call it on: "call back: Jane Doe (050 ...)".
CALL_BACK = (
    r"call back|callback|soita takaisin|soita|rappeler|zurückrufen|rückruf an|devolver llamada a"
    r"|llamar a|ligar para|richiamare|terugbellen|oddzwonić do|zavolat|sunați|telepon"
    r"|перезвонити|передзвонити|перезвонить|לחזור אל|לחזור ל|התקשר ל|โทรกลับ|回电|回電|折り返し"
)

# Thanks before a name: "Thanks Jane Doe — ...".
THANKS = r"thanks|thank you|thx|danke|merci|gracias|obrigad[oa]|grazie|kiitos|děkuji|mulțumesc"

# Keys of a street address in JSON and API bodies.
ADDRESS_KEYS = (
    r"street|street_?address|street_?line_?\d?|address_?line_?\d?|postal_?address|home_?address"
    r"|mailing_?address|billing_?address|shipping_?address|residential_?address|adresse|anschrift"
    r"|strasse|straße|alamat|domiciliu|adresa|адреса|адрес|ที่อยู่|כתובת|διεύθυνση|osoite"
    r"|katuosoite|endereço|endereco|dirección|direccion|indirizzo|住所|地址"
)

# Words of a header naming a name column in CSV files, lower case.
NAME_COLUMNS = (
    "name",
    "nimi",
    "nume",
    "jméno",
    "nama",
    "ονοματεπώνυμο",
    "όνομα",
    "піб",
    "имя",
    "שם",
    "ชื่อ",
    "姓名",
    "氏名",
    "nombre",
    "nome",
    "naam",
    "namn",
    "imię",
    "isim",
)

# Street types after the name in Hungarian, Latvian, Lithuanian, Estonian and South
# Slavic addresses: "Kossuth Lajos utca 12", "Brīvības iela 40", "Gedimino pr. 9",
# "Pärnu mnt 12", "Ilica ulica 5", "Slovenska cesta 3".
SUFFIX_STREET_TYPES = (
    r"utca|u\.|út|útja|körút|krt\.|tér|iela|gatvė|g\.|prospektas|pr\.|tänav|tn\.?"
    r"|maantee|mnt\.?|puiestee|pst\.?|ulica|ul\.|cesta|bulevar|trg"
)

# Labels of an address on forms and in notes, opening a line.
ADDRESS_LABELS = (
    r"address|home address|postal address|street address|mailing address|adresse|anschrift"
    r"|wohnadresse|alamat|domiciliu|adresa|adres|adrese|адреса|адрес|ที่อยู่|כתובת|διεύθυνση"
    r"|osoite|endereço|dirección|domicilio|indirizzo|住所|地址|cím|lakcím"
)
