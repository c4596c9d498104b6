"""Child process of test_team_processes.py: one annotator labelling q1 headless.

Run as ``python team_app.py DB ANNOTATOR DIR``: waits for ``DIR/start`` (so that both
annotators label at the same time), attaches its spans to q1 on policy.html, marks q1 done
(D), waits for ``DIR/check`` (the other one has finished too), reloads and reports what its
page screen shows. Markers go to the fd in ``$MARKER_FD`` (Textual draws on stderr).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from textual.pilot import Pilot

from labeler.store import open_store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen

SPANS = {
    "ana": [(7, 55), (63, 105), (0, 6)],
    "bob": [(7, 55), (63, 86), (106, 146)],
}


def marker(text: str) -> None:
    fd = os.environ.get("MARKER_FD")
    if fd:
        os.write(int(fd), (text + "\n").encode())


async def wait_file(path: Path) -> None:
    for _ in range(1200):
        if path.exists():
            return
        await asyncio.sleep(0.1)
    raise TimeoutError(str(path))


async def script(pilot: Pilot[int], here: Path) -> None:
    app = pilot.app
    assert isinstance(app, LabelerApp)

    async def settle() -> None:
        for _ in range(5):
            await app.workers.wait_for_complete()
            await pilot.pause()

    await settle()
    screen = PageScreen("policy.html")
    await app.push_screen(screen)
    await settle()
    marker(f"READY {app.annotator}")
    await wait_file(here / "start")
    for n, (start, end) in enumerate(SPANS[app.annotator], start=1):
        screen.view.select_offsets(start, end)
        await pilot.press("a")
        await settle()
        if sum(x.title == "saved" for x in app._notifications) == n:
            marker(f"SAVED {n} {app.annotator}")
    await pilot.press("D")
    await settle()
    q = app.current_question
    marker(f"DONE {app.annotator} {q is not None and q.done}")
    await wait_file(here / "check")
    app.changed()
    await settle()
    seen = [[e.query_id, e.start, e.end, e.annotator] for e in screen.elements]
    counts = [q.n_gold for q in app.questions]
    marker(f"SEES {app.annotator} {json.dumps({'elements': seen, 'n_gold': counts})}")
    marker("SCRIPT-DONE")
    app.exit(0)


def main() -> None:
    db, annotator, here = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    store = open_store(db)

    async def auto(pilot: Pilot[int]) -> None:
        await script(pilot, here)

    app = LabelerApp(store, annotator=annotator, gold_set="demo", resume=False)
    try:
        app.run(headless=True, auto_pilot=auto, size=(100, 30))
    finally:
        store.close()


if __name__ == "__main__":
    main()
