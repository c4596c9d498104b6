"""Undo and redo built on the audit log, per annotator, surviving restarts.

Every audit entry has a ``kind``: ``do`` (an ordinary change), ``undo`` or ``redo`` (an
entry that reverses the entry ``reverts`` points at, written by this module). Replaying one
actor's entries in id order rebuilds two stacks, so nothing else has to be stored:

* ``do``   → push on *done*, clear *undone* (a new change forgets the redo history);
* ``undo`` → pop *done*, push the undo entry on *undone*;
* ``redo`` → pop *undone*, push the redo entry on *done*.

Undo reverses the top of *done*; redo reverses the top of *undone*. Only the actor's own
entries are considered, so concurrent annotators never undo each other's work. A reversal
is refused with :class:`UndoConflict` when the row no longer looks the way the entry left
it (someone else changed it since, or ingest marked it stale); the stacks are untouched.

Exactness: a reversal changes exactly the one row its entry is about. Removing a question
(undo of "add question", redo of its removal) is refused while it holds rows the entry did
not leave there: labels, done marks or assignments someone made since, which it would take
along (the refusal names them). Whatever a reversal removes is kept in its own entry's
snapshot, children included, so reversing that brings everything back. Reversing an
element or done-mark change of an adjudicated question is refused by the adjudicated lock
(:func:`labeler.store.settled.check_not_settled`), as the write itself would be.

Roles (:mod:`labeler.store.roles`): undo is scoped to the actor's own entries, so nobody
undoes another person's change; an annotator may reverse their own labelling, while reversing
lead work (an assignment, a settlement, a question's removal, a final-layer edit of a team
gold set) needs the lead role still (:func:`_check_role`). Registering annotators and their
roles is audited but not on these stacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, SQLModel, col, select

from labeler.errors import StoreError
from labeler.store.audit import mark_origin, snapshot
from labeler.store.models import (
    AUDIT_DO,
    AUDIT_REDO,
    AUDIT_UNDO,
    LAYER_ANNOTATOR,
    LAYER_FINAL,
    Assignment,
    AuditEntry,
    Element,
    GoldSet,
    NotRelevant,
    Query,
    QuestionDone,
)
from labeler.store.origin import ORIGIN_KEY
from labeler.store.roles import may_lead, require_lead, role_of
from labeler.store.settled import check_not_settled

# Keys of a question's snapshot that hold its rows of other tables (see delete_query).
_CHILDREN: dict[str, type[Element] | type[Assignment] | type[QuestionDone] | type[NotRelevant]] = {
    "elements": Element,
    "assignments": Assignment,
    "done": QuestionDone,
    # schema version 13: not-relevant judgements go and come back with their question
    "not_relevant": NotRelevant,
}
# the front end's mark (labeler.store.audit.ORIGIN_KEY) is no column: never compared or written back
_IGNORED = {"created_at", ORIGIN_KEY, *_CHILDREN}
_INVERSE_ACTION = {"add": "remove", "remove": "add", "change": "change"}


class UndoConflict(StoreError):
    """The change cannot be reversed because its row was changed since."""


@dataclass(frozen=True)
class Reversal:
    """What one undo or redo did, for feedback; ``action`` is the change undone or redone."""

    kind: str
    action: str
    entity: str
    entity_id: int
    entry_id: int
    #: what changed in the annotator's words (question id, quoted text, page, offsets)
    label: str = ""

    def describe(self) -> str:
        """A short sentence for the status line naming questions and text, never database
        ids, e.g. ``undone: add element of q2: 'WAL mode…' (wal.html 41–72)``."""
        verb = "undone" if self.kind == AUDIT_UNDO else "redone"
        return f"{verb}: {self.action} {self.label or self.entity}"


def _quote(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _label(
    session: Session, entity: str, data: dict[str, Any] | None, other: dict[str, Any] | None
) -> str:
    """Name the row of an audit entry from its snapshots (``data``, else ``other``): an
    element by its question's id, text, page and offsets; a question by its id. A grade
    change also says the grades, from ``other`` to ``data``."""
    row = data if data is not None else other
    if row is None:
        return entity
    if entity == "query":
        label = f"question {row.get('external_id', '?')}"
        if data is not None and other is not None:
            states = [
                "open"
                if d.get("adjudicated_at") is None
                else f"settled by {d.get('adjudicated_by')}"
                for d in (other, data)
            ]
            if states[0] != states[1]:  # settled or reopened: say which way
                label += f", {states[0]} → {states[1]}"
        return label
    query = session.get(Query, row.get("query_id"))
    name = query.external_id if query is not None else "a deleted question"
    if entity == "assignment":
        return f"assignment of {name} to {row.get('annotator')}"
    if entity == "question_done":
        return f"done mark of {name} by {row.get('annotator')}"
    if entity == "not_relevant":
        return (
            f"not-relevant judgement of {name} by {row.get('annotator')} "
            f"({row.get('document_id')} {row.get('start')}–{row.get('end')})"
        )
    label = (
        f"element of {name}: {_quote(str(row.get('text', '')))} "
        f"({row.get('document_id')} {row.get('start')}–{row.get('end')})"
    )
    if data is not None and other is not None and data.get("grade") != other.get("grade"):
        label += f", g{other.get('grade')} → g{data.get('grade')}"
    if data is not None and other is not None:
        keys = [(d.get("key_start"), d.get("key_end")) for d in (other, data)]
        if keys[0] != keys[1]:
            shown = [f"{a}–{b}" if a is not None else "none" for a, b in keys]
            label += f", key {shown[0]} → {shown[1]}"
    return label


def _stacks(session: Session, actor: str) -> tuple[list[AuditEntry], list[AuditEntry]]:
    done: list[AuditEntry] = []
    undone: list[AuditEntry] = []
    stmt = select(AuditEntry).where(AuditEntry.actor == actor).order_by(col(AuditEntry.id))
    for entry in session.exec(stmt).all():
        if entry.entity not in _MODELS:
            continue  # registering annotators and their roles: not undone, set back by hand
        if entry.kind == AUDIT_UNDO:
            if done and done[-1].id == entry.reverts:
                done.pop()
            undone.append(entry)
        elif entry.kind == AUDIT_REDO:
            if undone and undone[-1].id == entry.reverts:
                undone.pop()
            done.append(entry)
        else:
            done.append(entry)
            undone.clear()
    return done, undone


def can_undo(session: Session, actor: str) -> bool:
    """True when ``actor`` has a change left to undo."""
    return bool(_stacks(session, actor)[0])


def can_redo(session: Session, actor: str) -> bool:
    """True when ``actor`` has an undone change to redo."""
    return bool(_stacks(session, actor)[1])


def undo(session: Session, *, actor: str) -> Reversal | None:
    """Reverse ``actor``'s latest change still in effect; None when there is nothing."""
    done, _ = _stacks(session, actor)
    return _reverse(session, done[-1], actor, AUDIT_UNDO) if done else None


