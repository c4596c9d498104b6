"""The tag states: TagOpen, EndTagOpen, TagName, and the speed paths that read a plain start or
end tag (and its attributes) in one regex match.

A ``<`` ends a tag name (the tag is emitted, the ``<`` re-read), as jsoup does.

Follows jsoup 1.15.3's TokeniserState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

import re

from ..attributes import Attributes
from ..reader import EOF_CHAR, CharacterReader
from ..token import MAX_ATTRIBUTES
from ..tokeniser import Tokeniser
from .state import (
    NUL,
    REPL,
    WS,
    BeforeAttributeName,
    BogusComment,
    Data,
    EndTagOpen,
    MarkupDeclarationOpen,
    SelfClosingStartTag,
    TagName,
    TagOpen,
)

# Fast path for plain tags (speed only): the whole tag ``<name attr="v" attr='v' attr=v attr>``
# or ``</name>`` read with one regex when it holds none of the characters that take an odd
# branch (NUL, U+FFFF, '&', control characters in names, stray quotes or '<') and ends before
# the reader's window split, so no window slide can happen inside it. It yields exactly what
# TagName / BeforeAttributeName / AttributeName / AfterAttributeName / BeforeAttributeValue /
# AttributeValue_* / AfterAttributeValue_quoted / SelfClosingStartTag would; anything else
# takes the state-by-state path. Quantifiers are possessive, so no alternative split of the
# text is ever tried.
_W = "[\t\n\r\f ]"
_ANAME = "[^\x00-\x20\"'/<=>\uffff]++"
_VALUE = "\"[^\"&\x00]*+\"|'[^'&\x00]*+'|[^\x00\t\n\f\r \"&'<=>`\uffff]++"
_ATTR = f"{_ANAME}(?:{_W}*+={_W}*+(?:{_VALUE}))?+"
_FAST_START = re.compile(
    f"([A-Za-z][^\\t\\n\\r\\f /><\\x00\\uffff]*+)((?:{_W}++{_ATTR})*+){_W}*+(/?)>"
)
_FAST_ATTR = re.compile(  # (name, "=value" part or "", double-quoted, single-quoted, unquoted)
    f"({_ANAME})({_W}*+={_W}*+(?:\"([^\"&\x00]*+)\"|'([^'&\x00]*+)'"
    f"|([^\x00\t\n\f\r \"&'<=>`\uffff]++)))?+"
)

_FAST_END = re.compile(f"([A-Za-z][^\\t\\n\\r\\f /><\\x00\\uffff]*+){_W}*+>")

_FIRST_ATTR = re.compile(  # spaces, then (name, double-quoted, single-quoted, unquoted value)
    f"{_W}++({_ANAME})(?:{_W}*+={_W}*+(?:\"([^\"&\x00]*+)\"|'([^'&\x00]*+)'"
    f"|([^\x00\t\n\f\r \"&'<=>`\uffff]++)))?+"
)

_new_attributes = object.__new__


def _tag_open(t: Tokeniser, r: CharacterReader) -> None:
    c = r.current()
    if c == "!":
        t.advance_transition(MarkupDeclarationOpen)
    elif c == "/":
        t.advance_transition(EndTagOpen)
    elif c == "?":
        t.create_bogus_comment_pending()
        t.state = BogusComment
    elif r.matches_ascii_alpha():
        m = _FAST_START.match(r.s, r.pos)
        if m is not None and m.end() <= r.split:
            _fast_start_tag(t, r, m)
            return
        t.create_tag_pending(True)
        t.state = TagName
    else:
        t.emit_str("<")
        t.state = Data


def _fast_attributes(first_name: str, first_value: str | None, more: str) -> Attributes:
    """The attributes of a plain tag: the first one, then those in ``more`` (a run of
    attributes as ``_FAST_START`` group 2)."""
    attrs = _new_attributes(Attributes)  # no __init__: both lists are set here
    if not more:
        attrs.keys = [first_name]
        attrs.vals = [first_value]
        return attrs
    found = _FAST_ATTR.findall(more)
    if len(found) >= MAX_ATTRIBUTES:
        del found[MAX_ATTRIBUTES - 1 :]
    keys = [first_name]
    keys += [f[0] for f in found]
    vals = [first_value]
    vals += [(f[2] or f[3] or f[4]) if f[1] else None for f in found]
    attrs.keys = keys
    attrs.vals = vals
    return attrs


def _run_attributes(attrs_text: str) -> Attributes:
    """The attributes of a plain tag from ``_FAST_START`` group 2 (starts with a space)."""
    m = _FIRST_ATTR.match(attrs_text)
    assert m is not None  # the group is one or more attributes, each after spaces
    a_name, dq, sq, uq = m.groups()
    value = dq if dq is not None else sq if sq is not None else uq
    return _fast_attributes(a_name, value, attrs_text[m.end() :])


def _fast_start_tag(t: Tokeniser, r: CharacterReader, m: re.Match[str]) -> None:
    """A plain start tag in one go (see ``_FAST_START``)."""
    tag = t.start_pending.reset()
    t.tag_pending = tag
    tag.set_name(m.group(1))
    attrs_text = m.group(2)
    if attrs_text:
        tag.attributes = _run_attributes(attrs_text)
    if m.group(3):
        tag.self_closing = True
    r.pos = m.end()
    t.emit(tag)
    t.state = Data


def _end_tag_open(t: Tokeniser, r: CharacterReader) -> None:
    if r.is_empty():
        t.emit_str("</")
        t.state = Data
    elif r.matches_ascii_alpha():
        m = _FAST_END.match(r.s, r.pos)
        if m is not None and m.end() <= r.split:
            tag = t.end_pending.reset()
            t.tag_pending = tag
            tag.set_name(m.group(1))
            r.pos = m.end()
            t.emit(tag)
            t.state = Data
            return
        t.create_tag_pending(False)
        t.state = TagName
    elif r.matches(">"):
        t.advance_transition(Data)
    else:
        t.create_bogus_comment_pending()
        t.comment_pending.append("/")
        t.state = BogusComment


def _tag_name(t: Tokeniser, r: CharacterReader) -> None:
    t.tag_pending.append_tag_name(r.consume_tag_name())
    c = r.consume()
    if c in WS:
        t.state = BeforeAttributeName
    elif c == "/":
        t.state = SelfClosingStartTag
    elif c == "<" or c == ">":
        if c == "<":  # out of spec: ends the tag, the < is read again
            r.unconsume()
        t.emit_tag_pending()
        t.state = Data
    elif c == NUL:
        t.tag_pending.append_tag_name(REPL)
    elif c == EOF_CHAR:
        t.state = Data  # the pending tag is dropped
    else:
        t.tag_pending.append_tag_name(c)


# --- wiring ---

TagOpen.read = _tag_open
EndTagOpen.read = _end_tag_open
TagName.read = _tag_name
