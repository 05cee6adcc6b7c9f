"""Detection rules for person names in records: values of person keys in JSON, YAML,
TOML, XML and SQL, FHIR and HL7 records, vCards and calendar entries, fields of CSV
rows and cells of tables.

A key, an element, a column header or a record's structure says the value is a
person's name; the value must still read as one (``checks._names``).
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from .._words import word_list
from ._fragments import ANY_NAME, FAMILY_GIVEN, LATIN_WORD, NAME, SPEAKER

# Keys and XML elements whose value is a person's name in records and API bodies:
# {"holder": ...}, <fullName>, "beneficiary", "accountHolderName", "payee".
_FIELD_KEYS = (
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
# Words of a CSV header that names a column of names.
_NAME_COLUMNS = word_list("name_columns.txt")
# {"name": "Jane Doe"}, name = "Jane Doe", owner: Jane Doe, tags = { Owner = "Jane Doe" }
_DATA_KEYS = (
    r"(?i:name|full_?name|display_?name|owner|holder|account_?holder|card_?holder|customer"
    r"|client|patient|contact|employee|assignee|author|reporter|requester|recipient|sender"
    r"|approver|reviewer|signatory|user_?name)"
)
_DATA_VALUE = (
    r"(?:(?m:^)|[\s{,;(\[\"'])[\"']?" + _DATA_KEYS + r"[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"(?P<value>" + SPEAKER + r"|" + LATIN_WORD + r", " + LATIN_WORD + r")"
    r"(?:[\"',;)}\]]|\.?[ \t]*\r?(?m:$)|[ \t]+\()"
)
# FHIR: "name": [{"use": "official", "text": "Jane Doe"}] (or "family"/"given" in the same object)
_FHIR_NAME = (
    r'"name"[ \t]*:[ \t]*\[[ \t\r\n]*\{[^{}\]]{0,120}"text"[ \t]*:[ \t]*"'
    r"(?P<value>" + SPEAKER + r')"'
)
# HL7 v2: the patient's name is PID-5, a next of kin's NK1-2, a guarantor's GT1-3,
# written FAMILY^GIVEN^MIDDLE: "PID|1||884215^^^NGH^MR||RANSOME^COLIN||19980504|F"
_HL7_PART = r"\p{Lu}[\p{L}'’\-]*(?: \p{Lu}[\p{L}'’\-]*)?"
_HL7_NAME = (
    r"(?m:^)(?:PID(?:\|[^|\r\n]*){4}|NK1\|[^|\r\n]*|GT1(?:\|[^|\r\n]*){2})\|"
    r"(?P<value>" + _HL7_PART + r"\^" + _HL7_PART + r"(?:\^" + _HL7_PART + r")?)[|^]"
)
# vCard and iCalendar: "FN:Jane Doe", "N:DOE, Jane;;;", "N:Doe;Jane;;;", "ORGANIZER;CN=Jane Doe:"
_VCARD_NAME = (
    r"(?:(?m:^)(?:FN|N)(?:;[^:\r\n]*)?:|;CN=\"?)(?P<value>"
    + FAMILY_GIVEN
    + r"|"
    + LATIN_WORD
    + r";"
    + LATIN_WORD
    + r"|\p{Lu}{2,};"
    + LATIN_WORD
    + r"|"
    + NAME
    + r")"
    r"(?:[\"';:,\r\n]|$)"
)
# iCalendar: "SUMMARY:1:1 Jane Doe", "SUMMARY:Lunch with Jane Doe". A call or meeting
# "with" names a company as often as a person, so only the personal kinds count.
_ICAL_SUMMARY = (
    r"(?m:^)SUMMARY(?:;[^:\r\n]*)?:(?:1:1|1-on-1|1on1|(?i:one-on-one|1:1 with|lunch with"
    r"|coffee with|interview with))[ \t]*(?:[:\-–][ \t]*)?"
    r"(?P<value>" + ANY_NAME + r")[ \t]*\r?(?m:$)"
)
# Rows of CSV or SQL values whose header names a person column (the rule's keywords):
# a field that is exactly a name, after at most three fields without spaces (ids).
_ROW_FIELD = (
    r"(?m:^)[ \t]*\(?(?:[\"']?[^,\s\"']*[\"']?,[ \t]*){0,3}[\"']?(?P<value>" + SPEAKER + r")"
    r"[\"']?[ \t]*,"
)
# A markdown table row: a cell that is a name, in a row that also holds an e-mail or phone.
_TABLE_CELL = r"\|[ \t]*(?P<value>" + SPEAKER + r")[ \t]*\|[^\n]*(?:@|\d[\d ()/.\-]{6,}\d)"
# Rows of CSV: a quoted name as one of the first fields, in a row that holds an e-mail
# address, or in a file whose header names a name column (the rule's keywords).
_CSV_QUOTED = r"(?m:^)(?:[^\"\r\n,;\t]*[,;\t]){0,4}\"(?P<value>" + ANY_NAME + r")\"[,;\t]"
_CSV_WITH_EMAIL = _CSV_QUOTED + r"[^\r\n]*@[\w\-]+\."
# psql output: " id | full_name | dob" over "----+-----", a cell in a row with an e-mail,
# a phone or a date.
_PSQL_CELL = r"\|[ \t]*(?P<value>" + ANY_NAME + r")[ \t]*\|[^\r\n]*(?:@|\d[\d ()/.\-]{5,}\d|\d年)"
# {"holder": "Jane Doe"}, \"beneficiary\":\"Doe, Jane\", <fullName>Jane Doe</fullName>,
# owner_name = "田中 さくら" (TOML, YAML),
# crm.lookup({"query": "Jane Doe"})
_FIELD = (
    r"(?:\\?[\"'](?i:" + _FIELD_KEYS + r")\\?[\"'][ \t]*[:=][ \t]*\\?[\"']"
    r"|(?m:^)[ \t]*(?i:" + _FIELD_KEYS + r")[ \t]*[:=][ \t]*[\"']"
    r"|<(?:[\w\-]+:)?(?i:" + _FIELD_KEYS + r")(?:[ \t][^<>]*)?>"
    r"|(?i:crm|customers?|contacts?|persons?|people|patients?|clients?|members?)"
    r"[._](?i:lookup|search|find)\w*\([ \t]*\{[ \t]*\"query\"[ \t]*:[ \t]*\")"
    r"[ \t]*(?P<value>" + ANY_NAME + r")[ \t]*(?:\\?[\"']|</)"
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="person_name_data",
        kind="person_name",
        category="personal",
        pattern=_DATA_VALUE,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:name|owner|holder|customer|client|patient|contact|employee|assignee|author"
        r"|reporter|requester|recipient|sender|approver|reviewer|signatory)[\"']?[ \t]*[:=]",
        description="names as values of person keys in JSON, YAML, TOML, HCL and SQL "
        "('\"name\": \"Jane Doe\"', 'owner: Jane Doe', \"holder = 'Jane Doe'\")",
    ),
    Rule(
        name="person_name_fhir",
        kind="person_name",
        category="personal",
        pattern=_FHIR_NAME,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r'"name"[ \t]*:[ \t]*\[',
        description='names in FHIR HumanName objects (\'"name": [{"text": "Jane Doe"}]\')',
    ),
    Rule(
        name="person_name_hl7",
        kind="person_name",
        category="personal",
        pattern=_HL7_NAME,
        keywords=("pid|", "nk1|", "gt1|"),
        validator=checks.hl7_name,
        priority=3,
        gate="keywords",
        description="names in HL7 v2 PID-5, NK1-2 and GT1-3 fields ('PID|1||884215||DOE^JANE||')",
    ),
    Rule(
        name="person_name_vcard",
        kind="person_name",
        category="personal",
        pattern=_VCARD_NAME,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?m:^)(?:FN|N)[;:]|;CN=",
        description="names in vCard FN and N lines and iCalendar CN parameters",
    ),
    Rule(
        name="person_name_ical_summary",
        kind="person_name",
        category="personal",
        pattern=_ICAL_SUMMARY,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?m:^)SUMMARY[;:]",
        description="names in iCalendar summaries of one-to-one meetings ('SUMMARY:1:1 Jane Doe')",
    ),
    Rule(
        name="person_name_row",
        kind="person_name",
        category="personal",
        pattern=_ROW_FIELD,
        keywords=(
            ",name",
            "name,",
            ",customer",
            "customer,",
            ",client",
            "client,",
            ",patient",
            "patient,",
            ",contact",
            "contact,",
            ",employee,",
            ", name",
            ", customer",
            ", client",
            ", patient",
            ",holder",
            "holder,",
            "name`,",
            "name`)",
            'name",',
        ),
        validator=checks.name_by_shape,
        priority=3,
        gate="keywords",
        description="names as fields of CSV rows and SQL values under a person column",
    ),
    Rule(
        name="person_name_table",
        kind="person_name",
        category="personal",
        pattern=_TABLE_CELL,
        keywords=("|---", "| ---", "|:--", "| :--"),
        validator=checks.name_by_shape,
        priority=3,
        gate="keywords",
        description="names in markdown table cells, in rows that hold an e-mail or a phone",
    ),
    Rule(
        name="person_name_csv_email",
        kind="person_name",
        category="personal",
        pattern=_CSV_WITH_EMAIL,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"\"[,;\t][^\r\n]*@",
        description="quoted names as fields of CSV rows that hold an e-mail address",
    ),
    Rule(
        name="person_name_csv_quoted",
        kind="person_name",
        category="personal",
        pattern=_CSV_QUOTED,
        keywords=_NAME_COLUMNS,
        validator=checks.name_by_shape,
        priority=3,
        gate="keywords",
        description="quoted names as fields of CSV rows under a name column",
    ),
    Rule(
        name="person_name_psql",
        kind="person_name",
        category="personal",
        pattern=_PSQL_CELL,
        keywords=("-+-",),
        validator=checks.name_by_shape,
        priority=3,
        gate="keywords",
        description="names in cells of psql result tables, in rows with an e-mail, phone or date",
    ),
    Rule(
        name="person_name_field",
        kind="person_name",
        category="personal",
        pattern=_FIELD,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:" + _FIELD_KEYS + r")\\?[\"']?[ \t]*[:=>]|(?i:lookup|search|find)\w*\(",
        description="names as values of person keys and elements in JSON and XML, escaped "
        "JSON and CRM look-ups ('\"holder\": \"Doe, Jane\"', '<fullName>Jane Doe</fullName>')",
    ),
)
