"""Run JSONL, version 1 (docs/formats.md, Run JSONL v1): one question per line, in rank order.

```json
{"query_id": "q1", "results": [{"text": "chunk text ...", "doc": "optional", "score": 12.3}]}
```

A ``rank`` field on results, where present, orders them (it must then be on every result of
the line). A result may say where its chunk sits in its page: ``start``/``end`` (code points
in the stored page text), or the frameworks' own fields, read by
:func:`labeler.formats.offsets.chunk_offsets` (``start_char_idx``/``end_char_idx``;
``metadata.start_index`` with the text's length); a result with offsets needs a ``doc``,
which ``metadata.source`` gives when ``doc`` is absent. A Ragas-style line ``{"user_input": ..., "retrieved_contexts": [...]}`` is accepted
too; it is matched to a question by its text (or by ``query_id`` when it has one).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, count, repeat
from math import isfinite
from operator import itemgetter, le
from pathlib import Path
from typing import Any, NamedTuple

from labeler.errors import InputError
from labeler.formats.jsonlines import optional, read_objects, require
from labeler.formats.jsontext import finite_problem
from labeler.formats.offsets import OffsetProblem, chunk_offsets


class RunChunk(NamedTuple):
    """One retrieved chunk; ``rank`` is 1-based after ordering; ``start``/``end``: its
    offsets in page ``doc`` when the run gave them (both or neither).

    A named tuple rather than a frozen dataclass: a large run has millions of them, and a
    tuple is made in a third of the time."""

    rank: int
    text: str
    doc: str | None
    score: float | None
    start: int | None = None
    end: int | None = None


class Columns(NamedTuple):
    """A line's results as columns, in rank order (the result of rank ``i + 1`` at index
    ``i`` of each): what an import works with, without an object per result."""

    texts: Sequence[str]
    docs: Sequence[str | None]
    scores: Sequence[float | None]
    starts: Sequence[int | None]
    ends: Sequence[int | None]

    @classmethod
    def of(cls, chunks: Iterable[RunChunk]) -> Columns:
        """The columns of ``chunks`` (in rank order)."""
        texts: list[str] = []
        docs: list[str | None] = []
        scores: list[float | None] = []
        starts: list[int | None] = []
        ends: list[int | None] = []
        for chunk in chunks:
            texts.append(chunk.text)
            docs.append(chunk.doc)
            scores.append(chunk.score)
            starts.append(chunk.start)
            ends.append(chunk.end)
        return cls(texts, docs, scores, starts, ends)


class RunLine(NamedTuple):
    """One question's ranked results (``results``, as columns in rank order: ranks 1, 2,
    …). ``query_id`` is None for a Ragas line without one; then ``user_input`` holds the
    question text to match. (A named tuple: made for every line of a run.)"""

    line: int
    query_id: str | None
    user_input: str | None
    results: Columns

    @property
    def chunks(self) -> tuple[RunChunk, ...]:
        """The results as chunks, in rank order."""
        return tuple(map(RunChunk, count(1), *self.results))


def read_run(
    path: str | Path,
    on_progress: Callable[[int], None] | None = None,
    *,
    allow_nul: bool = True,
    part: tuple[int, int, int | None] | None = None,
) -> Iterator[RunLine]:
    """Parse a run JSONL file line by line (streaming; bounded memory; ``-``: standard input;
    ``part``: only some of its lines, as :func:`~labeler.formats.jsonlines.read_objects` says).

    Raises :class:`InputError` with the line number for broken JSON, missing or mistyped
    fields, a score that is not a finite float (NaN, infinite, too large), ranks given on
    only some results, repeated ranks, or text that cannot be stored (see
    :func:`~labeler.formats.jsonlines.read_objects` for ``allow_nul``).
    """
    for number, obj in read_objects(path, on_progress, allow_nul=allow_nul, part=part):
        if "results" in obj:
            yield _native(obj, path, number)
        elif "retrieved_contexts" in obj:
            yield _ragas(obj, path, number)
        else:
            raise InputError(
                path, "neither 'results' (run v1) nor 'retrieved_contexts' (Ragas) present", number
            )


def _query_id(obj: dict[str, Any], path: str | Path, number: int, needed: bool) -> str | None:
    value = (require if needed else optional)(obj, "query_id", (str, int), path, number)
    if value is None:
        return None
    text = str(value)
    if not text.strip():
        raise InputError(path, "field 'query_id' is empty", number)
    return text


#: the result fields the fast path reads (a result with any other field takes the full one)
_PLAIN = frozenset({"text", "doc", "score", "start", "end"})


def _plain(results: list[Any]) -> Columns | None:
    """The columns of ``results`` when every result is of the common plain shape (a string,
    or an object of :data:`_PLAIN` fields with a string text and doc, a finite float
    score, both offsets or neither): what :func:`_native`'s full reading gives them, at a
    fraction of its cost. None when any result is of another shape, or wrong: the full
    reading then takes the line (and names what is wrong).

    A list of objects only (the usual line) is checked a field at a time over all its
    results (``map`` and set operations, run in C); any other list result by result
    (:func:`_plain_items`)."""
    n = len(results)
    if set(map(type, results)) != _DICTS:
        return _plain_items(results) if n else Columns([], [], [], [], [])
    texts: Sequence[Any]
    docs: Sequence[Any]
    scores: Sequence[Any]
    starts: Sequence[Any]
    ends: Sequence[Any]
    sizes = set(map(len, results))
    bounds: set[type] | None = None  # the offsets' types, when the shape does not tell
    try:  # the two usual shapes: every result with the same fields, all of them or no offsets
        if sizes == _FIVE:
            texts, docs, scores, starts, ends = zip(*map(_ALL, results), strict=True)
        elif sizes == _THREE:
            texts, docs, scores = zip(*map(_NO_OFFSETS, results), strict=True)
            starts = ends = (None,) * n
            bounds = _NONES
        else:
            raise KeyError
    except KeyError:  # another set of fields
        if not _PLAIN.issuperset(chain.from_iterable(results)):  # a dict iterates its keys
            return None
        texts = list(map(_get, results, repeat("text", n)))
        docs = list(map(_get, results, repeat("doc", n)))
        scores = list(map(_get, results, repeat("score", n)))
        starts = list(map(_get, results, repeat("start", n)))
        ends = list(map(_get, results, repeat("end", n)))
    if set(map(type, texts)) != _STRS:
        return None
    doc = docs[0]  # usually every result's: one count, not a type per result
    if (docs.count(doc) != n or (doc is not None and type(doc) is not str)) and (
        not _STR_OR_NONE.issuperset(map(type, docs))
    ):
        return None
    kinds = set(map(type, scores))
    if not _FLOAT_OR_NONE.issuperset(kinds):
        return None
    if float in kinds:
        values = scores if _NONE not in kinds else [s for s in scores if s is not None]
        # a sum is finite when every term is (NaN and infinities carry through); a finite
        # sum is also a float overflow away from proof, so then each is looked at
        if not isfinite(sum(values)) and not all(map(isfinite, values)):
            return None
    if bounds is None:
        bounds = set(map(type, starts)) | set(map(type, ends))
    if bounds == _INTS:  # offsets on every result
        if min(starts) < 0 or not all(map(le, starts, ends)) or None in docs:
            return None
    elif bounds != _NONES:  # offsets on some results only, or of another type
        return _plain_items(results)
    return Columns(texts, docs, scores, starts, ends)


_get = dict.get
_ALL = itemgetter("text", "doc", "score", "start", "end")
_NO_OFFSETS = itemgetter("text", "doc", "score")
_FIVE = {5}
_THREE = {3}
_NONE = type(None)
_DICTS = {dict}
_STRS = {str}
_INTS = {int}
_NONES = {_NONE}
_STR_OR_NONE = frozenset({str, _NONE})
_FLOAT_OR_NONE = frozenset({float, _NONE})


def _plain_items(results: list[Any]) -> Columns | None:
    """:func:`_plain`, result by result (a list mixing strings and objects, or offsets on
    some results only)."""
    texts: list[str] = []
    docs: list[str | None] = []
    scores: list[float | None] = []
    starts: list[int | None] = []
    ends: list[int | None] = []
    for item in results:
        kind = type(item)
        if kind is str:
            text, doc, score, start, end = item, None, None, None, None
        else:
            if kind is not dict or not item.keys() <= _PLAIN:
                return None
            get = item.get
            text = get("text")
            doc = get("doc")
            score = get("score")
            start = get("start")
            end = get("end")
            if (
                type(text) is not str
                or (doc is not None and type(doc) is not str)
                or (score is not None and (type(score) is not float or not isfinite(score)))
            ):
                return None
            if (start is not None or end is not None) and not (
                type(start) is int and type(end) is int and 0 <= start <= end and doc is not None
            ):
                return None
        texts.append(text)
        docs.append(doc)
        scores.append(score)
        starts.append(start)
        ends.append(end)
    return Columns(texts, docs, scores, starts, ends)


def _native(obj: dict[str, Any], path: str | Path, number: int) -> RunLine:
    qid = obj.get("query_id")
    if type(qid) is not str or not qid or qid.isspace():  # not the usual non-blank string
        qid = _query_id(obj, path, number, needed=True)
    results = obj.get("results")
    if type(results) is not list:
        results = require(obj, "results", list, path, number)
    plain = _plain(results)
    if plain is not None:
        return RunLine(number, qid, None, plain)
    return RunLine(number, qid, None, Columns.of(_full(results, path, number)))


def _full(results: list[Any], path: str | Path, number: int) -> tuple[RunChunk, ...]:
    """The chunks of ``results``, every field read and checked (:func:`_plain` is the
    shortcut for the common shape)."""
    ranked: list[tuple[int | None, int, str, str | None, float | None, tuple[int, int] | None]] = []
    for i, item in enumerate(results):
        where = f"results[{i}]."
        if isinstance(item, str):
            ranked.append((None, i, item, None, None, None))
            continue
        if not isinstance(item, dict):
            raise InputError(path, f"results[{i}] must be an object or a string", number)
        text = require(item, "text", str, path, number, where)
        doc = optional(item, "doc", (str, int), path, number, where)
        metadata = optional(item, "metadata", dict, path, number, where)
        if doc is None and metadata is not None:
            doc = optional(metadata, "source", (str, int), path, number, f"{where}metadata.")
        try:
            offsets = chunk_offsets(item.get, metadata, text)
        except OffsetProblem as err:
            raise InputError(path, f"results[{i}]: {err}", number) from None
        if offsets is not None and doc is None:
            raise InputError(
                path,
                f"results[{i}] gives offsets but no 'doc' (or 'metadata.source'): "
                "offsets into which page?",
                number,
            )
        score = optional(item, "score", (int, float), path, number, where)
        if score is not None:
            try:
                score = float(score)
            except OverflowError:  # an integer past a float's range
                score = math.inf
            if not math.isfinite(score):  # NaN, Infinity, 1e400 (json reads those)
                problem = finite_problem(item["score"])
                raise InputError(
                    path, f"field {where}'score' must be a finite number, got {problem}", number
                )
        rank = optional(item, "rank", int, path, number, where)
        ranked.append(
            (
                rank,
                i,
                text,
                None if doc is None else str(doc),
                score,
                offsets,
            )
        )
    with_rank = [r for r in ranked if r[0] is not None]
    if with_rank and len(with_rank) != len(ranked):
        raise InputError(path, "'rank' is given on some results but not all", number)
    if with_rank:
        ranks = [r[0] for r in with_rank]
        if len(set(ranks)) != len(ranks):
            raise InputError(path, "two results have the same 'rank'", number)
        ranked.sort(key=lambda r: (r[0], r[1]))
    return tuple(
        RunChunk(i + 1, text, doc, score, *(offsets or (None, None)))
        for i, (_, _, text, doc, score, offsets) in enumerate(ranked)
    )


def _ragas(obj: dict[str, Any], path: str | Path, number: int) -> RunLine:
    qid = _query_id(obj, path, number, needed=False)
    user_input = optional(obj, "user_input", str, path, number)
    if qid is None and not user_input:
        raise InputError(path, "a Ragas line needs 'user_input' (or 'query_id')", number)
    contexts = require(obj, "retrieved_contexts", list, path, number)
    chunks = []
    for i, text in enumerate(contexts):
        if not isinstance(text, str):
            raise InputError(path, f"retrieved_contexts[{i}] must be a string", number)
        chunks.append(RunChunk(rank=i + 1, text=text, doc=None, score=None))
    return RunLine(number, qid, user_input, Columns.of(chunks))
