"""A gold set projected onto a chunk file, and TREC qrels.

The projection turns exact-span labels into the chunk-level relevance judgements IR tools
expect: a chunk is relevant to a question when it holds one of the question's elements
**whole** (same page, ``chunk.start <= element.start`` and ``element.end <= chunk.end``); its
grade is that element's grade, the highest when it holds several. A chunk that could not be
placed on its page (its text is not on the page) is judged by text instead: it holds an
element whole when the element's text occurs inside it.

Chunk ids are ``<doc>#<start>-<end>`` (:func:`labeler.chunks.chunk_id`); an unplaced chunk
is ``<doc>#line<N>`` after its line in the chunk file.

TREC qrels: one ``qid 0 chunk_id grade`` line per relevant (question, chunk), questions in
gold-set order, chunks in file order. ``qid`` is the query id written with
:func:`labeler.chunks.id_safe` (whitespace, control characters and ``%`` as ``%XX`` UTF-8
bytes; other ids unchanged), so distinct questions keep distinct ids and
:func:`labeler.chunks.id_restore` gives the query id back.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO

from labeler.chunks.slices import id_safe
from labeler.formats.chunks_jsonl import PlacedChunk


@dataclass(frozen=True)
class Span:
    """One stored element of a question."""

    doc: str
    start: int
    end: int
    text: str
    grade: int


@dataclass(frozen=True)
class Question:
    """A gold-set question with its (non-stale) elements."""

    query_id: str
    text: str
    spans: tuple[Span, ...]


@dataclass(frozen=True)
class CorpusChunk:
    """A chunk as the exports write it. ``start``/``end`` are None when it was not placed."""

    id: str
    doc: str
    text: str
    start: int | None
    end: int | None


@dataclass(frozen=True)
class Projection:
    """Relevance per question (``qrels[qid][chunk_id] = grade``) over ``corpus``.

    ``unjudged`` lists the questions with elements but no chunk holding any of them whole:
    they have no qrels rows, and trec_eval-style tools silently skip such questions, so the
    exports report them.
    """

    corpus: list[CorpusChunk]
    questions: list[Question]
    qrels: dict[str, dict[str, int]]
    unjudged: list[str]


def corpus_chunks(placed: Iterable[PlacedChunk]) -> list[CorpusChunk]:
    """The chunks of a chunk file with their export ids; a repeated slice is kept once."""
    seen: set[str] = set()
    out: list[CorpusChunk] = []
    for p in placed:
        if p.chunk is None:
            cid = f"{id_safe(p.line.doc)}#line{p.line.line}"
            item = CorpusChunk(cid, p.line.doc, p.line.text, None, None)
        else:
            c = p.chunk
            item = CorpusChunk(c.id, c.doc, c.text, c.start, c.end)
        if item.id not in seen:
            seen.add(item.id)
            out.append(item)
    return out


class _Holders:
    """The placed chunks of one page, sorted by start, plus its unplaced ones."""

    def __init__(self, chunks: list[CorpusChunk]) -> None:
        placed = sorted(
            (c for c in chunks if c.start is not None), key=lambda c: (c.start or 0, c.end or 0)
        )
        self.placed = placed
        self.starts = [c.start or 0 for c in placed]
        self.longest = max(((c.end or 0) - (c.start or 0) for c in placed), default=0)
        self.unplaced = [c for c in chunks if c.start is None]

    def holding(self, span: Span) -> Iterator[CorpusChunk]:
        hi = bisect_right(self.starts, span.start)
        lo = bisect_right(self.starts, span.end - self.longest - 1)
        for c in self.placed[lo:hi]:
            if (c.end or 0) >= span.end:
                yield c
        for c in self.unplaced:
            if span.text in c.text:
                yield c


def project(corpus: Sequence[CorpusChunk], questions: Sequence[Question]) -> Projection:
    """Judge every chunk of ``corpus`` for every question (see the module docstring).

    Questions without elements are left out of ``questions`` and ``qrels``.
    """
    by_doc: dict[str, list[CorpusChunk]] = {}
    for c in corpus:
        by_doc.setdefault(c.doc, []).append(c)
    holders = {doc: _Holders(cs) for doc, cs in by_doc.items()}
    order = {c.id: i for i, c in enumerate(corpus)}
    kept: list[Question] = []
    qrels: dict[str, dict[str, int]] = {}
    unjudged: list[str] = []
    for q in questions:
        if not q.spans:
            continue
        kept.append(q)
        grades: dict[str, int] = {}
        for span in q.spans:
            h = holders.get(span.doc)
            for c in h.holding(span) if h is not None else ():
                grades[c.id] = max(grades.get(c.id, 0), span.grade)
        if grades:
            qrels[q.query_id] = dict(sorted(grades.items(), key=lambda kv: order[kv[0]]))
        else:
            unjudged.append(q.query_id)
    return Projection(list(corpus), kept, qrels, unjudged)


def write_trec_qrels(out: IO[str], projection: Projection) -> int:
    """Write ``qid 0 chunk_id grade`` lines; returns how many. Neither id holds whitespace:
    both are written with :func:`~labeler.chunks.id_safe` (reversible, injective)."""
    count = 0
    for q in projection.questions:
        qid = id_safe(q.query_id)
        for cid, grade in projection.qrels.get(q.query_id, {}).items():
            out.write(f"{qid} 0 {cid} {grade}\n")
            count += 1
    return count
