"""Assist mode: which run, how many chunks, jumping to a chunk (issue 11, section 6).

Pilot tests on a real SQLite file with two stored runs: the run chosen on the scores
screen is the one assist mode shows, ``r`` switches runs, ``+``/``-`` change how many chunks
are shown, ``c``/``C`` select the shown chunks whose text is on the page.
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import OptionList, Static
from tui_support import OTHER_PAGE, PAGE, run_app, settle

from labeler.store import Store
from labeler.store.models import Run, RunResult
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen
from labeler.tui.screens.scores import ScoresScreen

REPEATED = "Repeated words: data data data."  # PAGE[147:178], worked out by hand
EXC = "Exceptions are approved by the data owner."  # PAGE[63:105]


def seed_runs(store: Store) -> None:
    """Run 'bm25' (listed first, by name): three chunks for q1, one of another page.
    Run 'dense': one chunk for q1."""
    with store.write() as s:
        bm25, dense = Run(name="bm25"), Run(name="dense")
        s.add(bm25)
        s.add(dense)
        s.flush()
        assert bm25.id is not None and dense.id is not None
        for rank, text, doc in (
            (1, PAGE[:40], "policy.html"),
            (2, OTHER_PAGE[41:72], "wal.html"),
            (3, REPEATED, "policy.html"),
        ):
            s.add(
                RunResult(
                    run_id=bm25.id, query_external_id="q1", rank=rank, chunk_text=text, doc_id=doc
                )
            )
        s.add(RunResult(run_id=dense.id, query_external_id="q1", rank=1, chunk_text=EXC))


def panel(screen: PageScreen) -> str:
    return str(screen.query_one("#assist", Static).render())


def test_assist_uses_the_scores_run_switches_runs_and_chunk_count(store: Store) -> None:
    seed_runs(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f4")
        await settle(app, pilot)
        assert isinstance(app.screen, ScoresScreen)
        runs = app.screen.query_one("#runs", OptionList)
        runs.focus()
        await pilot.press("down", "enter")  # choose 'dense' on the scores screen
        await settle(app, pilot)
        await pilot.press("f2")
        await settle(app, pilot)
        screen = PageScreen("policy.html")
        await app.push_screen(screen)
        await settle(app, pilot)
        await pilot.press("A")
        await settle(app, pilot)
        assert "Assist: run dense, top 1" in panel(screen)
        assert "here 63–105" in panel(screen)

        await pilot.press("r")  # the next run: bm25 (wraps around)
        await settle(app, pilot)
        assert "Assist: run bm25, top 3" in panel(screen)
        assert "on wal.html" in panel(screen)
        await pilot.press("minus")  # 5 → 3 chunks
        await pilot.press("minus")  # 3 → 1
        await settle(app, pilot)
        assert "Assist: run bm25, top 1" in panel(screen)
        await pilot.press("plus")  # 1 → 3
        await settle(app, pilot)
        assert "Assist: run bm25, top 3" in panel(screen)

    run_app(store, body)


def test_jump_to_the_chunks_on_this_page(store: Store) -> None:
    seed_runs(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        screen = PageScreen("policy.html")
        await app.push_screen(screen)
        await settle(app, pilot)
        await pilot.press("A")  # bm25: the first run by name
        await settle(app, pilot)
        await pilot.press("c")
        assert screen.view.offsets == (0, 40)
        await pilot.press("c")  # rank 2 is on wal.html: skipped
        assert screen.view.offsets == (147, 178)
        assert PAGE[147:178] == REPEATED
        await pilot.press("c")  # wraps to rank 1
        assert screen.view.offsets == (0, 40)
        await pilot.press("C")  # back: wraps to the last one on the page
        assert screen.view.offsets == (147, 178)
        await pilot.press("a")  # attach the chunk's text: recorded as assisted
        await settle(app, pilot)
        assert screen.mine()[0].text == REPEATED and screen.mine()[0].assisted

    run_app(store, body)
