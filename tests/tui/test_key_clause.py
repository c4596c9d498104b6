"""Pilot tests: K makes the selection inside an element its key clause (underlined), K with no
selection clears it, ctrl+z / ctrl+y undo and redo it, and K outside an element is refused."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static
from tui_support import PAGE, run_app, settle

from labeler.store import Store, list_audit, page_elements
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen
from labeler.tui.widgets.page_view import KEY

FR = "FR-001: The index is never the source of record."
CLAUSE = "never the source of record"  # page[28:54], inside FR (page[7:55])


def keys(store: Store) -> list[tuple[int | None, int | None]]:
    with store.session() as s:
        return [(e.key_start, e.key_end) for e in page_elements(s, "policy.html")]


def messages(app: LabelerApp) -> list[str]:
    return [n.message for n in app._notifications]


def underlined(screen: PageScreen) -> list[tuple[int, int]]:
    """Columns of row 0 painted with the key style."""
    return [(a, b) for a, b, style in screen.view._by_row.get(0, []) if style == KEY]


def test_key_clause_set_shown_undone_and_cleared(store: Store) -> None:
    start = PAGE.index(CLAUSE)
    assert (start, start + len(CLAUSE)) == (28, 54) and PAGE[7:55] == FR

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = PageScreen("policy.html")
        await app.push_screen(screen)
        await settle(app, pilot)
        await pilot.press(*["right"] * 7, *["shift+right"] * len(FR), "a")
        await settle(app, pilot)
        # select the clause inside the element and press K
        screen.view.select_offsets(28, 54)
        await pilot.press("K")
        await settle(app, pilot)
        assert keys(store) == [(28, 54)]
        assert "q1: key 'never the source of record' (28–54)" in messages(app)
        assert underlined(screen) == [(28, 54)]  # row 0 starts at offset 0
        assert "key 28–54" in str(screen.query_one("#elements", Static).render())
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert keys(store) == [(None, None)] and underlined(screen) == []
        assert any("key 28–54 → none" in m for m in messages(app))
        await pilot.press("ctrl+y")
        await settle(app, pilot)
        assert keys(store) == [(28, 54)]
        # a selection reaching outside the element is no key clause
        screen.view.select_offsets(0, 20)
        await pilot.press("K")
        await settle(app, pilot)
        assert keys(store) == [(28, 54)]
        assert any("select within a highlighted element" in m for m in messages(app))
        # K with the cursor in the element and nothing selected clears the key
        screen.view.select_offsets(10, 10)
        await pilot.press("K")
        await settle(app, pilot)
        assert keys(store) == [(None, None)]
        assert "q1: key clause cleared" in messages(app)

    run_app(store, body)
    with store.session() as s:
        actions = [a.action for a in list_audit(s, entity="element")]
    # add, key set, undo, redo, key cleared
    assert actions == ["change", "change", "change", "change", "add"]
