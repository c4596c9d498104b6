"""Follows jsoup 1.15.3's parser.TokeniserState (MIT licence, (c) Jonathan Hedley).

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

import re
from collections.abc import Callable

from .attributes import Attributes
from .reader import EOF_CHAR, CharacterReader
from .token import MAX_ATTRIBUTES, NORMAL_NAMES, CData, EofToken, Tag, normal_tag_name
from .tokeniser import Tokeniser

__all__ = ["State", "TokeniserState"]

NUL = "\x00"
REPL = "\ufffd"
WS = "\t\n\r\f "
_ATTR_NAME_STOP = "\t\n\f\r \"'/<=>"
_ATTR_VALUE_UNQUOTED_STOP = "\x00\t\n\f\r \"&'<=>`"
_SCRIPT_ESCAPED_STOP = "-<\x00"
_COMMENT_STOP = "-\x00"

ReadFn = Callable[[Tokeniser, CharacterReader], None]

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
# Runs of characters that a per-character state would handle one by one with the same
# branch; only taken below the reader's window split (``_run_below_split``), so skipping them
# in one go cannot change when the window slides. Speed only.
_WS_RUN = re.compile("[\t\n\r\f ]*")
_DOCTYPE_NAME_RUN = re.compile("[^\t\n\r\f >\x00\uffff]*")
_DOCTYPE_ID_RUN = {
    '"': re.compile('[^">\x00\uffff]*'),
    "'": re.compile("[^'>\x00\uffff]*"),
}
_BOGUS_DOCTYPE_RUN = re.compile("[^>\uffff]*")


def _run_below_split(r: CharacterReader, pattern: re.Pattern[str]) -> str:
    pos = r.pos
    m = pattern.match(r.s, pos, min(r.split, r.end))
    if m is None:
        return ""
    r.pos = m.end()
    return m.group()


_FAST_END = re.compile(f"([A-Za-z][^\\t\\n\\r\\f /><\\x00\\uffff]*+){_W}*+>")


def data_pattern(tags: bool) -> re.Pattern[str]:
    """The Data state's run: group 1 the text up to ``&``, ``<`` or NUL (``consume_data``),
    then, if ``tags``, optionally a plain start tag: 2 its name, 3 the first attribute's name,
    4/5/6 its double-quoted/single-quoted/unquoted value (all ``None``: no value), 7 the
    further attributes (as ``_FAST_START`` group 2), 8 ``/`` or ``""``; or a plain end tag:
    9 its name. ``tags=False`` never matches a tag (the tests compare both)."""
    name = "[A-Za-z][^\\t\\n\\r\\f /><\\x00\\uffff]*+"
    first = (
        f"(?:{_W}++({_ANAME})(?:{_W}*+={_W}*+(?:\"([^\"&\\x00]*+)\"|'([^'&\\x00]*+)'"
        f"|([^\\x00\\t\\n\\f\\r \"&'<=>`\\uffff]++)))?+((?:{_W}++{_ATTR})*+))?+"
    )
    tag = f"<(?:({name}){first}{_W}*+(/?)>|/({name}){_W}*+>)" if tags else "(?!)" + "()" * 8
    return re.compile(f"([^&<\\x00]*+)(?:{tag})?+")


_FAST_DATA = data_pattern(True)
_FIRST_ATTR = re.compile(  # spaces, then (name, double-quoted, single-quoted, unquoted value)
    f"{_W}++({_ANAME})(?:{_W}*+={_W}*+(?:\"([^\"&\x00]*+)\"|'([^'&\x00]*+)'"
    f"|([^\x00\t\n\f\r \"&'<=>`\uffff]++)))?+"
)
_DATA_SPECIAL = "&\x00\uffff"


class State:
    """One tokeniser state: ``read(t, r)`` performs one step."""

    __slots__ = ("name", "read")

    def __init__(self, name: str, read: ReadFn) -> None:
        self.name = name
        self.read = read

    def __repr__(self) -> str:
        return f"TokeniserState.{self.name}"


# --- data states ------------------------------------------------------------------------------


def _data(t: Tokeniser, r: CharacterReader) -> None:
    """Data, looping while it stays in Data and emits nothing but characters (speed only).

    Each turn is one Data step as jsoup does it (``current()`` with its window slide, then
    the branch on that character), except that a text run followed by a plain tag
    (``_FAST_DATA``, ending at or before the window split, so no slide can happen inside) is
    read in one match, and a character reference is read at once (CharacterReferenceInData
    returns to Data).
    """
    s = r.s
    chars = t._chars
    fast = _FAST_DATA
    while True:
        pos = r.pos
        if pos >= r.split:
            r.buffer_up()
        end = r.end
        if pos >= end:
            t.emit(EofToken())
            return
        c = s[pos]
        if c in _DATA_SPECIAL:
            if c == "&":
                r.pos = pos + 1
                ref = t.consume_character_reference(None, False)
                chars.append("&" if ref is None else ref)
                continue
            if c == NUL:
                r.pos = pos + 1
                chars.append(NUL)  # NUL kept, not replaced (as jsoup)
                continue
            if c == EOF_CHAR:
                t.emit(EofToken())
                return
        m = fast.match(s, pos, end)
        assert m is not None  # the text group may be empty
        kind = m.lastindex  # 1: text only, 8: start tag, 9: end tag
        if kind != 1:
            tag_end = m.end()
            if tag_end <= r.split:
                text, name, a_name, dq, sq, uq, more, slash, end_name = m.groups()
                if text:
                    chars.append(text)
                r.pos = tag_end
                tag: Tag
                if kind == 8:
                    tag = t.start_pending
                    if a_name is None:
                        tag.attributes = None
                    else:
                        value = dq if dq is not None else sq if sq is not None else uq
                        tag.attributes = _fast_attributes(a_name, value, more)
                    tag.self_closing = slash != ""
                    t.last_start_tag = name
                else:
                    tag = t.end_pending
                    tag.attributes = None
                    tag.self_closing = False
                    name = end_name
                if tag._has_attr_name or tag._has_attr_value or tag._has_empty_attr_value:
                    tag.clear_pending_attribute()
                tag.tag_name = name
                tag.normal_name = NORMAL_NAMES.get(name) or normal_tag_name(name)
                t.tag_pending = tag
                t.emit_pending = tag
                t._emit_pending = True
                return
        text_end = m.end(1)
        if text_end > pos:
            chars.append(m.group(1))
            r.pos = text_end
            continue
        # '<' not followed by a plain tag below the split
        t.state = TagOpen
        r.pos = pos + 1
        _tag_open(t, r)
        return


def _char_ref_in_data(t: Tokeniser, r: CharacterReader) -> None:
    _read_char_ref(t, Data)


def _rcdata(t: Tokeniser, r: CharacterReader) -> None:
    c = r.current()
    if c == "&":
        t.advance_transition(CharacterReferenceInRcdata)
    elif c == "<":
        t.advance_transition(RcdataLessthanSign)
    elif c == NUL:
        r.advance()
        t.emit_str(REPL)
    elif c == EOF_CHAR:
        t.emit(EofToken())
    else:
        t._chars.append(r.consume_data())


def _char_ref_in_rcdata(t: Tokeniser, r: CharacterReader) -> None:
    _read_char_ref(t, Rcdata)


def _rawtext(t: Tokeniser, r: CharacterReader) -> None:
    _read_raw_data(t, r, RawtextLessthanSign)


def _script_data(t: Tokeniser, r: CharacterReader) -> None:
    _read_raw_data(t, r, ScriptDataLessthanSign)


def _plaintext(t: Tokeniser, r: CharacterReader) -> None:
    c = r.current()
    if c == NUL:
        r.advance()
        t.emit_str(REPL)
    elif c == EOF_CHAR:
        t.emit(EofToken())
    else:
        t.emit_str(r.consume_to(NUL))


# --- tags -------------------------------------------------------------------------------------


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


_new_attributes = object.__new__


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


def _rcdata_less_than(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches("/"):
        t.create_temp_buffer()
        t.advance_transition(RCDATAEndTagOpen)
    elif (
        r.matches_ascii_alpha()
        and t.last_start_tag is not None
        and not r.contains_ignore_case(t.appropriate_end_tag_seq())
    ):
        # no </name ahead: close the element now and read this as a tag
        t.tag_pending = t.create_tag_pending(False).set_name(t.last_start_tag)
        t.emit_tag_pending()
        t.state = TagOpen
    else:
        t.emit_str("<")
        t.state = Rcdata


def _rcdata_end_tag_open(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches_ascii_alpha():
        t.create_tag_pending(False)
        c = r.current()
        t.tag_pending.append_tag_name(c)
        t.data_buffer.append(c)
        t.advance_transition(RCDATAEndTagName)
    else:
        t.emit_str("</")
        t.state = Rcdata


def _rcdata_end_tag_name(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches_ascii_alpha():
        name = r.consume_letter_sequence()
        t.tag_pending.append_tag_name(name)
        t.data_buffer.append(name)
        return
    c = r.consume()
    if (c in WS or c == "/" or c == ">") and t.is_appropriate_end_tag_token():
        if c == ">":
            t.emit_tag_pending()
            t.state = Data
        elif c == "/":
            t.state = SelfClosingStartTag
        else:
            t.state = BeforeAttributeName
        return
    # anything else
    t.emit_str("</")
    t.emit_str(t.data_buffer_str())
    r.unconsume()
    t.state = Rcdata


def _rawtext_less_than(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches("/"):
        t.create_temp_buffer()
        t.advance_transition(RawtextEndTagOpen)
    else:
        t.emit_str("<")
        t.state = Rawtext


def _rawtext_end_tag_open(t: Tokeniser, r: CharacterReader) -> None:
    _read_end_tag(t, r, RawtextEndTagName, Rawtext)


def _rawtext_end_tag_name(t: Tokeniser, r: CharacterReader) -> None:
    _handle_data_end_tag(t, r, Rawtext)


def _script_data_less_than(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "/":
        t.create_temp_buffer()
        t.state = ScriptDataEndTagOpen
    elif c == "!":
        t.emit_str("<!")
        t.state = ScriptDataEscapeStart
    elif c == EOF_CHAR:
        t.emit_str("<")
        t.state = Data
    else:
        t.emit_str("<")
        r.unconsume()
        t.state = ScriptData


def _script_data_end_tag_open(t: Tokeniser, r: CharacterReader) -> None:
    _read_end_tag(t, r, ScriptDataEndTagName, ScriptData)


def _script_data_end_tag_name(t: Tokeniser, r: CharacterReader) -> None:
    _handle_data_end_tag(t, r, ScriptData)


def _script_data_escape_start(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches("-"):
        t.emit_str("-")
        t.advance_transition(ScriptDataEscapeStartDash)
    else:
        t.state = ScriptData


def _script_data_escape_start_dash(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches("-"):
        t.emit_str("-")
        t.advance_transition(ScriptDataEscapedDashDash)
    else:
        t.state = ScriptData


def _script_data_escaped(t: Tokeniser, r: CharacterReader) -> None:
    if r.is_empty():
        t.state = Data
        return
    c = r.current()
    if c == "-":
        t.emit_str("-")
        t.advance_transition(ScriptDataEscapedDash)
    elif c == "<":
        t.advance_transition(ScriptDataEscapedLessthanSign)
    elif c == NUL:
        r.advance()
        t.emit_str(REPL)
    else:
        t.emit_str(r.consume_to_any(_SCRIPT_ESCAPED_STOP))


def _script_data_escaped_dash(t: Tokeniser, r: CharacterReader) -> None:
    if r.is_empty():
        t.state = Data
        return
    c = r.consume()
    if c == "-":
        t.emit_str(c)
        t.state = ScriptDataEscapedDashDash
    elif c == "<":
        t.state = ScriptDataEscapedLessthanSign
    elif c == NUL:
        t.emit_str(REPL)
        t.state = ScriptDataEscaped
    else:
        t.emit_str(c)
        t.state = ScriptDataEscaped


def _script_data_escaped_dash_dash(t: Tokeniser, r: CharacterReader) -> None:
    if r.is_empty():
        t.state = Data
        return
    c = r.consume()
    if c == "-":
        t.emit_str(c)
    elif c == "<":
        t.state = ScriptDataEscapedLessthanSign
    elif c == ">":
        t.emit_str(c)
        t.state = ScriptData
    elif c == NUL:
        t.emit_str(REPL)
        t.state = ScriptDataEscaped
    else:
        t.emit_str(c)
        t.state = ScriptDataEscaped


def _script_data_escaped_less_than(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches_ascii_alpha():
        t.create_temp_buffer()
        c = r.current()
        t.data_buffer.append(c)
        t.emit_str("<")
        t.emit_str(c)
        t.advance_transition(ScriptDataDoubleEscapeStart)
    elif r.matches("/"):
        t.create_temp_buffer()
        t.advance_transition(ScriptDataEscapedEndTagOpen)
    else:
        t.emit_str("<")
        t.state = ScriptDataEscaped


def _script_data_escaped_end_tag_open(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches_ascii_alpha():
        t.create_tag_pending(False)
        c = r.current()
        t.tag_pending.append_tag_name(c)
        t.data_buffer.append(c)
        t.advance_transition(ScriptDataEscapedEndTagName)
    else:
        t.emit_str("</")
        t.state = ScriptDataEscaped


def _script_data_escaped_end_tag_name(t: Tokeniser, r: CharacterReader) -> None:
    _handle_data_end_tag(t, r, ScriptDataEscaped)


def _script_data_double_escape_start(t: Tokeniser, r: CharacterReader) -> None:
    _handle_data_double_escape_tag(t, r, ScriptDataDoubleEscaped, ScriptDataEscaped)


def _script_data_double_escaped(t: Tokeniser, r: CharacterReader) -> None:
    c = r.current()
    if c == "-":
        t.emit_str(c)
        t.advance_transition(ScriptDataDoubleEscapedDash)
    elif c == "<":
        t.emit_str(c)
        t.advance_transition(ScriptDataDoubleEscapedLessthanSign)
    elif c == NUL:
        r.advance()
        t.emit_str(REPL)
    elif c == EOF_CHAR:
        t.state = Data
    else:
        t.emit_str(r.consume_to_any(_SCRIPT_ESCAPED_STOP))


def _script_data_double_escaped_dash(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.emit_str(c)
        t.state = ScriptDataDoubleEscapedDashDash
    elif c == "<":
        t.emit_str(c)
        t.state = ScriptDataDoubleEscapedLessthanSign
    elif c == NUL:
        t.emit_str(REPL)
        t.state = ScriptDataDoubleEscaped
    elif c == EOF_CHAR:
        t.state = Data
    else:
        t.emit_str(c)
        t.state = ScriptDataDoubleEscaped


def _script_data_double_escaped_dash_dash(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.emit_str(c)
    elif c == "<":
        t.emit_str(c)
        t.state = ScriptDataDoubleEscapedLessthanSign
    elif c == ">":
        t.emit_str(c)
        t.state = ScriptData
    elif c == NUL:
        t.emit_str(REPL)
        t.state = ScriptDataDoubleEscaped
    elif c == EOF_CHAR:
        t.state = Data
    else:
        t.emit_str(c)
        t.state = ScriptDataDoubleEscaped


def _script_data_double_escaped_less_than(t: Tokeniser, r: CharacterReader) -> None:
    if r.matches("/"):
        t.emit_str("/")
        t.create_temp_buffer()
        t.advance_transition(ScriptDataDoubleEscapeEnd)
    else:
        t.state = ScriptDataDoubleEscaped


def _script_data_double_escape_end(t: Tokeniser, r: CharacterReader) -> None:
    _handle_data_double_escape_tag(t, r, ScriptDataEscaped, ScriptDataDoubleEscaped)


# --- attributes -------------------------------------------------------------------------------


def _before_attribute_name(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c in WS:
        _run_below_split(r, _WS_RUN)  # the following spaces take the same branch
        return
    if c == "/":
        t.state = SelfClosingStartTag
    elif c == "<" or c == ">":
        if c == "<":  # out of spec: ends the tag, the < is read again
            r.unconsume()
        t.emit_tag_pending()
        t.state = Data
    elif c == NUL:
        r.unconsume()
        t.tag_pending.new_attribute()
        t.state = AttributeName
    elif c == EOF_CHAR:
        t.state = Data
    elif c == '"' or c == "'" or c == "=":
        t.tag_pending.new_attribute()
        t.tag_pending.append_attribute_name_char(c)
        t.state = AttributeName
    else:
        t.tag_pending.new_attribute()
        r.unconsume()
        t.state = AttributeName


def _attribute_name(t: Tokeniser, r: CharacterReader) -> None:
    t.tag_pending.append_attribute_name(r.consume_to_any(_ATTR_NAME_STOP))
    c = r.consume()
    if c in WS:
        t.state = AfterAttributeName
    elif c == "/":
        t.state = SelfClosingStartTag
    elif c == "=":
        t.state = BeforeAttributeValue
    elif c == ">":
        t.emit_tag_pending()
        t.state = Data
    elif c == EOF_CHAR:
        t.state = Data
    else:  # " ' < and a window-end underrun: part of the name
        t.tag_pending.append_attribute_name_char(c)


def _after_attribute_name(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c in WS:
        _run_below_split(r, _WS_RUN)
        return
    if c == "/":
        t.state = SelfClosingStartTag
    elif c == "=":
        t.state = BeforeAttributeValue
    elif c == ">":
        t.emit_tag_pending()
        t.state = Data
    elif c == NUL:
        t.tag_pending.append_attribute_name_char(REPL)
        t.state = AttributeName
    elif c == EOF_CHAR:
        t.state = Data
    elif c == '"' or c == "'" or c == "<":
        t.tag_pending.new_attribute()
        t.tag_pending.append_attribute_name_char(c)
        t.state = AttributeName
    else:
        t.tag_pending.new_attribute()
        r.unconsume()
        t.state = AttributeName


def _before_attribute_value(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c in WS:
        return
    if c == '"':
        t.state = AttributeValue_doubleQuoted
    elif c == "&":
        r.unconsume()
        t.state = AttributeValue_unquoted
    elif c == "'":
        t.state = AttributeValue_singleQuoted
    elif c == NUL:
        t.tag_pending.append_attribute_value(REPL)
        t.state = AttributeValue_unquoted
    elif c == EOF_CHAR or c == ">":  # the tag is emitted, even at EOF
        t.emit_tag_pending()
        t.state = Data
    elif c == "<" or c == "=" or c == "`":
        t.tag_pending.append_attribute_value(c)
        t.state = AttributeValue_unquoted
    else:
        r.unconsume()
        t.state = AttributeValue_unquoted


def _attribute_value_quoted(t: Tokeniser, r: CharacterReader, quote: str) -> None:
    tag = t.tag_pending
    value = r.consume_attribute_quoted(quote == "'")
    if value:
        tag.append_attribute_value(value)
    else:
        tag.set_empty_attribute_value()
    c = r.consume()
    if c == quote:
        t.state = AfterAttributeValue_quoted
    elif c == "&":
        ref = t.consume_character_reference(quote, True)
        tag.append_attribute_value("&" if ref is None else ref)
    elif c == NUL:
        tag.append_attribute_value(REPL)
    elif c == EOF_CHAR:
        t.state = Data
    else:  # window-end underrun
        tag.append_attribute_value(c)


def _attribute_value_double_quoted(t: Tokeniser, r: CharacterReader) -> None:
    _attribute_value_quoted(t, r, '"')


def _attribute_value_single_quoted(t: Tokeniser, r: CharacterReader) -> None:
    _attribute_value_quoted(t, r, "'")


def _attribute_value_unquoted(t: Tokeniser, r: CharacterReader) -> None:
    tag = t.tag_pending
    value = r.consume_to_any(_ATTR_VALUE_UNQUOTED_STOP)
    if value:
        tag.append_attribute_value(value)
    c = r.consume()
    if c in WS:
        t.state = BeforeAttributeName
    elif c == "&":
        ref = t.consume_character_reference(">", True)
        tag.append_attribute_value("&" if ref is None else ref)
    elif c == ">":
        t.emit_tag_pending()
        t.state = Data
    elif c == NUL:
        tag.append_attribute_value(REPL)
    elif c == EOF_CHAR:
        t.state = Data
    else:  # " ' < = ` and window-end underrun
        tag.append_attribute_value(c)


def _after_attribute_value_quoted(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c in WS:
        t.state = BeforeAttributeName
    elif c == "/":
        t.state = SelfClosingStartTag
    elif c == ">":
        t.emit_tag_pending()
        t.state = Data
    elif c == EOF_CHAR:
        t.state = Data
    else:
        r.unconsume()
        t.state = BeforeAttributeName


def _self_closing_start_tag(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == ">":
        t.tag_pending.self_closing = True
        t.emit_tag_pending()
        t.state = Data
    elif c == EOF_CHAR:
        t.state = Data
    else:
        r.unconsume()
        t.state = BeforeAttributeName


# --- comments, markup declarations ------------------------------------------------------------


def _bogus_comment(t: Tokeniser, r: CharacterReader) -> None:
    t.comment_pending.append(r.consume_to(">"))
    nxt = r.current()
    if nxt == ">" or nxt == EOF_CHAR:
        r.consume()
        t.emit_comment_pending()
        t.state = Data


def _markup_declaration_open(t: Tokeniser, r: CharacterReader) -> None:
    if r.match_consume("--"):
        t.create_comment_pending()
        t.state = CommentStart
    elif r.match_consume_ignore_case("DOCTYPE"):
        t.state = Doctype
    elif r.match_consume("[CDATA["):
        t.create_temp_buffer()
        t.state = CdataSection
    else:
        t.create_bogus_comment_pending()
        t.state = BogusComment


def _comment_start(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.state = CommentStartDash
    elif c == NUL:
        t.comment_pending.append(REPL)
        t.state = Comment
    elif c == ">" or c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        r.unconsume()
        t.state = Comment


def _comment_start_dash(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.state = CommentEnd
    elif c == NUL:
        t.comment_pending.append(REPL)
        t.state = Comment
    elif c == ">" or c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append(c)
        t.state = Comment


def _comment(t: Tokeniser, r: CharacterReader) -> None:
    c = r.current()
    if c == "-":
        t.advance_transition(CommentEndDash)
    elif c == NUL:
        r.advance()
        t.comment_pending.append(REPL)
    elif c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append(r.consume_to_any(_COMMENT_STOP))


def _comment_end_dash(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.state = CommentEnd
    elif c == NUL:
        t.comment_pending.append("-" + REPL)
        t.state = Comment
    elif c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append("-" + c)
        t.state = Comment


def _comment_end(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == ">":
        t.emit_comment_pending()
        t.state = Data
    elif c == NUL:
        t.comment_pending.append("--" + REPL)
        t.state = Comment
    elif c == "!":
        t.state = CommentEndBang
    elif c == "-":
        t.comment_pending.append("-")
    elif c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append("--" + c)
        t.state = Comment


def _comment_end_bang(t: Tokeniser, r: CharacterReader) -> None:
    c = r.consume()
    if c == "-":
        t.comment_pending.append("--!")
        t.state = CommentEndDash
    elif c == ">":
        t.emit_comment_pending()
        t.state = Data
    elif c == NUL:
        t.comment_pending.append("--!" + REPL)
        t.state = Comment
    elif c == EOF_CHAR:
        t.emit_comment_pending()
        t.state = Data
    else:
        t.comment_pending.append("--!" + c)
        t.state = Comment


def _cdata_section(t: Tokeniser, r: CharacterReader) -> None:
    t.data_buffer.append(r.consume_to("]]>"))
    if r.match_consume("]]>") or r.is_empty():
        t.emit(CData(t.data_buffer_str()))
        t.state = Data
    # otherwise the window ended: stay in the section


# --- doctype ----------------------------------------------------------------------------------


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


# --- shared bodies ----------------------------------------------------------------------------


def _read_char_ref(t: Tokeniser, advance: State) -> None:
    ref = t.consume_character_reference(None, False)
    t.emit_str("&" if ref is None else ref)
    t.state = advance


def _read_raw_data(t: Tokeniser, r: CharacterReader, advance: State) -> None:
    c = r.current()
    if c == "<":
        t.state = advance
        r.pos += 1
    elif c == NUL:
        r.advance()
        t.emit_str(REPL)
    elif c == EOF_CHAR:
        t.emit(EofToken())
    else:
        t._chars.append(r.consume_raw_data())


def _read_end_tag(t: Tokeniser, r: CharacterReader, a: State, b: State) -> None:
    if r.matches_ascii_alpha():
        t.create_tag_pending(False)
        t.state = a
    else:
        t.emit_str("</")
        t.state = b


def _handle_data_end_tag(t: Tokeniser, r: CharacterReader, else_transition: State) -> None:
    """RawtextEndTagName, ScriptDataEndTagName, ScriptDataEscapedEndTagName."""
    if r.matches_letter():
        name = r.consume_letter_sequence()
        t.tag_pending.append_tag_name(name)
        t.data_buffer.append(name)
        return
    if t.is_appropriate_end_tag_token() and not r.is_empty():
        c = r.consume()
        if c in WS:
            t.state = BeforeAttributeName
            return
        if c == "/":
            t.state = SelfClosingStartTag
            return
        if c == ">":
            t.emit_tag_pending()
            t.state = Data
            return
        t.data_buffer.append(c)  # consumed, emitted as text
    t.emit_str("</")
    t.emit_str(t.data_buffer_str())
    t.state = else_transition


def _handle_data_double_escape_tag(
    t: Tokeniser, r: CharacterReader, primary: State, fallback: State
) -> None:
    if r.matches_letter():
        name = r.consume_letter_sequence()
        t.data_buffer.append(name)
        t.emit_str(name)
        return
    c = r.consume()
    if c in WS or c == "/" or c == ">":
        t.state = primary if t.data_buffer_str() == "script" else fallback  # case-sensitive
        t.emit_str(c)
    else:
        r.unconsume()
        t.state = fallback


# --- the states under jsoup's names -------------------------------------------------------------

Data = State("Data", _data)
CharacterReferenceInData = State("CharacterReferenceInData", _char_ref_in_data)
Rcdata = State("Rcdata", _rcdata)
CharacterReferenceInRcdata = State("CharacterReferenceInRcdata", _char_ref_in_rcdata)
Rawtext = State("Rawtext", _rawtext)
ScriptData = State("ScriptData", _script_data)
PLAINTEXT = State("PLAINTEXT", _plaintext)
TagOpen = State("TagOpen", _tag_open)
EndTagOpen = State("EndTagOpen", _end_tag_open)
TagName = State("TagName", _tag_name)
RcdataLessthanSign = State("RcdataLessthanSign", _rcdata_less_than)
RCDATAEndTagOpen = State("RCDATAEndTagOpen", _rcdata_end_tag_open)
RCDATAEndTagName = State("RCDATAEndTagName", _rcdata_end_tag_name)
RawtextLessthanSign = State("RawtextLessthanSign", _rawtext_less_than)
RawtextEndTagOpen = State("RawtextEndTagOpen", _rawtext_end_tag_open)
RawtextEndTagName = State("RawtextEndTagName", _rawtext_end_tag_name)
ScriptDataLessthanSign = State("ScriptDataLessthanSign", _script_data_less_than)
ScriptDataEndTagOpen = State("ScriptDataEndTagOpen", _script_data_end_tag_open)
ScriptDataEndTagName = State("ScriptDataEndTagName", _script_data_end_tag_name)
ScriptDataEscapeStart = State("ScriptDataEscapeStart", _script_data_escape_start)
ScriptDataEscapeStartDash = State("ScriptDataEscapeStartDash", _script_data_escape_start_dash)
ScriptDataEscaped = State("ScriptDataEscaped", _script_data_escaped)
ScriptDataEscapedDash = State("ScriptDataEscapedDash", _script_data_escaped_dash)
ScriptDataEscapedDashDash = State("ScriptDataEscapedDashDash", _script_data_escaped_dash_dash)
ScriptDataEscapedLessthanSign = State(
    "ScriptDataEscapedLessthanSign", _script_data_escaped_less_than
)
ScriptDataEscapedEndTagOpen = State(
    "ScriptDataEscapedEndTagOpen", _script_data_escaped_end_tag_open
)
ScriptDataEscapedEndTagName = State(
    "ScriptDataEscapedEndTagName", _script_data_escaped_end_tag_name
)
ScriptDataDoubleEscapeStart = State("ScriptDataDoubleEscapeStart", _script_data_double_escape_start)
ScriptDataDoubleEscaped = State("ScriptDataDoubleEscaped", _script_data_double_escaped)
ScriptDataDoubleEscapedDash = State("ScriptDataDoubleEscapedDash", _script_data_double_escaped_dash)
ScriptDataDoubleEscapedDashDash = State(
    "ScriptDataDoubleEscapedDashDash", _script_data_double_escaped_dash_dash
)
ScriptDataDoubleEscapedLessthanSign = State(
    "ScriptDataDoubleEscapedLessthanSign", _script_data_double_escaped_less_than
)
ScriptDataDoubleEscapeEnd = State("ScriptDataDoubleEscapeEnd", _script_data_double_escape_end)
BeforeAttributeName = State("BeforeAttributeName", _before_attribute_name)
AttributeName = State("AttributeName", _attribute_name)
AfterAttributeName = State("AfterAttributeName", _after_attribute_name)
BeforeAttributeValue = State("BeforeAttributeValue", _before_attribute_value)
AttributeValue_doubleQuoted = State("AttributeValue_doubleQuoted", _attribute_value_double_quoted)
AttributeValue_singleQuoted = State("AttributeValue_singleQuoted", _attribute_value_single_quoted)
AttributeValue_unquoted = State("AttributeValue_unquoted", _attribute_value_unquoted)
AfterAttributeValue_quoted = State("AfterAttributeValue_quoted", _after_attribute_value_quoted)
SelfClosingStartTag = State("SelfClosingStartTag", _self_closing_start_tag)
BogusComment = State("BogusComment", _bogus_comment)
MarkupDeclarationOpen = State("MarkupDeclarationOpen", _markup_declaration_open)
CommentStart = State("CommentStart", _comment_start)
CommentStartDash = State("CommentStartDash", _comment_start_dash)
Comment = State("Comment", _comment)
CommentEndDash = State("CommentEndDash", _comment_end_dash)
CommentEnd = State("CommentEnd", _comment_end)
CommentEndBang = State("CommentEndBang", _comment_end_bang)
Doctype = State("Doctype", _doctype)
BeforeDoctypeName = State("BeforeDoctypeName", _before_doctype_name)
DoctypeName = State("DoctypeName", _doctype_name)
AfterDoctypeName = State("AfterDoctypeName", _after_doctype_name)
AfterDoctypePublicKeyword = State("AfterDoctypePublicKeyword", _after_doctype_public_keyword)
BeforeDoctypePublicIdentifier = State(
    "BeforeDoctypePublicIdentifier", _before_doctype_public_identifier
)
DoctypePublicIdentifier_doubleQuoted = State(
    "DoctypePublicIdentifier_doubleQuoted", _doctype_public_identifier_double_quoted
)
DoctypePublicIdentifier_singleQuoted = State(
    "DoctypePublicIdentifier_singleQuoted", _doctype_public_identifier_single_quoted
)
AfterDoctypePublicIdentifier = State(
    "AfterDoctypePublicIdentifier", _after_doctype_public_identifier
)
BetweenDoctypePublicAndSystemIdentifiers = State(
    "BetweenDoctypePublicAndSystemIdentifiers", _between_doctype_public_and_system_identifiers
)
AfterDoctypeSystemKeyword = State("AfterDoctypeSystemKeyword", _after_doctype_system_keyword)
BeforeDoctypeSystemIdentifier = State(
    "BeforeDoctypeSystemIdentifier", _before_doctype_system_identifier
)
DoctypeSystemIdentifier_doubleQuoted = State(
    "DoctypeSystemIdentifier_doubleQuoted", _doctype_system_identifier_double_quoted
)
DoctypeSystemIdentifier_singleQuoted = State(
    "DoctypeSystemIdentifier_singleQuoted", _doctype_system_identifier_single_quoted
)
AfterDoctypeSystemIdentifier = State(
    "AfterDoctypeSystemIdentifier", _after_doctype_system_identifier
)
BogusDoctype = State("BogusDoctype", _bogus_doctype)
CdataSection = State("CdataSection", _cdata_section)

_ALL = [v for v in list(globals().values()) if isinstance(v, State)]


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
    values: tuple[State, ...] = tuple(_ALL)
