"""Classify one element text against one chunk (docs/metrics.md, rules 1–3), plain and indexed.

An element may carry a *key span* (``key``: offsets ``(s, e)`` into the element text, e.g.
the "unless …" clause of a requirement). With one, Partial needs more than the threshold:
the chunk's one piece of the element (its overlap with one occurrence) must reach the
threshold *and* hold the whole key span; on the fallback rule the chunk must contain the key
text. Full is unchanged. A pair that would be Partial without the key and is not with it is
``key_lost`` (grade NONE). So keys can only lower Partial grades, never raise any grade.

``classify`` is the plain definition, written to be read next to docs/metrics.md. ``PageIndex``
is the fast path used to score whole runs: per page it finds each distinct chunk once, caches
every element's occurrence list, and reduces rule 2 to interval arithmetic with ``bisect``.
Both give identical results (a Hypothesis test checks it).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from itertools import accumulate, compress, repeat
from operator import add, sub
from typing import NamedTuple

from scoring.grades import Classification, Grade

__all__ = [
    "ANCHORS",
    "ANCHOR_KEY",
    "ANCHOR_MAX_CANDIDATES",
    "DEFAULT_THRESHOLD",
    "Key",
    "PageIndex",
    "best_overlap",
    "check_key",
    "check_threshold",
    "classify",
    "fallback_split",
    "keyed_overlap",
    "occurrences",
]

DEFAULT_THRESHOLD = 0.5
_EMPTY = Classification(Grade.NONE, 0.0, False, False, False)
_ABSENT = (-1, False)


def check_threshold(threshold: object) -> float:
    """Return ``threshold`` if it is a number in (0, 1], else raise ``ValueError``."""
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        raise ValueError(f"threshold must be a number in (0, 1], got {threshold!r}")
    if not 0.0 < threshold <= 1.0:  # also rejects NaN
        raise ValueError(f"threshold must be in (0, 1], got {threshold!r}")
    return float(threshold)


Key = tuple[int, int]
"""A key span: ``(s, e)`` code-point offsets into the element text, ``0 <= s < e <= |t|``."""


def check_key(key: tuple[object, object] | None, size: int) -> Key | None:
    """Return ``key`` if it is None or a span ``0 <= s < e <= size``, else raise
    ``ValueError``."""
    if key is None:
        return None
    s, e = key
    # each offset's own type (``object``: compiled, an ``int`` parameter takes True as 1)
    if (
        isinstance(s, bool)
        or not isinstance(s, int)
        or isinstance(e, bool)
        or not isinstance(e, int)
    ):
        raise ValueError(f"key offsets must be integers, got {key!r}")
    if not 0 <= s < e <= size:
        raise ValueError(f"key span {s}-{e} is not inside the element (0 <= s < e <= {size})")
    return s, e


def occurrences(page: str, text: str) -> tuple[int, ...]:
    """Start offsets of every occurrence of ``text`` in ``page``, overlapping ones included.

    ``occurrences("aaa", "aa") == (0, 1)``; an empty ``text`` has no occurrences.
    """
    if not text:
        return ()
    found: list[int] = []
    i = page.find(text)
    while i >= 0:
        found.append(i)
        i = page.find(text, i + 1)
    return tuple(found)


def fallback_split(text: str) -> tuple[str, str]:
    """Split ``text`` at code point ``max(len(text) // 2, 1)`` into (head, tail) (rule 3)."""
    cut = max(len(text) // 2, 1)
    return text[:cut], text[cut:]


def _fallback(text: str, chunk: str, key: Key | None = None) -> tuple[Grade, float, bool]:
    """Rule 3: grade, evidence share and key_lost when ``chunk`` does not occur in the page.

    With a key span, Partial also needs the key text ``t[s:e]`` inside the chunk.
    """
    if text in chunk:
        return Grade.FULL, 1.0, False
    head, tail = fallback_split(text)
    held = len(head) if head in chunk else 0
    if tail and len(tail) > held and tail in chunk:
        held = len(tail)
    if held:
        if key is not None and text[key[0] : key[1]] not in chunk:
            return Grade.NONE, held / len(text), True
        return Grade.PARTIAL, held / len(text), False
    return Grade.NONE, 0.0, False


def _grade(
    best: int, size: int, threshold: float, keyed: int | None = None
) -> tuple[Grade, float, bool]:
    """Rule 2 verdict (grade, coverage, key_lost) for the best overlap ``best`` of an
    element of ``size`` code points; ``keyed`` is the best overlap among the occurrences
    whose key span the chunk holds whole (None: the element has no key).

    The threshold is compared as ``best / size >= threshold`` (a correctly rounded ratio), so
    that e.g. 7 of 10 code points meets θ = 0.7 although ``0.7 * 10 > 7`` in binary floating
    point.
    """
    coverage = best / size
    if best >= size:
        return Grade.FULL, coverage, False
    if coverage >= threshold:
        if keyed is None or keyed / size >= threshold:
            return Grade.PARTIAL, coverage, False
        return Grade.NONE, coverage, True
    return Grade.NONE, coverage, False


def classify(
    page: str,
    element_text: str,
    chunk: str,
    threshold: object = DEFAULT_THRESHOLD,
    key: tuple[object, object] | None = None,
) -> Classification:
    """Classify element text ``t`` against chunk ``c`` on page ``P`` (docs/metrics.md).

    1. ``t`` or ``c`` empty → ``NONE`` (all flags false, coverage 0).
    2. ``c`` occurs in ``P``: take its first occurrence ``[c0, c0+|c|)``. For every occurrence
       ``e0`` of ``t`` (overlapping ones included) the overlap is
       ``max(0, min(e0+|t|, c0+|c|) − max(e0, c0))``; with the best one, ``FULL`` if
       best ≥ |t|, ``PARTIAL`` if best/|t| ≥ θ, else ``NONE``. If ``t`` does not occur in
       ``P`` at all the best overlap is 0.
    3. ``c`` does not occur in ``P`` (fallback): ``FULL`` if ``t`` is inside ``c``; else split
       ``t`` at code point ``max(|t|//2, 1)`` and give ``PARTIAL`` if ``c`` contains the head
       or the non-empty tail; else ``NONE``. θ plays no part here.

    With a key span ``key = (s, e)`` (offsets into ``t``), Full is unchanged, and Partial
    additionally needs, in rule 2, an occurrence ``e0`` whose piece in the chunk (the overlap
    above) reaches θ·|t| *and* holds ``[e0+s, e0+e)`` whole, i.e. ``c0 ≤ e0+s`` and
    ``e0+e ≤ c0+|c|``; in rule 3, the key text ``t[s:e]`` inside ``c``. A pair that is
    Partial without the key and not with it gets ``NONE`` with ``key_lost`` set; coverage is
    reported as without the key.

    Args:
        page: the stored page text ``P(e.doc)``.
        element_text: the expected element text ``t``.
        chunk: the retrieved chunk text ``c``.
        threshold: θ in (0, 1], default 0.5.
        key: the element's key span, offsets into ``t`` (None: no key).

    Returns:
        A ``Classification`` with grade, coverage and the repeated / fallback /
        chunk_repeated / key_lost flags.

    Raises:
        ValueError: a threshold outside (0, 1] or a key span not inside ``t``.
    """
    theta = check_threshold(threshold)
    span = check_key(key, len(element_text))
    if not element_text or not chunk:
        return _EMPTY
    starts = occurrences(page, element_text)
    repeated = len(starts) > 1
    c0 = page.find(chunk)
    if c0 < 0:
        grade, coverage, lost = _fallback(element_text, chunk, span)
        return Classification(grade, coverage, repeated, True, False, lost)
    chunk_repeated = page.find(chunk, c0 + 1) >= 0
    c1 = c0 + len(chunk)
    size = len(element_text)
    best = 0
    keyed = None if span is None else 0
    for e0 in starts:
        piece = min(e0 + size, c1) - max(e0, c0)
        best = max(best, piece)
        if keyed is not None and span is not None and c0 <= e0 + span[0] and e0 + span[1] <= c1:
            keyed = max(keyed, piece)
    grade, coverage, lost = _grade(best, size, theta, keyed)
    return Classification(grade, coverage, repeated, False, chunk_repeated, lost)


def best_overlap(starts: tuple[int, ...], size: int, c0: int, c1: int) -> int:
    """Best overlap of ``[e0, e0+size)`` (``e0`` in sorted ``starts``) with ``[c0, c1)``.

    The overlap as a function of ``e0`` rises, stays flat on
    ``[min(c0, c1−size), max(c0, c1−size)]`` and falls, so the maximum is at the last start
    below the plateau or the first start at or above it: two ``bisect`` candidates instead
    of a scan. Returns 0 when no occurrence overlaps.
    """
    n = len(starts)
    if n == 1:
        e0 = starts[0]
        return max(0, min(e0 + size, c1) - max(e0, c0))
    if n == 0:
        return 0
    i = bisect_left(starts, min(c0, c1 - size))
    best = 0
    if i > 0:
        e0 = starts[i - 1]
        best = min(e0 + size, c1) - max(e0, c0)
    if i < n:
        e0 = starts[i]
        best = max(best, min(e0 + size, c1) - max(e0, c0))
    return max(best, 0)


def keyed_overlap(starts: tuple[int, ...], size: int, c0: int, c1: int, key: Key) -> int:
    """Best overlap with ``[c0, c1)`` among the occurrences ``e0`` (sorted ``starts``) whose
    key span ``[e0+s, e0+e)`` lies inside ``[c0, c1)``: those with
    ``c0 − s ≤ e0 ≤ c1 − e``, a contiguous run of ``starts`` found by ``bisect``. 0 when
    there is none (otherwise at least the key's length)."""
    lo = bisect_left(starts, c0 - key[0])
    hi = bisect_right(starts, c1 - key[1])
    if lo >= hi:
        return 0
    return best_overlap(starts[lo:hi], size, c0, c1)


ANCHORS = (". ", ", ", "\n")
"""Separators whose positions key a page's anchor indexes, tried in this order."""
ANCHOR_KEY = 24
"""Code points per anchor key: the anchor and what follows it."""
ANCHOR_MAX_CANDIDATES = 32
"""More page positions than this under one key and the lookup falls back to ``str.find``."""


class AnchorIndex(NamedTuple):
    """Where one anchor string occurs in a page, keyed by what follows it.

    ``first`` maps the key ``page[a:a+key]`` at every anchor position ``a`` (with room for
    a key) to ``a`` when that key occurs at one position only, else to −1; ``several``
    maps each such repeated key to all its positions in ascending order.
    """

    first: dict[str, int]
    several: dict[str, list[int]]

    @classmethod
    def build(cls, text: str, anchor: str, key: int) -> AnchorIndex:
        """Index ``anchor``'s positions in ``text``; every step runs in C (split, running
        sums, slicing and dict building through ``map``), which matters on pages with
        tens of thousands of sentence ends."""
        if _self_overlapping(anchor):
            positions = list(occurrences(text, anchor))
        else:  # the anchor ends every part but the last
            step = len(anchor)
            ends = accumulate(map(add, map(len, text.split(anchor)), repeat(step)))
            positions = list(map(sub, ends, repeat(step)))[:-1]
        del positions[bisect_right(positions, len(text) - key) :]  # a key must fit
        keys = list(map(text.__getitem__, map(slice, positions, map(add, positions, repeat(key)))))
        first = dict(zip(reversed(keys), reversed(positions), strict=True))
        several: dict[str, list[int]] = {}
        if len(first) < len(keys):
            repeated = {k for k, n in Counter(keys).items() if n > 1}
            for k, a in compress(
                zip(keys, positions, strict=True), map(repeated.__contains__, keys)
            ):
                several.setdefault(k, []).append(a)
            for k in repeated:
                first[k] = -1
        return cls(first, several)

    def positions(self, k: str) -> list[int]:
        """All positions under key ``k`` in ascending order (empty when none)."""
        a = self.first.get(k)
        if a is None:
            return []
        return [a] if a >= 0 else self.several[k]


def _self_overlapping(anchor: str) -> bool:
    """Whether two occurrences of ``anchor`` can overlap (a proper prefix is a suffix)."""
    return any(anchor[:n] == anchor[-n:] for n in range(1, len(anchor)))


class PageIndex:
    """Fast ``classify`` for one page: caches chunk positions and element occurrences.

    Each distinct chunk is located in the page once (first occurrence and whether it
    repeats); each distinct element text is searched once (all start offsets). A
    classification is then interval arithmetic: results equal ``classify(page, t, c, θ)``.

    Locating uses *anchor indexes* instead of scanning the page where it can. For an anchor
    string (". ", a sentence end; then ", " and a line break) the index maps the page's key
    ``page[a:a+key]`` at every position ``a`` of the anchor to those positions. A needle
    whose first anchor ``i`` leaves room for a key occurs at ``p`` only if ``p+i`` is an
    anchor position of the page whose key equals ``needle[i:i+key]``: its occurrences are
    exactly the candidates ``a − i`` under that key that ``page.startswith(needle, a − i)``
    confirms, and a needle whose key is absent is absent. Needles holding none of the
    anchors with room for a key, and keys under more than ``max_candidates`` positions,
    fall back to ``str.find``. The result is exact either way.
    """

    __slots__ = ("_elements", "_indexes", "anchors", "key", "located", "max_candidates", "text")

    def __init__(
        self,
        text: str,
        *,
        anchors: tuple[str, ...] = ANCHORS,
        key: int = ANCHOR_KEY,
        max_candidates: int = ANCHOR_MAX_CANDIDATES,
    ) -> None:
        if not all(anchors) or any(key < len(a) for a in anchors) or max_candidates < 1:
            raise ValueError(
                f"bad anchor index: anchors {anchors!r}, key {key}, max_candidates {max_candidates}"
            )
        self.text = text
        self.anchors = anchors
        self.key = key
        self.max_candidates = max_candidates
        self.located: dict[str, tuple[int, bool]] = {}
        """Cache of ``locate``: chunk → (first offset or −1, occurs more than once)."""
        self._elements: dict[str, tuple[int, ...]] = {}
        self._indexes: dict[str, AnchorIndex] = {}

    def forget_lookups(self) -> None:
        """Empty the caches of chunks located and element texts found (kept: the anchor
        indexes of the page): scoring a run in ranges keeps memory bounded so."""
        self.located.clear()
        self._elements.clear()

    def _anchor_index(self, anchor: str) -> AnchorIndex:
        """The index of ``anchor`` (see ``AnchorIndex``), built on first use."""
        index = self._indexes.get(anchor)
        if index is None:
            index = self._indexes[anchor] = AnchorIndex.build(self.text, anchor, self.key)
        return index

    def _starts(self, needle: str, limit: int | None) -> list[int]:
        """Start offsets of non-empty ``needle`` in ascending order (overlaps included), the
        first ``limit`` of them (all when None)."""
        text = self.text
        key = self.key
        room = len(needle) - key
        for anchor in self.anchors:
            i = needle.find(anchor)
            if 0 <= i <= room:
                index = self._indexes.get(anchor)
                if index is None:
                    index = self._anchor_index(anchor)
                positions = index.positions(needle[i : i + key])
                if len(positions) > self.max_candidates:
                    break
                startswith = text.startswith
                found = [a - i for a in positions if a >= i and startswith(needle, a - i)]
                return found if limit is None else found[:limit]
        found = []
        at = text.find(needle)
        while at >= 0 and len(found) != limit:
            found.append(at)
            at = text.find(needle, at + 1)
        return found

    def locate(self, chunk: str) -> tuple[int, bool]:
        """(first offset of ``chunk`` in the page or −1, whether it occurs more than once);
        an empty ``chunk`` is at (0, False) as ``str.find`` has it (it is never scored)."""
        found = self.located.get(chunk)
        if found is None:
            starts = self._starts(chunk, 2) if chunk else [0]
            found = (starts[0], len(starts) > 1) if starts else _ABSENT
            self.located[chunk] = found
        return found

    def place(self, chunks: Sequence[str]) -> list[tuple[int, str, int, bool]]:
        """``(rank index, chunk, first offset or −1, occurs more than once)`` for every
        non-empty chunk, as ``locate`` gives them.

        The scoring loop's bulk form of ``locate``: the common case (the chunk's first
        sentence end keys a single page position, or none) is handled inline without the
        per-chunk cache, which only pays for the slower lookups it falls back to.
        """
        anchor = self.anchors[0]
        key = self.key
        index = self._indexes.get(anchor)
        if index is None:
            index = self._anchor_index(anchor)
        first = index.first
        startswith = self.text.startswith
        locate = self.locate
        placed: list[tuple[int, str, int, bool]] = []
        append = placed.append
        for r, chunk in enumerate(chunks):
            i = chunk.find(anchor)
            if 0 <= i <= len(chunk) - key:
                a = first.get(chunk[i : i + key])
                if a is None:
                    append((r, chunk, -1, False))
                    continue
                if a >= 0:  # the key's only position on the page
                    p = a - i
                    if p >= 0 and startswith(chunk, p):
                        append((r, chunk, p, False))
                    else:
                        append((r, chunk, -1, False))
                    continue
            if chunk:
                c0, repeated = locate(chunk)
                append((r, chunk, c0, repeated))
        return placed

    def occurrences(self, element_text: str) -> tuple[int, ...]:
        """All start offsets of ``element_text`` in the page (overlaps included), cached;
        an empty text has none."""
        found = self._elements.get(element_text)
        if found is None:
            found = tuple(self._starts(element_text, None)) if element_text else ()
            self._elements[element_text] = found
        return found

    def classify(
        self,
        element_text: str,
        chunk: str,
        threshold: object = DEFAULT_THRESHOLD,
        key: tuple[object, object] | None = None,
    ) -> Classification:
        """Same contract and result as
        ``classify(self.text, element_text, chunk, threshold, key)``."""
        theta = check_threshold(threshold)
        span = check_key(key, len(element_text))
        return self.classify_unchecked(element_text, chunk, theta, span)

    def classify_unchecked(
        self, element_text: str, chunk: str, threshold: float, key: Key | None = None
    ) -> Classification:
        """``classify`` without re-validating ``threshold`` and ``key`` (for hot loops)."""
        if not element_text or not chunk:
            return _EMPTY
        starts = self.occurrences(element_text)
        repeated = len(starts) > 1
        c0, chunk_repeated = self.locate(chunk)
        if c0 < 0:
            grade, coverage, lost = _fallback(element_text, chunk, key)
            return Classification(grade, coverage, repeated, True, False, lost)
        size = len(element_text)
        c1 = c0 + len(chunk)
        best = best_overlap(starts, size, c0, c1)
        keyed = None if key is None else keyed_overlap(starts, size, c0, c1, key)
        grade, coverage, lost = _grade(best, size, threshold, keyed)
        return Classification(grade, coverage, repeated, False, chunk_repeated, lost)
