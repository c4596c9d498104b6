"""Follows jsoup 1.15.3's parser.Tokeniser (MIT licence, (c) Jonathan Hedley).

``read()`` runs the current state until a non-character token is pending; characters emitted
meanwhile are joined into one Character token returned first (the pending token comes on the
next ``read()``). Tokens are reused: one StartTag, EndTag, Character, Comment and Doctype per
tokeniser. ``last_start_tag`` is the name (as written) of the last emitted start tag; an end
tag is "appropriate" when its name equals it ignoring case.

Character references (``consume_character_reference``), jsoup rules:

* none at end of input, at ``additional_allowed`` (the attribute's quote, or ``>`` unquoted),
  or before tab, LF, CR, FF, space, ``<``, ``&``;
* ``&#`` + digits / ``&#x`` + hex digits, ``;`` optional (no digits: not a reference); values
  that overflow an int, surrogates and values above U+10FFFF give U+FFFD; 0x80-0x9F map through
  windows-1252;
* named: the longest run of letters then ASCII digits; a reference if it is a legacy (base)
  name, or any HTML5 name followed by ``;``; in an attribute, not a reference if followed by a
  letter, digit, ``=``, ``-`` or ``_``; a following ``;`` is consumed.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..entities import BASE_NAMES, FULL_NAMES, HTML5, numeric_value
from .attributes import equals_ignore_case
from .reader import CharacterReader, is_letter
from .token import (
    START_TAG,
    Comment,
    Doctype,
    EndTag,
    StartTag,
    Tag,
    Token,
)
from .token import (
    Character as CharacterToken,
)

if TYPE_CHECKING:
    from .tokeniser_states import State

__all__ = ["REPLACEMENT_CHAR", "Tokeniser"]

REPLACEMENT_CHAR = "\ufffd"
_NOT_CHAR_REF = "\t\n\r\f <&"
_SLOW: tuple[bool, str | None] = (False, None)
_HEX_RUN = re.compile("[0-9A-Fa-f]*")
_DIGIT_RUN = re.compile("[0-9]*")
_NAME_RUN = re.compile("([A-Za-z]*)[0-9]*")


def _named_value(name: str) -> str:
    return HTML5[name + ";"] if name in FULL_NAMES else HTML5[name]


class Tokeniser:
    """The HTML tokeniser over one ``CharacterReader``."""

    __slots__ = (
        "_chars",
        "_emit_pending",
        "char_pending",
        "comment_pending",
        "data_buffer",
        "doctype_pending",
        "emit_pending",
        "end_pending",
        "last_start_tag",
        "reader",
        "start_pending",
        "state",
        "tag_pending",
    )

    def __init__(self, reader: CharacterReader) -> None:
        from .tokeniser_states import TokeniserState

        self.reader = reader
        self.state: State = TokeniserState.Data
        self._emit_pending = False
        self._chars: list[str] = []
        self.data_buffer: list[str] = []
        self.start_pending = StartTag()
        self.end_pending = EndTag()
        self.tag_pending: Tag = self.start_pending
        self.char_pending = CharacterToken()
        self.emit_pending: Token = self.char_pending  # read only once _emit_pending is set
        self.doctype_pending = Doctype()
        self.comment_pending = Comment()
        self.last_start_tag: str | None = None

    def read(self) -> Token:
        """The next token (see the module docstring)."""
        if not self._emit_pending:
            r = self.reader
            while not self._emit_pending:
                self.state.read(self, r)
        chars = self._chars
        if chars:
            char_token = self.char_pending
            char_token.data = "".join(chars)  # one part: that very string
            chars.clear()
            return char_token
        self._emit_pending = False
        return self.emit_pending

    def emit(self, token: Token | str) -> None:
        """Emit a token, or characters (buffered until the next non-character token)."""
        if isinstance(token, str):
            self._chars.append(token)
            return
        self.emit_pending = token
        self._emit_pending = True
        if token.type == START_TAG:
            assert isinstance(token, StartTag)
            self.last_start_tag = token.tag_name

    def emit_str(self, data: str) -> None:
        """Emit characters (Java ``emit(String)`` / ``emit(char)``)."""
        self._chars.append(data)

    def transition(self, state: State) -> None:
        self.state = state

    def advance_transition(self, state: State) -> None:
        self.state = state
        self.reader.pos += 1

    def get_state(self) -> State:
        return self.state

    # --- character references -------------------------------------------------------------
    def consume_character_reference(
        self, additional_allowed: str | None, in_attribute: bool
    ) -> str | None:
        """The decoded reference after ``&`` or ``None`` (nothing consumed then)."""
        r = self.reader
        if r.is_empty():
            return None
        if additional_allowed is not None and additional_allowed == r.current():
            return None
        if r.matches_any(_NOT_CHAR_REF):
            return None
        r.mark()
        done, value = self._fast_reference(in_attribute)
        if done:
            return value
        if r.match_consume("#"):
            is_hex = r.match_consume_ignore_case("X")
            num_ref = r.consume_hex_sequence() if is_hex else r.consume_digit_sequence()
            if not num_ref:
                r.rewind_to_mark()
                return None
            r.unmark()
            r.match_consume(";")
            return numeric_value(num_ref, is_hex)
        name_ref = r.consume_letter_then_digit_sequence()
        looks_legit = r.matches(";")
        found = name_ref in BASE_NAMES or (looks_legit and name_ref in FULL_NAMES)
        if not found:
            r.rewind_to_mark()
            return None
        if in_attribute and (r.matches_letter() or r.matches_digit() or r.matches_any("=-_")):
            r.rewind_to_mark()
            return None
        r.unmark()
        r.match_consume(";")
        return _named_value(name_ref)

    def _fast_reference(self, in_attribute: bool) -> tuple[bool, str | None]:
        """``(True, answer)`` as the step-by-step code below gives it, or ``_SLOW`` (speed only).

        Taken when every position the reader would look at is below the window split (so no
        window slide can happen) and a named reference's letters are ASCII. Called with the
        mark set at ``pos``; consumes what jsoup would and clears the mark, or returns
        ``_SLOW`` with nothing changed.
        """
        r = self.reader
        s, pos, end, split = r.s, r.pos, r.end, r.split
        if pos >= end:
            return _SLOW
        if s[pos] == "#":
            p = pos + 1
            is_hex = p < end and s[p] in "xX"
            if is_hex:
                p += 1
            m = (_HEX_RUN if is_hex else _DIGIT_RUN).match(s, p, end)
            assert m is not None
            d = m.end()
            if d >= split or d >= end:
                return _SLOW
            r.mark_pos = -1
            if d == p:  # no digits: not a reference
                return True, None
            r.pos = d + 1 if s[d] == ";" else d
            return True, numeric_value(s[p:d], is_hex)
        m = _NAME_RUN.match(s, pos, end)
        assert m is not None
        j, k = m.end(1), m.end()
        if k >= split or k >= end or (j == k and not s[k].isascii()):
            return _SLOW
        name = s[pos:k]
        nxt = s[k]
        looks_legit = nxt == ";"
        r.mark_pos = -1
        if not (name in BASE_NAMES or (looks_legit and name in FULL_NAMES)):
            return True, None
        if in_attribute and (is_letter(nxt) or "0" <= nxt <= "9" or nxt in "=-_"):
            return True, None
        r.pos = k + 1 if looks_legit else k
        return True, _named_value(name)

    # --- pending tokens -----------------------------------------------------------------------
    def create_tag_pending(self, start: bool) -> Tag:
        tag: Tag = self.start_pending.reset() if start else self.end_pending.reset()
        self.tag_pending = tag
        return tag

    def emit_tag_pending(self) -> None:
        tag = self.tag_pending
        if tag._has_attr_name:
            tag.new_attribute()
        self.emit(tag)

    def create_comment_pending(self) -> None:
        self.comment_pending.reset()

    def emit_comment_pending(self) -> None:
        self.emit(self.comment_pending)

    def create_bogus_comment_pending(self) -> None:
        self.comment_pending.reset()
        self.comment_pending.bogus = True

    def create_doctype_pending(self) -> None:
        self.doctype_pending.reset()

    def emit_doctype_pending(self) -> None:
        self.emit(self.doctype_pending)

    def create_temp_buffer(self) -> None:
        self.data_buffer.clear()

    def data_buffer_str(self) -> str:
        return "".join(self.data_buffer)

    def is_appropriate_end_tag_token(self) -> bool:
        last = self.last_start_tag
        return last is not None and equals_ignore_case(self.tag_pending.name(), last)

    def appropriate_end_tag_name(self) -> str | None:
        return self.last_start_tag

    def appropriate_end_tag_seq(self) -> str:
        return f"</{self.last_start_tag}"

    def error(self, *args: object) -> None:
        """Parse errors are not collected."""

    def current_node_in_html_ns(self) -> bool:
        return True

    def unescape_entities(self, in_attribute: bool) -> str:
        """Java ``unescapeEntities``: decode the rest of the input."""
        r = self.reader
        out: list[str] = []
        while not r.is_empty():
            out.append(r.consume_to("&"))
            if r.matches("&"):
                r.consume()
                c = self.consume_character_reference(None, in_attribute)
                out.append(c if c else "&")
        return "".join(out)
