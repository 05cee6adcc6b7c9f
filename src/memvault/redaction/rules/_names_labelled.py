"""Detection rules for person names after a label on forms and in notes: role labels
("Owner:", "Salarié :", "社員："), form labels in Swedish, Turkish, Russian, Vietnamese,
Arabic and Korean ("Anställd:", "Müşteri:", "ФИО:", "환자명:"), full-name labels and
role words in many languages ("Nama lengkap :", "customer Doe, Jane"), the person a
note is about, and lists of attendees.

The labels are RE2 alternations of the words forms use, in the languages the filter
reads; "Last, First" forms and Hebrew, Thai and CJK names count after them.
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from ._fragments import ANY_NAME, FAMILY_GIVEN, LATIN_WORD, NAME, NAME_END, RECORD_END, TWO_WORDS

# Labels of a person on forms in Swedish, Turkish, Russian, Vietnamese, Arabic, Spanish,
# French, German and English, before a colon: "Anställd:", "Müşteri:", "ФИО:", "Họ tên:",
# "الموظف:", "Trabajador/a:", "Astreinte :", "Angehörige:", "Parent/guardian:".
_FORM_LABELS = (
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
_KOREAN_LABELS = r"이름|성명|환자명?|보호자|담당자?|고객명?|수령인|신청인|받는 ?사람|직원"
# Labels of a person's full name on forms, with ":" or "=": "Nama lengkap :", "שם מלא =",
# "Nume și prenume:", "ПІБ:", "ชื่อ-นามสกุล :", "Ονοματεπώνυμο:", "Jméno a příjmení:".
_FULL_NAME_LABELS = (
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
_ROLE_WORDS = (
    r"customer|client|cliente|klient|klientka|zákazník|zákaznice|πελάτης|πελάτισσα|ασθενής"
    r"|לקוח|לקוחה|מטופל|מטופלת|pasien|pelanggan|nasabah|asiakas|potilas|ผู้ป่วย|ลูกค้า"
    r"|клієнт|клієнтка|пацієнт|пацієнтка|pacient|pacientka|pacientul|pacienta|clientul|clienta"
    r"|klant|kund|kunde|kundin|müşteri|hasta|ügyfél|beteg|klientas|pacientas|klients|pacients"
)
# Labels of a note or memo: the name after one is the person the note is about.
_NOTE_LABELS = (
    r"note|notes|memo|notiz|nota|notă|poznámka|muistiinpano|muistio|нотатка|заметка|примітка"
    r"|σημείωση|הערה|catatan|บันทึก|备注|備註|メモ|備考|opmerking|anteckning"
)
# Labels of a list of people: "Attendees:", "Teilnehmer:", "Osallistujat:", "参加者："
_LIST_LABELS = (
    r"attendees|participants|present|invitees|teilnehmer|teilnehmende|anwesend|présents"
    r"|participantes|asistentes|partecipanti|presenti|deelnemers|aanwezig|osallistujat|läsnä"
    r"|účastníci|přítomni|participanți|participanti|prezenți|συμμετέχοντες|παρόντες|учасники"
    r"|присутні|участники|присутствуют|משתתפים|נוכחים|peserta|hadir|ผู้เข้าร่วม|参加者|出席者"
    r"|参会人员|参会人|与会者|出席人员"
)
# Labels of a person's role, then the name: "Owner: Jane Doe", "Salarié : Jean Dupont",
# "Passenger: Doe, Jane", "社員：池田　彩花", "お客様（松本 康弘 様）", "先方担当：山口和也 部長".
_ROLE_LABEL = (
    r"(?:(?m:^)|[^\p{L}])(?:(?i:name|owner|lead|colleague|colaborador|colaboradora|salarié"
    r"|salariée|employé|employée|empleado|empleada|funcionário|funcionária|pt|passenger"
    r"|guest name|primary contact|point of contact|poc|approved by|signed by|passager|passagère"
    r"|passeggero|passeggera|pasajero|pasajera|contraente|assicurat[oa]|asegurad[oa](?:/a)?"
    r"|tomador|titular|bill to|ship to|sold to|aan|cognome e nome|nome e cognome"
    r"|(?:name|nachname), vorname|apellidos y nombre|nom et prénom)[ \t]*[:：]"
    r"|(?:员工|職員|职员|社員|従業員|用户|利用者|(?:先方)?担当者?|お客様|患者様?)"
    r"(?:[ \t]*[:：(][ \t]*|[ \t]+))[ \t]*"
    r"(?P<value>" + LATIN_WORD + r", " + LATIN_WORD + r"|" + NAME + r")" + NAME_END
)
_ROLE_CUE = (
    r"(?i:name|owner|lead|colleague|colaborador|salari\p{L}*|employ\p{L}*|empleado|funcion\p{L}*|pt|passenger"
    r"|contact|poc|approved by|signed by|passag\p{L}*|passegger[oa]|pasajer[oa]|contraente"
    r"|assicurat[oa]|asegurad[oa](?:/a)?|tomador|titular|to|aan|nome|vorname|nombre|prénom)"
    r"[ \t]*[:：]|员工|職員|职员|社員|従業員|用户|利用者"
    r"|担当|お客様|患者"
)
# "Anställd: Lindqvist, Gustav", "Müşteri: Çelik, Mehmet", "ФИО: ...", "Họ tên: Đỗ Bích Ngọc",
# "الموظف: نورة السويدي", "Patient: KINGSBURY, Fiona", "환자명: 최도윤", "받는 사람 장하은".
_FORM_LABEL = (
    r"(?:(?m:^)|[^\p{L}])(?:(?i:" + _FORM_LABELS + r")[ \t]*[:：]"
    r"|(?:" + _KOREAN_LABELS + r")(?:[ \t]*[:：]|[ \t]))[ \t]*"
)
_FORM_NAME = (
    _FORM_LABEL + r"(?P<value>" + FAMILY_GIVEN + r"|" + TWO_WORDS + r"|\p{Hangul}{2,}?"
    r"|\p{Arabic}+(?: \p{Arabic}+){1,3})" + NAME_END
)
# A title before the name, in Czech, Polish, Indonesian, Greek and Thai: "pan", "ibu", "κ.".
_HONORIFIC = r"(?:(?i:pan/paní|pan|paní|pani|bapak|ibu|pak|bu|κ\.|κος|κα) |คุณ)?"
# "Nama lengkap : Jane Doe", "- שם מלא = ...", "customer Doe, Jane", "πελάτης: ...",
# "Poznámka: pan/paní Jane Doe", "(as shown on your income tax return):  Jane Doe"
_LABELLED = (
    r"(?:(?m:^)|[^\p{L}])(?:(?i:" + _FULL_NAME_LABELS + r")[ \t]*(?:[:：=]|\.{3,})"
    r"|(?i:"
    + _ROLE_WORDS
    + r")[ \t]*[:：])[ \t]*"
    + _HONORIFIC
    + r"(?P<value>"
    + ANY_NAME
    + r")(?:"
    + RECORD_END
    + r"|[ \t]+\p{Ll})"
)
# Without a colon a role word is as often running text ("לקוח חדש נרשם."), so the name
# must end at a comma, a dash, a bracket or the line, or before a lower-case word.
_ROLE_BARE = (
    r"(?:(?m:^)|[^\p{L}])(?i:"
    + _ROLE_WORDS
    + r")[ \t]+(?:[—–\-][ \t]+)?"
    + _HONORIFIC
    + r"(?P<value>"
    + ANY_NAME
    + r")(?:[ \t]*(?:[,，—–(]|\r?(?m:$))|[ \t]+\p{Ll})"
)
# A note, then a name the note is about: "Muistiinpano: Jane Doe (hetu ...)",
# "Нотатка: Jane Doe, РНОКПП ...", "备注：梁志强（身份证号", "メモ：清水 彩花様（".
_NOTE = (
    r"(?:(?m:^)|[^\p{L}])(?i:" + _NOTE_LABELS + r")[ \t]*[:：][ \t]*"
    r"(?:(?i:pan/paní|pan|paní|pani|pelanggan|klien|asiakas) |คุณ)?"
    r"(?P<value>" + ANY_NAME + r")"
    r"(?:[ \t]*\([^)\r\n]{0,16}\d[\d \-/.]{5,}|, ?\p{Lu}{2,}\.?[ \t]*\d|様|さん"
    r"|[ \t]+\p{Thai})"
)
# "Attendees: Jane Doe, Doe, John" and the like: the whole list is one finding.
_LIST = (
    r"(?:(?m:^)|[^\p{L}])(?i:" + _LIST_LABELS + r")[ \t]*[:：][ \t]*"
    r"(?P<value>" + ANY_NAME + r"(?:(?:[ \t]*[,;、，][ \t]*| and )[^\r\n]{1,240}?)?)"
    r"[ \t]*\.?\r?(?m:$)"
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="person_name_role",
        kind="person_name",
        category="personal",
        pattern=_ROLE_LABEL,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=_ROLE_CUE,
        description="names after a role label ('Owner:', 'Salarié :', 'Passenger: Doe, "
        "Jane', '社員：', 'お客様（', '先方担当：')",
    ),
    Rule(
        name="person_name_form",
        kind="person_name",
        category="personal",
        pattern=_FORM_NAME,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _FORM_LABELS + r")[ \t]*[:：]|(?:" + _KOREAN_LABELS + r")[ \t:：]",
        description="names after form labels in Swedish, Turkish, Russian, Vietnamese, Arabic "
        "and Korean ('Anställd: Lindqvist, Gustav', 'Müşteri:', 'Họ tên:', 'الموظف:', '환자명:')",
    ),
    Rule(
        name="person_name_labelled",
        kind="person_name",
        category="personal",
        pattern=_LABELLED,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _FULL_NAME_LABELS + r"|" + _ROLE_WORDS + r")[ \t]*[:：=.]",
        description="names after full-name labels and role words in many languages, "
        "'Last, First' forms and Hebrew, Thai and CJK names ('Nama lengkap :', 'שם מלא =', "
        "'customer Doe, Jane', 'πελάτης:')",
    ),
    Rule(
        name="person_name_role_bare",
        kind="person_name",
        category="personal",
        pattern=_ROLE_BARE,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _ROLE_WORDS + r")[ \t]",
        description="names after a role word without a colon ('customer Doe, Jane', "
        "'zákazník Jane Doe', 'מטופל ...,')",
    ),
    Rule(
        name="person_name_note",
        kind="person_name",
        category="personal",
        pattern=_NOTE,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _NOTE_LABELS + r")[ \t]*[:：]",
        description="names a note is about, before the person's id or an honorific "
        "('Muistiinpano: Jane Doe (hetu ...)', '备注：梁志强（')",
    ),
    Rule(
        name="person_name_list",
        kind="person_name",
        category="personal",
        pattern=_LIST,
        validator=checks.name_list,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _LIST_LABELS + r")[ \t]*[:：]",
        description="lists of names after 'Attendees:', 'Teilnehmer:', '参加者：'",
    ),
)
