"""Child process of test_kill.py: label three spans headless, report each save, then wait.

Run as ``python kill_app.py DB``; progress markers go to the fd in ``$MARKER_FD`` (Textual
draws on stderr, so the harness needs its own channel).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from textual.pilot import Pilot

from labeler.store import open_store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen

SPANS = [(0, 5), (7, 13), (14, 17)]


def marker(text: str) -> None:
    fd = os.environ.get("MARKER_FD")
    if fd:
        os.write(int(fd), (text + "\n").encode())


async def script(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, LabelerApp)

    async def settle() -> None:
        for _ in range(5):
            await app.workers.wait_for_complete()
            await pilot.pause()

    # Count "saved" notifications as they are posted: under load one can expire (and leave
    # app._notifications) before the next label is saved.
    saved = 0
    notify = app.notify

    def counting_notify(message: str, *args: Any, **kwargs: Any) -> None:
        nonlocal saved
        if kwargs.get("title") == "saved":
            saved += 1
        notify(message, *args, **kwargs)

    app.notify = counting_notify  # type: ignore[method-assign]
    await settle()
    screen = PageScreen("policy.html")
    await app.push_screen(screen)
    await settle()
    for n, (start, end) in enumerate(SPANS, start=1):
        screen.view.select_offsets(start, end)
        await pilot.press("a")
        await settle()
        if saved == n:
            marker(f"SAVED {n} {app.annotator}")
    marker("SCRIPT-DONE")
    await asyncio.sleep(3600)  # stay alive until the harness kills us


def main() -> None:
    store = open_store(sys.argv[1])
    app = LabelerApp(store, annotator="killer", gold_set="demo")
    app.run(headless=True, auto_pilot=script, size=(100, 30))


if __name__ == "__main__":
    main()
