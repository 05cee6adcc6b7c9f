"""Detection rules for person names in chats and mail: speakers in transcripts, display
names before an address, authors of quoted mail, the writer after a closing, names
before an honorific, and mentions.

These rules run only where a literal cue occurs (a clock time, "<user@", "wrote:", a
closing), so text without one skips them at the price of one light pass. A name here
is two words or more in Latin script: one capitalised word before a colon or a time
is as often a label ("Status:", "Deploy 10:00").
"""

from __future__ import annotations

from .. import checks
from .._rule import Rule
from ._fragments import (
    ANY_NAME,
    CLOSINGS,
    FAMILY_GIVEN,
    LATIN_WORD,
    NAME_END,
    PARTICLE,
    SPEAKER,
    TWO_WORDS,
)

_CLOCK = r"\d{1,2}:\d\d(?::\d\d)?(?:[ \t]?[AaPp]\.?[Mm]\.?)?"
# [09:12] Name: / [12/3/25, 18:41] Name: / 03:40 - Name, 9/12/1974
_SPEAKER_AFTER_TIME = (
    r"(?:(?m:^)[ \t]*\[[^\]\n]{0,20}" + _CLOCK + r"\][ \t]*(?:[-–][ \t]*)?"
    r"|" + _CLOCK + r"[ \t]+[-–—][ \t]+)"
    r"(?P<value>" + SPEAKER + r")[ \t]*[:：,]"
)
# Teams: "[Gestern 16:05] Jane Doe" / "[9:14 AM] Jane Doe" as a header line of its own
_SPEAKER_HEADER = (
    r"(?m:^)[ \t]*\[[^\]\n]{0,20}" + _CLOCK + r"\][ \t]*(?P<value>" + SPEAKER + r")"
    r"[ \t]*\r?(?m:$)"
)
# Slack's "Name  10:14 AM" on a line of its own; "- Name (14:02) :"
_SPEAKER_BEFORE_TIME = (
    r"(?m:^)[ \t]*(?:[-*•][ \t]*|@)?(?P<value>" + SPEAKER + r")"
    r"(?:[ \t]+" + _CLOCK + r"[ \t]*\r?(?m:$)|[ \t]*[(\[]" + _CLOCK + r"[)\]][ \t]*[:：]"
    r"|,[ \t]*\[[\d./\-]{6,10},? " + _CLOCK + r"\][ \t]*\r?(?m:$))"
)
# A chat line with no time: "Name Surname: text" at the start of a line. Labels of two
# capitalized words ("Action Items:", "Root Cause:") are told apart by their words.
_SPEAKER_LINE = (
    r"(?m:^)[ \t]*(?P<value>" + TWO_WORDS + r"|[\p{Han}々]{1,3} [\p{Han}々]{1,3})"
    r"(?::[ \t]+|：[ \t]*)\S"
)
# "[10:02] Doe, Jane: hey" -- a chat speaker written family name first
_SPEAKER_FAMILY = (
    r"(?m:^)[ \t]*\[[^\]\r\n]{0,20}\d{1,2}:\d\d[^\]\r\n]{0,6}\][ \t]*"
    r"(?P<value>" + FAMILY_GIVEN + r"):"
)
# "Jane Doe" <jane@example.org>, From: Jane Doe <jane@...>: an RFC 5322 display name
_DISPLAY_NAME = r"(?:(?m:^)|[\s:：,;(\"'])\"?(?P<value>" + SPEAKER + r")\"?[ \t]*<[^<>@\s]+@"
# Quoted e-mail: "> On Wed, Jane Doe wrote:", "> 2025/03/21 清水杏 wrote:", "Op ... schreef X Y:"
_WROTE = (
    r"(?:(?m:^)|[\s,>])(?P<value>" + SPEAKER + r")[ \t]+(?:wrote|schreef|schrieb|a écrit"
    r"|escribió|ha scritto|escreveu|napisał|napisała|написала?)[ \t]*:"
)
# "> **Jane Doe** wrote:", "> **Doe, Jane** wrote:"
_BOLD_WROTE = (
    r"(?:(?m:^)|[\s>])\*\*(?P<value>" + ANY_NAME + r")\*\*[ \t]+(?:wrote|schreef|schrieb"
    r"|a écrit|escribió|ha scritto|escreveu|napisał|napisała|написала?|написав|napsal"
    r"|napsala|έγραψε|כתב|כתבה|menulis|kirjoitti|a scris|เขียน)[ \t]*:"
)
# Same-line closings: "Kind regards, Jane Doe", "Groet, Anouk Meijer" at the end of a line
_CLOSING = (
    r"(?m:^)[ \t]*(?i:" + CLOSINGS + r")[ \t]*,[ \t]*(?P<value>" + TWO_WORDS + r")"
    r"[ \t]*\.?\r?(?m:$)"
)
# Japanese and Chinese honorifics after a name: "木村大和様", "石川 凛さん、", "清水殿".
# Two to four Han characters open the line, so "皆様" and "お客様" are not names.
_HONORIFIC_AFTER = (
    r"(?m:^)[ \t]*(?P<value>[\p{Han}々]{2,4}|[\p{Han}々]{1,3} [\p{Han}々]{1,3})"
    r"(?:様|さん|殿|先生|くん|ちゃん|女士)"
)
# Mentions: "@Jane Doe", Jira's "[~Jane Doe]".
_MENTION = (
    r"(?:(?m:^)|[\s(])(?:@|\[~)(?P<value>"
    + LATIN_WORD
    + r" (?:"
    + PARTICLE
    + r" )?"
    + LATIN_WORD
    + r")(?:\]|"
    + NAME_END
    + r")"
)


