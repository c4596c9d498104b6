"""Exact, drift-free mapping between stored page offsets and TextArea locations.

Textual's TextArea normalises line endings: it keeps one newline style, splits lines with
``str.splitlines()`` (which also breaks on ``\\r``, U+2028, U+2029, form feed, NEL, ...) and
drops a trailing separator; Rich then strips or zero-widths control characters. Fed the
stored text directly, its (row, column) positions would drift from the stored offsets.

So the widget never sees the stored text. It gets a *display copy* of the same length in
which every control character except ``\\t`` and ``\\n`` (and U+2028/U+2029) is replaced by a
visible one-cell placeholder (``\\r`` → ``␍``). In that copy ``\\n`` is the only line break,
so row ``r`` column ``c`` is simply ``line_starts[r] + c`` in both texts. Offsets are
code points, as everywhere in the store (docs/formats.md, Offsets and page text). This
module imports no Textual.

jsoup's text of a whole page is a single line (a 1 MB page is one 1 MB line), which a
soft-wrapping TextArea re-wraps on every keystroke. So the display copy also shows some
spaces as line breaks: in every line longer than the display width (the page pane's width,
given by the widget and worked out again on resize; :data:`DISPLAY_LINE` until it is known),
the space after the last sentence end (or, failing that, the last space) before the limit
becomes a ``\n``. A space and a newline are one code point each, so offsets still map 1:1.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Final

_PLACEHOLDERS: Final = {
    0x0D: "\u240d",  # ␍ carriage return
    0x0B: "\u240b",  # ␋ vertical tab
    0x0C: "\u240c",  # ␌ form feed
    0x1C: "\u241c",
    0x1D: "\u241d",
    0x1E: "\u241e",
    0x85: "\u2424",  # ␤ NEL
    0x2028: "\u2424",  # ␤ line separator
    0x2029: "\u00b6",  # ¶ paragraph separator
    0x7F: "\u2421",  # ␡ delete
}


def _display_table() -> dict[int, str]:
    table = {c: chr(0x2400 + c) for c in range(0x20) if c not in (0x09, 0x0A)}
    table.update({c: "\u00bf" for c in range(0x80, 0xA0)})  # C1 controls → ¿
    table.update(_PLACEHOLDERS)
    return table


DISPLAY_TABLE: Final[dict[int, str]] = _display_table()
PLACEHOLDER_CHARS: Final[frozenset[str]] = frozenset(chr(c) for c in DISPLAY_TABLE)
#: one of :data:`PLACEHOLDER_CHARS`: most pages hold none, and a search in C finds that
#: out far faster than ``str.translate`` with a dict copies a 1 MB page
PLACEHOLDER_RE: Final = re.compile(
    "[" + "".join(re.escape(c) for c in sorted(PLACEHOLDER_CHARS)) + "]"
)

Location = tuple[int, int]


#: longest display line before a space is shown as a line break, until the pane's width is known
DISPLAY_LINE: Final = 76
#: the narrowest display width (a pane narrower than this wraps words instead)
MIN_DISPLAY_LINE: Final = 10

_SENTENCE_ENDS: Final = (". ", "? ", "! ", ": ", "; ")


_SENTENCE_END_RE: Final = re.compile("[" + re.escape("".join(e[0] for e in _SENTENCE_ENDS)) + "] ")


def break_long_lines(display: str, limit: int = DISPLAY_LINE) -> str:
    """``display`` with spaces turned into ``\n`` so no line is longer than ``limit`` where
    a space allows it: the space after the last sentence end in the second half of the
    window, else the last space in the window. Same length as ``display``.

    The sentence ends (``. `` and the like, which cannot overlap) are found once, by one
    regular expression over the page, and looked up per line by bisection: a 1 MB page is
    about 15,000 lines, and five searches per line cost more than the page's display."""
    size = len(display)
    if size <= limit:
        return display
    sentence_ends = [m.start() for m in _SENTENCE_END_RE.finditer(display)]
    cuts: list[int] = []
    start = 0
    while start + limit < size:
        newline = display.find("\n", start, start + limit + 1)
        if newline != -1:
            start = newline + 1
            continue
        window_end = start + limit
        # A line may be exactly ``limit`` long: the space at ``window_end`` may break it.
        # The last sentence end wholly inside [start + limit // 2, window_end).
        i = bisect_right(sentence_ends, window_end - 2) - 1
        if i >= 0 and sentence_ends[i] >= start + limit // 2:
            cut = sentence_ends[i] + 1
        else:
            cut = display.rfind(" ", start + 1, window_end + 1)
        if cut <= start:  # no space in the window: leave the long word alone
            cut = display.find(" ", window_end)
            if cut == -1:
                break
        cuts.append(cut)
        start = cut + 1
    if not cuts:
        return display
    pieces, previous = [], 0
    for cut in cuts:
        pieces.append(display[previous:cut])
        previous = cut + 1
    pieces.append(display[previous:])
    return "\n".join(pieces)


def to_display(stored: str, width: int = DISPLAY_LINE) -> str:
    """The same-length display copy of ``stored`` with lines broken at ``width`` code points
    (at least :data:`MIN_DISPLAY_LINE`; see the module docstring)."""
    display = PLACEHOLDER_RE.sub(_placeholder, stored)  # == stored.translate(DISPLAY_TABLE)
    return break_long_lines(display, max(width, MIN_DISPLAY_LINE))


def _placeholder(found: re.Match[str]) -> str:
    return DISPLAY_TABLE[ord(found.group())]


class PageMap:
    """Offsets into ``stored`` ↔ (row, column) locations in the display copy, whose lines
    are broken at ``width`` code points.

    ``blocks`` are the page's stored block starts (None: not stored), carried along for the
    selection keys and the block-start marks; they do not change the display copy.
    """

    def __init__(
        self, stored: str, blocks: list[int] | None = None, width: int = DISPLAY_LINE
    ) -> None:
        self.stored = stored
        self.blocks = blocks
        self.width = width
        self.display = to_display(stored, width)
        if len(self.display) != len(stored):  # pragma: no cover - the table maps 1:1
            raise AssertionError("display copy changed the length of the page")
        # each line starts one past the previous line's end (summed in C, by accumulate)
        lengths = map((1).__add__, map(len, self.display.split("\n")))
        self.line_starts = list(accumulate(lengths, initial=0))[:-1]

    def __len__(self) -> int:
        return len(self.stored)

    @property
    def rows(self) -> int:
        """Number of rows the widget shows (a trailing newline opens an empty last row)."""
        return len(self.line_starts)

    def row_length(self, row: int) -> int:
        """Code points in ``row`` without its ``\\n``."""
        end = self.line_starts[row + 1] - 1 if row + 1 < len(self.line_starts) else len(self)
        return end - self.line_starts[row]

    def to_location(self, offset: int) -> Location:
        """The (row, column) of ``offset``; ``ValueError`` outside ``0..len``. O(log rows)."""
        if not 0 <= offset <= len(self.stored):
            raise ValueError(f"offset {offset} outside the page (0..{len(self.stored)})")
        row = bisect_right(self.line_starts, offset) - 1
        return row, offset - self.line_starts[row]

    def to_offset(self, location: Location) -> int:
        """The stored offset of a (row, column); columns past a row's end are clamped."""
        row, column = location
        row = min(max(row, 0), len(self.line_starts) - 1)
        return self.line_starts[row] + min(max(column, 0), self.row_length(row))

    def span(self, a: Location, b: Location) -> tuple[int, int]:
        """Sorted stored offsets of a selection given as two locations."""
        x, y = self.to_offset(a), self.to_offset(b)
        return (x, y) if x <= y else (y, x)
