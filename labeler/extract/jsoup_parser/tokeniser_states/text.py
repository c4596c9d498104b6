"""The text states: Data (with its speed paths), CharacterReferenceInData, Rcdata,
CharacterReferenceInRcdata, Rawtext, ScriptData, PLAINTEXT, and the RCDATA / RAWTEXT
less-than and end-tag states (RcdataLessthanSign, RCDATAEndTagOpen, RCDATAEndTagName,
RawtextLessthanSign, RawtextEndTagOpen, RawtextEndTagName), with the bodies they share with
the script-data states.

NUL in data is emitted as NUL, in RCDATA / raw text / script as U+FFFD. In RCDATA a ``<`` +
letter when no ``</`` + last start tag name follows in the read window (all lower- or all
upper-case, ``CharacterReader.contains_ignore_case``) emits that end tag at once and reads a
tag (jsoup's deviation from the spec).

Follows jsoup 1.15.3's TokeniserState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

import re

from ..reader import EOF_CHAR, CharacterReader
from ..token import NORMAL_NAMES, EofToken, Tag, normal_tag_name
from ..tokeniser import Tokeniser
from .state import (
    NUL,
    PLAINTEXT,
    REPL,
    WS,
    BeforeAttributeName,
    CharacterReferenceInData,
    CharacterReferenceInRcdata,
    Data,
    Rawtext,
    RawtextEndTagName,
    RawtextEndTagOpen,
    RawtextLessthanSign,
    Rcdata,
    RCDATAEndTagName,
    RCDATAEndTagOpen,
    RcdataLessthanSign,
    ScriptData,
    ScriptDataLessthanSign,
    SelfClosingStartTag,
    State,
    TagOpen,
)
from .tag import _ANAME, _ATTR, _W, _fast_attributes, _tag_open


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

_DATA_SPECIAL = "&\x00\uffff"


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


# --- wiring ---

Data.read = _data
CharacterReferenceInData.read = _char_ref_in_data
Rcdata.read = _rcdata
CharacterReferenceInRcdata.read = _char_ref_in_rcdata
Rawtext.read = _rawtext
ScriptData.read = _script_data
PLAINTEXT.read = _plaintext
RcdataLessthanSign.read = _rcdata_less_than
RCDATAEndTagOpen.read = _rcdata_end_tag_open
RCDATAEndTagName.read = _rcdata_end_tag_name
RawtextLessthanSign.read = _rawtext_less_than
RawtextEndTagOpen.read = _rawtext_end_tag_open
RawtextEndTagName.read = _rawtext_end_tag_name
