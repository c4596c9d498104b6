"""A small Okapi BM25 retriever over chunks, and run files made with it.

Built for the demo and for baselines, not as a search engine: an in-memory inverted index
(term → postings of ``(chunk number, term frequency)``), fast enough for tens of thousands of
chunks in well under a second per hundred questions.

Scoring is BM25 as Lucene (≥ 8) and ``bm25s`` compute it by default, for a query term ``t``
occurring ``tf`` times in a chunk of ``dl`` tokens (``avgdl`` the mean over the index, ``N``
chunks, ``df`` of them holding ``t``)::

    idf(t)   = ln(1 + (N - df + 0.5) / (df + 0.5))
    score    = Σ_t idf(t) · tf / (tf + k1 · (1 - b + b · dl / avgdl))

with ``k1 = 1.5`` and ``b = 0.75``. Robertson's ``(k1 + 1)`` factor in the numerator is left
out, as Lucene does; it scales every score alike and changes no ranking. A term repeated in
the query counts once per occurrence (as in Lucene and ``rank_bm25``).

Tokens are lowercase runs of two or more word characters (``bm25s``' default pattern), minus
the English stop words of :data:`STOPWORDS`. Pure: no database.
"""

from __future__ import annotations

import heapq
import json
import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from labeler.chunks import Chunk
from labeler.errors import InputError

K1 = 1.5
B = 0.75
_WORD = re.compile(r"\b\w\w+\b")

_STOP = """a about an and are as at be been but by can could did do does for from had has have
    how if in into is it its me my no not of on or our should so such that the their them
    then there these they this those to was we were what when where which who why will with
    would you your"""
#: Lucene's English stop set plus question and pronoun words that carry no topic.
STOPWORDS = frozenset(_STOP.split())


def tokenize(text: str) -> list[str]:
    """Lowercase words of two or more characters of ``text``, stop words removed.

    ``"How do I enable WAL mode?"`` → ``["enable", "wal", "mode"]``.
    """
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


@dataclass
class BM25Index:
    """An inverted index over ``chunks``; build with :func:`build_index`."""

    chunks: list[Chunk]
    postings: dict[str, list[tuple[int, int]]]
    lengths: list[int]
    k1: float = K1
    b: float = B
    avgdl: float = 0.0
    #: ``k1 · (1 - b + b · dl / avgdl)`` per chunk, computed once
    norms: list[float] = field(default_factory=list, repr=False)
    #: numbers of the chunks whose offsets are not known (read from a chunk file without
    #: them): their results carry no ``start``/``end``
    unplaced: frozenset[int] = frozenset()
    _idf: dict[str, float] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.norms and self.avgdl:
            k1, b, avgdl = self.k1, self.b, self.avgdl
            self.norms = [k1 * (1 - b + b * dl / avgdl) for dl in self.lengths]

    def idf(self, term: str) -> float:
        """``ln(1 + (N - df + 0.5) / (df + 0.5))``; 0.0 for a term in no chunk."""
        value = self._idf.get(term)
        if value is None:
            df = len(self.postings.get(term, ()))
            n = len(self.chunks)
            value = math.log(1 + (n - df + 0.5) / (df + 0.5)) if df else 0.0
            self._idf[term] = value
        return value


def build_index(
    chunks: Iterable[Chunk],
    *,
    k1: float = K1,
    b: float = B,
    unplaced: Iterable[int] = (),
) -> BM25Index:
    """Index ``chunks`` (in the order given; that order breaks score ties); ``unplaced``
    numbers those (0-based, in that order) whose ``start``/``end`` are not known.

    An empty list gives an index that retrieves nothing. Raises :class:`ValueError` for a
    negative ``k1`` or ``b`` outside ``[0, 1]``.
    """
    if k1 < 0 or not 0 <= b <= 1:
        raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
    kept = list(chunks)
    postings: dict[str, list[tuple[int, int]]] = {}
    lengths: list[int] = []
    for number, chunk in enumerate(kept):
        terms = tokenize(chunk.text)
        lengths.append(len(terms))
        for term, tf in Counter(terms).items():
            postings.setdefault(term, []).append((number, tf))
    avgdl = sum(lengths) / len(lengths) if lengths else 0.0
    return BM25Index(kept, postings, lengths, k1, b, avgdl, unplaced=frozenset(unplaced))


def scores(index: BM25Index, query_text: str) -> dict[int, float]:
    """Chunk number → BM25 score, for every chunk sharing at least one term with the query."""
    acc: dict[int, float] = {}
    if not index.avgdl:
        return acc
    norms = index.norms
    for term in tokenize(query_text):
        postings = index.postings.get(term)
        if not postings:
            continue
        idf = index.idf(term)
        for number, tf in postings:
            acc[number] = acc.get(number, 0.0) + idf * tf / (tf + norms[number])
    return acc


