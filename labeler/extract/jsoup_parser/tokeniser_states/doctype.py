"""The DOCTYPE states: Doctype, BeforeDoctypeName, DoctypeName, AfterDoctypeName, the PUBLIC /
SYSTEM keyword and identifier states, and BogusDoctype.

``<!DOCTYPE`` followed by a non-space drops that character (for an astral character, one
UTF-16 unit, as Java).

Follows jsoup 1.15.3's TokeniserState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

import re

from ..reader import EOF_CHAR, CharacterReader
from ..tokeniser import Tokeniser
from .state import (
    NUL,
    REPL,
    WS,
    AfterDoctypeName,
    AfterDoctypePublicIdentifier,
    AfterDoctypePublicKeyword,
    AfterDoctypeSystemIdentifier,
    AfterDoctypeSystemKeyword,
    BeforeDoctypeName,
    BeforeDoctypePublicIdentifier,
    BeforeDoctypeSystemIdentifier,
    BetweenDoctypePublicAndSystemIdentifiers,
    BogusDoctype,
    Data,
    Doctype,
    DoctypeName,
    DoctypePublicIdentifier_doubleQuoted,
    DoctypePublicIdentifier_singleQuoted,
    DoctypeSystemIdentifier_doubleQuoted,
    DoctypeSystemIdentifier_singleQuoted,
    State,
    _run_below_split,
)

# Runs of characters that a per-character state would handle one by one with the same
# branch; only taken below the reader's window split (``_run_below_split``), so skipping them
# in one go cannot change when the window slides. Speed only.
_DOCTYPE_NAME_RUN = re.compile("[^\t\n\r\f >\x00\uffff]*")
_DOCTYPE_ID_RUN = {
    '"': re.compile('[^">\x00\uffff]*'),
    "'": re.compile("[^'>\x00\uffff]*"),
}
_BOGUS_DOCTYPE_RUN = re.compile("[^>\uffff]*")


def _doctype(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c in WS:
        t.state = BeforeDoctypeName
    elif c == EOF_CHAR or c == ">":
        t.create_doctype_pending()
        t.doctype_pending.force_quirks = True
        t.emit_doctype_pending()
        t.state = Data
    elif c > "\uffff":
        # Java drops one UTF-16 unit, the high surrogate; BeforeDoctypeName then starts the
        # name with the low surrogate (its "anything else" branch)
        t.create_doctype_pending()
        t.doctype_pending.name = chr(0xDC00 + ((ord(c) - 0x10000) & 0x3FF))
        t.state = DoctypeName
    else:  # the character is dropped
        t.state = BeforeDoctypeName


def _before_doctype_name(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches_ascii_alpha():
        t.create_doctype_pending()
        t.state = DoctypeName
        return
    c = r.consume()
    if c in WS:
        return
    d = t.doctype_pending
    if c == NUL:
        t.create_doctype_pending()
        d.name += REPL
        t.state = DoctypeName
    elif c == EOF_CHAR:
        t.create_doctype_pending()
        d.force_quirks = True
        t.emit_doctype_pending()
        t.state = Data
    else:  # including '>'
        t.create_doctype_pending()
        d.name += c
        t.state = DoctypeName


def _doctype_name(t: Tokeniser, r: CharacterReader) -> None:
    d = t.doctype_pending
    if r.matches_letter():
        d.name += r.consume_letter_sequence()
        return
    c = r.consume()
    if c == ">":
        t.emit_doctype_pending()
        t.state = Data
    elif c in WS:
        t.state = AfterDoctypeName
    elif c == NUL:
        d.name += REPL
    elif c == EOF_CHAR:
        d.force_quirks = True
        t.emit_doctype_pending()
        t.state = Data
    else:
        d.name += c + _run_below_split(r, _DOCTYPE_NAME_RUN)


def _after_doctype_name(t: Tokeniser, r: CharacterReader) -> None:
    d = t.doctype_pending
    if r.is_empty():
        d.force_quirks = True
        t.emit_doctype_pending()
        t.state = Data
        return
    if r.matches_any(WS):
        r.advance()
    elif r.matches(">"):
        t.emit_doctype_pending()
        t.advance_transition(Data)
    elif r.match_consume_ignore_case("PUBLIC"):
        d.pub_sys_key = "PUBLIC"
        t.state = AfterDoctypePublicKeyword
    elif r.match_consume_ignore_case("SYSTEM"):
        d.pub_sys_key = "SYSTEM"
        t.state = AfterDoctypeSystemKeyword
    else:
        d.force_quirks = True
        t.advance_transition(BogusDoctype)


def _quirks_emit(t: Tokeniser) -> None:
    t.doctype_pending.force_quirks = True
    t.emit_doctype_pending()
    t.state = Data


def _after_doctype_keyword(
    t: Tokeniser, r: CharacterReader, before: State, double: State, single: State
) -> None:
    """AfterDoctypePublicKeyword / AfterDoctypeSystemKeyword (differ only in ``default``)."""
    c = r.consume()
    if c in WS:
        t.state = before
    elif c == '"':
        t.state = double
    elif c == "'":
        t.state = single
    elif c == ">" or c == EOF_CHAR:
        _quirks_emit(t)
    elif before is BeforeDoctypePublicIdentifier:
        t.doctype_pending.force_quirks = True
        t.state = BogusDoctype
    else:  # AfterDoctypeSystemKeyword: emits, stays in this state
        t.doctype_pending.force_quirks = True
        t.emit_doctype_pending()


def _after_doctype_public_keyword(t: Tokeniser, r: CharacterReader) -> None:
    _after_doctype_keyword(
        t,
        r,
        BeforeDoctypePublicIdentifier,
        DoctypePublicIdentifier_doubleQuoted,
        DoctypePublicIdentifier_singleQuoted,
    )


def _after_doctype_system_keyword(t: Tokeniser, r: CharacterReader) -> None:
    _after_doctype_keyword(
        t,
        r,
        BeforeDoctypeSystemIdentifier,
        DoctypeSystemIdentifier_doubleQuoted,
        DoctypeSystemIdentifier_singleQuoted,
    )


def _before_doctype_identifier(
    t: Tokeniser, r: CharacterReader, double: State, single: State
) -> None:
    c = r.consume()
    if c in WS:
        return
    if c == '"':
        t.state = double
    elif c == "'":
        t.state = single
    elif c == ">" or c == EOF_CHAR:
        _quirks_emit(t)
    else:
        t.doctype_pending.force_quirks = True
        t.state = BogusDoctype


def _before_doctype_public_identifier(t: Tokeniser, r: CharacterReader) -> None:
    _before_doctype_identifier(
        t, r, DoctypePublicIdentifier_doubleQuoted, DoctypePublicIdentifier_singleQuoted
    )


def _before_doctype_system_identifier(t: Tokeniser, r: CharacterReader) -> None:
    _before_doctype_identifier(
        t, r, DoctypeSystemIdentifier_doubleQuoted, DoctypeSystemIdentifier_singleQuoted
    )


def _doctype_identifier(t: Tokeniser, r: CharacterReader, quote: str, public: bool) -> None:
    c = r.consume()
    d = t.doctype_pending
    if c == quote:
        t.state = AfterDoctypePublicIdentifier if public else AfterDoctypeSystemIdentifier
    elif c == ">" or c == EOF_CHAR:
        _quirks_emit(t)
    else:
        if c == NUL:
            c = REPL
        c += _run_below_split(r, _DOCTYPE_ID_RUN[quote])
        if public:
            d.public_identifier += c
        else:
            d.system_identifier += c


def _doctype_public_identifier_double_quoted(t: Tokeniser, r: CharacterReader) -> None:
    _doctype_identifier(t, r, '"', True)


def _doctype_public_identifier_single_quoted(t: Tokeniser, r: CharacterReader) -> None:
    _doctype_identifier(t, r, "'", True)


def _doctype_system_identifier_double_quoted(t: Tokeniser, r: CharacterReader) -> None:
    _doctype_identifier(t, r, '"', False)


def _doctype_system_identifier_single_quoted(t: Tokeniser, r: CharacterReader) -> None:
    _doctype_identifier(t, r, "'", False)


def _after_doctype_public_identifier(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c in WS:
        t.state = BetweenDoctypePublicAndSystemIdentifiers
    else:
        _between_doctype_ids(t, c)


def _between_doctype_public_and_system_identifiers(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c not in WS:
        _between_doctype_ids(t, c)


def _between_doctype_ids(t: Tokeniser, c: str) -> None:
    if c == ">":
        t.emit_doctype_pending()
        t.state = Data
    elif c == '"':
        t.state = DoctypeSystemIdentifier_doubleQuoted
    elif c == "'":
        t.state = DoctypeSystemIdentifier_singleQuoted
    elif c == EOF_CHAR:
        _quirks_emit(t)
    else:
        t.doctype_pending.force_quirks = True
        t.state = BogusDoctype


def _after_doctype_system_identifier(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c in WS:
        return
    if c == ">":
        t.emit_doctype_pending()
        t.state = Data
    elif c == EOF_CHAR:
        _quirks_emit(t)
    else:  # NOT force quirks
        t.state = BogusDoctype


def _bogus_doctype(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == ">" or c == EOF_CHAR:
        t.emit_doctype_pending()
        t.state = Data
    else:  # ignored, as are the following ordinary characters
        _run_below_split(r, _BOGUS_DOCTYPE_RUN)


# --- wiring ---

Doctype.read = _doctype
BeforeDoctypeName.read = _before_doctype_name
DoctypeName.read = _doctype_name
AfterDoctypeName.read = _after_doctype_name
AfterDoctypePublicKeyword.read = _after_doctype_public_keyword
BeforeDoctypePublicIdentifier.read = _before_doctype_public_identifier
DoctypePublicIdentifier_doubleQuoted.read = _doctype_public_identifier_double_quoted
DoctypePublicIdentifier_singleQuoted.read = _doctype_public_identifier_single_quoted
AfterDoctypePublicIdentifier.read = _after_doctype_public_identifier
BetweenDoctypePublicAndSystemIdentifiers.read = _between_doctype_public_and_system_identifiers
AfterDoctypeSystemKeyword.read = _after_doctype_system_keyword
BeforeDoctypeSystemIdentifier.read = _before_doctype_system_identifier
DoctypeSystemIdentifier_doubleQuoted.read = _doctype_system_identifier_double_quoted
DoctypeSystemIdentifier_singleQuoted.read = _doctype_system_identifier_single_quoted
AfterDoctypeSystemIdentifier.read = _after_doctype_system_identifier
BogusDoctype.read = _bogus_doctype
