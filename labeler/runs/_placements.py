"""Chunk placements: where a run's chunks sit on the labelled pages, worked out at import.

Scoring must locate every chunk of a question on each page its labels cite (docs/metrics.md,
rules 2 and 3, and the fallback and repeated-chunk flags), and find every occurrence of
each label's text there; that is most of its time. A run is imported once and scored many
times, so ``labeler run import`` does both for each question on the pages the question's
labels cite in any gold set at that moment, and stores the result per (run, question, page
text). Scoring takes a stored placement when the page still has that text (and, for label
occurrences, when the label's text is one it was made for) and works things out itself
otherwise (a page re-ingested since, a label added or edited since, a run imported before
its gold set): the scores are the same.

Texts are keyed by a BLAKE2b digest: a page by its text, not by its file's hash (the text
is what the offsets are in, and it also changes with the extraction profile).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from itertools import starmap
from operator import and_, eq, sub
from typing import cast

from labeler.store.fastread import SqliteReader
from labeler.store.rows import RankedRow
from scoring import Chunk, GoldQuestion, PageIndex, Placement
from scoring.pooling import PlacedChunk

__all__ = [
    "Offsets",
    "PageKeys",
    "Placer",
    "RowPlacer",
    "decode",
    "encode",
    "holds",
    "load_placed_run",
    "page_keys",
    "place_rows",
    "placements_for",
    "text_key",
]

Stored = tuple[str, str, str, str]
"""A stored placement: ``(starts, repeated, occurrences, lengths)`` as in ``run_placement``."""

StoredPlacements = dict[str, dict[str, Stored]]
"""Query id → page key → stored placement."""


_FLAGS = bytes.maketrans(b"01", b"\x00\x01")


def text_key(text: str) -> str:
    """The key of a text: hex BLAKE2b-128 of its UTF-8 bytes."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


Offsets = tuple[int, int] | None
"""A chunk's ``(start, end)`` in the stored text of its own page, or None."""


def holds(page: str, text: str, offsets: tuple[int, int]) -> bool:
    """Whether ``page[start:end]`` is ``text`` (the test that pins a chunk at its offsets)."""
    start, end = offsets
    return end - start == len(text) and page.startswith(text, start)


def encode(
    index: PageIndex,
    chunks: Sequence[str],
    labels: Iterable[str],
    pins: Mapping[int, tuple[int, int]] | None = None,
) -> Stored:
    """The stored form of a question's placement on one page: comma-separated offsets
    of ``chunks`` in rank order (−1: not on the page, or an empty chunk), one ``0``/``1`` per
    chunk (occurs more than once), a JSON object from each label text's key to all its
    start offsets on the page, and the chunks' lengths, comma-separated.

    A chunk's offset is its first occurrence, except for the ranks of ``pins`` (rank index
    → the chunk's own offsets, for chunks whose document is this page) where
    ``page[start:end]`` is the chunk's text: those are at ``start``, not repeated, as
    scoring places them."""
    return _encoded(index, chunks, labels, pins)[0]


def _encoded(
    index: PageIndex,
    chunks: Sequence[str],
    labels: Iterable[str],
    pins: Mapping[int, tuple[int, int]] | None,
) -> tuple[Stored, list[int]]:
    """``encode``'s stored form, and the chunks' offsets as numbers (−1: not on the page)."""
    starts = [-1] * len(chunks)
    repeated = ["0"] * len(chunks)
    for r, _, c0, twice in index.place(chunks):
        starts[r] = c0
        if twice:
            repeated[r] = "1"
    if pins:
        for r, offsets in pins.items():
            if chunks[r] and holds(index.text, chunks[r], offsets):
                starts[r] = offsets[0]
                repeated[r] = "0"
    found = {text_key(t): list(index.occurrences(t)) for t in sorted(set(labels)) if t}
    stored = (
        ",".join(map(str, starts)),
        "".join(repeated),
        json.dumps(found, separators=(",", ":")),
        ",".join(map(str, map(len, chunks))),
    )
    return stored, starts


def decode(stored: Stored, labels: Iterable[str] = ()) -> Placement:
    """The ``Placement`` a stored one describes, with the occurrences of those of ``labels``
    (label texts) it holds."""
    starts, repeated, occurrences, lengths = stored
    found: dict[str, list[int]] = json.loads(occurrences) if occurrences != "{}" else {}
    known = {}
    for label in labels:
        at = found.get(text_key(label)) if found else None
        if at is not None:
            known[label] = tuple(at)
    # C-level parsing: a large run has thousands of these
    return Placement(
        json.loads(f"[{starts}]"),
        repeated.encode("ascii").translate(_FLAGS),
        known,
        json.loads(f"[{lengths}]"),
    )


