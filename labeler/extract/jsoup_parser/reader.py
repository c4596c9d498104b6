"""Follows jsoup 1.15.3's parser.CharacterReader (MIT licence, (c) Jonathan Hedley).

The whole input is one ``str``; ``pos`` is an absolute index into it. jsoup reads through a
32768-unit window (``maxBufferLen``) that it slides forward lazily ("bufferUp": when the
position reaches ``split`` = window start + min(window length, 24576), the window restarts at
the position, or at the mark). Scans stop at the window end and look-aheads (``nextIndexOf``,
``containsIgnoreCase``) only see the window, which is observable: whether ``</title`` is
"found" ahead of a ``<`` in RCDATA depends on it. The window is reproduced exactly for full
reads (Java ``StringReader``/``CharArrayReader``, what ``Jsoup.parse(String)`` uses). Window
sizes are counted in UTF-16 units as in Java (an astral character counts 2); a window end that
Java puts between the two halves of a surrogate pair is put before the pair here.

``current()``/``consume()`` return ``EOF_CHAR`` (U+FFFF, Java ``(char) -1``) past the end, and
``consume()`` then still advances, as in Java; a literal U+FFFF in the input reads the same.
Letters are ASCII letters or BMP characters with ``str.isalpha()`` (Java
``Character.isLetter(char)``; an astral character is two surrogate units, never letters).
"""

from __future__ import annotations

import bisect
import re
import sys

__all__ = ["EOF_CHAR", "CharacterReader"]

EOF_CHAR = "\uffff"
MAX_BUFFER_LEN = 1024 * 32
READ_AHEAD_LIMIT = int(MAX_BUFFER_LEN * 0.75)
MIN_READ_AHEAD_LEN = 1024
_NEVER = sys.maxsize

_DATA = re.compile("[^&<\x00]*")
_RAW = re.compile("[^<\x00]*")
_QUOTED_SINGLE = re.compile("[^'&\x00]*")
_QUOTED_DOUBLE = re.compile('[^"&\x00]*')
_TAG_NAME = re.compile("[^\t\n\r\f /><]*")
_ASCII_LETTERS = re.compile("[A-Za-z]*")
_DIGITS = re.compile("[0-9]*")
_HEX = re.compile("[0-9A-Fa-f]*")
_ANY_CACHE: dict[str, re.Pattern[str]] = {}
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def is_letter(c: str) -> bool:
    """Java ``Character.isLetter`` on one UTF-16 unit (astral code points: False)."""
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or (c > "\x7f" and c <= "\uffff" and c.isalpha())


def _any_pattern(chars: str) -> re.Pattern[str]:
    p = _ANY_CACHE.get(chars)
    if p is None:
        p = re.compile("[^" + "".join(re.escape(c) for c in chars) + "]*")
        _ANY_CACHE[chars] = p
    return p


def _upper_unit(c: str) -> str:
    """Java ``Character.toUpperCase(char)`` (one unit to one unit)."""
    u = c.upper()
    return u if len(u) == 1 else c