def redo(session: Session, *, actor: str) -> Reversal | None:
    """Re-apply ``actor``'s latest undone change; None when there is nothing."""
    _, undone = _stacks(session, actor)
    return _reverse(session, undone[-1], actor, AUDIT_REDO) if undone else None


_MODELS: dict[str, type[SQLModel]] = {
    "element": Element,
    "query": Query,
    "assignment": Assignment,
    "question_done": QuestionDone,
    "not_relevant": NotRelevant,
}


def _model(entity: str) -> type[SQLModel]:
    model = _MODELS.get(entity)
    if model is None:
        raise UndoConflict(f"cannot undo a change of {entity!r}")
    return model


def _same(current: dict[str, Any], expected: dict[str, Any]) -> bool:
    def strip(d: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in d.items() if k not in _IGNORED}

    cur, exp = strip(current), strip(expected)
    # Snapshots written before schema version 3 have no "assisted": compare common keys.
    return all(cur.get(k) == v for k, v in exp.items())


_STAMPS = ("created_at", "adjudicated_at", "assigned_at", "done_at")


def _restore(model: type[SQLModel], data: dict[str, Any]) -> SQLModel:
    values = {k: v for k, v in data.items() if k not in _CHILDREN and k != ORIGIN_KEY}
    for name in _STAMPS:
        if isinstance(values.get(name), str):
            values[name] = datetime.fromisoformat(values[name])
    return model(**values)


#: the columns that place an element: what the unique span indexes hold
_SPAN_FIELDS = ("query_id", "document_id", "start", "end", "layer", "annotator")


def _refuse_duplicate(session: Session, element: dict[str, Any], where: str) -> None:
    """:class:`UndoConflict` when bringing ``element`` back (a removed row, or an adjusted
    one moved back to its old span) would store its span twice for its question (the
    schema forbids it: the same span was labelled again since)."""
    layer = element.get("layer", LAYER_FINAL)
    stmt = select(Element.id).where(
        Element.query_id == element["query_id"],
        Element.document_id == element["document_id"],
        Element.start == element["start"],
        Element.end == element["end"],
        Element.layer == layer,
    )
    if layer == LAYER_ANNOTATOR:
        stmt = stmt.where(Element.annotator == element.get("annotator"))
    same = session.exec(stmt).first()
    if same is not None:
        raise UndoConflict(
            f"{where}: {element['document_id']} {element['start']}–{element['end']} was "
            "labelled again since; cannot bring back a second copy"
        )


