"""Team labelling in the TUI (issue 12): blind view, own layer, queue, done marks.

Pilot tests on both backends (``team_store``: the seeded pages, gold set "demo" with q1-q4,
made a team gold set by assignments: q1, q2 to ana and bob, q3 to bob, q4 to ana). What
the annotator sees is read from the screens' own rows and tables, what was stored from the
database.
"""

from __future__ import annotations

from sqlmodel import col, select
from textual.pilot import Pilot
from textual.widgets import DataTable, Static
from tui_support import PAGE, run_app, settle

from labeler.store import Store
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, Element, QuestionDone
from labeler.store.team import accept_span, mark_done, set_adjudicated
from labeler.tui.app import LabelerApp
from labeler.tui.screens.documents import DocumentsScreen
from labeler.tui.screens.forms import ConfirmDialog
from labeler.tui.screens.page import PageScreen
from labeler.tui.screens.questions import QuestionsScreen
from labeler.tui.screens.review import ReviewScreen

FR = (7, 55)  # 'FR-001: The index is never the source of record.'
EXC = (63, 105)  # 'Exceptions are approved by the data owner.'


def own(store: Store, qid: int, who: str, start: int, end: int) -> None:
    with store.write() as s:
        add_element(s, qid, "policy.html", start, end, annotator=who, layer=LAYER_ANNOTATOR)


def stored(store: Store) -> list[tuple[int, int, int, str, str]]:
    """(question, start, end, layer, annotator) of every element."""
    with store.session() as s:
        rows = s.exec(
            select(Element).order_by(
                col(Element.query_id), col(Element.start), col(Element.annotator)
            )
        ).all()
        return [(e.query_id, e.start, e.end, e.layer, e.annotator) for e in rows]


def done_by(store: Store) -> list[tuple[int, str, bool]]:
    with store.session() as s:
        rows = s.exec(
            select(QuestionDone).order_by(col(QuestionDone.query_id), col(QuestionDone.annotator))
        ).all()
        return [(d.query_id, d.annotator, d.no_answer) for d in rows]


def cells(app: LabelerApp, column: int) -> dict[str, str]:
    """Question id → the text of one column of the questions table."""
    screen = next(s for s in app.screen_stack if isinstance(s, QuestionsScreen))
    table = screen.query_one("#questions", DataTable)
    out = {}
    for row in range(table.row_count):
        values = table.get_row_at(row)
        out[str(values[0]).removeprefix("▶ ")] = str(values[column])
    return out


def shown_text(screen: object) -> str:
    """Everything the screen's static panels show, as plain text."""
    from textual.screen import Screen

    assert isinstance(screen, Screen)
    return "\n".join(str(w.render()) for w in screen.query(Static))


def last(app: LabelerApp) -> str:
    """The latest notification's text."""
    return list(app._notifications)[-1].message


async def open_page(app: LabelerApp, pilot: Pilot[int]) -> PageScreen:
    page = PageScreen("policy.html")
    await app.push_screen(page)
    await settle(app, pilot)
    return page


def test_ana_never_sees_bobs_span_on_screen_or_in_counts(team_store: Store) -> None:
    own(team_store, 1, "bob", *FR)
    own(team_store, 2, "bob", *EXC)
    with team_store.write() as s:
        mark_done(s, 1, "bob")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        assert [q.n_gold for q in app.questions] == [0, 0, 0, 0]
        assert cells(app, 1) == {"q1": "0", "q2": "0", "q3": "0", "q4": "0"}
        assert cells(app, 2) == {
            "q1": "assigned · to do",
            "q2": "assigned · to do",
            "q3": "not assigned",
            "q4": "assigned · to do",
        }
        header = shown_text(app.screen)
        assert "bob" not in header and "0 elements" in header
        page = await open_page(app, pilot)
        assert page.elements == []
        assert "bob" not in shown_text(page)
        assert "no elements on any page yet" in shown_text(page)
        await pilot.press("v")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewScreen) and app.screen.rows == []
        await pilot.press("f3")
        await settle(app, pilot)
        docs = app.screen
        assert isinstance(docs, DocumentsScreen)
        assert {h.id: h.elements for h in docs.hits} == {"policy.html": 0, "wal.html": 0}

    run_app(team_store, body)

    async def bob(app: LabelerApp, pilot: Pilot[int]) -> None:  # his own, only his own
        assert [q.n_gold for q in app.questions] == [1, 1, 0, 0]
        page = await open_page(app, pilot)
        assert [(e.query_id, e.start, e.annotator) for e in page.elements] == [
            (1, 7, "bob"),
            (2, 63, "bob"),
        ]
        assert cells(app, 2)["q1"] == "assigned · done"

    run_app(team_store, bob, annotator="bob")


def test_attach_goes_into_own_layer_checked_against_own_labels_only(team_store: Store) -> None:
    """bob holds FR and 0-30 on q1. ana attaching FR is no duplicate and 0-6 no overlap of
    hers; attaching FR again is refused; 30-60 overlaps her FR: asked first."""
    own(team_store, 1, "bob", *FR)
    own(team_store, 1, "bob", 0, 30)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        page = await open_page(app, pilot)
        for start, end in (FR, (0, 6)):
            page.view.select_offsets(start, end)
            await pilot.press("a")
            await settle(app, pilot)
            assert not isinstance(app.screen, ConfirmDialog)
        page.view.select_offsets(*FR)
        await pilot.press("a")
        await settle(app, pilot)
        assert any("q1 already has policy.html 7–55" in n.message for n in app._notifications)
        page.view.select_offsets(30, 60)
        await pilot.press("a")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        await settle(app, pilot)
        assert [(e.start, e.annotator) for e in page.elements] == [(0, "ana"), (7, "ana")]
        assert app.current_question is not None and app.current_question.n_gold == 2

    run_app(team_store, body)
    assert stored(team_store) == [
        (1, 0, 6, "annotator", "ana"),
        (1, 0, 30, "annotator", "bob"),
        (1, 7, 55, "annotator", "ana"),
        (1, 7, 55, "annotator", "bob"),
    ]


