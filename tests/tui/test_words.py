"""Words an annotator understands (issue 11, section 6).

Pilot tests on a real SQLite file: what grades 1-3 mean in the readout and in F1 help,
the question dialog refusing an empty or duplicate id inside itself (keeping what was
typed), the score drill-in for a question nothing retrieved, and ``End``/``Home`` in the
questions list. (Undo messages naming questions and text: tests/tui/test_page_actions.py.)
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label, Markdown, Static
from tui_support import PAGE, run_app, settle

from labeler.store import Store, add_query, attach_element, create_gold_set, list_questions
from labeler.store.models import Run, RunResult
from labeler.tui.app import LabelerApp
from labeler.tui.screens.forms import QuestionDialog
from labeler.tui.screens.help import HelpScreen
from labeler.tui.screens.page import PageScreen
from labeler.tui.screens.questions import QuestionsScreen
from labeler.tui.screens.scores import DrillScreen, ScoresScreen


def question_ids(store: Store) -> list[str]:
    with store.session() as s:
        return [q.external_id for q in list_questions(s, 1)]


def test_readout_and_help_say_what_grades_mean(store: Store) -> None:
    with store.write() as s:
        attach_element(s, 1, "policy.html", 7, 55, annotator="ana", grade=2)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = PageScreen("policy.html")
        await app.push_screen(screen)
        await settle(app, pilot)
        screen.view.select_offsets(20, 20)  # inside the grade-2 element
        await pilot.pause()
        readout = str(screen.query_one("#readout", Static).render())
        assert "g2 important: a main part of the answer" in readout
        assert "1 relevant · 2 important · 3 essential" in readout
        await pilot.press("3")
        await settle(app, pilot)
        readout = str(screen.query_one("#readout", Static).render())
        assert "g3 essential: answers the question on its own" in readout

        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = app.screen.query_one(Markdown).source
        assert "`1` relevant: supports or completes the answer" in shown
        assert "`2` important: a main part of the answer" in shown
        assert "`3` essential: answers the question on its own" in shown

    run_app(store, body)


def dialog_error(app: LabelerApp) -> str:
    label = app.screen.query_one("#qerror", Label)
    return str(label.render()) if label.display else ""


def test_add_question_empty_id_is_refused_inside_the_dialog(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("a")
        await pilot.pause()
        await pilot.press("tab", *"What is WAL?", "ctrl+s")  # no id typed: only "q1" grey
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionDialog)
        assert "type an id for the question" in dialog_error(app)
        assert app.screen.query_one("#qtext", Input).value == "What is WAL?"
        await pilot.press(*"q3", "ctrl+s")  # the id field has the focus again
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)

    run_app(store, body)
    assert question_ids(store) == ["q1", "q2", "q3"]


def test_add_question_duplicate_id_keeps_the_dialog_and_the_text(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*"q1", "tab", *"What is WAL?", "tab", *"wal only", "ctrl+s")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, QuestionDialog)
        assert "question 'q1' already exists in 'demo'" in dialog_error(app)
        assert dialog.query_one("#qid", Input).value == "q1"
        assert dialog.query_one("#qtext", Input).value == "What is WAL?"
        assert question_ids(store) == ["q1", "q2"]
        dialog.query_one("#qid", Input).value = "q3"
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)
        assert app.current_question is not None
        assert app.current_question.external_id == "q3"

    run_app(store, body)
    with store.session() as s:
        added = list_questions(s, 1)[-1]
    assert (added.external_id, added.text, added.notes) == ("q3", "What is WAL?", "wal only")


def test_drill_in_says_not_retrieved_when_no_chunk_covers_the_question(store: Store) -> None:
    with store.write() as s:
        attach_element(s, 1, "policy.html", 7, 55, annotator="ana")
        run = Run(name="bm25")
        s.add(run)
        s.flush()
        assert run.id is not None
        # q1's only chunk is the last line: none of FR-001 in it.
        s.add(RunResult(run_id=run.id, query_external_id="q1", rank=1, chunk_text=PAGE[-32:]))

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f4")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ScoresScreen) and screen.worst == ["q1"]
        screen.query_one("#worst", DataTable).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, DrillScreen)
        text = str(app.screen.query_one(Static).render())
        assert "diagnosis at k=5: retrieval (not retrieved in the top 5)" in text
        assert "None" not in text

    run_app(store, body)


def test_end_and_home_in_the_questions_list(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        table = app.screen.query_one("#questions", DataTable)
        assert table.cursor_row == 0
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == 1
        assert app.current_question is not None and app.current_question.external_id == "q2"
        await pilot.press("home")
        await pilot.pause()
        assert table.cursor_row == 0

    run_app(store, body)


def test_questions_header_says_one_question_and_one_element(store: Store) -> None:
    """Counts of 1 take the singular; 0 and 2 the plural (the seeded 'demo' set has two
    questions and no element)."""
    with store.write() as s:
        gs = create_gold_set(s, "one", "a single question")
        query = add_query(s, gs, "only", "What is WAL?", actor="seed")
        assert query.id is not None
        attach_element(s, query.id, "wal.html", 0, 8, annotator="ana")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)
        progress = str(app.screen.query_one("#progress", Static).render()).splitlines()
        assert [line[2:] for line in progress] == [
            "demo  2 questions · 2 without elements · 0 elements · —",
            "one  1 question · 0 without elements · 1 element · ana 1",
        ]

    run_app(store, body)