class CharacterReader:
    """Reads one ``str``; see the module docstring for the window emulation."""

    __slots__ = (
        "_astral",
        "_last_ic_index",
        "_last_ic_seq",
        "_read_fully",
        "buf_start",
        "end",
        "length",
        "mark_pos",
        "pos",
        "s",
        "split",
    )

    def __init__(self, html: str) -> None:
        self.s = html
        self.length = len(html)
        self.pos = 0
        self.buf_start = 0
        self.end = 0  # window end (exclusive, absolute)
        self.split = 0
        self.mark_pos = -1
        self._read_fully = False
        self._last_ic_seq: str | None = None
        self._last_ic_index = -1
        # indexes of astral characters (two UTF-16 units each in Java)
        self._astral = [m.start() for m in _ASTRAL.finditer(html)] if not html.isascii() else []
        self.buffer_up()

    # --- window -------------------------------------------------------------------------
    def buffer_up(self) -> None:
        """Java ``bufferUp``: slide the window when ``pos`` reached ``split``."""
        if self._read_fully or self.pos < self.split:
            return
        start = self.mark_pos if self.mark_pos != -1 else self.pos
        remaining = self.length - start
        if remaining <= 0:
            read = 0
            self._read_fully = True
        else:
            read = self._span(start, MAX_BUFFER_LEN)
            if self._units(start, start + read) <= MIN_READ_AHEAD_LEN:
                self._read_fully = True  # the read loop asks again and gets -1
        if read > 0:
            self.buf_start = start
            self.end = start + read
            self.split = start + min(read, self._span(start, READ_AHEAD_LIMIT))
        if self._read_fully:
            self.split = _NEVER
        self._last_ic_seq = None

    def _units(self, a: int, b: int) -> int:
        """UTF-16 length of ``s[a:b]``."""
        ast = self._astral
        if not ast:
            return b - a
        return b - a + bisect.bisect_left(ast, b) - bisect.bisect_left(ast, a)

    def _span(self, start: int, units: int) -> int:
        """The most code points from ``start`` (to the end) that fit in ``units`` UTF-16 units."""
        hi = min(start + units, self.length)
        if not self._astral or self._units(start, hi) <= units:
            return hi - start
        lo = start  # units(start, lo) <= units < units(start, hi)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self._units(start, mid) <= units:
                lo = mid
            else:
                hi = mid
        return lo - start

    def _up(self) -> None:
        if self.pos >= self.split:
            self.buffer_up()

    # --- position -----------------------------------------------------------------------
    def is_empty(self) -> bool:
        if self.pos >= self.split:
            self.buffer_up()
        return self.pos >= self.end

    def current(self) -> str:
        if self.pos >= self.split:
            self.buffer_up()
        pos = self.pos
        return self.s[pos] if pos < self.end else EOF_CHAR

    def consume(self) -> str:
        if self.pos >= self.split:
            self.buffer_up()
        pos = self.pos
        self.pos = pos + 1
        return self.s[pos] if pos < self.end else EOF_CHAR

    def unconsume(self) -> None:
        if self.pos < 1:
            raise RuntimeError("No buffer left to unconsume")
        self.pos -= 1

    def advance(self) -> None:
        self.pos += 1

    def mark(self) -> None:
        if not self._read_fully and self._units(self.pos, self.end) < MIN_READ_AHEAD_LEN:
            self.split = 0
        self._up()
        self.mark_pos = self.pos

    def unmark(self) -> None:
        self.mark_pos = -1

    def rewind_to_mark(self) -> None:
        if self.mark_pos == -1:
            raise RuntimeError("Mark invalid")
        self.pos = self.mark_pos
        self.mark_pos = -1

    # --- searches -----------------------------------------------------------------------
    def next_index_of(self, seq: str) -> int:
        """Offset from ``pos`` of ``seq`` (a char or string) within the window, or -1."""
        self._up()
        i = self.s.find(seq, self.pos, self.end)
        return -1 if i < 0 else i - self.pos

    def consume_to(self, seq: str) -> str:
        """Java ``consumeTo(char)`` / ``consumeTo(String)``."""
        offset = self.next_index_of(seq)
        pos = self.pos
        if offset != -1:
            self.pos = pos + offset
            return self.s[pos : pos + offset]
        if len(seq) == 1 or self.end - pos < len(seq):
            return self.consume_to_end()
        # the sequence may straddle the window end: keep len-1 units unread
        end_pos = self.end - len(seq) + 1
        self.pos = end_pos
        return self.s[pos:end_pos]

    def _run(self, pattern: re.Pattern[str]) -> str:
        pos = self.pos
        m = pattern.match(self.s, pos, self.end)
        assert m is not None  # ``[^...]*`` always matches
        new = m.end()
        self.pos = new
        return self.s[pos:new]

    def consume_to_any(self, chars: str) -> str:
        """Consume up to the first of ``chars`` (each a single character), or window end."""
        self._up()
        return self._run(_any_pattern(chars))

    def consume_data(self) -> str:
        """Up to ``&``, ``<`` or NUL (no bufferUp, as in Java)."""
        return self._run(_DATA)

    def consume_attribute_quoted(self, single: bool) -> str:
        return self._run(_QUOTED_SINGLE if single else _QUOTED_DOUBLE)

    def consume_raw_data(self) -> str:
        return self._run(_RAW)

    def consume_tag_name(self) -> str:
        """Up to whitespace, ``/``, ``>`` or ``<`` (NUL is kept)."""
        self._up()
        return self._run(_TAG_NAME)

    def consume_to_end(self) -> str:
        self._up()
        pos = self.pos
        self.pos = self.end
        return self.s[pos : self.end]

    def _letters(self) -> None:
        s, end = self.s, self.end
        m = _ASCII_LETTERS.match(s, self.pos, end)
        assert m is not None
        pos = m.end()
        while pos < end and is_letter(s[pos]):
            pos += 1
            m = _ASCII_LETTERS.match(s, pos, end)
            assert m is not None
            pos = m.end()
        self.pos = pos

    def consume_letter_sequence(self) -> str:
        self._up()
        start = self.pos
        self._letters()
        return self.s[start : self.pos]

    def consume_letter_then_digit_sequence(self) -> str:
        self._up()
        start = self.pos
        self._letters()
        m = _DIGITS.match(self.s, self.pos, self.end)
        assert m is not None
        self.pos = m.end()
        return self.s[start : self.pos]

    def consume_hex_sequence(self) -> str:
        self._up()
        return self._run(_HEX)

    def consume_digit_sequence(self) -> str:
        self._up()
        return self._run(_DIGITS)

    # --- matching -----------------------------------------------------------------------
    def matches(self, seq: str) -> bool:
        """Java ``matches(char)`` / ``matches(String)`` (within the window)."""
        self._up()
        pos = self.pos
        return pos + len(seq) <= self.end and self.s.startswith(seq, pos)

    def matches_ignore_case(self, seq: str) -> bool:
        self._up()
        pos = self.pos
        n = len(seq)
        if n > self.end - pos:
            return False
        target = self.s[pos : pos + n]
        if target.isascii():
            return target.upper() == seq.upper()
        return all(_upper_unit(a) == _upper_unit(b) for a, b in zip(seq, target, strict=True))

    def matches_any(self, chars: str) -> bool:
        self._up()
        pos = self.pos
        return pos < self.end and self.s[pos] in chars

    def matches_letter(self) -> bool:
        self._up()
        pos = self.pos
        return pos < self.end and is_letter(self.s[pos])

    def matches_ascii_alpha(self) -> bool:
        self._up()
        pos = self.pos
        if pos >= self.end:
            return False
        c = self.s[pos]
        return ("a" <= c <= "z") or ("A" <= c <= "Z")

    def matches_digit(self) -> bool:
        self._up()
        pos = self.pos
        return pos < self.end and "0" <= self.s[pos] <= "9"

    def match_consume(self, seq: str) -> bool:
        if self.matches(seq):
            self.pos += len(seq)
            return True
        return False

    def match_consume_ignore_case(self, seq: str) -> bool:
        if self.matches_ignore_case(seq):
            self.pos += len(seq)
            return True
        return False

    def contains_ignore_case(self, seq: str) -> bool:
        """Java ``containsIgnoreCase``: ``seq`` all lower-case or all upper-case in the window.

        Mixed case is not found. The last answer is cached until the window slides.
        """
        if seq == self._last_ic_seq:
            if self._last_ic_index == -1:
                return False
            if self._last_ic_index >= self.pos:
                return True
        self._last_ic_seq = seq
        lo = self.next_index_of(seq.lower())
        if lo > -1:
            self._last_ic_index = self.pos + lo
            return True
        hi = self.next_index_of(seq.upper())
        self._last_ic_index = self.pos + hi if hi > -1 else -1
        return hi > -1

    def __str__(self) -> str:
        return self.s[self.pos : self.end]
