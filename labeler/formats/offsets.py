"""Where a chunk sits in its page: the offset fields of run results, in every shape read.

One rule for run JSONL lines, in-memory runs and retriever results (LangChain documents,
LlamaIndex nodes), so that a chunker's offsets mean the same wherever they come from:

* ``start`` and ``end`` (the run format's own fields): both or neither;
* ``start_char_idx`` and ``end_char_idx`` (LlamaIndex nodes): both or neither; LlamaIndex
  leaves them None when it does not know them, and None is read as not given;
* ``metadata["start_index"]`` (LangChain splitters with ``add_start_index=True``): the end
  is ``start_index + len(text)``.

The first form found is used. Offsets are code points in the page's stored text, integers
with ``0 <= start <= end``; a chunk with offsets needs a document id (offsets into which
page?). Whether ``page[start:end]`` is the chunk's text is checked where the page is known
(placement), not here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["OffsetProblem", "chunk_offsets"]

_ABSENT = object()


class OffsetProblem(ValueError):
    """Offset fields that cannot be read; the message names the field and the value."""


def _integer(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OffsetProblem(f"'{name}' must be an integer offset, got {value!r}")
    if value < 0:
        raise OffsetProblem(f"'{name}' must be 0 or more, got {value}")
    return value


def _pair(get: Callable[[str], Any], first: str, second: str) -> tuple[int, int] | None:
    a, b = get(first), get(second)
    if a is None and b is None:
        return None
    if a is None or b is None:
        given, missing = (first, second) if b is None else (second, first)
        raise OffsetProblem(f"'{given}' is given without '{missing}'")
    return _integer(first, a), _integer(second, b)


def chunk_offsets(
    get: Callable[[str], Any], metadata: Any, text: str | None
) -> tuple[int, int] | None:
    """``(start, end)`` of one result, or None when it gives no offsets.

    ``get(name)`` reads a top-level field of the result (a mapping's key or an object's
    attribute; None when absent), ``metadata`` is its metadata (a mapping, or anything
    else for none) and ``text`` its text (needed for ``metadata["start_index"]``).

    Raises :class:`OffsetProblem` for one of a pair without the other, a value that is not
    an integer (booleans included) or is negative, or ``end < start``.
    """
    found = _pair(get, "start", "end")
    if found is None:
        found = _pair(get, "start_char_idx", "end_char_idx")
    if found is None and isinstance(metadata, Mapping):
        start = metadata.get("start_index", _ABSENT)
        if start is not _ABSENT and start is not None:
            begin = _integer("metadata.start_index", start)
            found = (begin, begin + len(text or ""))
    if found is not None and found[1] < found[0]:
        raise OffsetProblem(f"'end' {found[1]} is before 'start' {found[0]}")
    return found