PageKeys = dict[str, list[str]]
"""Page key → the documents whose current text has it (see ``page_keys``)."""


def page_keys(pages: Mapping[str, str]) -> PageKeys:
    """Key the current text of each of ``pages`` (document id → text). Hashing every page
    costs ~10 ms on the bundled corpus: done once per scoring command, before any fork."""
    keys: PageKeys = {}
    for doc, text in pages.items():
        keys.setdefault(text_key(text), []).append(doc)
    return keys


def placements_for(
    stored: StoredPlacements, keys: PageKeys, questions: Iterable[GoldQuestion]
) -> dict[str, dict[str, Placement]]:
    """Scoring's placements (query id → document id → placement) from the stored ones, for
    the documents whose current text (``keys``, from ``page_keys``) they were made on, with
    the occurrences of the ``questions``' current label texts."""
    out: dict[str, dict[str, Placement]] = {}
    for question in questions:
        by_key = stored.get(question.query_id)
        if not by_key:
            continue
        mine: dict[str, Placement] = {}
        for key, placement in by_key.items():
            for doc in keys.get(key, ()):
                labels = [e.text for e in question.elements if e.doc == doc]
                mine[doc] = decode(placement, labels)
        if mine:
            out[question.query_id] = mine
    return out


#: characters of page text whose indexes a :class:`Placer` keeps (about 64 MB of text)
PAGE_BUDGET = 32 << 20
#: pages a :meth:`Placer.preload` reads at once
PRELOAD = 32
#: chunk positions a page index caches before its cache is emptied
LOCATED_MAX = 200_000
#: characters of chunk text whose positions a :class:`Placer` keeps, over all its pages
MEMO_BUDGET = 8 << 20


@cache
def _numerals() -> dict[int, str]:
    """The decimal text of −1 and of 0 to 65,535 (made once, when first needed)."""
    return {n: str(n) for n in range(-1, 1 << 16)}


def _csv(numbers: list[int]) -> str:
    """``numbers`` comma-separated: the text of each mostly looked up, not made (a stored
    placement holds two such lists per question and page)."""
    try:
        return ",".join(map(_numerals().__getitem__, numbers))
    except KeyError:  # a number past the table
        return ",".join(map(str, numbers))


class _Page:
    """A stored page chunks are placed on: its key and index, and what was worked out on it
    (each chunk text's first position and whether it repeats, and each label text's
    occurrences as stored), so that a chunk or label met again costs one lookup."""

    __slots__ = ("chars", "first", "index", "key", "labels", "twice")

    def __init__(self, text: str) -> None:
        self.key = text_key(text)
        self.index = PageIndex(text)
        self.forget()

    def forget(self) -> None:
        """Empty what was worked out (the index is kept)."""
        #: chunk text → its first position (−1: nowhere, or an empty text)
        self.first: dict[str, int] = {"": -1}
        #: chunk text → ``1`` when it occurs more than once, else ``0``
        self.twice: dict[str, str] = {"": "0"}
        #: label text → ``"KEY":[OFFSETS]``, its entry in the stored occurrences
        self.labels: dict[str, str] = {}
        #: characters of the chunk texts in ``first``
        self.chars = 0


