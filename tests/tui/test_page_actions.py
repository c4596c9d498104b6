"""Pilot tests: one per labelling action of the page view (issue #4)."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input, Static
from tui_support import PAGE, run_app, said, settle

from labeler.store import Store, list_audit, open_store, page_elements, upsert_document
from labeler.store.models import Run, RunResult
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen
from labeler.tui.widgets.page_view import PageView

FR = "FR-001: The index is never the source of record."


async def open_page(app: LabelerApp, pilot: Pilot[int], doc: str = "policy.html") -> PageScreen:
    screen = PageScreen(doc)
    await app.push_screen(screen)
    await settle(app, pilot)
    assert screen.loaded
    return screen


def elements(store: Store, doc: str = "policy.html") -> list[tuple[int, str, int, str, bool]]:
    with store.session() as s:
        return [
            (e.query_id, e.text, e.grade, e.annotator, e.assisted) for e in page_elements(s, doc)
        ]


def readout(app: LabelerApp) -> str:
    return str(app.screen.query_one("#readout", Static).render())


def messages(app: LabelerApp) -> list[str]:
    return said(app)


def test_select_with_keys_and_attach(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot)
        await pilot.press(*["right"] * 7, *["shift+right"] * len(FR))
        assert screen.view.offsets == (7, 7 + len(FR))
        assert "7–55" in readout(app) and f"{len(FR)} chars" in readout(app)
        await pilot.press("a")
        await settle(app, pilot)
        assert any(
            m.startswith("attached to q1: 'FR-001: The index is never the source o…' g1")
            and "(7–55)" in m
            for m in messages(app)
        )

    run_app(store, body)
    assert elements(store) == [(1, FR, 1, "ana", False)]


def test_select_with_mouse_drag(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot)
        view = screen.view
        gx, gy = view.gutter.left, view.gutter.top
        await pilot.mouse_down(view, offset=(gx + 7, gy))
        await pilot.hover(view, offset=(gx + 13, gy))
        await pilot.mouse_up(view, offset=(gx + 13, gy))
        await pilot.pause()
        assert view.offsets == (7, 13)
        assert PAGE[7:13] == "FR-001"
        await pilot.press("a")
        await settle(app, pilot)

    run_app(store, body)
    assert [e[1] for e in elements(store)] == ["FR-001"]


def test_double_click_selects_a_word(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot)
        view = screen.view
        await pilot.click(view, offset=(view.gutter.left + 20, view.gutter.top), times=2)
        await pilot.pause()
        start, end = view.offsets
        assert PAGE[start:end] == "index"

    run_app(store, body)


def test_extend_to_sentence_shrink_and_trim(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot)
        view = screen.view
        await pilot.press(*["right"] * 20, "s")
        assert PAGE[slice(*view.offsets)] == FR
        await pilot.press("w")  # already whole words: reaches over to the next word
        assert PAGE[slice(*view.offsets)] == FR + " Outro"
        await pilot.press("S")
        assert PAGE[slice(*view.offsets)] == FR
        view.select_offsets(6, 56)  # " FR-001 … record. "
        await pilot.press("t")
        assert PAGE[slice(*view.offsets)] == FR
        await pilot.press("b")
        assert PAGE[slice(*view.offsets)] == PAGE.split("\n")[0]

    run_app(store, body)


def test_grade_and_remove(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot)
        await pilot.press(*["right"] * 20, "s", "a")
        await settle(app, pilot)
        await pilot.press("3")
        await settle(app, pilot)
        assert elements(store)[0][2] == 3
        await pilot.press("x")
        await settle(app, pilot)
        assert screen.mine() == []

    run_app(store, body)
    assert elements(store) == []
    with store.session() as s:
        assert [a.action for a in list_audit(s, entity="element")] == ["remove", "change", "add"]


def test_undo_and_redo_survive_a_restart(store: Store, db: Path) -> None:
    async def label(app: LabelerApp, pilot: Pilot[int]) -> None:
        await open_page(app, pilot)
        await pilot.press(*["right"] * 20, "s", "a")
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("ctrl+z")  # undo the grade
        await settle(app, pilot)
        assert elements(store)[0][2] == 1
        await pilot.press("ctrl+z")  # undo the attach
        await settle(app, pilot)
        assert app.screen.mine() == []  # type: ignore[attr-defined]
        assert (
            "undone: add element of q1: 'FR-001: The index is never the source o…' "
            "(policy.html 7–55)" in messages(app)
        )

    run_app(store, label)
    assert elements(store) == []
    with open_store(str(db)) as again:

        async def resume(app: LabelerApp, pilot: Pilot[int]) -> None:
            await pilot.press("ctrl+y", "ctrl+y")
            await settle(app, pilot)

        run_app(again, resume)
        assert elements(again) == [(1, FR, 2, "ana", False)]

        async def other(app: LabelerApp, pilot: Pilot[int]) -> None:
            await pilot.press("ctrl+z")  # bob has nothing of his own to undo
            await settle(app, pilot)
            assert "nothing to undo" in messages(app)

        run_app(again, other, annotator="bob")
        assert len(elements(again)) == 1


def test_find_next_and_previous(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot)
        await pilot.press("slash")
        assert screen.query_one("#find", Input).has_focus
        await pilot.press(*"data", "enter")
        first = PAGE.find("data")
        assert screen.view.offsets == (first, first + 4)
        await pilot.press("n")
        second = PAGE.find("data", first + 1)
        assert screen.view.offsets == (second, second + 4)
        await pilot.press("N", "N")
        last = PAGE.rfind("data")
        assert screen.view.offsets == (last, last + 4)
        assert "⚠ repeated text" in readout(app)

    run_app(store, body)


def test_switch_question_and_jump_between_elements(store: Store) -> None:
    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot)
        view = screen.view
        view.select_offsets(7, 13)
        await pilot.press("a")
        await settle(app, pilot)
        view.select_offsets(0, 5)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("full_stop")  # next question: q2
        assert app.current_question is not None and app.current_question.external_id == "q2"
        assert screen.mine() == []
        start = PAGE.index("Exceptions")
        view.select_offsets(start, start + 42)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("comma")  # back to q1
        view.select_offsets(0, 0)
        await pilot.press("right_square_bracket")
        assert view.offsets == (7, 13)
        await pilot.press("right_square_bracket")
        assert view.offsets == (0, 5)

    run_app(store, body)
    assert [(q, t) for q, t, *_ in elements(store)] == [
        (1, "Intro"),
        (1, "FR-001"),
        (2, "Exceptions are approved by the data owner."),
    ]


def test_assist_toggle_shows_chunks_and_marks_elements(store: Store) -> None:
    with store.write() as s:
        run = Run(name="bm25")
        s.add(run)
        s.flush()
        assert run.id is not None
        s.add(RunResult(run_id=run.id, query_external_id="q1", rank=1, chunk_text="Outro."))
        s.add(RunResult(run_id=run.id, query_external_id="q1", rank=2, chunk_text=PAGE[:40]))

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot)
        assist = screen.query_one("#assist", Static)
        assert not assist.display  # blind by default
        await pilot.press("A")
        await settle(app, pilot)
        assert app.assist and assist.display
        assert "run bm25" in str(assist.render())
        screen.view.select_offsets(7, 55)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("A")
        await settle(app, pilot)
        assert not assist.display
        screen.view.select_offsets(0, 5)
        await pilot.press("a")
        await settle(app, pilot)

    app = run_app(store, body)
    assert not app.assist
    assert [(t, assisted) for _, t, _, _, assisted in elements(store)] == [
        ("Intro", False),
        (FR, True),
    ]


def test_page_with_every_line_ending_attaches_exact_text(store: Store) -> None:
    text = "one\r\ntwo\rthree\u2028four\x0cfive\x85six\nseven"
    with store.write() as s:
        upsert_document(
            s, doc_id="eol.txt", source_path="eol.txt", sha256="c", profile="text", text=text
        )

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = await open_page(app, pilot, "eol.txt")
        view = screen.query_one(PageView)
        assert view.holds_exactly()
        # Walk the cursor over every character with the keyboard: one offset per press.
        await pilot.press(*["shift+right"] * text.index("six"))
        assert view.offsets == (0, text.index("six"))
        await pilot.press("a")
        await settle(app, pilot)
        start = text.index("two")
        view.select_offsets(start, text.index("five") + 4)
        await pilot.press("a")
        await settle(app, pilot)
        await pilot.press("y")  # it overlaps the first element: confirm
        await settle(app, pilot)

    run_app(store, body)
    got = [t for _, t, *_ in elements(store, "eol.txt")]
    assert got == [text[: text.index("six")], text[text.index("two") : text.index("five") + 4]]


def test_attach_waiting_for_another_writer_says_so_then_saves(store: Store, db: Path) -> None:
    """Another process holds the write lock (a real BEGIN IMMEDIATE): the attach waits,
    the app says what it waits for, and saves once the lock is released."""
    import sqlite3

    holder = sqlite3.connect(db, isolation_level=None)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await open_page(app, pilot)
        await pilot.press(*["right"] * 7, *["shift+right"] * len(FR))
        holder.execute("BEGIN IMMEDIATE")
        await pilot.press("a")
        # until the app says something about the wait, or its job ends (gives up)
        while not any("waiting for the database" in m for m in messages(app)):
            if not [w for w in app.workers if w.is_running]:
                break
            await pilot.pause(0.05)
        said = [m for m in messages(app) if "waiting for the database" in m]
        assert said and "another process holds the write lock" in said[0]
        assert elements(store) == []  # nothing saved while the lock is held
        holder.execute("ROLLBACK")
        await settle(app, pilot)
        assert any(m.startswith("attached to q1: 'FR-001") for m in messages(app))

    try:
        run_app(store, body)
    finally:
        holder.close()
    assert elements(store) == [(1, FR, 1, "ana", False)]
