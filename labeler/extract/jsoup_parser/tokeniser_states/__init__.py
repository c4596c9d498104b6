"""Follows jsoup 1.15.3's parser.TokeniserState (MIT licence, (c) Jonathan Hedley).

The states by what they serve: ``text`` (Data, RCDATA, RAWTEXT, script data, PLAINTEXT),
``script`` (script-data escapes), ``tag``, ``attribute``, ``comment`` (with markup
declarations and CDATA), ``doctype``; ``state`` creates the ``State`` objects, which each
module wires to its functions on import. This module imports them all and names the
states as jsoup's enum does.

Each state is a ``State`` whose ``read(t, r)`` does one step, as jsoup's enum constants do;
``TokeniserState.<Name>`` are the states under jsoup's names. Java switches on a ``char``
where ``(char) -1`` is EOF: ``EOF_CHAR`` (U+FFFF) here, so a literal U+FFFF in the input takes
the EOF branches exactly where it does in jsoup (e.g. at the start of a Data run it ends the
token stream). Parse errors are not reported.

jsoup's deviations from the HTML spec kept here: ``<`` ends a tag name or the space before an
attribute name (the tag is emitted, the ``<`` re-read); in RCDATA a ``<`` + letter when no
``</`` + last start tag name follows in the read window (all lower- or all upper-case,
``CharacterReader.contains_ignore_case``) emits that end tag at once and reads a tag; NUL in
data is emitted as NUL, in RCDATA/raw text/script as U+FFFD; CDATA sections are read anywhere;
``<!DOCTYPE`` followed by a non-space drops that character.
"""

from __future__ import annotations

from . import attribute, comment, doctype, script, state, tag, text
from .state import (
    PLAINTEXT,
    AfterAttributeName,
    AfterAttributeValue_quoted,
    AfterDoctypeName,
    AfterDoctypePublicIdentifier,
    AfterDoctypePublicKeyword,
    AfterDoctypeSystemIdentifier,
    AfterDoctypeSystemKeyword,
    AttributeName,
    AttributeValue_doubleQuoted,
    AttributeValue_singleQuoted,
    AttributeValue_unquoted,
    BeforeAttributeName,
    BeforeAttributeValue,
    BeforeDoctypeName,
    BeforeDoctypePublicIdentifier,
    BeforeDoctypeSystemIdentifier,
    BetweenDoctypePublicAndSystemIdentifiers,
    BogusComment,
    BogusDoctype,
    CdataSection,
    CharacterReferenceInData,
    CharacterReferenceInRcdata,
    Comment,
    CommentEnd,
    CommentEndBang,
    CommentEndDash,
    CommentStart,
    CommentStartDash,
    Data,
    Doctype,
    DoctypeName,
    DoctypePublicIdentifier_doubleQuoted,
    DoctypePublicIdentifier_singleQuoted,
    DoctypeSystemIdentifier_doubleQuoted,
    DoctypeSystemIdentifier_singleQuoted,
    EndTagOpen,
    MarkupDeclarationOpen,
    Rawtext,
    RawtextEndTagName,
    RawtextEndTagOpen,
    RawtextLessthanSign,
    Rcdata,
    RCDATAEndTagName,
    RCDATAEndTagOpen,
    RcdataLessthanSign,
    ScriptData,
    ScriptDataDoubleEscaped,
    ScriptDataDoubleEscapedDash,
    ScriptDataDoubleEscapedDashDash,
    ScriptDataDoubleEscapedLessthanSign,
    ScriptDataDoubleEscapeEnd,
    ScriptDataDoubleEscapeStart,
    ScriptDataEndTagName,
    ScriptDataEndTagOpen,
    ScriptDataEscaped,
    ScriptDataEscapedDash,
    ScriptDataEscapedDashDash,
    ScriptDataEscapedEndTagName,
    ScriptDataEscapedEndTagOpen,
    ScriptDataEscapedLessthanSign,
    ScriptDataEscapeStart,
    ScriptDataEscapeStartDash,
    ScriptDataLessthanSign,
    SelfClosingStartTag,
    State,
    TagName,
    TagOpen,
)
from .text import data_pattern

__all__ = ["State", "TokeniserState", "data_pattern"]

_MODULES = (text, script, tag, attribute, comment, doctype)  # each sets ``read`` on its states
_ALL = tuple(v for v in vars(state).values() if isinstance(v, State))  # as created
assert all(s.read.__module__ in {m.__name__ for m in _MODULES} for s in _ALL)


