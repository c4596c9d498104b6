"""``adjudicate --auto`` in the store, on both backends: provenance per accepted span,
settling only undisputed questions, dry runs, undo, and team progress counts."""

from __future__ import annotations

import pytest
from sqlmodel import select

from labeler.errors import UsageError
from labeler.store import Store, add_query, create_gold_set, undo, upsert_document
from labeler.store.assign import team_progress
from labeler.store.autoadjudicate import auto_adjudicate
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, Element
from labeler.store.team import add_assignment, mark_done

pytestmark = pytest.mark.backends("sqlite", "postgresql")

#         0         1         2         3         4
#         0123456789012345678901234567890123456789012
PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."


def seed(store: Store) -> tuple[int, int, int]:
    """q1: ana and bob chose 0–11 and 12–32, cleo 12–32 and 33–42, all three done;
    q2: only ana done (nothing); q3: assigned to bob, nobody done."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        ids = [add_query(s, gold, q, "?", actor="lead").id for q in ("q1", "q2", "q3")]
        q1, q2, q3 = (i for i in ids if i is not None)
        for who, spans in {
            "ana": [(0, 11), (12, 32)],
            "bob": [(0, 11), (12, 32)],
            "cleo": [(12, 32), (33, 42)],
        }.items():
            for start, end in spans:
                add_element(s, q1, "w.html", start, end, annotator=who, layer=LAYER_ANNOTATOR)
            mark_done(s, q1, who)
        mark_done(s, q2, "ana")
        add_assignment(s, q3, "bob", actor="lead")
        return q1, q2, q3


def finals(store: Store, query_id: int) -> list[tuple[int, int, str, str]]:
    with store.session() as s:
        rows = s.exec(
            select(Element).where(Element.query_id == query_id, Element.layer == "final")
        ).all()
        return sorted((e.start, e.end, e.provenance, e.annotator) for e in rows)


def test_majority_accepts_with_provenance_and_leaves_the_dispute(store: Store) -> None:
    q1, _, _ = seed(store)
    with store.session() as s:
        dry = auto_adjudicate(s, "gold", "majority", actor="lead", dry_run=True)
    assert finals(store, q1) == []  # a dry run writes nothing
    with store.write() as s:
        result = auto_adjudicate(s, "gold", "majority", actor="lead")
    assert [(o.query_id, len(o.accepted), o.settled) for o in result.outcomes] == [("q1", 2, False)]
    assert [(o.query_id, len(o.accepted)) for o in dry.outcomes] == [("q1", 2)]
    # 0–11: 2 of 3 chose it (majority); 12–32: 3 of 3 (unanimous); 33–42: 1 of 3, disputed
    assert finals(store, q1) == [(0, 11, "majority", "lead"), (12, 32, "unanimous", "lead")]
    assert [(g.start, g.annotators) for g in result.left[0].disputed] == [(33, ("cleo",))]
    assert result.waiting == ("q2", "q3")  # one done mark / an assignment, not two done
    with store.session() as s:
        progress = team_progress(s, "gold")
    assert (progress.questions, progress.adjudicated, progress.pending) == (3, 0, 3)
    # the same rule again has nothing more to accept on q1
    with store.write() as s:
        assert auto_adjudicate(s, "gold", "majority", actor="lead").accepted == 0
    # undo, per actor, takes the last acceptance back
    with store.write() as s:
        assert undo(s, actor="lead") is not None
    assert finals(store, q1) == [(0, 11, "majority", "lead")]


def test_progress_counts_per_annotator_and_plain_sets_are_refused(store: Store) -> None:
    seed(store)
    with store.session() as s:
        people = {p.annotator: p for p in team_progress(s, "gold").annotators}
    # ana: done q1, q2 (q2 with nothing: no answer), assigned nothing
    assert (people["ana"].assigned, people["ana"].done, people["ana"].no_answer) == (0, 2, 1)
    # bob: assigned q3 (not done), done q1
    assert (people["bob"].assigned, people["bob"].done, people["bob"].remaining) == (1, 1, 1)
    with store.write() as s:
        create_gold_set(s, "plain")
    with pytest.raises(UsageError, match="not a team gold set"), store.session() as s:
        auto_adjudicate(s, "plain", "unanimous", actor="lead")
