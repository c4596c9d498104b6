"""Child process of test_live.py: ana's TUI in a process of its own, headless.

Run as ``python live_app.py DB``: opens policy.html on q1, attaches FR-001 (7–55), marks q1
done (``D``) and exits 0 once both are stored; 1 when a step's message is missing.
"""

from __future__ import annotations

import sys

from textual.pilot import Pilot

from labeler.store import open_store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen


async def script(pilot: Pilot[int]) -> None:
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
    screen.view.select_offsets(7, 55)
    await pilot.press("a")
    await settle()
    await pilot.press("D")
    await settle()
    q = app.current_question
    app.exit(0 if q is not None and q.done and q.n_gold == 1 else 1)


def main() -> None:
    store = open_store(sys.argv[1])
    app = LabelerApp(store, annotator="ana", gold_set="demo", resume=False)
    try:
        app.run(headless=True, auto_pilot=script, size=(100, 30))
    finally:
        store.close()
    sys.exit(app.return_code or 0)


if __name__ == "__main__":
    main()
