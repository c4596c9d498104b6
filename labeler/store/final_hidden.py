"""Final elements an annotator does not see: labels of a team gold set made before team work.

A gold set labelled solo keeps its final elements when it becomes a team gold set
(:func:`labeler.store.team.make_team`). On a question that is not adjudicated an annotator
sees only their own layer (:mod:`labeler.store.blind`), so those final elements are hidden
from every annotator, while

* scoring and export still count them as long as the question has no team work (it is not
  *pending*, :data:`labeler.store.rows.PENDING_SQL`);
* the first assignment, done mark or annotator label on it makes it pending: scoring then
  leaves the question out, final elements and all, until it is adjudicated. The elements
  stay in the final layer: the adjudication screen lists them as accepted spans (to keep
  or reject) and they are scored again once the question is adjudicated.

Nothing here changes what is seen or scored; it counts, so the TUI and ``gold progress``
can say which questions are in that state. Only elements that are not stale count (scoring
leaves stale elements out anyway).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import text as sql_text
from sqlmodel import Session

from labeler.store.models import ELEMENT_STALE, LAYER_FINAL
from labeler.store.rows import PENDING_SQL


@dataclass(frozen=True)
class HiddenFinal:
    """One question of a team gold set that is not adjudicated: ``elements`` = its final
    elements that are not stale (hidden from every annotator), ``pending`` = it has team
    work (left out of scores until adjudicated)."""

    query_id: int
    elements: int
    pending: bool

    @property
    def scored(self) -> bool:
        """True when its hidden final elements are scored now (some, and not pending)."""
        return self.elements > 0 and not self.pending


HIDDEN_FINAL_SQL = (
    f"SELECT q.id, {PENDING_SQL}, "
    "(SELECT COUNT(*) FROM element e WHERE e.query_id = q.id "
    f"AND e.layer = '{LAYER_FINAL}' AND e.status <> '{ELEMENT_STALE}') "
    "FROM query q JOIN gold_set g ON g.id = q.gold_set_id "
    "WHERE q.gold_set_id = :g AND g.team AND q.adjudicated_at IS NULL"
)
"""Per question not adjudicated of team gold set ``:g``: id, pending (0/1), final
elements not stale. No row for a gold set without team work."""


def hidden_final(session: Session, gold_set_id: int) -> dict[int, HiddenFinal]:
    """Question id → :class:`HiddenFinal` for every question of gold set ``gold_set_id``
    that is not adjudicated, when it is a team gold set (empty otherwise: there every
    element is visible). One query for the whole gold set."""
    rows = session.execute(sql_text(HIDDEN_FINAL_SQL), {"g": gold_set_id}).all()
    return {int(qid): HiddenFinal(int(qid), int(n), bool(pending)) for qid, pending, n in rows}
