"""The adjudication screen's settled list (``s``), reopening (``r``) and grade ties, on both
backends, under Pilot, checked in the database.

ana and bob labelled FR (7–55) on q1 and q2 of ``team_store`` and marked both done:

* q1: both FR with the same key; ana also 63–105: not unanimous, so it stays waiting;
* q2: both FR, ana's key 28–55 ("never the source of record."), bob's 38–55 ("source of
  record."): ``adjudicate --auto unanimous`` settles q2 with FR accepted *without* a key.

The lead then finds q2 under ``s``, is told what to press on ``K`` and ``2``, reopens it
(``r``), sets bob's clause with ``K``, settles it again (``m``), and undoes all of it.
"""

from __future__ import annotations

from sqlmodel import col, select
from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from tui_support import PAGE, run_app, said, settle

from labeler.store import Store
from labeler.store.autoadjudicate import auto_adjudicate
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, LAYER_FINAL, Element, Query
from labeler.store.team import mark_done
from labeler.tui.app import LabelerApp
from labeler.tui.screens.adjudicate import AdjudicationScreen


def seed(store: Store, labels: dict[tuple[int, str], list[tuple[tuple[int, int], object]]]) -> None:
    """``labels``: (question, annotator) → ((start, end), key or grade) of their spans."""
    with store.write() as s:
        for (qid, who), found in labels.items():
            for (start, end), extra in found:
                key = extra if isinstance(extra, tuple) else None
                grade = extra if isinstance(extra, int) else 1
                add_element(
                    s,
                    qid,
                    "policy.html",
                    start,
                    end,
                    annotator=who,
                    layer=LAYER_ANNOTATOR,
                    key=key,
                    grade=grade,
                )
            mark_done(s, qid, who)


def marks(store: Store) -> dict[str, tuple[object, object]]:
    with store.session() as s:
        return {q.external_id: (q.adjudicated_by, q.adjudicated_at) for q in s.exec(select(Query))}


def finals(store: Store, query_id: int) -> list[tuple[int, int, int | None, int | None, int]]:
    with store.session() as s:
        rows = s.exec(
            select(Element)
            .where(Element.query_id == query_id, Element.layer == LAYER_FINAL)
            .order_by(col(Element.start))
        ).all()
        return [(e.start, e.end, e.key_start, e.key_end, e.grade) for e in rows]


