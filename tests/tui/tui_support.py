"""Shared helpers of the TUI tests: a seeded store, running an app under Pilot."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from textual.pilot import Pilot

from labeler.store import (
    Store,
    add_query,
    create_gold_set,
    get_gold_set,
    open_store,
    upsert_document,
)
from labeler.store.team import add_assignment
from labeler.tui.app import LabelerApp

PAGE = (
    "Intro. FR-001: The index is never the source of record. Outro.\n"
    "Exceptions are approved by the data owner. The data owner is named in the register.\n"
    "Repeated words: data data data.\n"
)
OTHER_PAGE = "A second page about write-ahead logging. WAL mode lets readers continue."
SIZE = (120, 36)


def seed_store(db: Path) -> None:
    """Two pages, gold set 'demo' with questions q1 and q2."""
    with open_store(str(db)) as store:
        seed(store)


def seed(store: Store) -> None:
    """:func:`seed_store` on an open store (either backend)."""
    with store.write() as s:
        upsert_document(
            s,
            doc_id="policy.html",
            source_path="policy.html",
            sha256="a",
            profile="text",
            text=PAGE,
        )
        upsert_document(
            s,
            doc_id="wal.html",
            source_path="wal.html",
            sha256="b",
            profile="text",
            text=OTHER_PAGE,
        )
        gs = create_gold_set(s, "demo", "demo set")
        add_query(s, gs, "q1", "Is the index the source of record?", actor="seed")
        add_query(s, gs, "q2", "Who approves exceptions?", actor="seed", notes="policy only")


def seed_team(store: Store) -> None:
    """:func:`seed` plus q3 and q4, made a team gold set by assignments (by "lead"):
    q1 and q2 to ana and bob, q3 to bob, q4 to ana."""
    seed(store)
    make_team(store)


def make_team(store: Store) -> None:
    """The team part of :func:`seed_team`, on a store :func:`seed` filled."""
    with store.write() as s:
        gs = get_gold_set(s, "demo")
        add_query(s, gs, "q3", "What is WAL?", actor="seed")
        add_query(s, gs, "q4", "Who names the data owner?", actor="seed")
        for qid, names in ((1, "ana bob"), (2, "ana bob"), (3, "bob"), (4, "ana")):
            for name in names.split():
                add_assignment(s, qid, name, actor="lead")


def make_app(store: Store, annotator: str = "ana", *, resume: bool = False) -> LabelerApp:
    """The app on gold set 'demo'; ``resume`` off by default, so that elements a test
    stores first (recorded in the audit log) do not reopen their page at start-up."""
    app = LabelerApp(store, annotator=annotator, gold_set="demo", resume=resume)
    SAID[app] = said = []
    notify = app.notify

    def recording(message: str, *args: Any, **kwargs: Any) -> None:
        said.append(message)
        notify(message, *args, **kwargs)

    app.notify = recording  # type: ignore[method-assign]
    return app


#: every notification message each app posted, in order: tests read these rather than
#: ``app._notifications``, from which a 3-second toast can expire on a loaded machine
SAID: WeakKeyDictionary[LabelerApp, list[str]] = WeakKeyDictionary()


def said(app: LabelerApp) -> list[str]:
    """The messages ``app`` (made by :func:`make_app`) has posted so far."""
    return SAID[app]


async def settle(app: LabelerApp, pilot: Pilot[int]) -> None:
    """Wait for every database job and the repaint that follows it."""
    for _ in range(5):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not [w for w in app.workers if w.is_running]:
            break
    # What a job changed can be recomposed (the footer's keys, say) and laid out only on a
    # later refresh; on a loaded machine that is after the pause above.
    for _ in range(2):
        await app.screen.wait_for_refresh()
        await pilot.pause()
    # a footer asked to show other keys drops them before mounting the new ones: wait
    for _ in range(20):
        if not footer_recomposing(app):
            break
        await pilot.pause(0.05)


def footer_recomposing(app: LabelerApp) -> bool:
    """Whether a footer of any screen on the stack (one under a dialog is drawn too) has a
    recompose asked for and not done."""
    from labeler.tui.widgets.footer import LabelerFooter

    return any(f.recomposing for s in app.screen_stack for f in s.query(LabelerFooter))


def run_app(
    store: Store,
    body: Callable[[LabelerApp, Pilot[int]], Awaitable[None]],
    *,
    annotator: str = "ana",
    size: tuple[int, int] = SIZE,
    resume: bool = False,
) -> LabelerApp:
    """Run ``body`` against a fresh app (Pilot tests are plain functions: no pytest-asyncio)."""
    app = make_app(store, annotator, resume=resume)

    async def main() -> None:
        async with app.run_test(size=size, notifications=False) as pilot:
            await settle(app, pilot)
            await body(app, pilot)

    asyncio.run(main())
    return app
