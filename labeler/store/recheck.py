"""Labels of a page whose text changes: checked again, in the caller's transaction.

:func:`recheck` looks at every element of the page (the rule is in :mod:`labeler.anchoring`):

* an ``ok`` element is kept, moved to new offsets, or marked ``stale`` (with the reason);
* a ``stale`` element whose exact text is back at the offsets it was labelled at becomes
  ``ok`` again. Its context is not stored, so its own offsets are the evidence: a copy of
  the text elsewhere on the page does not count.

The page text can only be replaced once no ok element contradicts it (the span triggers),
so :func:`recheck` marks the stale ones and *parks* the ones to move (status stale, not yet
audited); :func:`apply_recheck`, run after the new text is stored, gives moved elements
their offsets and moved and restored ones their ok status. Every change is audited.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session, col, select

from labeler.anchoring import relocate
from labeler.store.audit import record_change, snapshot
from labeler.store.models import ELEMENT_OK, ELEMENT_STALE, Element, GoldSet, Query
from labeler.store.validation import span_problem


def _shown(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, for the messages below."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class StaleElement:
    """An element that no longer matches its page after the page changed."""

    element_id: int
    document_id: str
    gold_set: str
    query_external_id: str
    start: int
    end: int
    text: str
    reason: str

    def __str__(self) -> str:
        shown = _shown(self.text)
        return (
            f"{self.document_id} [{self.start}:{self.end}] {self.gold_set}/"
            f"{self.query_external_id}: {shown!r} ({self.reason})"
        )


@dataclass(frozen=True)
class MovedElement:
    """An element re-anchored to new offsets after its page changed (same text)."""

    element_id: int
    document_id: str
    gold_set: str
    query_external_id: str
    old_start: int
    old_end: int
    start: int
    end: int
    text: str

    def __str__(self) -> str:
        shown = _shown(self.text)
        return (
            f"{self.document_id} [{self.old_start}:{self.old_end}] → [{self.start}:{self.end}] "
            f"{self.gold_set}/{self.query_external_id}: {shown!r}"
        )


@dataclass(frozen=True)
class RestoredElement:
    """A stale element whose exact text is back at its offsets: ok again."""

    element_id: int
    document_id: str
    gold_set: str
    query_external_id: str
    start: int
    end: int
    text: str

    def __str__(self) -> str:
        shown = _shown(self.text)
        return (
            f"{self.document_id} [{self.start}:{self.end}] {self.gold_set}/"
            f"{self.query_external_id}: {shown!r}"
        )


@dataclass
class Recheck:
    """What :func:`recheck` found; :func:`apply_recheck` finishes it."""

    stale: list[StaleElement]
    moved: list[tuple[Element, MovedElement, dict[str, object]]]
    restored: list[tuple[Element, RestoredElement, dict[str, object]]]


def recheck(session: Session, doc_id: str, old: str, new: str, actor: str) -> Recheck:
    """Check every element of ``doc_id`` against the change of its page from ``old`` to ``new``.

    Ok elements that go stale are marked and audited here. Ok elements to move are only
    *parked* (status stale, not audited) so that the page text can be replaced; stale
    elements whose text is back at their offsets are only listed. :func:`apply_recheck`
    puts both in place once the new text is stored (the span triggers check against it).
    """
    rows = session.exec(
        select(Element, Query.external_id, GoldSet.name)
        .join(Query, col(Query.id) == col(Element.query_id))
        .join(GoldSet, col(GoldSet.id) == col(Query.gold_set_id))
        .where(Element.document_id == doc_id)
        .order_by(col(Element.id))
    ).all()
    done = Recheck([], [], [])
    for element, external_id, gold_set in rows:
        assert element.id is not None  # loaded from the database
        if element.status != ELEMENT_OK:
            if span_problem(new, element.start, element.end, element.text) is None:
                back = RestoredElement(
                    element_id=element.id,
                    document_id=doc_id,
                    gold_set=gold_set,
                    query_external_id=external_id,
                    start=element.start,
                    end=element.end,
                    text=element.text,
                )
                done.restored.append((element, back, snapshot(element)))
            continue
        where = None
        if old[element.start : element.end] == element.text:
            where = relocate(old, new, element.start, element.end)
            if where.outcome == "kept":
                continue
            problem = where.reason
        else:  # not at its offsets even in the old text: judge by the new text alone
            problem = span_problem(new, element.start, element.end, element.text) or ""
            if not problem:
                continue
        before = snapshot(element)
        element.status = ELEMENT_STALE
        session.add(element)
        if (
            where is not None
            and where.outcome == "moved"
            and where.start is not None
            and where.end is not None
        ):
            moved = MovedElement(
                element_id=element.id,
                document_id=doc_id,
                gold_set=gold_set,
                query_external_id=external_id,
                old_start=element.start,
                old_end=element.end,
                start=where.start,
                end=where.end,
                text=element.text,
            )
            done.moved.append((element, moved, before))
            continue
        record_change(
            session,
            actor=actor,
            action="change",
            entity="element",
            entity_id=element.id,
            before=before,
            after=snapshot(element),
        )
        done.stale.append(
            StaleElement(
                element_id=element.id,
                document_id=doc_id,
                gold_set=gold_set,
                query_external_id=external_id,
                start=element.start,
                end=element.end,
                text=element.text,
                reason=problem,
            )
        )
    return done


def apply_recheck(session: Session, changes: Recheck, actor: str) -> None:
    """Give parked elements their new offsets and restored ones their ok status again, one
    audited change each (run after the new page text is stored)."""
    placed: list[tuple[Element, int, dict[str, object]]] = [
        (element, moved.element_id, before) for element, moved, before in changes.moved
    ]
    for element, moved, _ in changes.moved:
        if element.key_start is not None and element.key_end is not None:
            shift = moved.start - element.start  # the key moves with its element
            element.key_start += shift
            element.key_end += shift
        element.start = moved.start
        element.end = moved.end
    placed += [(element, back.element_id, before) for element, back, before in changes.restored]
    for element, element_id, before in placed:
        element.status = ELEMENT_OK
        session.add(element)
        record_change(
            session,
            actor=actor,
            action="change",
            entity="element",
            entity_id=element_id,
            before=before,
            after=snapshot(element),
        )
    session.flush()
