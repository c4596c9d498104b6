"""The element span invariant, checked in Python on every ORM write of an Element.

:func:`span_problem` is the one definition; :func:`check_element_span` raises it as
:class:`~labeler.errors.IntegrityError`. The mapper events below run it before every INSERT
and UPDATE of an :class:`~labeler.store.models.Element` whose status is ``ok``, whatever
code path flushed it, so a bad span fails with a clear message before SQLite's triggers
(the second, independent guard) are reached.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, event, select
from sqlmodel import col

from labeler.errors import IntegrityError
from labeler.store.models import (
    ELEMENT_OK,
    ELEMENT_STATUSES,
    LAYER_ANNOTATOR,
    LAYER_FINAL,
    PROVENANCE_OWN,
    PROVENANCES,
    Document,
    Element,
)


def span_problem(page: str, start: int, end: int, text: str) -> str | None:
    """Why ``text`` at ``[start, end)`` is not a valid span of ``page``; None when it is.

    Valid means ``0 <= start < end <= len(page)`` and ``page[start:end] == text`` (Python
    code-point indices). Booleans are not accepted as offsets.
    """
    for name, value in (("start", start), ("end", end)):
        if isinstance(value, bool) or not isinstance(value, int):
            return f"{name} must be an integer, got {value!r}"
    if not 0 <= start < end <= len(page):
        return f"span [{start}, {end}) is not within the page (0 <= start < end <= {len(page)})"
    actual = page[start:end]
    if actual != text:
        return (
            f"element text {_clip(text)} differs from the page text[{start}:{end}] {_clip(actual)}"
        )
    return None


def _clip(value: str, limit: int = 60) -> str:
    return repr(value if len(value) <= limit else value[: limit - 1] + "…")


def check_element_span(page: str, element: Element) -> None:
    """Raise :class:`IntegrityError` unless ``element`` is a valid span of ``page``."""
    problem = span_problem(page, element.start, element.end, element.text)
    if problem is not None:
        raise IntegrityError(f"element on {element.document_id!r}: {problem}")


def key_problem(start: int, end: int, key_start: int | None, key_end: int | None) -> str | None:
    """Why ``[key_start, key_end)`` is not a key span of the element ``[start, end)``; None
    when it is one or both are None (no key). The ``ck_element_key`` constraint in Python."""
    if key_start is None and key_end is None:
        return None
    if key_start is None or key_end is None:
        return "a key span needs both its start and its end"
    for value in (key_start, key_end):
        if isinstance(value, bool) or not isinstance(value, int):
            return f"key offsets must be integers, got {value!r}"
    if not start <= key_start < key_end <= end:
        return (
            f"key span [{key_start}, {key_end}) is not inside the element [{start}, {end}) "
            "(start <= key start < key end <= end)"
        )
    return None


def check_element_fields(element: Element) -> None:
    """Raise :class:`IntegrityError` for a bad grade, status, key span, layer or provenance
    (the CHECK constraints, and the layer rules of schema version 7: a final element has one of
    ``PROVENANCES``, an annotator-layer element ``own``)."""
    grade = element.grade
    if isinstance(grade, bool) or not isinstance(grade, int) or grade < 1:
        raise IntegrityError(f"element grade must be an integer >= 1, got {grade!r}")
    if element.status not in ELEMENT_STATUSES:
        raise IntegrityError(
            f"element status must be one of {', '.join(ELEMENT_STATUSES)}, got {element.status!r}"
        )
    if element.layer == LAYER_FINAL:
        if element.provenance not in PROVENANCES:
            raise IntegrityError(
                f"a final element's provenance must be one of {', '.join(PROVENANCES)}, "
                f"got {element.provenance!r}"
            )
    elif element.layer == LAYER_ANNOTATOR:
        if element.provenance != PROVENANCE_OWN:
            raise IntegrityError(
                f"an annotator-layer element's provenance is {PROVENANCE_OWN!r}, "
                f"got {element.provenance!r}"
            )
    else:
        raise IntegrityError(
            f"element layer must be {LAYER_FINAL!r} or {LAYER_ANNOTATOR!r}, got {element.layer!r}"
        )
    problem = key_problem(element.start, element.end, element.key_start, element.key_end)
    if problem is not None:
        raise IntegrityError(f"element on {element.document_id!r}: {problem}")


def _validate(_mapper: Any, connection: Connection, target: Element) -> None:
    check_element_fields(target)
    if target.status != ELEMENT_OK:
        return
    page = connection.execute(
        select(col(Document.text)).where(col(Document.id) == target.document_id)
    ).scalar_one_or_none()
    if page is None:
        raise IntegrityError(f"element refers to unknown document {target.document_id!r}")
    check_element_span(page, target)


event.listen(Element, "before_insert", _validate)
event.listen(Element, "before_update", _validate)
