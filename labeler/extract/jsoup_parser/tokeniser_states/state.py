"""The tokeniser states as objects, and what their modules share.

Follows jsoup 1.15.3's TokeniserState (MIT licence, (c) Jonathan Hedley).
Each state is a ``State`` whose ``read(t, r)`` does one step, as jsoup's enum constants do.
All the states are created here, before any state function exists, so each state module can
name the states it transitions to as plain module globals (no import cycle, no lookup through
``TokeniserState``); each module then sets ``read`` on the states it holds. Java switches on a
``char`` where ``(char) -1`` is EOF: ``EOF_CHAR`` (U+FFFF) here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..reader import CharacterReader
from ..tokeniser import Tokeniser

NUL = "\x00"
REPL = "\ufffd"
WS = "\t\n\r\f "

ReadFn = Callable[[Tokeniser, CharacterReader], None]


def _unwired(t: Tokeniser, r: CharacterReader) -> None:
    raise AssertionError("a tokeniser state read before its module set its read function")


class State:
    """One tokeniser state: ``read(t, r)`` performs one step (set by the state's module)."""

    __slots__ = ("name", "read")

    def __init__(self, name: str, read: ReadFn = _unwired) -> None:
        self.name = name
        self.read = read

    def __repr__(self) -> str:
        return f"TokeniserState.{self.name}"


def _run_below_split(r: CharacterReader, pattern: re.Pattern[str]) -> str:
    """Consumes and returns the run of ``pattern`` at the reader's position, stopping at the
    window split (characters a per-character state would take one by one with the same
    branch; speed only)."""
    pos = r.pos
    m = pattern.match(r.s, pos, min(r.split, r.end))
    if m is None:
        return ""
    r.pos = m.end()
    return m.group()


# --- the states under jsoup's names ---

Data = State("Data")
CharacterReferenceInData = State("CharacterReferenceInData")
Rcdata = State("Rcdata")
CharacterReferenceInRcdata = State("CharacterReferenceInRcdata")
Rawtext = State("Rawtext")
ScriptData = State("ScriptData")
PLAINTEXT = State("PLAINTEXT")
TagOpen = State("TagOpen")
EndTagOpen = State("EndTagOpen")
TagName = State("TagName")
RcdataLessthanSign = State("RcdataLessthanSign")
RCDATAEndTagOpen = State("RCDATAEndTagOpen")
RCDATAEndTagName = State("RCDATAEndTagName")
RawtextLessthanSign = State("RawtextLessthanSign")
RawtextEndTagOpen = State("RawtextEndTagOpen")
RawtextEndTagName = State("RawtextEndTagName")
ScriptDataLessthanSign = State("ScriptDataLessthanSign")
ScriptDataEndTagOpen = State("ScriptDataEndTagOpen")
ScriptDataEndTagName = State("ScriptDataEndTagName")
ScriptDataEscapeStart = State("ScriptDataEscapeStart")
ScriptDataEscapeStartDash = State("ScriptDataEscapeStartDash")
ScriptDataEscaped = State("ScriptDataEscaped")
ScriptDataEscapedDash = State("ScriptDataEscapedDash")
ScriptDataEscapedDashDash = State("ScriptDataEscapedDashDash")
ScriptDataEscapedLessthanSign = State("ScriptDataEscapedLessthanSign")
ScriptDataEscapedEndTagOpen = State("ScriptDataEscapedEndTagOpen")
ScriptDataEscapedEndTagName = State("ScriptDataEscapedEndTagName")
ScriptDataDoubleEscapeStart = State("ScriptDataDoubleEscapeStart")
ScriptDataDoubleEscaped = State("ScriptDataDoubleEscaped")
ScriptDataDoubleEscapedDash = State("ScriptDataDoubleEscapedDash")
ScriptDataDoubleEscapedDashDash = State("ScriptDataDoubleEscapedDashDash")
ScriptDataDoubleEscapedLessthanSign = State("ScriptDataDoubleEscapedLessthanSign")
ScriptDataDoubleEscapeEnd = State("ScriptDataDoubleEscapeEnd")
BeforeAttributeName = State("BeforeAttributeName")
AttributeName = State("AttributeName")
AfterAttributeName = State("AfterAttributeName")
BeforeAttributeValue = State("BeforeAttributeValue")
AttributeValue_doubleQuoted = State("AttributeValue_doubleQuoted")
AttributeValue_singleQuoted = State("AttributeValue_singleQuoted")
AttributeValue_unquoted = State("AttributeValue_unquoted")
AfterAttributeValue_quoted = State("AfterAttributeValue_quoted")
SelfClosingStartTag = State("SelfClosingStartTag")
BogusComment = State("BogusComment")
MarkupDeclarationOpen = State("MarkupDeclarationOpen")
CommentStart = State("CommentStart")
CommentStartDash = State("CommentStartDash")
Comment = State("Comment")
CommentEndDash = State("CommentEndDash")
CommentEnd = State("CommentEnd")
CommentEndBang = State("CommentEndBang")
Doctype = State("Doctype")
BeforeDoctypeName = State("BeforeDoctypeName")
DoctypeName = State("DoctypeName")
AfterDoctypeName = State("AfterDoctypeName")
AfterDoctypePublicKeyword = State("AfterDoctypePublicKeyword")
BeforeDoctypePublicIdentifier = State("BeforeDoctypePublicIdentifier")
DoctypePublicIdentifier_doubleQuoted = State("DoctypePublicIdentifier_doubleQuoted")
DoctypePublicIdentifier_singleQuoted = State("DoctypePublicIdentifier_singleQuoted")
AfterDoctypePublicIdentifier = State("AfterDoctypePublicIdentifier")
BetweenDoctypePublicAndSystemIdentifiers = State("BetweenDoctypePublicAndSystemIdentifiers")
AfterDoctypeSystemKeyword = State("AfterDoctypeSystemKeyword")
BeforeDoctypeSystemIdentifier = State("BeforeDoctypeSystemIdentifier")
DoctypeSystemIdentifier_doubleQuoted = State("DoctypeSystemIdentifier_doubleQuoted")
DoctypeSystemIdentifier_singleQuoted = State("DoctypeSystemIdentifier_singleQuoted")
AfterDoctypeSystemIdentifier = State("AfterDoctypeSystemIdentifier")
BogusDoctype = State("BogusDoctype")
CdataSection = State("CdataSection")
