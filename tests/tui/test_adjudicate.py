"""The adjudication screen (F5) end to end on both backends, checked in the database.

ana and bob labelled q1 and q2 (``team_store``) and marked both done:

* q1: both FR (7-55); ana 'Exceptions are approved by the data owner.' (63-105), bob
  'Exceptions are approved' (63-86): a boundary disagreement;
* q2: both FR, nothing else: identical.

So q1 has the lower agreement (α < 1; q2's α is 1: identical codings with characters coded
both 0 and 1) and comes first in the queue; q4 (only ana) is not in it.
"""

from __future__ import annotations

from sqlmodel import col, select
from textual.pilot import Pilot
from textual.widgets import DataTable
from tui_support import PAGE, run_app, settle

from labeler.store import Store
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, LAYER_FINAL, Element, Query
from labeler.store.team import mark_done
from labeler.tui.app import LabelerApp
from labeler.tui.screens.adjudicate import AdjudicationScreen
from labeler.tui.screens.forms import ConfirmDialog


def seed_labels(store: Store) -> None:
    spans = {
        (1, "ana"): [(7, 55), (63, 105)],
        (1, "bob"): [(7, 55), (63, 86)],
        (2, "ana"): [(7, 55)],
        (2, "bob"): [(7, 55)],
        (4, "ana"): [(106, 146)],
    }
    with store.write() as s:
        for (qid, who), found in spans.items():
            for start, end in found:
                add_element(s, qid, "policy.html", start, end, annotator=who, layer=LAYER_ANNOTATOR)
            mark_done(s, qid, who)


def final(store: Store) -> list[tuple[int, int, int, str, int, str]]:
    """(question, start, end, provenance, grade, annotator) of every final element."""
    with store.session() as s:
        rows = s.exec(
            select(Element)
            .where(Element.layer == LAYER_FINAL)
            .order_by(col(Element.query_id), col(Element.start))
        ).all()
        return [(e.query_id, e.start, e.end, e.provenance, e.grade, e.annotator) for e in rows]


def settled(store: Store) -> dict[str, str | None]:
    with store.session() as s:
        return {q.external_id: q.adjudicated_by for q in s.exec(select(Query)).all()}


def last(app: LabelerApp) -> str:
    return list(app._notifications)[-1].message