class Placer:
    """Placements for the questions of a run being imported.

    ``labels_of`` maps a query id to the documents its labels cite, each with those labels'
    texts (an import sets it again for each batch of questions); ``load`` fetches the text
    of documents by id. Pages are loaded and indexed on first use and kept within
    ``budget`` (see ``_page``); the positions of the chunk texts met are kept per page, up
    to ``MEMO_BUDGET`` characters of them in all (then all are forgotten): a run mostly
    retrieves the same chunks for many questions.
    """

    def __init__(
        self,
        labels_of: Mapping[str, Mapping[str, Iterable[str]]],
        load: Callable[[Sequence[str]], dict[str, str]],
        *,
        budget: int = PAGE_BUDGET,
    ) -> None:
        self.labels_of = labels_of
        self._load = load
        self._budget = budget
        self._size = 0
        self._memo = 0  # characters of chunk texts kept by the pages' ``first``
        self._pages: OrderedDict[str, _Page | None] = OrderedDict()

    def _page(self, doc: str) -> _Page | None:
        """Page ``doc`` (None: not stored). Pages are kept while they total at most
        ``budget`` characters, least recently used dropped first, and an index's cache of
        chunk positions is emptied past :data:`LOCATED_MAX` chunks: memory stays bounded
        whatever the run and database."""
        if doc in self._pages:
            self._pages.move_to_end(doc)
            found = self._pages[doc]
            if found is not None and len(found.index.located) > LOCATED_MAX:
                found.index.located.clear()
            return found
        self._keep(doc, self._load([doc]).get(doc))
        return self._pages[doc]

    def _keep(self, doc: str, text: str | None) -> None:
        """Keep page ``doc`` (its text, None: not stored), the least recently used dropped
        while the pages total more than the budget."""
        self._pages[doc] = None if text is None else _Page(text)
        self._size += len(text or "")
        while self._size > self._budget and len(self._pages) > 1:
            _, dropped = self._pages.popitem(last=False)
            if dropped is not None:
                self._size -= len(dropped.index.text)
                self._memo -= dropped.chars

    def preload(self, docs: Iterable[str]) -> None:
        """Load those of pages ``docs`` not kept yet, :data:`PRELOAD` of them a read (each
        read costs far more than a page's text), while the pages kept fill at most half the
        budget (memory holds the pages of one read besides those kept); the others are
        loaded as they are needed. What is placed does not change: only when pages are read."""
        missing = sorted({doc for doc in docs if doc not in self._pages})
        for i in range(0, len(missing), PRELOAD):
            if self._size > self._budget // 2:
                return
            part = missing[i : i + PRELOAD]
            found = self._load(part)
            for doc in part:
                self._keep(doc, found.get(doc))

    def _positions(self, page: _Page, texts: Sequence[str]) -> tuple[list[int], str]:
        """Each of ``texts``' first position on ``page`` (−1: not there, or empty) and
        whether it occurs more than once (``1``/``0``, one per text), as
        ``PageIndex.place`` finds them; the texts not met before are looked for once."""
        first = page.first
        starts = list(map(first.get, texts))
        if None in starts:
            missing = [t for t in dict.fromkeys(texts) if t not in first]
            size = sum(map(len, missing))
            if self._memo + size > MEMO_BUDGET:
                for kept in self._pages.values():
                    if kept is not None:
                        kept.forget()
                self._memo = 0
                first = page.first
                missing = list(dict.fromkeys(texts))
                size = sum(map(len, missing))
            twice = page.twice
            for _, chunk, c0, repeated in page.index.place(missing):
                first[chunk] = c0
                twice[chunk] = "1" if repeated else "0"
            page.chars += size
            self._memo += size
            starts = list(map(first.get, texts))
        return cast("list[int]", starts), "".join(map(page.twice.__getitem__, texts))

    @staticmethod
    def _occurrences(page: _Page, labels: Iterable[str]) -> str:
        """The stored occurrences of ``labels`` on ``page`` (see ``encode``): the same text
        as ``json.dumps`` of that object, without a separator's space.

        A label whose text is that of a chunk placed on the page already needs no search
        when that chunk is nowhere on it or there once (``PageIndex.place`` tells both
        exactly): a gold set's labels are often whole chunks."""
        parts = []
        known = page.labels
        first = page.first
        for label in sorted(set(labels)):
            if not label:
                continue
            part = known.get(label)
            if part is None:
                at = first.get(label)
                if at is not None and (at < 0 or page.twice[label] == "0"):
                    offsets = "" if at < 0 else str(at)
                else:
                    offsets = ",".join(map(str, page.index.occurrences(label)))
                part = known[label] = f'"{text_key(label)}":[{offsets}]'
            parts.append(part)
        return "{" + ",".join(parts) + "}"

    def holds(
        self,
        texts: Sequence[str],
        docs: Sequence[str | None],
        starts: Sequence[int | None],
        ends: Sequence[int | None],
    ) -> list[bool | None]:
        """For each chunk (columns ``texts``, ``docs``, ``starts``, ``ends``) with offsets
        into a stored page, whether ``page[start:end]`` is its text (:func:`holds`); None for
        the others (no offsets, no document, a page not stored)."""
        n = len(texts)
        doc = docs[0] if n else None
        if doc is not None and docs.count(doc) == n and starts.count(None) == 0:
            page = self._page(doc)  # the usual line: every chunk with offsets, on one page
            if page is None:
                return [None] * n
            text = page.index.text
            lengths = map(eq, map(sub, ends, starts), map(len, texts))
            return list(map(and_, lengths, map(text.startswith, texts, starts)))
        found: list[bool | None] = [None] * n
        pages: dict[str, str | None] = {}  # a question's chunks mostly share one page
        for r, (text, doc, start, end) in enumerate(zip(texts, docs, starts, ends, strict=True)):
            if start is None or doc is None:
                continue
            if doc in pages:
                page_text = pages[doc]
            else:
                got = self._page(doc)
                page_text = pages[doc] = None if got is None else got.index.text
            if page_text is not None:
                found[r] = holds(page_text, text, (start, end))  # type: ignore[arg-type]
        return found

    def mismatched(
        self, chunks: Sequence[str], docs: Sequence[str | None], offsets: Sequence[Offsets]
    ) -> int:
        """How many of ``chunks`` carry offsets into a stored page (their ``docs``) where
        ``page[start:end]`` is not their text; chunks of pages not stored are not counted."""
        starts = [None if at is None else at[0] for at in offsets]
        ends = [None if at is None else at[1] for at in offsets]
        return self.holds(chunks, docs, starts, ends).count(False)

    def place(
        self,
        qid: str,
        chunks: Sequence[str],
        docs: Sequence[str | None] = (),
        offsets: Sequence[Offsets] = (),
    ) -> tuple[list[tuple[str, str, str, str, str]], list[bool]]:
        """``(page key, starts, repeated, occurrences, lengths)`` for each page the
        question's labels cite, and for each chunk whether it was found on all of them
        (never when they cite none): scoring needs no text for such a chunk. ``docs`` and
        ``offsets`` (per chunk, when known) pin chunks at their own offsets on their page
        (see ``encode``)."""
        n = len(chunks)
        starts: list[int | None] = [None] * n
        pinned = None
        if offsets:
            starts = [None if at is None else at[0] for at in offsets]
            ends = [None if at is None else at[1] for at in offsets]
            pinned = self.holds(chunks, docs, starts, ends)
        out, located = self.place_columns(qid, chunks, docs or [None] * n, starts, pinned)
        return out, list(map(bool, located))

    def place_columns(
        self,
        qid: str,
        texts: Sequence[str],
        docs: Sequence[str | None],
        starts: Sequence[int | None],
        pinned: Sequence[bool | None] | None,
    ) -> tuple[list[tuple[str, str, str, str, str]], list[int]]:
        """:meth:`place` for a question's chunks as columns (``texts``, ``docs`` and
        ``starts`` in rank order; ``pinned``: :meth:`holds` of their offsets, None when
        none has offsets), whether each chunk was found on every page as ``1``/``0``."""
        n = len(texts)
        out: list[tuple[str, str, str, str, str]] = []
        labels = self.labels_of.get(qid)
        if not labels:
            return out, [0] * n
        lengths = _csv(list(map(len, texts)))
        found = [1] * n
        nowhere = False
        for doc in sorted(labels):
            page = self._page(doc)
            if page is None:
                nowhere = True
                continue
            at, repeated = self._placed(page, doc, texts, docs, starts, pinned)
            occurrences = self._occurrences(page, labels[doc])
            out.append((page.key, _csv(at), repeated, occurrences, lengths))
            if -1 in at:
                found = [f if c0 != -1 else 0 for f, c0 in zip(found, at, strict=True)]
        return out, [0] * n if nowhere else found

    def _placed(
        self,
        page: _Page,
        doc: str,
        texts: Sequence[str],
        docs: Sequence[str | None],
        starts: Sequence[int | None],
        pinned: Sequence[bool | None] | None,
    ) -> tuple[list[int], str]:
        """Each chunk's position on ``page`` (document ``doc``) and whether it repeats
        there, as ``encode`` has them: a chunk of this page whose offsets hold its text is
        at its start, not repeated (when every chunk is, nothing is looked for)."""
        n = len(texts)
        pins: list[int] = []
        if pinned is not None:
            if pinned.count(True) == n and docs.count(doc) == n and "" not in texts:
                return cast("list[int]", list(starts)), "0" * n
            pins = [
                r
                for r, (ok, d, text) in enumerate(zip(pinned, docs, texts, strict=True))
                if ok and d == doc and text
            ]
        at, repeated = self._positions(page, texts)
        if pins:
            flags = list(repeated)
            for r in pins:
                start = starts[r]
                assert start is not None  # pinned: it has offsets
                at[r] = start
                flags[r] = "0"
            repeated = "".join(flags)
        return at, repeated