RULES: tuple[Rule, ...] = (
    Rule(
        name="person_name_speaker",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_AFTER_TIME,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"\d:\d\d",
        description="speakers in chat transcripts after a time ('[09:12] Jane Doe:', "
        "'[12/3/25, 18:41] Jane Doe:') and names after a logged time ('03:40 - Jane Doe,')",
    ),
    Rule(
        name="person_name_speaker_time",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_BEFORE_TIME,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"\d:\d\d",
        description="speakers before a time: Slack's 'Jane Doe  10:14 AM', '- Jane Doe (14:02) :'",
    ),
    Rule(
        name="person_name_speaker_header",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_HEADER,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"\d:\d\d[^\]\n]{0,6}\] ?\S",
        description="speakers on a header line after a bracketed time (Teams: "
        "'[Gestern 16:05] Jane Doe', '[9:14 AM] Jane Doe')",
    ),
    Rule(
        name="person_name_speaker_line",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_LINE,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?::[ \t]+|：[ \t]*)\S",
        description="two or more capitalized words opening a line before a colon "
        "('Jane Doe: hi'), unless a word is a label's ('Action Items:')",
    ),
    Rule(
        name="person_name_speaker_family",
        kind="person_name",
        category="personal",
        pattern=_SPEAKER_FAMILY,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"\d:\d\d[^\]\n]{0,6}\] ?\p{Lu}",
        description="chat speakers written family name first ('[10:02] Doe, Jane:')",
    ),
    Rule(
        name="person_name_display",
        kind="person_name",
        category="personal",
        pattern=_DISPLAY_NAME,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"<[^<>@\s]+@",
        description="display names before an e-mail address ('From: Jane Doe <jane@...>')",
    ),
    Rule(
        name="person_name_wrote",
        kind="person_name",
        category="personal",
        pattern=_WROTE,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?:wrote|schreef|schrieb|écrit|escribió|scritto|escreveu|napisała?|написала?)[ \t]*:",
        description="authors of quoted mail ('On Wed, Jane Doe wrote:', "
        "'2025/03/21 清水杏 wrote:')",
    ),
    Rule(
        name="person_name_bold_wrote",
        kind="person_name",
        category="personal",
        pattern=_BOLD_WROTE,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"\*\*[ \t]+\S",
        description="authors of quoted mail in markdown bold ('> **Jane Doe** wrote:')",
    ),
    Rule(
        name="person_name_closing",
        kind="person_name",
        category="personal",
        pattern=_CLOSING,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?i:regards|wishes|cheers|thanks|sincerely|truly|best|groet|groeten|grüße|gruß"
        r"|cordialement|saludos?|atentamente|saluti|pozdrawiam|poważaniem|atenciosamente|abraços)"
        r"[ \t]*,[ \t]*\p{Lu}",
        description="names after a closing on the same line ('Kind regards, Jane Doe')",
    ),
    Rule(
        name="person_name_honorific_after",
        kind="person_name",
        category="personal",
        pattern=_HONORIFIC_AFTER,
        validator=checks.han_name,
        priority=3,
        gate="cues",
        cue=r"\p{Han}(?:様|さん|殿|先生|くん|ちゃん|女士)",
        description="Japanese and Chinese names opening a line before an honorific "
        "('木村大和様', '石川 凛さん', '李明女士')",
    ),
    Rule(
        name="person_name_mention",
        kind="person_name",
        category="personal",
        pattern=_MENTION,
        validator=checks.name_by_shape,
        priority=3,
        gate="cues",
        cue=r"(?:@|\[~)\p{Lu}\p{Ll}+ \p{Lu}",
        description="two-word mentions ('@Jane Doe', Jira's '[~Jane Doe]')",
    ),
)