def _refuse_duplicate_judgement(session: Session, data: dict[str, Any], where: str) -> None:
    """:class:`UndoConflict` when bringing a removed not-relevant judgement back would store
    it twice (the same annotator judged the same region in the same layer again since)."""
    same = session.exec(
        select(NotRelevant.id).where(
            NotRelevant.query_id == data["query_id"],
            NotRelevant.document_id == data["document_id"],
            NotRelevant.start == data["start"],
            NotRelevant.end == data["end"],
            NotRelevant.layer == data.get("layer", LAYER_FINAL),
            NotRelevant.annotator == data.get("annotator"),
        )
    ).first()
    if same is not None:
        raise UndoConflict(f"{where} was judged again since; cannot bring back a second copy")


def _work_words(entity: str, row: SQLModel) -> str:
    """Someone's row on a question, in words, for a refusal naming later work."""
    data = snapshot(row)
    if entity == "assignment":
        return f"assignment to {data.get('annotator')}"
    if entity == "question_done":
        return f"done mark by {data.get('annotator')}"
    if entity == "not_relevant":
        return (
            f"{data.get('annotator')}'s not-relevant judgement "
            f"({data.get('document_id')} {data.get('start')}–{data.get('end')})"
        )
    layer = "own label" if data.get("layer") == LAYER_ANNOTATOR else "final element"
    return (
        f"{data.get('annotator')}'s {layer} {_quote(str(data.get('text', '')), 30)} "
        f"({data.get('document_id')} {data.get('start')}–{data.get('end')})"
    )


def _children_now(session: Session, query_id: int | None) -> dict[str, list[SQLModel]]:
    """The question's rows of other tables (see :data:`_CHILDREN`), each kind by id."""
    out: dict[str, list[SQLModel]] = {}
    for key, child in _CHILDREN.items():
        found: list[Any] = list(
            session.exec(
                select(child).where(child.query_id == query_id).order_by(col(child.id))
            ).all()
        )
        out[key] = found
    return out


def _refuse_later_work(
    where: str, children: dict[str, list[SQLModel]], expected: dict[str, Any], verb: str
) -> None:
    """:class:`UndoConflict` naming every row of the question that the entry did not leave
    there (``expected``: the question's snapshot as the entry left it, children included):
    work done on it since, by someone else, that removing the question would take along."""
    names = {
        "elements": "element",
        "assignments": "assignment",
        "done": "question_done",
        "not_relevant": "not_relevant",
    }
    later: list[str] = []
    for key, rows in children.items():
        left = {d.get("id"): d for d in expected.get(key, [])}
        for row in rows:
            was = left.get(getattr(row, "id", None))
            # timestamps are not work; a row's stamp may differ by its round trip through JSON
            now = {k: v for k, v in snapshot(row).items() if k not in _STAMPS}
            if was is None or not _same(now, {k: v for k, v in was.items() if k not in _STAMPS}):
                later.append(_work_words(names[key], row))
    if later:
        raise UndoConflict(
            f"{verb} refused: {where} has later work on it that depends on it "
            f"({len(later)}: {', '.join(later)}); that work must go first"
        )


def _check_lock(session: Session, entry: AuditEntry, where: str, verb: str) -> None:
    """The adjudicated lock (:mod:`labeler.store.settled`) for reversing an element, a
    done-mark or a not-relevant judgement change: the question's evidence is settled."""
    if entry.entity not in ("element", "question_done", "not_relevant"):
        return
    data = entry.after or entry.before or {}
    query_id = data.get("query_id")
    if isinstance(query_id, int) and session.get(Query, query_id) is not None:
        check_not_settled(session, query_id, f"{verb} of {entry.action} {where}")


def _lead_work(session: Session, entry: AuditEntry) -> str | None:
    """What of ``entry`` needs the lead role to reverse (a phrase), None when an annotator
    may: an assignment, a question's adjudicated mark or its removal, another annotator's
    done mark, a final-layer element of a team gold set (adjudication's edits)."""
    before, after = entry.before or {}, entry.after or {}
    data = entry.after or entry.before or {}
    if entry.entity == "assignment":
        return "an assignment"
    if entry.entity == "query":
        settled = any(before.get(k) != after.get(k) for k in ("adjudicated_at", "adjudicated_by"))
        if entry.action == "change" and settled:
            return "a settlement"
        return "a question's removal" if entry.action == "remove" else None
    if entry.entity == "question_done":
        return "another annotator's done mark" if data.get("annotator") != entry.actor else None
    if entry.entity in ("element", "not_relevant") and data.get("layer") == LAYER_FINAL:
        query = session.get(Query, data.get("query_id"))
        gold_set = None if query is None else session.get(GoldSet, query.gold_set_id)
        if gold_set is not None and gold_set.team:
            return "an adjudication edit of the final layer"
    return None