class TokeniserState:
    """jsoup's ``TokeniserState`` enum: ``TokeniserState.Data`` etc."""

    Data = Data
    CharacterReferenceInData = CharacterReferenceInData
    Rcdata = Rcdata
    CharacterReferenceInRcdata = CharacterReferenceInRcdata
    Rawtext = Rawtext
    ScriptData = ScriptData
    PLAINTEXT = PLAINTEXT
    TagOpen = TagOpen
    EndTagOpen = EndTagOpen
    TagName = TagName
    RcdataLessthanSign = RcdataLessthanSign
    RCDATAEndTagOpen = RCDATAEndTagOpen
    RCDATAEndTagName = RCDATAEndTagName
    RawtextLessthanSign = RawtextLessthanSign
    RawtextEndTagOpen = RawtextEndTagOpen
    RawtextEndTagName = RawtextEndTagName
    ScriptDataLessthanSign = ScriptDataLessthanSign
    ScriptDataEndTagOpen = ScriptDataEndTagOpen
    ScriptDataEndTagName = ScriptDataEndTagName
    ScriptDataEscapeStart = ScriptDataEscapeStart
    ScriptDataEscapeStartDash = ScriptDataEscapeStartDash
    ScriptDataEscaped = ScriptDataEscaped
    ScriptDataEscapedDash = ScriptDataEscapedDash
    ScriptDataEscapedDashDash = ScriptDataEscapedDashDash
    ScriptDataEscapedLessthanSign = ScriptDataEscapedLessthanSign
    ScriptDataEscapedEndTagOpen = ScriptDataEscapedEndTagOpen
    ScriptDataEscapedEndTagName = ScriptDataEscapedEndTagName
    ScriptDataDoubleEscapeStart = ScriptDataDoubleEscapeStart
    ScriptDataDoubleEscaped = ScriptDataDoubleEscaped
    ScriptDataDoubleEscapedDash = ScriptDataDoubleEscapedDash
    ScriptDataDoubleEscapedDashDash = ScriptDataDoubleEscapedDashDash
    ScriptDataDoubleEscapedLessthanSign = ScriptDataDoubleEscapedLessthanSign
    ScriptDataDoubleEscapeEnd = ScriptDataDoubleEscapeEnd
    BeforeAttributeName = BeforeAttributeName
    AttributeName = AttributeName
    AfterAttributeName = AfterAttributeName
    BeforeAttributeValue = BeforeAttributeValue
    AttributeValue_doubleQuoted = AttributeValue_doubleQuoted
    AttributeValue_singleQuoted = AttributeValue_singleQuoted
    AttributeValue_unquoted = AttributeValue_unquoted
    AfterAttributeValue_quoted = AfterAttributeValue_quoted
    SelfClosingStartTag = SelfClosingStartTag
    BogusComment = BogusComment
    MarkupDeclarationOpen = MarkupDeclarationOpen
    CommentStart = CommentStart
    CommentStartDash = CommentStartDash
    Comment = Comment
    CommentEndDash = CommentEndDash
    CommentEnd = CommentEnd
    CommentEndBang = CommentEndBang
    Doctype = Doctype
    BeforeDoctypeName = BeforeDoctypeName
    DoctypeName = DoctypeName
    AfterDoctypeName = AfterDoctypeName
    AfterDoctypePublicKeyword = AfterDoctypePublicKeyword
    BeforeDoctypePublicIdentifier = BeforeDoctypePublicIdentifier
    DoctypePublicIdentifier_doubleQuoted = DoctypePublicIdentifier_doubleQuoted
    DoctypePublicIdentifier_singleQuoted = DoctypePublicIdentifier_singleQuoted
    AfterDoctypePublicIdentifier = AfterDoctypePublicIdentifier
    BetweenDoctypePublicAndSystemIdentifiers = BetweenDoctypePublicAndSystemIdentifiers
    AfterDoctypeSystemKeyword = AfterDoctypeSystemKeyword
    BeforeDoctypeSystemIdentifier = BeforeDoctypeSystemIdentifier
    DoctypeSystemIdentifier_doubleQuoted = DoctypeSystemIdentifier_doubleQuoted
    DoctypeSystemIdentifier_singleQuoted = DoctypeSystemIdentifier_singleQuoted
    AfterDoctypeSystemIdentifier = AfterDoctypeSystemIdentifier
    BogusDoctype = BogusDoctype
    CdataSection = CdataSection
    values: tuple[State, ...] = _ALL
