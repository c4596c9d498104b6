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
from itertools import starmap

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
#: chunk positions a page index caches before its cache is emptied
LOCATED_MAX = 200_000


class Placer:
    """Placements for the questions of a run being imported.

    ``labels_of`` maps a query id to the documents its labels cite, each with those labels'
    texts (an import sets it again for each batch of questions); ``load`` fetches the text
    of documents by id. Pages are loaded and indexed on first use and kept within
    ``budget`` (see ``_index``).
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
        self._indexes: OrderedDict[str, tuple[str, PageIndex] | None] = OrderedDict()

    def _index(self, doc: str) -> tuple[str, PageIndex] | None:
        """The key and index of page ``doc`` (None: not stored). Indexes are kept while
        their pages total at most ``budget`` characters, least recently used dropped
        first, and an index's cache of chunk positions is emptied past
        :data:`LOCATED_MAX` chunks: memory stays bounded whatever the run and database."""
        if doc in self._indexes:
            self._indexes.move_to_end(doc)
            found = self._indexes[doc]
            if found is not None and len(found[1].located) > LOCATED_MAX:
                found[1].located.clear()
            return found
        text = self._load([doc]).get(doc)
        self._indexes[doc] = None if text is None else (text_key(text), PageIndex(text))
        self._size += len(text or "")
        while self._size > self._budget and len(self._indexes) > 1:
            _, dropped = self._indexes.popitem(last=False)
            self._size -= len(dropped[1].text) if dropped is not None else 0
        return self._indexes[doc]

    def mismatched(
        self, chunks: Sequence[str], docs: Sequence[str | None], offsets: Sequence[Offsets]
    ) -> int:
        """How many of ``chunks`` carry offsets into a stored page (their ``docs``) where
        ``page[start:end]`` is not their text; chunks of pages not stored are not counted."""
        count = 0
        pages: dict[str, str | None] = {}  # a question's chunks mostly share one page
        for text, doc, at in zip(chunks, docs, offsets, strict=True):
            if at is None or doc is None:
                continue
            if doc in pages:
                page = pages[doc]
            else:
                found = self._index(doc)
                page = pages[doc] = None if found is None else found[1].text
            if page is not None and not holds(page, text, at):
                count += 1
        return count

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
        out: list[tuple[str, str, str, str, str]] = []
        labels = self.labels_of.get(qid, {})
        if not labels:
            return out, [False] * len(chunks)
        everywhere = list(map(bool, chunks))
        for doc in sorted(labels):
            found = self._index(doc)
            if found is None:
                everywhere = [False] * len(chunks)
                continue
            key, index = found
            pins = {
                r: at
                for r, (d, at) in enumerate(zip(docs, offsets, strict=True))
                if at is not None and d == doc
            }
            stored, starts = _encoded(index, chunks, labels[doc], pins)
            out.append((key, *stored))
            if -1 in starts:
                for r, c0 in enumerate(starts):
                    if c0 == -1:
                        everywhere[r] = False
        return out, everywhere


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
