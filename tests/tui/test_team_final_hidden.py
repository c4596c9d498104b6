"""A gold set labelled solo, then made a team gold set: the TUI says what happens to the
final elements its annotators do not see (labeler.store.final_hidden), on both backends.

Data, by hand: gold set "demo" (tui_support.seed) with q1, q2, plus q3; "solo" labels in
the final layer before any team work: q1 FR and EXC, q2 EXC, q3 FR. Then q2 alone is
assigned to bob (as ``gold assign --sample 1`` could), which makes "demo" a team gold set
and q2 pending. For ana: q1 and q3 are scored from their final elements (2 and 1), q2's 1
is left out until adjudicated; she sees none of them (0 in n_gold).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from test_team import EXC, FR, cells, done_by, open_page, stored
from textual.pilot import Pilot
from tui_support import run_app, said, seed, settle

from labeler.store import Store, add_query, get_gold_set, open_store
from labeler.store.labels import add_element
from labeler.store.team import add_assignment
from labeler.tui.app import LabelerApp
from labeler.tui.screens.questions import QuestionsScreen


@pytest.fixture
def solo_then_team(any_db: str) -> Iterator[Store]:
    """The data of the module docstring on each backend."""
    opened = open_store(any_db)
    try:
        seed(opened)
        with opened.write() as s:
            add_query(s, get_gold_set(s, "demo"), "q3", "What is the record?", actor="seed")
            for qid, span in ((1, FR), (1, EXC), (2, EXC), (3, FR)):
                add_element(s, qid, "policy.html", *span, annotator="solo")
        with opened.write() as s:
            add_assignment(s, 2, "bob", actor="lead")
        yield opened
    finally:
        opened.close()


def notes(app: LabelerApp) -> str:
    screen = next(s for s in app.screen_stack if isinstance(s, QuestionsScreen))
    return str(screen.query_one("#notes").render())


def test_state_column_notes_and_first_label_say_what_happens_to_hidden_final_labels(
    solo_then_team: Store,
) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        assert cells(app, 1) == {"q1": "0", "q2": "0", "q3": "0"}  # blind: none seen
        assert cells(app, 2) == {
            "q1": "not assigned · 2 final (scored)",
            "q2": "not assigned · 1 final (pending)",
            "q3": "not assigned · 1 final (scored)",
        }
        assert app.current_question is not None and app.current_question.external_id == "q1"
        assert notes(app) == (
            "q1 has 2 final elements from before team work, hidden here and scored as long "
            "as no one labels it; a label or done mark makes it team work, left out of "
            "scores until adjudicated (the adjudication screen lists them as accepted, to "
            "keep or reject)."
        )
        await pilot.press("down")
        await settle(app, pilot)
        assert notes(app) == (
            "notes: policy only\nq2 has 1 final element, hidden here: with team work on it, "
            "it is left out of scores until it is adjudicated (the adjudication screen "
            "lists it as accepted, to keep or reject)."
        )
        await pilot.press("up")
        await settle(app, pilot)

        # the first label on q1 says it now waits; the second does not say it again
        page = await open_page(app, pilot)
        page.view.select_offsets(0, 6)
        await pilot.press("a")
        await settle(app, pilot)
        first = said(app)[-1]
        assert first.startswith("attached to q1: 'Intro.'")
        assert first.endswith(
            "⚠ q1 now waits for adjudication and is left out of scores "
            "(its 2 final elements from before team work are kept)"
        )
        page.view.select_offsets(*FR)
        await pilot.press("a")
        await settle(app, pilot)
        assert said(app)[-1].startswith("attached to q1: 'FR-001")
        assert "waits for adjudication" not in said(app)[-1]
        assert cells(app, 2)["q1"] == "not assigned · 2 final (pending)"
        assert cells(app, 1)["q1"] == "2"  # her own two

        # a done mark as the first team work on q3 says the same
        await pilot.press("escape")
        await settle(app, pilot)
        app.current_query_id = 3
        await settle(app, pilot)
        await pilot.press("D", "y")
        await settle(app, pilot)
        done = said(app)[-1]
        assert done.startswith("q3 marked done by ana (no answer on these pages)")
        assert done.endswith(
            "⚠ q3 now waits for adjudication and is left out of scores "
            "(its 1 final element from before team work is kept)"
        )
        assert cells(app, 2)["q3"] == "done: no answer · 1 final (pending)"

    run_app(solo_then_team, body)
    # nothing was removed: the solo final elements are all still there
    finals = [(q, s, e) for q, s, e, layer, _ in stored(solo_then_team) if layer == "final"]
    assert sorted(finals) == [(1, 7, 55), (1, 63, 105), (2, 63, 105), (3, 7, 55)]
    assert done_by(solo_then_team) == [(3, "ana", True)]