def load_placed_run(
    source: SqliteReader,
    run: str,
    questions: Sequence[GoldQuestion],
    keys: PageKeys,
    *,
    since: str | None = None,
    until: str | None = None,
) -> tuple[dict[str, list[Chunk]], dict[str, dict[str, Placement]]]:
    """The run's chunks (query ids bounded as in ``SqliteReader.run_rows``) and scoring's
    placements for ``questions`` (pages keyed by ``page_keys``), reading a chunk's text only
    where scoring needs it.

    A chunk found at import on every page its question's labels cited comes without text
    when the question's current labels cite only pages whose stored placement still
    applies; scoring then has its place and length. For any other question with such a
    chunk (a page re-ingested, a label on a new page), every text is read.
    """
    known = placements_for(source.placements(run, since=since, until=until), keys, questions)
    rows = source.lean_run_rows(run, since=since, until=until)
    unread = []
    for question in questions:
        qid = question.query_id
        ranked = rows.get(qid)
        if not ranked:
            continue
        covered = known.get(qid, {})
        n = len(ranked)
        if all(e.doc in covered and len(covered[e.doc].lengths) >= n for e in question.elements):
            continue  # scoring has every chunk's place, and length where it has no text
        if any(row[0] is None for row in ranked):
            unread.append(qid)
    texts = source.chunk_texts(run, unread) if unread else {}
    chunks: dict[str, list[Chunk]] = {}
    for qid, ranked in rows.items():
        full = texts.get(qid)
        if full is None:
            chunks[qid] = list(starmap(Chunk, ranked))
        else:
            chunks[qid] = [
                Chunk(t, d, s, a, b) for t, (_, d, s, a, b) in zip(full, ranked, strict=True)
            ]
    return chunks, known