def test_adjudicated_question_shows_the_final_layer_and_refuses_plain_edits(
    team_store: Store,
) -> None:
    own(team_store, 1, "ana", *EXC)
    own(team_store, 1, "bob", *FR)
    with team_store.write() as s:
        accept_span(s, 1, "policy.html", *FR, provenance="adjudicated", actor="lead")
        set_adjudicated(s, 1, by="lead")
    before = stored(team_store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        assert app.questions[0].n_gold == 1 and app.questions[0].adjudicated
        assert cells(app, 2)["q1"] == "adjudicated"
        page = await open_page(app, pilot)
        assert [(e.start, e.end, e.annotator) for e in page.elements] == [(7, 55, "lead")]
        page.view.select_offsets(0, 6)
        await pilot.press("a")
        await settle(app, pilot)
        page.view.select_offsets(10, 10)
        await pilot.press("x")
        await settle(app, pilot)
        messages = [n.message for n in app._notifications]
        assert sum("q1 is adjudicated" in m and "adjudication screen (F5)" in m for m in messages)
        assert len([m for m in messages if "q1 is adjudicated" in m]) == 2
        # each says where it can be done: the screen's settled list (s) and its r
        refusals = [m for m in messages if "q1 is adjudicated" in m]
        assert all("s lists settled questions" in m and "r reopens one" in m for m in refusals)
        await pilot.press("D")
        await settle(app, pilot)
        assert "q1 is adjudicated already" in last(app)
        assert "a lead reopens it (on the adjudication screen (F5) s lists settled" in last(app)

    run_app(team_store, body)
    assert stored(team_store) == before
    assert done_by(team_store) == []


def test_queue_goes_to_the_next_assigned_question_not_done(team_store: Store) -> None:
    """ana: q1, q2, q4 assigned; q2 done. From q1: u → q4 (q2 done, q3 bob's), u → q1.
    D on q1 (no element: confirmed "no answer"), u → q4; D on q4 with an element; u → empty."""
    with team_store.write() as s:
        mark_done(s, 2, "ana")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        def current() -> str:
            q = app.current_question
            return q.external_id if q is not None else "-"

        assert current() == "q1"
        footer = [b.binding.description for b in app.screen.active_bindings.values()]
        assert footer[:3] == ["Next in queue", "Done", "Filter"]
        for expected in ("q4", "q1"):
            await pilot.press("u")
            await settle(app, pilot)
            assert current() == expected
        assert cells(app, 2)["q2"] == "assigned · done: no answer"
        await pilot.press("D")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(app, pilot)
        assert "q1 marked done by ana (no answer on these pages)" in last(app)
        await pilot.press("u")
        await settle(app, pilot)
        assert current() == "q4"
        page = await open_page(app, pilot)
        page.view.select_offsets(106, 146)
        await pilot.press("a")
        # D decides on what the screen shows: the attach stored and drawn first, then D on
        # an element of hers asks nothing (pressed together, D could come before the
        # element is on the screen and ask "no answer?", as on PostgreSQL under load)
        await settle(app, pilot)
        await pilot.press("D")
        await settle(app, pilot)
        assert not isinstance(app.screen, ConfirmDialog)
        await pilot.press("u")
        await settle(app, pilot)
        assert current() == "q4"
        assert "your queue is empty" in last(app)

    run_app(team_store, body)
    assert done_by(team_store) == [(1, "ana", True), (2, "ana", True), (4, "ana", False)]


def test_done_mark_toggles_and_is_undone_and_redone(team_store: Store) -> None:
    own(team_store, 1, "ana", *FR)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("D")
        await settle(app, pilot)
        message = last(app)
        assert message.startswith("q1 marked done by ana (1 element(s) of yours)")
        assert "ctrl+z: undo" in message
        assert done_by(team_store) == [(1, "ana", False)]
        assert app.questions[0].done
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert done_by(team_store) == []
        assert "undone: add done mark of q1 by ana" in last(app)
        assert not app.questions[0].done
        await pilot.press("ctrl+y")
        await settle(app, pilot)
        assert done_by(team_store) == [(1, "ana", False)]
        await pilot.press("D")  # toggles back
        await settle(app, pilot)
        assert done_by(team_store) == []
        assert "q1: done mark of ana removed" in last(app)

    run_app(team_store, body)


def test_gold_set_without_team_work_has_no_done_or_adjudication_keys(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        assert isinstance(app.screen, QuestionsScreen)
        shown = {b.binding.action for b in app.screen.active_bindings.values()}
        assert "toggle_done" not in shown and "adjudicate" not in shown
        await pilot.press("D", "f5")
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)
        assert cells(app, 2)["q1"] == "—"

    run_app(store, body)
    assert done_by(store) == []


def test_page_text_fixture_offsets() -> None:
    """The offsets the tests use, checked against the page text by hand."""
    assert PAGE[slice(*FR)] == "FR-001: The index is never the source of record."
    assert PAGE[slice(*EXC)] == "Exceptions are approved by the data owner."
    assert PAGE[106:146] == "The data owner is named in the register."
