"""The attribute states: BeforeAttributeName, AttributeName, AfterAttributeName,
BeforeAttributeValue, AttributeValue_doubleQuoted, AttributeValue_singleQuoted,
AttributeValue_unquoted, AfterAttributeValue_quoted, and SelfClosingStartTag.

A ``<`` in the space before an attribute name ends the tag (the tag is emitted, the ``<``
re-read), as jsoup does.

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
    AfterAttributeName,
    AfterAttributeValue_quoted,
    AttributeName,
    AttributeValue_doubleQuoted,
    AttributeValue_singleQuoted,
    AttributeValue_unquoted,
    BeforeAttributeName,
    BeforeAttributeValue,
    Data,
    SelfClosingStartTag,
    _run_below_split,
)

_ATTR_NAME_STOP = "\t\n\f\r \"'/<=>"
_ATTR_VALUE_UNQUOTED_STOP = "\x00\t\n\f\r \"&'<=>`"

# Runs of characters that a per-character state would handle one by one with the same
# branch; only taken below the reader's window split (``_run_below_split``), so skipping them
# in one go cannot change when the window slides. Speed only.
_WS_RUN = re.compile("[\t\n\r\f ]*")


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


# --- wiring ---

BeforeAttributeName.read = _before_attribute_name
AttributeName.read = _attribute_name
AfterAttributeName.read = _after_attribute_name
BeforeAttributeValue.read = _before_attribute_value
AttributeValue_doubleQuoted.read = _attribute_value_double_quoted
AttributeValue_singleQuoted.read = _attribute_value_single_quoted
AttributeValue_unquoted.read = _attribute_value_unquoted
AfterAttributeValue_quoted.read = _after_attribute_value_quoted
SelfClosingStartTag.read = _self_closing_start_tag