def _check_role(session: Session, entry: AuditEntry, actor: str, verb: str) -> None:
    """Roles (:mod:`labeler.store.roles`) for reversing ``entry``: an annotator reverses
    their own labelling only; what :func:`_lead_work` names needs the lead role (a lead
    demoted since cannot undo their adjudication any more)."""
    if may_lead(session, actor):
        return
    work = _lead_work(session, entry)
    if work is not None:
        require_lead(session, actor, f"{verb} of {work}")


def _reverse(session: Session, entry: AuditEntry, actor: str, kind: str) -> Reversal:
    """Write ``entry.before`` back (checking the row still equals ``entry.after``).

    Exactly one change is reversed: a question removed this way (undo of its add, redo of
    its removal) is refused while it holds rows the entry did not leave there (someone's
    later labels, done marks, assignments: :func:`_refuse_later_work`), and the reversal's
    own snapshot keeps every row it removes, so reversing it again brings all back. An
    element or done-mark change of an adjudicated question is refused (the lock).
    """
    assert entry.id is not None
    model = _model(entry.entity)
    row = session.get(model, entry.entity_id)
    where = _label(session, entry.entity, entry.after or entry.before, None)
    verb = "undo" if kind == AUDIT_UNDO else "redo"
    _check_role(session, entry, actor, verb)
    _check_lock(session, entry, where, verb)
    if entry.after is None:
        if row is not None:
            raise UndoConflict(f"{where} exists again; cannot bring back the removed one")
    elif row is None:
        raise UndoConflict(f"{where} was removed since; nothing to reverse")
    elif not _same(snapshot(row), entry.after):
        raise UndoConflict(f"{where} was changed since (by someone else or by ingest)")
    now: dict[str, Any] | None = None if row is None else snapshot(row)
    if isinstance(row, Query) and now is not None:
        children = _children_now(session, row.id)
        if entry.before is None:
            _refuse_later_work(where, children, entry.after or {}, verb)
        for key, rows in children.items():
            now[key] = [snapshot(r) for r in rows]
    before = entry.before
    if before is None:
        assert row is not None
        if isinstance(row, Query):
            for rows in _children_now(session, row.id).values():
                for item in rows:
                    session.delete(item)
            session.flush()
        session.delete(row)
    elif row is None:
        parent = before.get("query_id") if model is not Query else None
        if parent is not None and session.get(Query, parent) is None:
            raise UndoConflict(f"{where}: its question was deleted since; bring it back first")
        restored = [before] if model is Element else list(before.get("elements", []))
        for data in restored:
            _refuse_duplicate(session, data, where)
        if model is NotRelevant:
            _refuse_duplicate_judgement(session, before, where)
        session.add(_restore(model, before))
        session.flush()
        for key, child in _CHILDREN.items():
            for data in before.get(key, []):
                session.add(_restore(child, data))
    else:
        if (
            model is Element
            and now is not None
            and any(before.get(name) != now.get(name) for name in _SPAN_FIELDS)
        ):
            # moving an element back (undo of an adjusted span) can land it on a span
            # labelled again since: refuse by name, as for a restored row
            _refuse_duplicate(session, before, where)
        for name, value in before.items():
            if name not in _IGNORED:
                if name in _STAMPS and isinstance(value, str):
                    value = datetime.fromisoformat(value)
                setattr(row, name, value)
        session.add(row)
    session.flush()
    reversal = AuditEntry(
        actor=actor,
        actor_role=role_of(session, actor),
        action=_INVERSE_ACTION[entry.action],
        entity=entry.entity,
        entity_id=entry.entity_id,
        before=mark_origin(session, now),
        after=mark_origin(session, before),
        kind=kind,
        reverts=entry.id,
    )
    session.add(reversal)
    session.flush()
    assert reversal.id is not None
    # Name the user's original action: "undone: add …", "redone: add …".
    original = entry.action if kind == AUDIT_UNDO else reversal.action
    label = _label(session, entry.entity, before, now)
    return Reversal(kind, original, entry.entity, entry.entity_id, reversal.id, label)


__all__ = ["AUDIT_DO", "Reversal", "UndoConflict", "can_redo", "can_undo", "redo", "undo"]