def test_adjudication_flow_accept_adjust_grade_settle(team_store: Store) -> None:
    seed_labels(team_store)
    assert PAGE[63:98] == "Exceptions are approved by the data"  # W: the last word dropped
    assert PAGE[63:86] == "Exceptions are approved"

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        assert [w.external_id for w in screen.queue] == ["q1", "q2"]
        q1, q2 = screen.queue
        assert q1.char_alpha is not None and q1.char_alpha < 1
        assert q2.char_alpha == 1.0 and q2.exact_f1 == 1.0
        assert screen.state is not None
        groups = [(g.start, g.end, g.annotators) for g in screen.state.spans.groups]
        assert groups == [(7, 55, ("ana", "bob")), (63, 86, ("bob",)), (63, 105, ("ana",))]
        table = screen.query_one("#adj-groups", DataTable)
        assert [str(table.get_row_at(i)[2]) for i in range(3)] == [
            "2/2 ana, bob",
            "1/2 bob",
            "1/2 ana",
        ]

        async def key(*keys: str) -> None:
            await pilot.press(*keys)
            await settle(app, pilot)

        def at() -> tuple[int, int] | None:
            g = screen.selected()
            return None if g is None else (g.start, g.end)

        await key("U")
        assert final(team_store) == [(1, 7, 55, "unanimous", 1, "lead")]
        assert "accepted 1 unanimous span(s)" in last(app)
        await key("down", "down")
        assert at() == (63, 105)
        assert screen.view.offsets == (63, 105)  # the page shows the group selected
        await key("a")
        assert final(team_store)[1] == (1, 63, 105, "adjudicated", 1, "lead")
        await key("W")  # the accepted span loses its last word
        assert final(team_store)[1][1:3] == (63, 98)
        assert at() == (63, 98)
        screen.view.select_offsets(63, 86)  # reselect on the page, then e
        await key("e")
        assert final(team_store)[1][1:3] == (63, 86)
        assert "was 63–98" in last(app)
        assert at() == (63, 86)
        await key("w")  # one word out, then in again
        assert final(team_store)[1][1:3] == (63, 89)
        assert PAGE[63:89] == "Exceptions are approved by"
        await key("W")
        assert final(team_store)[1][1:3] == (63, 86)
        await key("2")
        assert final(team_store)[1] == (1, 63, 86, "adjudicated", 2, "lead")
        await key("ctrl+z")  # the grade
        assert final(team_store)[1][4] == 1
        await key("ctrl+y")
        assert final(team_store)[1][4] == 2
        await key("down")
        assert at() == (63, 105)
        await key("x")  # ana's longer span: not accepted, nothing stored
        assert "stays out of q1's final layer" in last(app)
        await key("m")
        assert settled(team_store)["q1"] == "lead"
        assert "q1 adjudicated by lead: 2 accepted span(s), 1 span(s) not accepted" in last(app)
        assert [w.external_id for w in screen.queue] == ["q2"]
        await key("ctrl+z")
        assert settled(team_store)["q1"] is None
        assert [w.external_id for w in screen.queue] == ["q1", "q2"]
        await key("ctrl+y")
        assert settled(team_store)["q1"] == "lead"
        # q2: nothing accepted, settled with no answer after a confirmation
        assert screen.query_id == 2
        await key("m")
        assert isinstance(app.screen, ConfirmDialog)
        await key("y")
        assert settled(team_store) == {"q1": "lead", "q2": "lead", "q3": None, "q4": None}
        assert screen.queue == []

    run_app(team_store, body, annotator="lead")
    assert final(team_store) == [
        (1, 7, 55, "unanimous", 1, "lead"),
        (1, 63, 86, "adjudicated", 2, "lead"),
    ]

    async def ana(app: LabelerApp, pilot: Pilot[int]) -> None:
        """Adjudicated: ana now sees the final layer of q1 (and q2's empty one)."""
        rows = {q.external_id: (q.n_gold, q.adjudicated) for q in app.questions}
        assert rows == {"q1": (2, True), "q2": (0, True), "q3": (0, False), "q4": (1, False)}

    run_app(team_store, ana)


