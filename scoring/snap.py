"""Snap text from another pipeline onto an exact span of a page (docs/metrics.md, snapping).

A chunk or reference string made by another extractor is often not a substring of the
stored page text: its whitespace, entities, case or compatibility characters differ, or a
few characters went missing. ``snap`` finds the page span it stands for:

1. Both texts are *normalised*, keeping a map from each normalised character back to the
   code points it came from: HTML entities (``&amp;``, ``&#233;``, ``&#xE9;``, with their
   ``;``) are decoded; each character with the combining marks after it is put in Unicode
   NFKC and case-folded; whitespace (``str.isspace``, which includes the no-break space) is
   removed, so that a line break, several spaces, a space or nothing between two blocks
   all compare equal (jsoup's ``text()`` joins blocks with one space, other extractors with
   a line break or nothing); the invisible characters ``text()`` drops (zero-width space,
   soft hyphen) and their kin (zero-width (non-)joiner, word joiner, byte-order mark) are
   removed.
2. The normalised text is looked for in the normalised page: its first occurrence is an
   exact snap, score 1.0.
3. Failing that, ``rapidfuzz.fuzz.partial_ratio_alignment`` finds the page window that
   best matches it; the window is widened by a margin on each side and the matching
   blocks of the two texts (``difflib``, no junk heuristic) trim it to the first and last
   block of at least two characters (one for a text that short). The score is
   ``rapidfuzz.fuzz.ratio`` of the normalised text and the normalised span, in [0, 1]
   (``2·M / (|a| + |b|)``, M the matched characters). Below ``min_score`` there is no snap.

The span found maps back to page offsets: from the first code point of the first
normalised character to the last code point of the last one. Whitespace at either edge of
the text then extends the span by up to that many whitespace code points of the page
(so a page slice whose whitespace was changed, but not its length at the edges, snaps to
itself when its normalised text occurs once on the page).
"""

from __future__ import annotations

import html
import re
import unicodedata
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any, NamedTuple

from scoring.inputs import Chunk

if TYPE_CHECKING:
    import numpy

    from scoring.spans import Spot

__all__ = [
    "DEFAULT_SNAP_MIN",
    "Normalised",
    "Snap",
    "Snapped",
    "check_snap_min",
    "heads_held",
    "normal_text",
    "normalise",
    "snap",
    "snap_chunks",
    "snap_heads",
]

DEFAULT_SNAP_MIN = 0.9
"""The least alignment score a snap needs (``--snap-min``)."""

#: characters removed before matching: jsoup's text() drops U+200B and U+00AD
_INVISIBLE = frozenset("\u200b\u200c\u200d\u2060\ufeff\u00ad")
#: printable ASCII but ``&`` (no whitespace): NFKC and case-folding change it only to lower case
_PLAIN = re.compile(r"[!-%'-~]+")
#: ASCII but ``&``: whitespace and plain ASCII, which normalise to the plain part lower-cased
_ASCII = re.compile(r"[\x00-%'-\x7f]+")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def check_snap_min(min_score: object) -> float:
    """Return ``min_score`` if it is a number in (0, 1], else raise ``ValueError``."""
    if isinstance(min_score, bool) or not isinstance(min_score, int | float):
        raise ValueError(f"snap minimum must be a number in (0, 1], got {min_score!r}")
    if not 0.0 < min_score <= 1.0:  # also rejects NaN
        raise ValueError(f"snap minimum must be in (0, 1], got {min_score!r}")
    return float(min_score)


