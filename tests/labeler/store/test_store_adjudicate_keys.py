"""Key clauses through adjudication, on both backends: an annotator's key follows their span
into the final layer when it is unambiguous (explicit accept, ``accept_unanimous``,
``adjudicate --auto``); annotators who set different keys get a span without a key and the
disagreement reported; undo and redo bring the key back with the element.

Page (offsets by hand):
          0         1         2         3         4
          0123456789012345678901234567890123456789012
         "Alpha beta. Gamma delta epsilon. Zeta eta."
G = 12–32 "Gamma delta epsilon.", its clauses "delta" 18–23 and "epsilon." 24–32;
A = 0–11 "Alpha beta.", its clauses "Alpha" 0–5 and "beta." 6–11.
"""

from __future__ import annotations

import pytest
from sqlmodel import select

from labeler.errors import IntegrityError
from labeler.store import Store, add_query, create_gold_set, redo, undo, upsert_document
from labeler.store.adjudicating import (
    accept_unanimous,
    adjust_final,
    question_for_adjudication,
    unanimous_key_conflicts,
)
from labeler.store.adjudication import question_spans
from labeler.store.annotate import set_key
from labeler.store.autoadjudicate import auto_adjudicate
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, LAYER_FINAL, PROVENANCE_ADJUDICATED, Element
from labeler.store.team import accept_span, mark_done

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."
G, A = (12, 32), (0, 11)
EPSILON, DELTA, ALPHA, BETA = (24, 32), (18, 23), (0, 5), (6, 11)

Labels = dict[str, list[tuple[tuple[int, int], tuple[int, int] | None]]]


def test_page_offsets() -> None:
    assert PAGE[12:32] == "Gamma delta epsilon."
    assert (PAGE[18:23], PAGE[24:32], PAGE[0:5], PAGE[6:11]) == (
        "delta",
        "epsilon.",
        "Alpha",
        "beta.",
    )


def seed(store: Store, labels: Labels) -> int:
    """Gold set "gold", question q1 (id returned): each annotator's (span, key) labels in
    their layer, every annotator marked done."""
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        qid = add_query(s, gold, "q1", "Which?", actor="lead").id
        assert qid is not None
        for who, spans in labels.items():
            for (start, end), key in spans:
                add_element(
                    s, qid, "w.html", start, end, annotator=who, layer=LAYER_ANNOTATOR, key=key
                )
            mark_done(s, qid, who)
        return qid


def finals(store: Store) -> list[tuple[int, int, int | None, int | None, str]]:
    """(start, end, key_start, key_end, provenance) of every final element."""
    with store.session() as s:
        rows = s.exec(select(Element).where(Element.layer == LAYER_FINAL)).all()
        return sorted((e.start, e.end, e.key_start, e.key_end, e.provenance) for e in rows)


def test_explicit_accept_of_one_annotators_span_takes_its_key(store: Store) -> None:
    qid = seed(store, {"ana": [(G, EPSILON)], "bob": [(A, None)]})
    with store.session() as s:
        groups = {(g.start, g.end): g for g in question_spans(s, qid).groups}
    assert groups[G].keys == (EPSILON,) and groups[G].key == EPSILON
    assert groups[A].keys == (None,) and groups[A].key is None
    with store.write() as s:
        for span in (G, A):
            group = groups[span]
            accept_span(
                s,
                qid,
                "w.html",
                group.start,
                group.end,
                provenance=PROVENANCE_ADJUDICATED,
                actor="lead",
                key=group.key,
            )
    assert finals(store) == [(0, 11, None, None, "adjudicated"), (12, 32, 24, 32, "adjudicated")]
    with store.session() as s:
        row = question_for_adjudication(s, qid).final[("w.html", *G)]
    assert (row.key_start, row.key_end) == EPSILON


def test_unanimous_span_with_equal_keys_keeps_the_key(store: Store) -> None:
    # G: both set "epsilon."; A: only bob set a key ("beta."), ana none: still one key set
    qid = seed(store, {"ana": [(G, EPSILON), (A, None)], "bob": [(G, EPSILON), (A, BETA)]})
    with store.session() as s:
        assert unanimous_key_conflicts(s, qid) == []
    with store.write() as s:
        rows = accept_unanimous(s, qid, actor="lead")
    assert sorted((r.start, r.key_start, r.key_end) for r in rows) == [(0, 6, 11), (12, 24, 32)]
    assert finals(store) == [(0, 11, 6, 11, "unanimous"), (12, 32, 24, 32, "unanimous")]


