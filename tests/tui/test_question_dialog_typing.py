"""The add-question dialog keeps every key typed, however fast (issue 22).

A terminal delivers a fast typist's keys in one burst: the app reads them one after the
other and hands each to the widget focused at that moment. :func:`burst` does exactly that
(the driver's ``send_message`` for every key, with no wait in between), where
``pilot.press`` waits for the app to be idle after each key and so never shows the race.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from sqlmodel import select
from textual import events
from textual.keys import _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from tui_support import run_app, said, settle

from labeler.store import Store
from labeler.store.models import Query
from labeler.tui.app import LabelerApp
from labeler.tui.screens.forms import QuestionDialog
from labeler.tui.screens.questions import QuestionsScreen


def burst(app: LabelerApp, keys: Iterable[str]) -> None:
    """Queue ``keys`` to the app the way the terminal driver does, all at once (the key
    and character naming is ``Pilot.press``'s)."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        if len(key) == 1 and not key.isalnum():
            key = _character_to_key(key)
        try:
            char: str | None = unicodedata.lookup(_get_unicode_name_from_key(key))
        except KeyError:
            char = key if len(key) == 1 else None
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)


def questions(store: Store) -> list[tuple[str, str]]:
    with store.session() as s:
        rows = s.exec(select(Query).order_by(Query.id)).all()  # type: ignore[arg-type]
        return [(q.external_id, q.text) for q in rows]


BEFORE = [
    ("q1", "Is the index the source of record?"),
    ("q2", "Who approves exceptions?"),
]
TYPED = [*"tabtest", "tab", *"Fast typist question?", "tab", *"a note", "ctrl+s"]


def test_a_burst_of_keys_lands_in_the_right_fields(store: Store) -> None:
    """id, tab, text, tab, notes, ctrl+s typed in one burst: stored as typed."""

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)
        await pilot.press("a")
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionDialog)
        burst(app, TYPED)
        await pilot.pause(0.2)
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)  # saved and closed
        assert "question tabtest added" in said(app)

    run_app(store, body)
    assert questions(store) == [*BEFORE, ("tabtest", "Fast typist question?")]
    with store.session() as s:
        added = s.exec(select(Query).where(Query.external_id == "tabtest")).one()
        assert added.notes == "a note"


def test_pilot_press_in_one_call(store: Store) -> None:
    """``a``, the id, tab and the text in one ``pilot.press`` call, no pause."""

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        await pilot.press("a", *"tabtest", "tab", *"Fast typist question?", "enter")
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)

    run_app(store, body)
    assert questions(store) == [*BEFORE, ("tabtest", "Fast typist question?")]


def test_enter_in_a_burst_saves_what_was_typed(store: Store) -> None:
    """``enter`` right after the text (no ctrl+s) saves the whole text too."""

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        await pilot.press("a")
        await settle(app, pilot)
        burst(app, [*"q9", "tab", *"Typed then enter?", "enter"])
        await pilot.pause(0.2)
        await settle(app, pilot)

    run_app(store, body)
    assert questions(store) == [*BEFORE, ("q9", "Typed then enter?")]


def test_keys_typed_with_the_a_that_opens_the_dialog_land_in_it(store: Store) -> None:
    """``a``, the id, tab, the text and ctrl+s in one burst from the questions list: the
    keys read before the dialog was up went to the list (``e`` of ``tabtest`` opened the
    editor of another question) instead of the dialog."""

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)
        burst(app, ["a", *TYPED])
        await pilot.pause(0.3)
        await settle(app, pilot)
        assert isinstance(app.screen, QuestionsScreen)  # saved and closed, nothing else open
        assert "question tabtest added" in said(app)

    run_app(store, body)
    assert questions(store) == [*BEFORE, ("tabtest", "Fast typist question?")]
    with store.session() as s:
        added = s.exec(select(Query).where(Query.external_id == "tabtest")).one()
        assert added.notes == "a note"


def test_keys_behind_an_e_that_opens_nothing_are_not_lost(store: Store) -> None:
    """When the opening key opens no dialog (``e`` in a gold set with no questions), the
    keys held behind it go where they would have gone: ``/`` and a filter."""
    import asyncio

    from textual.widgets import Input

    from labeler.store import create_gold_set

    with store.write() as s:
        create_gold_set(s, "empty", "no questions yet")
    app = LabelerApp(store, annotator="ana", gold_set="empty", resume=False)

    async def main() -> None:
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(app, pilot)
            await pilot.press("f2")
            await settle(app, pilot)
            burst(app, ["e", "slash", *"who"])
            await pilot.pause(0.3)
            await settle(app, pilot)
            assert isinstance(app.screen, QuestionsScreen)
            assert app.screen.query_one("#qfilter", Input).value == "who"

    asyncio.run(main())