class Normalised:
    """A normalised text and its map back: normalised character ``i`` came from the code
    points ``[starts[i], ends[i])`` of the original.

    Made with ``source`` only (:func:`normalised_lazily`), the text is worked out first and
    the map only when it is read: a page searched for exact matches that never occur needs
    no map."""

    __slots__ = ("_bits", "_ends", "_source", "_starts", "text")

    def __init__(
        self,
        text: str,
        starts: array[int] | None = None,
        ends: array[int] | None = None,
        *,
        source: str | None = None,
    ) -> None:
        self.text = text
        self._starts, self._ends, self._source = starts, ends, source
        self._bits: int | tuple[bytes, int] = 0

    def holds(self, needle: str) -> bool:
        """``needle in self.text``. On a long text, a needle one of whose 8-byte pieces
        (of its UTF-8, at offsets 0, 24, 48 and 72) is in no 8-byte window of the text's
        UTF-8 is told absent without searching the text: each window's bit is set in a
        bitmap of 8 bits a window (:func:`_window_bits`), and a piece whose bit is clear is
        in no window. Exact (a substring's UTF-8 is a substring of the text's, and so is
        each of its pieces; a set bit only sends the needle on to the search), and about
        a microsecond a piece where searching a page of 100,000 characters takes a
        hundred. On chunks of other pages these four pieces rule out all but 0.3 % of what
        all of them do. The bitmap is made once the text has been searched
        :data:`_BITS_AFTER` times (making it costs about as much as that many searches)."""
        bits = self._bits
        if len(needle) < 8:
            return needle in self.text
        if isinstance(bits, int):  # searches so far: the bitmap once it costs less
            if bits < _BITS_AFTER or len(self.text) < _BITS_FROM:
                self._bits = bits + 1
                return needle in self.text
            bits = self._bits = _window_bits(self.text.encode("utf-8"))
        table, shift = bits
        raw = needle.encode("utf-8")
        for i in _PROBE_OFFSETS:
            if i + 8 > len(raw):
                break
            at = ((int.from_bytes(raw[i : i + 8], "little") * _MIX) & _MASK) >> shift
            if not table[at >> 3] >> (at & 7) & 1:
                return False
        return needle in self.text

    def holds_each(self, needles: Sequence[str]) -> list[bool]:
        """``[self.holds(needle) for needle in needles]``; on a long text, with
        :data:`_EACH_AT_ONCE` needles or more, the bitmap is made now (if it is not yet)
        and every needle's pieces are looked up in it at once (:func:`_absent_pieces`):
        only the needles it does not rule out are searched for."""
        text = self.text
        if len(needles) < _EACH_AT_ONCE or len(text) < _BITS_FROM:
            return [self.holds(needle) for needle in needles]
        bits = self._bits
        if isinstance(bits, int):
            bits = self._bits = _window_bits(text.encode("utf-8"))
        absent = _absent_pieces(needles, *bits)
        return [
            False if out else needle in text for needle, out in zip(needles, absent, strict=True)
        ]

    def _map(self) -> tuple[array[int], array[int]]:
        if self._starts is None or self._ends is None:
            assert self._source is not None
            full = normalise(self._source)
            self._starts, self._ends = full.starts, full.ends
        return self._starts, self._ends

    @property
    def starts(self) -> array[int]:
        return self._map()[0]

    @property
    def ends(self) -> array[int]:
        return self._map()[1]

    def source_span(self, a: int, b: int) -> tuple[int, int]:
        """The original span of normalised characters ``[a, b)`` (``a < b``)."""
        starts, ends = self._map()
        return starts[a], ends[b - 1]


_PROBE_OFFSETS = (0, 24, 48, 72)
_MIX = 0x9E3779B97F4A7C15  # odd: multiplying by it mod 2**64 mixes a window into its top bits
_MASK = 2**64 - 1

#: text length from which ``Normalised.holds`` consults its bitmap before searching:
#: below it, searching the text is about as quick as the look-up
_BITS_FROM = 4096
#: searches of a text after which ``Normalised.holds`` makes its bitmap (about 10-20 ns
#: a character, where a search that fails takes about 0.5)
_BITS_AFTER = 40


#: needles from which ``Normalised.holds_each`` looks them up in the bitmap together
_EACH_AT_ONCE = 16


