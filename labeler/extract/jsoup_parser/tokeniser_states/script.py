"""The script-data states after a ``<`` in a script: ScriptDataLessthanSign,
ScriptDataEndTagOpen, ScriptDataEndTagName, and the escape states (ScriptDataEscapeStart ...
ScriptDataEscapedEndTagName, ScriptDataDoubleEscapeStart ... ScriptDataDoubleEscapeEnd).

Follows jsoup 1.15.3's TokeniserState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from ..reader import EOF_CHAR, CharacterReader
from ..tokeniser import Tokeniser
from .state import (
    NUL,
    REPL,
    WS,
    Data,
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
    State,
)
from .text import _handle_data_end_tag, _read_end_tag

_SCRIPT_ESCAPED_STOP = "-<\x00"


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


# --- wiring ---

ScriptDataLessthanSign.read = _script_data_less_than
ScriptDataEndTagOpen.read = _script_data_end_tag_open
ScriptDataEndTagName.read = _script_data_end_tag_name
ScriptDataEscapeStart.read = _script_data_escape_start
ScriptDataEscapeStartDash.read = _script_data_escape_start_dash
ScriptDataEscaped.read = _script_data_escaped
ScriptDataEscapedDash.read = _script_data_escaped_dash
ScriptDataEscapedDashDash.read = _script_data_escaped_dash_dash
ScriptDataEscapedLessthanSign.read = _script_data_escaped_less_than
ScriptDataEscapedEndTagOpen.read = _script_data_escaped_end_tag_open
ScriptDataEscapedEndTagName.read = _script_data_escaped_end_tag_name
ScriptDataDoubleEscapeStart.read = _script_data_double_escape_start
ScriptDataDoubleEscaped.read = _script_data_double_escaped
ScriptDataDoubleEscapedDash.read = _script_data_double_escaped_dash
ScriptDataDoubleEscapedDashDash.read = _script_data_double_escaped_dash_dash
ScriptDataDoubleEscapedLessthanSign.read = _script_data_double_escaped_less_than
ScriptDataDoubleEscapeEnd.read = _script_data_double_escape_end
