"""The TUI's long jobs show their progress (issue 24): the scores screen says how many
questions are scored, at what rate and how long is left, with the words ``labeler score``
prints; scoring reports to it through :func:`labeler.tui.scoredata.score_stored_run`.
(The first run's ingest screen shows the same, in ``test_snapshots_sizes.py``.)

On the labelled store of ``test_snapshots`` (gold set demo, 2 questions, run bm25)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from test_snapshots import labelled
from textual.widgets import Static
from tui_support import settle

from labeler.evaluation import runs_to_score
from labeler.tui.scoredata import score_stored_run
from labeler.tui.screens.scores import ScoresScreen


def test_scoring_a_stored_run_reports_its_questions(db: Path) -> None:
    app = labelled(db)
    calls: list[tuple[int, int | None, str]] = []
    (run,) = runs_to_score(app.store)
    scored = score_stored_run(app.store, "demo", run, lambda d, t, i: calls.append((d, t, i)))
    assert len(scored.result.queries) == 2
    assert calls == [(2, 2, "bm25")]  # every 64th question and the last: only the last


def test_the_scores_screen_shows_questions_rate_and_time_left(db: Path) -> None:
    """Frozen with the database lock held (the scoring job would be over before the look):
    the screen opened at 0 s; 1 of 4 questions after 2 s is 0.5/s, 3 left take 6 s."""
    app = labelled(db)

    async def main() -> None:
        async with app.run_test(size=(110, 32), notifications=False) as pilot:
            await settle(app, pilot)
            await app._db_lock.acquire()
            readings = iter((0.0, 2.0))
            screen = ScoresScreen(clock=lambda: next(readings, 2.0))
            await app.push_screen(screen)
            await pilot.pause()
            screen._scoring("bm25", 1, 4)
            await pilot.pause()
            shown = str(screen.query_one("#score-summary", Static).render())
            assert shown == "scoring bm25… 1/4 questions, 0.5/s, 6 s left"
            app._db_lock.release()
            await settle(app, pilot)

    asyncio.run(main())
