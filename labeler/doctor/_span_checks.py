"""``labeler doctor``'s checks of elements against each other (one question, one page).

* ``duplicates``: no question has the same page span twice. Schema version 5 forbids it
  with a unique index, so this finds only rows of a database not yet upgraded (or written
  past the store with the index dropped): an **error**, each group listed.
* ``overlaps``: elements of one question on one page that overlap without being equal. A
  **warning**: overlaps are allowed (the annotator confirmed them), but scoring counts each
  element on its own, so they are worth a look.
* ``dedup``: what the upgrade to schema version 5 removed (duplicates, keeping the oldest
  of each), read back from the audit log where the step recorded each row's full
  before-state. A **warning** listing them when there were any.

Every check takes the doctor's read-only database handle and shared SQL only.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal, Protocol

from labeler.store.migrations import DEDUP_ACTOR, TEAM_VERSION

#: examples listed per check
MAX_DETAILS = 50


class Rows(Protocol):
    """The part of the doctor's database handle these checks use."""

    def rows(self, sql: str, **params: Any) -> Iterable[Sequence[Any]]: ...


Verdict = tuple[Literal["ok", "warning", "error"], str, tuple[dict[str, Any], ...]]
"""status, summary, details: what :class:`labeler.doctor.Check` is built from."""

_OWNER = (
    'FROM element AS e JOIN "query" AS q ON q.id = e.query_id '
    "JOIN gold_set AS g ON g.id = q.gold_set_id "
)


def _layered(db: Rows) -> bool:
    """True when the database has element layers (schema 7): two annotators' labels of one
    span are then two different labels, not duplicates."""
    for (version,) in db.rows("SELECT max(version) FROM schema_version"):
        return int(version or 0) >= TEAM_VERSION
    return False


# One label's "owner" within a question: the final layer, or one annotator's own layer.
_LAYER_KEY = "e.layer, CASE WHEN e.layer = 'annotator' THEN e.annotator ELSE '' END"
_SAME_LAYER = "AND o.layer = e.layer AND (e.layer = 'final' OR o.annotator = e.annotator) "


def duplicates(db: Rows) -> Verdict:
    """Groups of elements with the same question, page, start and end (and, from schema 7,
    the same layer: the final layer or one annotator's own)."""
    layer = f", {_LAYER_KEY}" if _layered(db) else ""
    rows = list(
        db.rows(
            'SELECT g.name, q.external_id, e.document_id, e.start, e."end", count(*), min(e.id) '
            + _OWNER
            + f'GROUP BY g.name, q.external_id, e.document_id, e.start, e."end"{layer} '
            "HAVING count(*) > 1 ORDER BY g.name, q.external_id, e.document_id, e.start"
        )
    )
    if not rows:
        return "ok", "no question has the same span twice", ()
    details = tuple(
        {
            "gold_set": g,
            "query": q,
            "doc": doc,
            "start": start,
            "end": end,
            "copies": int(n),
            "oldest_id": int(oldest),
        }
        for g, q, doc, start, end, n, oldest in rows[:MAX_DETAILS]
    )
    extra = sum(int(r[5]) - 1 for r in rows)
    return (
        "error",
        f"{len(rows)} span(s) stored more than once for one question ({extra} extra "
        "element(s)); opening the database with this labeler upgrades it to schema 5, "
        "which keeps the oldest of each",
        details,
    )


def overlaps(db: Rows) -> Verdict:
    """Pairs of elements of one question on one page that overlap but are not equal (from
    schema 7: within one layer; annotators disagreeing is what ``labeler agreement`` shows)."""
    same_layer = _SAME_LAYER if _layered(db) else ""
    rows = list(
        db.rows(
            'SELECT g.name, q.external_id, e.document_id, e.id, e.start, e."end", '
            'o.id, o.start, o."end" ' + _OWNER + "JOIN element AS o ON o.query_id = e.query_id "
            "AND o.document_id = e.document_id AND o.id > e.id " + same_layer + ""
            'AND o.start < e."end" AND e.start < o."end" '
            'AND NOT (o.start = e.start AND o."end" = e."end") '
            "ORDER BY g.name, q.external_id, e.document_id, e.start, e.id, o.id"
        )
    )
    if not rows:
        return "ok", "no two elements of one question overlap", ()
    details = tuple(
        {
            "gold_set": g,
            "query": q,
            "doc": doc,
            "element_id": a_id,
            "span": [a_start, a_end],
            "overlaps_id": b_id,
            "overlaps_span": [b_start, b_end],
        }
        for g, q, doc, a_id, a_start, a_end, b_id, b_start, b_end in rows[:MAX_DETAILS]
    )
    return (
        "warning",
        f"{len(rows)} pair(s) of elements of one question overlap on a page "
        "(allowed; each is scored on its own)",
        details,
    )


def dedup(db: Rows) -> Verdict:
    """The duplicates the schema 5 upgrade removed, from the audit log."""
    rows = list(
        db.rows(
            "SELECT id, entity_id, before FROM audit_entry WHERE actor = :actor "
            "AND action = 'remove' AND entity = 'element' ORDER BY id",
            actor=DEDUP_ACTOR,
        )
    )
    if not rows:
        return "ok", "the schema 5 upgrade removed no duplicate element", ()
    details: list[dict[str, Any]] = []
    for entry_id, element_id, before in rows[:MAX_DETAILS]:
        row = json.loads(before) if isinstance(before, str) else dict(before or {})
        details.append(
            {
                "audit_entry": int(entry_id),
                "element_id": int(element_id),
                "query_id": row.get("query_id"),
                "doc": row.get("document_id"),
                "start": row.get("start"),
                "end": row.get("end"),
                "annotator": row.get("annotator"),
            }
        )
    return (
        "warning",
        f"the upgrade to schema 5 removed {len(rows)} duplicate element(s), keeping the "
        f"oldest of each; each removed row is in the audit log (actor {DEDUP_ACTOR})",
        tuple(details),
    )
