"""What the TUI opens with: which gold set, and where the annotator left off.

The gold set is, in order: the one the annotator last labelled in (the audit log knows,
:func:`labeler.store.last_place`) unless another one was asked for by name; the one asked
for; the first stored one; else a new one (named as asked, or ``gold``), created in its
own write. Resuming also reopens the last question and page, but only when the gold set
chosen is the one that place belongs to.
"""

from __future__ import annotations

from dataclasses import dataclass

from labeler.store import (
    LastPlace,
    RunSummary,
    Store,
    count_documents,
    create_gold_set,
    gold_set_progress,
    last_place,
    list_runs,
)

DEFAULT_GOLD_SET = "gold"


@dataclass(frozen=True)
class Start:
    """The gold set to open, the counts the first screen needs and the place to resume."""

    gold_set_id: int
    name: str
    n_docs: int
    runs: list[RunSummary]
    #: the annotator's last question and page, in this gold set (None: start afresh)
    resume_at: LastPlace | None


def load_start(store: Store, annotator: str, wanted: str | None, resume: bool) -> Start:
    """Choose the gold set to open (creating it when none fits) and the place to resume."""
    with store.session() as s:
        sets = gold_set_progress(s)
        n_docs = count_documents(s)
        runs = list_runs(s)
        # Resume where this annotator last labelled (the audit log knows), unless a
        # different gold set was asked for.
        place = last_place(s, annotator) if resume else None
    resume_at: LastPlace | None = None
    chosen = next((g for g in sets if g.name == wanted), None) if wanted else None
    if place is not None and (chosen is None or chosen.id == place.gold_set_id):
        chosen = next((g for g in sets if g.id == place.gold_set_id), chosen)
        resume_at = place if chosen is not None and chosen.id == place.gold_set_id else None
    if chosen is None and not wanted and sets:
        chosen = sets[0]
    if chosen is not None:
        return Start(chosen.id, chosen.name, n_docs, runs, resume_at)
    with store.write() as s:
        gs = create_gold_set(s, wanted or DEFAULT_GOLD_SET)
        assert gs.id is not None
        return Start(gs.id, gs.name, n_docs, runs, resume_at)