def test_accepted_span_removed_and_brought_back(team_store: Store) -> None:
    seed_labels(team_store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        await pilot.press("a")  # the first group: FR, chosen by both
        await settle(app, pilot)
        assert final(team_store) == [(1, 7, 55, "adjudicated", 1, "lead")]
        await pilot.press("x")
        await settle(app, pilot)
        assert final(team_store) == []
        assert "ctrl+z: undo" in last(app)
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert final(team_store) == [(1, 7, 55, "adjudicated", 1, "lead")]

    run_app(team_store, body, annotator="lead")


def seed_keyed(store: Store) -> None:
    """q1: both FR with the same key 'never the source of record.' (28-55); ana also
    63-105 with key 'the data owner.' (90-105), bob 63-86 without one. q2: both FR, ana's
    key 28-55, bob's 'source of record.' (38-55): the keys disagree."""
    labels = {
        (1, "ana"): [((7, 55), (28, 55)), ((63, 105), (90, 105))],
        (1, "bob"): [((7, 55), (28, 55)), ((63, 86), None)],
        (2, "ana"): [((7, 55), (28, 55))],
        (2, "bob"): [((7, 55), (38, 55))],
    }
    with store.write() as s:
        for (qid, who), found in labels.items():
            for (start, end), key in found:
                add_element(
                    s, qid, "policy.html", start, end, annotator=who, layer=LAYER_ANNOTATOR, key=key
                )
            mark_done(s, qid, who)


def keys(store: Store) -> list[tuple[int, int, int, int | None, int | None]]:
    """(question, start, end, key_start, key_end) of every final element."""
    with store.session() as s:
        rows = s.exec(
            select(Element)
            .where(Element.layer == LAYER_FINAL)
            .order_by(col(Element.query_id), col(Element.start))
        ).all()
        return [(e.query_id, e.start, e.end, e.key_start, e.key_end) for e in rows]


def test_accepted_spans_keep_the_annotators_key_clause(team_store: Store) -> None:
    seed_keyed(team_store)
    assert PAGE[28:55] == "never the source of record."
    assert PAGE[90:105] == "the data owner."
    assert PAGE[38:55] == "source of record."

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        async def key(*keys: str) -> None:
            await pilot.press(*keys)
            await settle(app, pilot)

        await key("f5")
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        assert screen.query_id == 1
        table = screen.query_one("#adj-groups", DataTable)
        assert [str(table.get_row_at(i)[2]) for i in range(3)] == [
            "2/2 ana, bob · key 28–55",
            "1/2 bob",
            "1/2 ana · key 90–105",
        ]
        await key("U")  # FR: both set the same key
        assert str(table.get_row_at(0)[3]) == "✓ g1 key 28–55"
        assert keys(team_store) == [(1, 7, 55, 28, 55)]
        assert "accepted 1 unanimous span(s), 1 with their key clause" in last(app)
        await key("down", "down")  # ana's 63-105, her key 90-105
        await key("a")
        assert keys(team_store) == [(1, 7, 55, 28, 55), (1, 63, 105, 90, 105)]
        assert (
            "accepted ana's span 63–105 (policy.html) 'Exceptions are approved by the data "
            "own…' g1 with key 90–105 'the data owner.' into q1's final layer" in last(app)
        )
        await key("ctrl+z")  # the accept goes, key and all
        assert keys(team_store) == [(1, 7, 55, 28, 55)]
        await key("ctrl+y")
        assert keys(team_store) == [(1, 7, 55, 28, 55), (1, 63, 105, 90, 105)]
        await key("ctrl+z")
        # e on the group: a selection holding ana's key keeps it, one cutting it does not
        assert PAGE[86:105] == " by the data owner."
        screen.view.select_offsets(86, 105)
        await key("e")
        assert keys(team_store) == [(1, 7, 55, 28, 55), (1, 86, 105, 90, 105)]
        assert "(policy.html 86–105) with key 90–105" in last(app)
        await key("ctrl+z")
        group = screen.selected()
        assert group is not None and (group.start, group.end) == (63, 105)
        screen.view.select_offsets(63, 98)
        await key("e")
        assert keys(team_store) == [(1, 7, 55, 28, 55), (1, 63, 98, None, None)]
        await key("ctrl+z")
        assert keys(team_store) == [(1, 7, 55, 28, 55)]
        await key("m")
        # q2: the keys disagree: accepted without one, and the message says whose were which
        assert screen.query_id == 2
        assert str(table.get_row_at(0)[2]) == "2/2 ana, bob · keys differ"
        await key("U")
        assert keys(team_store)[1:] == [(2, 7, 55, None, None)]
        assert "7–55 accepted without a key (keys differ: ana 28–55, bob 38–55)" in last(app)
        screen.view.select_offsets(38, 55)  # the adjudicator picks bob's clause: K
        await key("K")
        assert keys(team_store)[1:] == [(2, 7, 55, 38, 55)]
        assert "now has key 38–55" in last(app)
        await key("ctrl+z")
        assert keys(team_store)[1:] == [(2, 7, 55, None, None)]

    run_app(team_store, body, annotator="lead")


def test_m_right_after_an_accept_settles_on_what_is_stored(team_store: Store) -> None:
    """``a`` then ``m`` with no pause between: the accept is still on its way to the screen
    when ``m`` is pressed (its reload comes after the write), yet q1 is settled on the span
    just accepted, with no "Nothing accepted" question: ``m`` decides on what is stored."""
    seed_labels(team_store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        assert isinstance(app.screen, AdjudicationScreen)
        # hold the job queue while both keys are handled: the accept cannot reach the
        # screen before m is pressed (a user faster than the database)
        async with app._db_lock:
            await pilot.press("a", "m")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmDialog)
        assert settled(team_store)["q1"] == "lead"
        assert final(team_store) == [(1, 7, 55, "adjudicated", 1, "lead")]
        assert "q1 adjudicated by lead: 1 accepted span(s)" in last(app)

    run_app(team_store, body, annotator="lead")
