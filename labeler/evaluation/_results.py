"""Ranked results in the shapes retrieval pipelines produce, read into plain chunks.

A retriever (or an in-memory run) may give, for one question, a sequence whose items are:

* a string: the chunk text;
* a mapping with ``text`` or ``page_content`` (the text), optionally ``doc`` or
  ``metadata["source"]`` (the document id) and ``score``;
* an object with ``page_content`` and ``metadata`` (LangChain's ``Document``): the text,
  ``metadata["source"]`` as the document id;
* an object with a ``node`` attribute holding one of these and optionally ``score``
  (LlamaIndex's ``NodeWithScore``);
* an object with a string ``text`` attribute, or a ``get_content()`` method (LlamaIndex's
  ``TextNode``), ``metadata["source"]`` as the document id;
* a pair ``(item, score)`` of one of the above and a number (LangChain's
  ``similarity_search_with_score``).

Where a result says where its chunk sits in its page (``start``/``end``; LlamaIndex's
``start_char_idx``/``end_char_idx``; LangChain's ``metadata["start_index"]``), the offsets
are read by :func:`labeler.formats.offsets.chunk_offsets` into ``Chunk.start``/``end``; a
result with offsets but no document id is refused (offsets into which page?).

No framework is imported: items are recognised by their attributes alone. Text that the
store cannot hold (lone surrogates; NUL on PostgreSQL) and scores that are not finite are
refused here, as the run importer refuses them in a file.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from labeler.errors import InputError
from labeler.formats.offsets import OffsetProblem, chunk_offsets
from scoring import Chunk

_SURROGATE = re.compile("[\ud800-\udfff]")


class ResultShapeError(ValueError):
    """A result is in none of the accepted shapes, or holds a value the store refuses."""


def _source(metadata: Any) -> str | None:
    if isinstance(metadata, Mapping):
        value = metadata.get("source")
        if isinstance(value, str | int) and not isinstance(value, bool):
            return str(value)
    return None


def _score(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        try:
            value = float(value)  # numpy floats and the like
        except (TypeError, ValueError):
            raise ResultShapeError(f"score {value!r} is not a number") from None
    try:
        number = float(value)
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise ResultShapeError(f"score {value!r} is not a finite number")
    return number


def _placed(text: str, doc: str | None, score: float | None, get: Any, metadata: Any) -> Chunk:
    """The chunk with the offsets the result gives, if any (read by the one rule)."""
    try:
        offsets = chunk_offsets(get, metadata, text)
    except OffsetProblem as err:
        raise ResultShapeError(str(err)) from None
    if offsets is None:
        return Chunk(text, doc, score)
    if doc is None:
        raise ResultShapeError(
            f"offsets {offsets[0]}..{offsets[1]} without a document id "
            "('doc' or metadata['source']): offsets into which page?"
        )
    return Chunk(text, doc, score, offsets[0], offsets[1])


def _attribute(item: Any) -> Any:
    return lambda name: getattr(item, name, None)


def _mapping(item: Mapping[Any, Any]) -> Chunk:
    text = item.get("text", item.get("page_content"))
    if not isinstance(text, str):
        raise ResultShapeError("a mapping result needs a string 'text' or 'page_content'")
    doc = item.get("doc")
    metadata = item.get("metadata")
    if doc is None:
        doc_id = _source(metadata)
    elif isinstance(doc, str | int) and not isinstance(doc, bool):
        doc_id = str(doc)
    else:
        raise ResultShapeError(f"'doc' must be a string, got {type(doc).__name__}")
    return _placed(text, doc_id, _score(item.get("score")), item.get, metadata)


def to_chunk(item: Any) -> Chunk:
    """One result in any accepted shape (module docstring) as a :class:`scoring.Chunk`,
    with ``start``/``end`` when the result gives its offsets.

    Raises :class:`ResultShapeError` naming what was found instead, offset fields that
    cannot be read, or offsets without a document id.
    """
    if isinstance(item, str):
        return Chunk(item)
    if isinstance(item, Mapping):
        return _mapping(item)
    if isinstance(item, tuple) and len(item) == 2 and not isinstance(item[1], str):
        return to_chunk(item[0])._replace(score=_score(item[1]))
    node = getattr(item, "node", None)
    if node is not None:  # NodeWithScore
        inner = to_chunk(node)
        score = getattr(item, "score", None)
        return inner if score is None else inner._replace(score=_score(score))
    metadata = getattr(item, "metadata", None)
    content = getattr(item, "page_content", None)
    if isinstance(content, str):  # LangChain Document
        return _placed(content, _source(metadata), None, _attribute(item), metadata)
    text = getattr(item, "text", None)
    if not isinstance(text, str):
        get_content = getattr(item, "get_content", None)
        text = get_content() if callable(get_content) else None
    if isinstance(text, str):  # LlamaIndex node
        return _placed(text, _source(metadata), None, _attribute(item), metadata)
    raise ResultShapeError(
        f"a result of type {type(item).__name__} is none of: a string, a mapping with "
        "'text' or 'page_content', an object with 'page_content', 'text', 'get_content()' "
        "or a 'node' holding one"
    )


def to_chunks(
    results: Any, *, allow_nul: bool = True, max_results: int | None = None
) -> list[Chunk]:
    """A question's results (a sequence or any iterable, best first) as chunks in rank order.

    An iterable is read lazily, one result at a time, and with ``max_results`` no further
    than result ``max_results + 1``: a generator that never ends costs that many results.

    Raises :class:`ResultShapeError` for something that is not a sequence of results
    (a string or mapping on its own, None), more than ``max_results`` results, a result in
    no accepted shape, text the store cannot hold (a lone surrogate; NUL unless
    ``allow_nul``) or a score that is not finite; the message names the rank.
    """
    if results is None or isinstance(results, str | bytes | Mapping):
        raise ResultShapeError(
            f"expected a list of results, got {'None' if results is None else type(results).__name__}"
        )
    if not isinstance(results, Iterable):
        raise ResultShapeError(f"expected a list of results, got {type(results).__name__}")
    chunks: list[Chunk] = []
    for rank, item in enumerate(results, 1):
        if max_results is not None and rank > max_results:
            raise ResultShapeError(f"more than {max_results} results (--max-results)")
        try:
            chunk = to_chunk(item)
            text = chunk.text or ""
            bad = _SURROGATE.search(text)
            if bad is not None:
                raise ResultShapeError(
                    f"text holds a lone surrogate (U+{ord(bad.group()):04X}), not Unicode text"
                )
            if not allow_nul and "\x00" in text:
                raise ResultShapeError("text holds NUL, which PostgreSQL text cannot store")
        except ResultShapeError as err:
            raise ResultShapeError(f"result {rank}: {err}") from None
        chunks.append(chunk)
    return chunks


def run_from_mapping(
    rows: Mapping[str, Any], *, where: str = "rows", allow_nul: bool = True
) -> dict[str, list[Chunk]]:
    """An in-memory run, query id → results in any accepted shape, as query id → chunks.

    Raises :class:`~labeler.errors.InputError` (on ``where``) naming the question and the
    rank of the first result that cannot be read, or an empty or non-string query id.
    """
    if not isinstance(rows, Mapping):
        raise InputError(where, f"expected a mapping query_id → results, got {type(rows).__name__}")
    run: dict[str, list[Chunk]] = {}
    for qid, results in rows.items():
        if not isinstance(qid, str | int) or isinstance(qid, bool) or not str(qid).strip():
            raise InputError(where, f"query id {qid!r} is not a non-empty string")
        if str(qid) in run:
            raise InputError(where, f"query id {str(qid)!r} appears twice")
        try:
            run[str(qid)] = to_chunks(results, allow_nul=allow_nul)
        except ResultShapeError as err:
            raise InputError(where, f"query {str(qid)!r}: {err}") from None
    return run