def retrieve(index: BM25Index, query_text: str, k: int) -> list[tuple[Chunk, float]]:
    """The ``k`` best chunks for ``query_text`` with their scores, best first.

    Only chunks sharing a term with the query are returned, so there may be fewer than
    ``k`` (none for a query made only of stop words). Equal scores keep index order.
    Raises :class:`ValueError` for ``k < 1``.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    return [(index.chunks[number], score) for number, score in _best(index, query_text, k)]


def _best(index: BM25Index, query_text: str, k: int) -> list[tuple[int, float]]:
    acc = scores(index, query_text)
    return heapq.nsmallest(k, acc.items(), key=lambda item: (-item[1], item[0]))


def results(index: BM25Index, query_text: str, k: int) -> list[dict[str, object]]:
    """The top ``k`` chunks for ``query_text`` (as :func:`retrieve`) as run results:
    ``{"text", "doc", "score", "start", "end"}``, the score rounded to 6 places; a chunk
    whose offsets are not known (``index.unplaced``) has no ``start``/``end``."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    rows: list[dict[str, object]] = []
    unplaced = index.unplaced
    for number, score in _best(index, query_text, k):
        chunk = index.chunks[number]
        row: dict[str, object] = {"text": chunk.text, "doc": chunk.doc, "score": round(score, 6)}
        if number not in unplaced:
            row["start"], row["end"] = chunk.start, chunk.end
        rows.append(row)
    return rows


class Question(Protocol):
    """What :func:`write_run` needs of a gold question (e.g. a resolved gold line)."""

    @property
    def query_id(self) -> str: ...

    @property
    def query(self) -> str: ...


def run_lines(questions: Iterable[Question], index: BM25Index, k: int) -> Iterable[str]:
    """Run JSONL v1 lines: per question, its top ``k`` chunks with ``doc``, ``score`` and,
    where known, ``start``/``end`` (see :func:`results`)."""
    for q in questions:
        rows = results(index, q.query, k)
        yield json.dumps({"query_id": q.query_id, "results": rows}, ensure_ascii=False)


def write_run(
    questions: Iterable[Question],
    chunks: Sequence[Chunk] | BM25Index,
    k: int,
    path: str | Path,
) -> int:
    """Retrieve the top ``k`` chunks for every question and write run JSONL v1 to ``path``.

    ``chunks`` is a list of chunks (indexed here) or an index already built. Each line is
    ``{"query_id", "results": [{"text", "doc", "score", "start", "end"}, ...]}`` in rank
    order (no offsets for chunks whose offsets are not known); a question
    nothing matches gets ``"results": []``. Returns the number of lines written. Raises
    :class:`InputError` when ``path`` cannot be written.
    """
    index = chunks if isinstance(chunks, BM25Index) else build_index(chunks)
    count = 0
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as out:
            for line in run_lines(questions, index, k):
                out.write(line + "\n")
                count += 1
    except OSError as err:
        raise InputError(path, f"cannot write: {err.strerror or err}") from None
    return count


class BM25Retriever:
    """A retriever (see :mod:`labeler.evaluation`) over a BM25 index: called with a
    question's text, it returns the top ``k`` chunks as run results
    (``{"text", "doc", "score", "start", "end"}`` as :func:`results` gives them), best
    first."""

    def __init__(self, index: BM25Index, k: int = 10) -> None:
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        self.index = index
        self.k = k

    def __call__(self, text: str) -> list[dict[str, object]]:
        return results(self.index, text, self.k)


def bm25_retriever(chunks: str | Path, k: str | int = 10) -> BM25Retriever:
    """A :class:`BM25Retriever` over the chunk JSONL file ``chunks`` (what ``labeler chunks
    make`` writes), returning the top ``k``. For ``labeler evaluate --retriever
    labeler.evaluation:bm25_retriever --retriever-arg chunks=FILE [--retriever-arg k=10]``.

    Raises :class:`InputError` for an unreadable chunk file (naming the line) or a ``k``
    that is not a positive whole number.
    """
    from labeler.formats.chunks_jsonl import read_chunks

    try:
        top = int(k)
    except ValueError:
        raise InputError("--retriever-arg k", f"expected a whole number, got {k!r}") from None
    if top < 1:
        raise InputError("--retriever-arg k", f"must be at least 1, got {top}")
    lines = list(read_chunks(chunks))
    index = build_index(
        (
            Chunk(c.doc, c.start or 0, c.end if c.end is not None else len(c.text), c.text)
            for c in lines
        ),
        unplaced=(n for n, c in enumerate(lines) if c.start is None),
    )
    return BM25Retriever(index, top)