class RowPlacer:
    """Places run results on pages as pooling and judged@k place them (see
    :func:`place_rows`), keeping each page's index from one result to the next."""

    def __init__(self, pages: Mapping[str, str]) -> None:
        self.pages = pages
        self.indexes: dict[str, PageIndex] = {}

    def forget_lookups(self) -> None:
        """Empty the pages' caches of texts located (``PageIndex.forget_lookups``), keeping
        their indexes: between batches of a run, so memory does not grow with it."""
        for index in self.indexes.values():
            index.forget_lookups()

    def first(self, doc: str, text: str) -> int:
        """Where ``text`` first occurs on page ``doc``; −1 when nowhere (or no such page)."""
        index = self.indexes.get(doc)
        if index is None:
            page = self.pages.get(doc)
            if page is None:
                return -1
            index = self.indexes[doc] = PageIndex(page)
        return index.locate(text)[0]

    def place(
        self,
        doc: str | None,
        text: str,
        start: int | None,
        end: int | None,
        anywhere: Sequence[str] = (),
    ) -> tuple[str, int] | None:
        """``(page, start)`` of one result with ``text``, or None when it is placed nowhere
        (an empty text is never placed)."""
        if not text:
            return None
        if doc is None:
            for candidate in anywhere:
                at = self.first(candidate, text)
                if at >= 0:
                    return candidate, at
            return None
        page = self.pages.get(doc)
        if page is None:
            return None
        if start is not None and end is not None and holds(page, text, (start, end)):
            return doc, start
        at = self.first(doc, text)
        return (doc, at) if at >= 0 else None


def place_rows(
    rows: Sequence[RankedRow],
    pages: Mapping[str, str],
    anywhere: Sequence[str] = (),
    placer: RowPlacer | None = None,
) -> list[PlacedChunk]:
    """``rows`` placed on their pages, as pooling and judged@k place them: each on the page
    its result names, at its own offsets where they hold its text (:func:`holds`, the test
    scoring pins chunks with), else at the first occurrence of its text there
    (``PageIndex.locate``, as scoring places it). A chunk that names no page is looked for,
    in that order, on the pages ``anywhere`` (the question's judged pages, where scoring
    would look for it too) and placed on the first that holds its text. A chunk not found
    stays unplaced. ``placer`` (on ``pages``) keeps the pages' indexes from one call to the
    next; without it each call builds its own."""
    placer = RowPlacer(pages) if placer is None else placer
    out: list[PlacedChunk] = []
    for row in rows:
        at = placer.place(row.doc_id, row.text, row.start, row.end, anywhere)
        if at is None:
            out.append(PlacedChunk(row.rank, row.doc_id, None, None, len(row.text)))
        else:
            doc, start = at
            n = len(row.text)
            out.append(PlacedChunk(row.rank, doc, start, start + n, n))
    return out