def test_settled_list_reopen_key_settle_and_undo(team_store: Store) -> None:
    assert PAGE[28:55] == "never the source of record." and PAGE[38:55] == "source of record."
    seed(
        team_store,
        {
            (1, "ana"): [((7, 55), (28, 55)), ((63, 105), None)],
            (1, "bob"): [((7, 55), (28, 55))],
            (2, "ana"): [((7, 55), (28, 55))],
            (2, "bob"): [((7, 55), (38, 55))],
        },
    )
    with team_store.write() as s:
        result = auto_adjudicate(s, "demo", "unanimous", actor="lead")
    assert [(o.query_id, o.settled) for o in result.outcomes] == [("q1", False), ("q2", True)]
    assert finals(team_store, 2) == [(7, 55, None, None, 1)]  # the keys differ: no key
    settled_at = marks(team_store)["q2"][1]
    assert settled_at is not None

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        async def key(*keys: str) -> None:
            await pilot.press(*keys)
            await settle(app, pilot)

        def last() -> str:
            return said(app)[-1]

        await key("f5")
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        title = str(screen.query_one("#adj-title", Static).render())
        assert "1 question(s) waiting" in title and "settled" not in title
        hint = str(screen.query_one("#adj-hint", Static).render())
        assert "s show settled · r reopen" in hint
        assert [w.external_id for w in screen.queue] == ["q1"]
        await key("s")  # the settled questions follow, with who settled each and when
        assert [(w.external_id, w.settled_by) for w in screen.queue] == [
            ("q1", None),
            ("q2", "lead"),
        ]
        queue = screen.query_one("#adj-queue", DataTable)
        when = f"{settled_at:%Y-%m-%d %H:%M} UTC"
        assert [str(c) for c in queue.get_row_at(1)] == ["q2", "ana, bob", "1.00", "1.00",
                                                         f"lead {when}"]  # fmt: skip
        assert str(queue.get_row_at(0)[4]) == ""
        title = str(screen.query_one("#adj-title", Static).render())
        assert "1 settled listed after them (s hides them, r reopens one)" in title
        queue.focus()
        await key("down")
        assert screen.query_id == 2
        head = str(screen.query_one("#adj-question", Static).render())
        assert f"settled by lead {when} · r reopens it to change it" in head

        # K and a grade on the settled q2: told exactly what to press, nothing written
        screen.view.select_offsets(38, 55)
        await key("K")
        assert last() == (
            f"q2 is settled (settled by lead {when}): press r to reopen it here, then K to "
            "set the key clause (select it on the page first), and m to settle it again"
        )
        await key("2")
        assert last().startswith("q2 is settled (settled by lead ")
        assert "press r to reopen it here, then 2 to grade the accepted span" in last()
        await key("m")
        assert "q2 is settled already" in last() and "r reopens it" in last()
        assert finals(team_store, 2) == [(7, 55, None, None, 1)]
        assert marks(team_store)["q2"] == ("lead", settled_at)

        await key("r")
        assert marks(team_store)["q2"] == (None, None)
        assert last().startswith(f"q2 reopened by lead (was settled by lead {when}): pending")
        assert "K sets the key" in last() and "m settles again" in last()
        assert "ctrl+z: undo" in last()
        assert screen.query_id == 2  # still shown, now waiting
        assert [(w.external_id, w.settled) for w in screen.queue] == [
            ("q1", False),
            ("q2", False),
        ]
        screen.query_one("#adj-groups", DataTable).focus()
        screen.view.select_offsets(38, 55)  # bob's clause
        await key("K")
        assert finals(team_store, 2) == [(7, 55, 38, 55, 1)]
        await key("2")
        assert finals(team_store, 2) == [(7, 55, 38, 55, 2)]
        await key("m")
        assert marks(team_store)["q2"][0] == "lead"
        assert "q2 adjudicated by lead" in last()
        await key("r")  # the q2 row is settled again (listed after q1)
        assert marks(team_store)["q2"] == (None, None)
        # undo: the reopen (settled again, as the m left it), the m, the grade, the key,
        # and the first reopen: q2 settled as auto adjudication left it
        for _ in range(5):
            await key("ctrl+z")
        assert marks(team_store)["q2"] == ("lead", settled_at)
        assert finals(team_store, 2) == [(7, 55, None, None, 1)]
        assert "undone: change question q2, open → settled by lead" in last()
        await key("ctrl+y")  # redo: reopened again
        assert marks(team_store)["q2"] == (None, None)
        await key("s")  # hidden again: only the waiting ones (q2 waits now)
        assert [w.external_id for w in screen.queue] == ["q1", "q2"]

    run_app(team_store, body, annotator="lead")


def test_r_on_a_waiting_question_reopens_nothing(team_store: Store) -> None:
    seed(team_store, {(1, "ana"): [((7, 55), None)], (1, "bob"): [((7, 55), None)]})

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        await pilot.press("r")
        await settle(app, pilot)
        assert said(app)[-1] == (
            "q1 is not settled: nothing to reopen (s lists the settled questions)"
        )

    run_app(team_store, body, annotator="lead")
    assert marks(team_store)["q1"] == (None, None)


def test_a_grade_tie_is_shown_and_takes_the_lower_grade(team_store: Store) -> None:
    """q1: ana FR g3, bob FR g2: one vote each, a tie; the group line says so and a
    accepts FR with grade 2."""
    seed(team_store, {(1, "ana"): [((7, 55), 3)], (1, "bob"): [((7, 55), 2)]})

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        table = screen.query_one("#adj-groups", DataTable)
        assert str(table.get_row_at(0)[2]) == (
            "2/2 ana, bob · grades 3, 2 tie: final 2 (ties take the lower grade)"
        )
        await pilot.press("a")
        await settle(app, pilot)
        assert "g2 [grades 3, 2 tie: final 2 (ties take the lower grade)]" in said(app)[-1]
        assert str(table.get_row_at(0)[3]) == "✓ g2"

    run_app(team_store, body, annotator="lead")
    assert finals(team_store, 1) == [(7, 55, None, None, 2)]