def _absent_pieces(needles: Sequence[str], table: bytes, shift: int) -> list[bool]:
    """For each needle, whether one of its 8-byte pieces (``Normalised.holds``'s) has its
    bit clear in the bitmap ``table`` made with ``shift`` (:func:`_window_bits`): then the
    needle is in no text the bitmap was made of. The needles' UTF-8 is joined and every
    piece read as one little-endian integer of an overlapping view, as the bitmap's
    windows were."""
    import numpy as np

    raw = [needle.encode("utf-8") for needle in needles]
    lengths = np.fromiter(map(len, raw), dtype=np.int64, count=len(raw))
    starts = np.zeros(len(raw), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    joined = b"".join(raw) + bytes(8)  # the padding keeps every piece's view in bounds
    view = np.ndarray((len(joined) - 7,), dtype="<u8", buffer=joined, strides=(1,))
    flags = np.frombuffer(table, dtype=np.uint8)
    absent = np.zeros(len(raw), dtype=bool)
    for i in _PROBE_OFFSETS:
        long_enough = lengths >= i + 8
        if not long_enough.any():
            break
        at = (view[starts[long_enough] + i] * np.uint64(_MIX)) >> np.uint64(shift)
        clear = (flags[at >> np.uint64(3)] >> (at & np.uint64(7)).astype(np.uint8)) & 1 == 0
        absent[long_enough] |= clear
    return absent.tolist()


def _window_bits(raw: bytes) -> tuple[bytes, int]:
    """A bitmap of ``raw``'s 8-byte windows and its shift: window ``w`` (little-endian, at
    every offset) sets bit ``((w · _MIX) mod 2**64) >> shift`` (multiplicative hashing);
    2**(64 − shift) bits, at least 8 a window, so that a piece absent from ``raw`` finds
    its bit set for at most about one in eight."""
    import numpy as np

    n = len(raw) - 7
    size = max(6, (8 * max(n, 1) - 1).bit_length())  # log2 of the bits
    shift = 64 - size
    flags = np.zeros(2**size, dtype=bool)
    if n > 0:
        # every window at once: a view of the bytes as overlapping 8-byte integers (one
        # byte apart), multiplied into a new array (wrapping mod 2**64, as the look-up's
        # mask does)
        windows = np.ndarray((n,), dtype="<u8", buffer=raw, strides=(1,)) * np.uint64(_MIX)
        windows >>= np.uint64(shift)
        flags[windows] = True
    return np.packbits(flags, bitorder="little").tobytes(), shift


@dataclass(frozen=True, slots=True)
class Snap:
    """Where a text was snapped: page offsets ``[start, end)`` and the alignment score
    (1.0 for an exact match of the normalised texts)."""

    start: int
    end: int
    score: float


def _fold(cluster: str) -> str:
    out = unicodedata.normalize("NFKC", cluster).casefold()
    if any(c.isspace() or c in _INVISIBLE for c in out):  # e.g. NFKC('¨') == ' ̈'
        out = "".join(c for c in out if not (c.isspace() or c in _INVISIBLE))
    return out


class _CharFolds(dict[int, "str | None"]):
    """``str.translate`` table normalising one character at a time, filled as characters
    are met: whitespace and invisible characters to None (removed), ASCII lower-cased,
    any other character to ``_fold`` of it alone. Right for a text in which every
    character is a piece of its own: no combining mark (it would join the character
    before it) and no entity. The combining marks met are kept in ``marks`` (mapped to
    themselves) so that a text holding one can be told apart."""

    __slots__ = ("marks",)

    def __init__(self) -> None:
        super().__init__()
        self.marks: set[str] = set()

    def __missing__(self, code: int) -> str | None:
        c = chr(code)
        out: str | None
        if c.isspace() or c in _INVISIBLE:
            out = None
        elif c.isascii():
            out = c.lower()
        elif unicodedata.combining(c):
            self.marks.add(c)
            out = c
        else:
            out = _fold(c) or None
        self[code] = out
        return out


_FOLDS = _CharFolds()


def _per_character(text: str, *, entities: bool = True) -> str | None:
    """``normal_text(text)`` when every character of ``text`` is a piece of its own (no
    combining mark, no entity), else None: each run of non-ASCII characters translated
    through the memo of folds, then whitespace dropped and ASCII lower-cased at C speed
    (``bytes.lower`` changes ASCII letters alone; a fold is already lower case).
    ``entities=False``: the caller knows ``text`` holds no entity that decodes."""
    if entities and "&" in text and _ENTITY.search(text) is not None:
        return None
    folded = text if text.isascii() else _NON_ASCII.sub(_fold_run, text)
    if _FOLDS.marks and not _FOLDS.marks.isdisjoint(text):
        return None
    out = "".join(folded.split())
    if out.isascii():
        return out.lower()
    return out.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def _fold_run(run: re.Match[str]) -> str:
    return run.group().translate(_FOLDS)


def normal_text(text: str) -> str:
    """``normalise(text).text`` without the map back (what a text looked for needs): an
    ASCII text without ``&`` in C (whitespace removed, lower case: NFKC and case-folding
    change no other ASCII character); a text without combining marks or entities with
    one ``str.translate`` (each character is then a piece of its own, normalised alone);
    anything else piece by piece."""
    if text.isascii() and "&" not in text:
        return "".join(text.split()).lower()
    out = _per_character(text)
    if out is not None:
        return out
    pieces = _entity_pieces(text)
    if pieces is not None:
        return pieces[0]
    parts: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        run = _ASCII.match(text, i)
        if run is not None:  # whitespace and plain ASCII together, at C speed
            j = _run_end(text, run.end())
            if j > i:
                parts.append("".join(text[i:j].split()).lower())
                i = j
                continue
        out, i = _piece_at(text, i, False)
        parts.append(out)
    return "".join(parts)


#: characters of a text normalised first, to see whether it can occur at all (see
#: ``_head_absent``): long enough that a chunk of another page almost never passes
HEAD = 96


def _head(text: str) -> str | None:
    """The normalised head of ``text`` that ``_head_absent`` looks for (None: no head, the
    text is short or has no space after :data:`HEAD` characters)."""
    cut = text.find(" ", HEAD)
    return normal_text(text[:cut]) if cut >= 0 else None


def _head_absent(text: str, hay: Normalised) -> bool:
    """Whether a head of ``text`` (up to the first space after :data:`HEAD` characters)
    normalises to a text not in ``hay``: then neither does the whole ``text``.

    Exact: normalising works piece by piece (an ASCII run, an entity, a character with the
    combining marks after it) and no piece spans a space (a space is its own piece, giving
    nothing, and is never a combining mark or part of an entity), so ``normal_text`` of the
    text before a space is a prefix of ``normal_text`` of the whole. Most chunks looked for
    on a page are of other pages, and normalising 100 characters of each instead of all of
    them is most of the saving."""
    head = _head(text)
    return head is not None and head != "" and not hay.holds(head)


def normalised_lazily(text: str) -> Normalised:
    """``normalise(text)`` with its map made only when it is read (see :class:`Normalised`)."""
    return Normalised(normal_text(text), source=text)


def normalise(text: str) -> Normalised:
    """``text`` normalised as the module says, with its map back to ``text``'s offsets."""
    if len(text) >= _MAP_AT_ONCE and array("I").itemsize == 4:
        normal = _per_character(text)
        if normal is not None:
            return _per_character_map(text, normal)
        pieces = _entity_pieces(text)
        if pieces is not None:
            return _per_character_map(text, *pieces)
    chars: list[str] = []
    # flat arrays, not lists of ints: a page's map costs 8 bytes a character, not 70
    starts: array[int] = array("I")
    ends: array[int] = array("I")
    for out, i, j, plain in _pieces(text):
        chars.append(out)
        if plain:  # one character from each code point
            starts.extend(range(i, j))
            ends.extend(range(i + 1, j + 1))
        else:  # every character from the whole piece
            starts.extend([i] * len(out))
            ends.extend([j] * len(out))
    return Normalised("".join(chars), starts, ends)


#: text length from which ``normalise`` makes the map of a text of one-character pieces
#: with array operations (below it, the piece-by-piece loop is as quick)
_MAP_AT_ONCE = 1024


def _entity_pieces(text: str) -> tuple[str, list[tuple[int, int, str]]] | None:
    """``normal_text(text)`` and its entities (``(i, j, normalised)`` for each ``text[i:j]``
    that decodes, in order) when every other piece of ``text`` is a single character (no
    combining mark), else None: the runs between entities normalised a character at a
    time (:func:`_per_character`), each entity as the piece-by-piece loop folds it. Those
    runs hold no entity that decodes (an ``&`` the loop does not decode is a character of
    its own, as here)."""
    parts: list[str] = []
    entities: list[tuple[int, int, str]] = []
    at = 0
    for found in _ENTITY.finditer(text):
        raw = found.group()
        decoded = html.unescape(raw)
        if decoded == raw:
            continue
        run = _per_character(text[at : found.start()], entities=False)
        if run is None:
            return None
        out = _fold(decoded)
        parts += (run, out)
        entities.append((found.start(), found.end(), out))
        at = found.end()
    run = _per_character(text[at:], entities=False)
    if run is None:
        return None
    parts.append(run)
    return "".join(parts), entities


def _per_character_map(
    text: str, normal: str, entities: Sequence[tuple[int, int, str]] = ()
) -> Normalised:
    """``normalise(text)`` for a text whose every character is a piece of its own but
    ``entities`` (:func:`_entity_pieces`; ``normal`` is its normal text): each character
    gives ``len`` of its fold characters (none for whitespace and invisible ones), each from
    code points ``[i, i + 1)``, as the piece-by-piece loop maps a plain run and a single
    character alike; an entity ``text[i:j]`` gives its normalised characters, each from
    ``[i, j)``."""
    import numpy as np

    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    sizes = np.ones(len(text), dtype=np.int64)
    for c in set(text):
        folded = _FOLDS[ord(c)]
        size = len(folded) if folded is not None else 0
        if size != 1:
            sizes[codes == ord(c)] = size
    del codes  # each array goes as soon as it is used: a 1 MB page's map peaks at 8 bytes
    # a character for each array alive at once
    after = None
    if entities:
        after = np.arange(1, len(text) + 1, dtype="=u4")  # where each character's piece ends
        for i, j, out in entities:
            sizes[i] = len(out)
            sizes[i + 1 : j] = 0
            after[i] = j
    starts = _repeated(np.arange(len(text), dtype="=u4"), sizes)
    if after is not None:
        ends = _repeated(after, sizes)
    else:
        ends = array("I", starts)  # a copy, each plus one below
        np.frombuffer(ends, dtype="=u4")[:] += np.uint32(1)
    assert len(starts) == len(normal)
    return Normalised(normal, starts, ends)


def _repeated(values: numpy.ndarray, sizes: numpy.ndarray) -> array[int]:
    """``numpy.repeat(values, sizes)`` (unsigned 32-bit) as a flat array."""
    import numpy as np

    out = array("I")
    out.frombytes(np.repeat(values, sizes).data.cast("B"))
    return out


def _pieces(text: str) -> Iterator[tuple[str, int, int, bool]]:
    """``text``'s normalised pieces in order: ``(normalised, i, j, plain)`` where
    ``text[i:j]`` is a run of plain ASCII (``plain``: lower-cased, one character per code
    point), or one character with the combining marks after it, or an entity (folded; every
    character from all of ``[i, j)``); whitespace and invisible characters give none."""
    n = len(text)
    i = 0
    fast = text.isascii()
    while i < n:
        plain = _PLAIN.match(text, i)
        if plain is not None:  # a run of ASCII that folds to itself, lower-cased at once
            j = _run_end(text, plain.end())
            if j > i + 1:
                yield text[i:j].lower(), i, j, True
                i = j
                continue
        out, j = _piece_at(text, i, fast)
        if out:
            yield out, i, j, False
        i = j


def _run_end(text: str, j: int) -> int:
    """``j``, or ``j - 1`` when the run's last character starts a cluster with the marks
    after it."""
    return j - 1 if j < len(text) and unicodedata.combining(text[j]) else j


def _piece_at(text: str, i: int, fast: bool) -> tuple[str, int]:
    """The normalised piece at ``text[i]`` (empty for whitespace and invisible characters)
    and where the next begins: an entity, or the character with its combining marks
    (``fast``: ``text`` is ASCII, so there are none)."""
    c = text[i]
    if c.isspace() or c in _INVISIBLE:
        return "", i + 1
    if c == "&":
        m = _ENTITY.match(text, i)
        if m is not None:
            decoded = html.unescape(m.group())
            if decoded != m.group():
                return _fold(decoded), m.end()
    if fast:
        return c.lower(), i + 1
    j = i + 1
    while j < len(text) and unicodedata.combining(text[j]):
        j += 1
    return _fold(text[i:j]), j


def _edges(text: str) -> tuple[int, int]:
    """Number of whitespace code points at the start and at the end of ``text``."""
    lead = len(text) - len(text.lstrip())
    if lead == len(text):
        return lead, 0
    return lead, len(text) - len(text.rstrip())


def _widen(page: str, start: int, end: int, lead: int, trail: int) -> tuple[int, int]:
    while lead and start > 0 and page[start - 1].isspace():
        start -= 1
        lead -= 1
    while trail and end < len(page) and page[end].isspace():
        end += 1
        trail -= 1
    return start, end


def _align(needle: str, hay: str, min_score: float) -> tuple[int, int, float] | None:
    """Best fuzzy span ``[a, b)`` of normalised ``needle`` in normalised ``hay`` and its
    score (see the module), or None when nothing matches or no span can score
    ``min_score``.

    Pruning, exact: a span s of ``hay`` with ratio(needle, s) = 2L/(|n| + |s|) >= t (L the
    longest common subsequence) has |s| <= (2/t - 1)|n|, and a window of ``hay`` of
    |n| characters (the windows ``partial_ratio`` searches, when ``hay`` is the longer)
    inside or around s keeps all of L but |s| - |n| matches, so some window scores at least
    3 - 2/t (0.778 for t = 0.9); ``partial_ratio_alignment`` may skip windows below that.
    """
    from rapidfuzz import fuzz

    cutoff = 0.0
    if len(needle) <= len(hay):
        cutoff = max(0.0, 100.0 * (3.0 - 2.0 / min_score) - 1e-6)
    found = fuzz.partial_ratio_alignment(needle, hay, score_cutoff=cutoff)
    if found is None or not found.score:
        return None
    margin = max(8, len(needle) // 4)
    lo = max(0, found.dest_start - margin)
    hi = min(len(hay), found.dest_end + margin)
    window = hay[lo:hi]
    blocks = [
        b
        for b in SequenceMatcher(None, needle, window, autojunk=False).get_matching_blocks()
        if b.size >= min(2, len(needle))
    ]
    if not blocks:
        return None
    a = lo + blocks[0].b
    b = lo + blocks[-1].b + blocks[-1].size
    return a, b, fuzz.ratio(needle, hay[a:b]) / 100.0


def snap(
    text: str,
    page: str,
    min_score: float = DEFAULT_SNAP_MIN,
    normal: Normalised | None = None,
    *,
    fuzzy: bool = True,
    absent: bool = False,
) -> Snap | None:
    """Where ``text`` stands on ``page`` (the module's rule), or None: a text without a
    character left after normalising, or no span scoring at least ``min_score``.

    ``normal`` is ``normalise(page)`` when the caller has it (a page snapped onto many
    times). A text that is a substring of ``page`` snaps to its first occurrence (score 1).
    Without ``fuzzy`` only steps 1 and 2 are tried (an exact match of the normalised texts).
    ``absent`` says the caller knows ``text`` is not a substring of ``page``.
    """
    at = page.find(text) if text and not absent else -1
    if at >= 0:
        return Snap(at, at + len(text), 1.0)
    hay = normal if normal is not None else normalise(page)
    if not hay.text or (not fuzzy and _head_absent(text, hay)):
        return None
    needle = normal_text(text)
    if not needle:
        return None
    lead, trail = _edges(text)
    i = hay.text.find(needle)
    if i >= 0:
        s, e = hay.source_span(i, i + len(needle))
        return Snap(*_widen(page, s, e, lead, trail), 1.0)
    if not fuzzy:
        return None
    aligned = _align(needle, hay.text, min_score)
    if aligned is None or aligned[2] < min_score:
        return None
    a, b, score = aligned
    s, e = hay.source_span(a, b)
    return Snap(*_widen(page, s, e, lead, trail), score)


class Snapped(NamedTuple):
    """A chunk scored at a snapped span: its rank (1-based), the page, the span
    ``[start, end)`` on it and the alignment score."""

    rank: int
    doc: str
    start: int
    end: int
    score: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {
            "rank": self.rank,
            "doc": self.doc,
            "start": self.start,
            "end": self.end,
            "score": self.score,
        }


def snap_chunks(
    ranked: Sequence[Chunk],
    placed: Mapping[str, Sequence[Spot]],
    page_text: Callable[[str], str],
    normal: Callable[[str], Normalised],
    min_score: float,
    held: Mapping[str, Mapping[int, bool]] | None = None,
) -> tuple[list[Chunk], tuple[Snapped, ...]]:
    """The question's chunks with each one found on none of its cited pages replaced by
    the page slice it snaps to (with that page and the slice's offsets, so that scoring
    pins it there), and the snaps made.

    ``placed`` is page → spots as the scoring loop placed the chunks (every cited page);
    a rank is snapped when its spot is off the page (−1) on every cited page. It is snapped
    onto its ``doc`` when that is a cited page (every step of the module's rule), and not at
    all when its ``doc`` is another page. A chunk with no ``doc`` is snapped onto the first
    cited page (in element order) where its normalised text occurs exactly, never by fuzzy
    alignment: most chunks of a run come from pages its question does not cite, and
    aligning each against every cited page costs tens of milliseconds a chunk (a run of
    4,000 questions whose chunks name no page took minutes to score instead of a second).
    ``page_text`` and ``normal`` give a page's text and its ``normalise``. Chunks left as
    they were keep their identity.

    ``held`` (page → rank → whether the page's normal text holds the rank's head), when
    given, is :func:`heads_held` of :func:`snap_heads` (a caller snapping many questions
    looks their heads up together); a head it does not answer is looked up by ``snap``.
    """
    off = _off_ranks(placed)
    out = list(ranked)
    made: list[Snapped] = []
    if held is None:
        heads = snap_heads(ranked, placed)
        held = heads_held([(placed, heads)], normal)[0] if len(heads) > 1 else {}
    for r, is_off in off.items():
        if not is_off:
            continue
        chunk = ranked[r]
        text = chunk.text
        assert text is not None
        if chunk.doc is None:
            pages: Sequence[str] = list(placed)
        elif chunk.doc in placed:
            pages = (chunk.doc,)
        else:
            continue
        best: tuple[str, Snap] | None = None
        fuzzy = chunk.doc is not None
        for doc in pages:
            if not held.get(doc, {}).get(r, True):
                continue
            found = snap(text, page_text(doc), min_score, normal(doc), fuzzy=fuzzy, absent=True)
            if found is not None and (best is None or found.score > best[1].score):
                best = (doc, found)
        if best is None:
            continue
        doc, found = best
        page = page_text(doc)
        out[r] = Chunk(page[found.start : found.end], doc, chunk.score, found.start, found.end)
        made.append(Snapped(r + 1, doc, found.start, found.end, found.score))
    return out, tuple(made)


def _off_ranks(placed: Mapping[str, Sequence[Spot]]) -> dict[int, bool]:
    """Rank index → whether the chunk is off the page (−1) on every cited page."""
    off: dict[int, bool] = {}
    for spots in placed.values():
        for r, text, c0, _, _ in spots:
            if text is not None:
                off[r] = off.get(r, True) and c0 < 0
    return off


def snap_heads(ranked: Sequence[Chunk], placed: Mapping[str, Sequence[Spot]]) -> dict[int, str]:
    """Rank index → normalised head (``_head``) of each chunk :func:`snap_chunks` may snap
    onto any cited page: off every cited page, with no ``doc`` and a head."""
    heads: dict[int, str] = {}
    for r, is_off in _off_ranks(placed).items():
        if is_off and ranked[r].doc is None:
            head = _head(ranked[r].text or "")
            if head:
                heads[r] = head
    return heads


def heads_held(
    wanted: Sequence[tuple[Iterable[str], Mapping[int, str]]],
    normal: Callable[[str], Normalised],
) -> list[dict[str, dict[int, bool]]]:
    """For each ``(pages, heads)`` of ``wanted`` (one question's cited pages and its
    :func:`snap_heads`), page → rank → whether the page's normal text holds the head, for
    every page whose normal text is not empty: the heads of all the questions looked up on
    each page at once (``Normalised.holds_each``)."""
    by_page: dict[str, list[tuple[int, int, str]]] = {}
    for i, (pages, heads) in enumerate(wanted):
        if heads:
            for doc in pages:
                by_page.setdefault(doc, []).extend((i, r, head) for r, head in heads.items())
    out: list[dict[str, dict[int, bool]]] = [{} for _ in wanted]
    for doc, asked in by_page.items():
        hay = normal(doc)
        if not hay.text:
            continue
        found = hay.holds_each([head for _, _, head in asked])
        for (i, r, _), holds in zip(asked, found, strict=True):
            page = out[i].get(doc)
            if page is None:
                page = out[i][doc] = {}
            page[r] = holds
    return out