def test_unanimous_span_with_conflicting_keys_is_reported_not_guessed(store: Store) -> None:
    qid = seed(
        store,
        {
            "ana": [(G, EPSILON), (A, ALPHA)],
            "bob": [(G, DELTA), (A, ALPHA)],
            "cleo": [(G, None), (A, ALPHA)],
        },
    )
    with store.session() as s:
        conflicts = unanimous_key_conflicts(s, qid)
    assert [(g.start, g.end) for g in conflicts] == [G]
    assert conflicts[0].key is None
    assert conflicts[0].key_conflict() == (("ana", EPSILON), ("bob", DELTA))
    assert conflicts[0].key_conflict_words() == "keys differ: ana 24–32, bob 18–23"
    with store.write() as s:
        accept_unanimous(s, qid, actor="lead")
    # G accepted without a key (neither ana's nor bob's picked); A with the key all three set
    assert finals(store) == [(0, 11, 0, 5, "unanimous"), (12, 32, None, None, "unanimous")]
    with store.session() as s:
        assert unanimous_key_conflicts(s, qid) == []  # both are final now


def test_auto_adjudicate_carries_keys_and_lists_conflicts(store: Store) -> None:
    # majority of 3: G by all three (keys differ), A by ana and bob (same key), Z by cleo only
    qid = seed(
        store,
        {
            "ana": [(G, EPSILON), (A, BETA)],
            "bob": [(G, DELTA), (A, BETA)],
            "cleo": [(G, EPSILON), ((33, 42), (33, 37))],
        },
    )
    with store.session() as s:
        dry = auto_adjudicate(s, "gold", "majority", actor="lead", dry_run=True)
    assert [(g.start, g.end) for g in dry.outcomes[0].key_conflicts] == [G]
    assert finals(store) == []
    with store.write() as s:
        result = auto_adjudicate(s, "gold", "majority", actor="lead")
    (outcome,) = result.outcomes
    assert [(g.start, g.key) for g in outcome.accepted] == [(0, BETA), (12, None)]
    assert [(g.start, g.end) for g in outcome.key_conflicts] == [G]
    assert [(g.start, g.key) for g in outcome.disputed] == [(33, (33, 37))]
    assert finals(store) == [(0, 11, 6, 11, "majority"), (12, 32, None, None, "unanimous")]
    assert qid == 1


def test_undo_and_redo_bring_the_key_back(store: Store) -> None:
    seed(store, {"ana": [(G, EPSILON)], "bob": [(G, EPSILON)]})
    with store.write() as s:
        (row,) = accept_unanimous(s, 1, actor="lead")
    assert finals(store) == [(12, 32, 24, 32, "unanimous")]
    with store.write() as s:
        undo(s, actor="lead")
    assert finals(store) == []
    with store.write() as s:
        redo(s, actor="lead")
    assert finals(store) == [(12, 32, 24, 32, "unanimous")]
    # the adjudicator changes the key (K) and takes it back
    with store.write() as s:
        set_key(s, row.id, *DELTA, actor="lead")
    assert finals(store) == [(12, 32, 18, 23, "unanimous")]
    with store.write() as s:
        undo(s, actor="lead")
    assert finals(store) == [(12, 32, 24, 32, "unanimous")]


def test_adjusting_a_keyed_final_span_keeps_the_key_inside(store: Store) -> None:
    seed(store, {"ana": [(G, DELTA)], "bob": [(G, DELTA)]})
    with store.write() as s:
        (row,) = accept_unanimous(s, 1, actor="lead")
    with store.write() as s:
        moved = adjust_final(s, row.id, 12, 23, actor="lead")  # "Gamma delta": key inside
    assert (moved.start, moved.end, moved.key_start, moved.key_end) == (12, 23, 18, 23)
    with pytest.raises(IntegrityError, match="key clause 18–23 outside"), store.write() as s:
        adjust_final(s, row.id, 12, 17, actor="lead")  # "Gamma": the key would be cut off
    assert finals(store) == [(12, 23, 18, 23, "unanimous")]
