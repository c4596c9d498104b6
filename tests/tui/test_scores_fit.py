"""The scores screen fits the terminal (issue 22): at 80x24 the Hit/Partial chart's labels
and values are whole, the summary is three short lines, the runs list goes above the
scores (side by side again at 120 columns, following resizes), the metrics table is whole;
the empty state wraps its commands under themselves. Snapshots at 80x24 and 120x36.

Pilot tests on a real SQLite file: ``labelled(db)`` from ``test_snapshots`` (run ``bm25``).
Hand-worked scores of that run (θ=0.5; ks 1, 3, 5, 10): q1's element is policy.html
[7, 55), 48 characters; its rank-1 chunk ``PAGE[:40]`` covers 33 of them (0.69: partial),
its rank-2 chunk ``PAGE[:60]`` all. q2's element [63, 105) is wholly inside its rank-1
chunk ``PAGE[60:110]``. So Hit@1 = 1/2 (q2), Partial@1 = 2/2, and from k=3 both are 1.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from test_snapshots import SnapCompare, labelled, prepare
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable
from tui_support import make_app, seed_store, settle

from labeler.store import open_store
from labeler.tui.app import LabelerApp
from labeler.tui.hanging import Hanging
from labeler.tui.screens.scores import ScoresScreen
from labeler.tui.widgets.chart import hit_partial_chart

#: (k label, kind, value, gap) of each chart row, hand-worked (module docstring)
CHART = [
    ("k=1", "Hit", "0.500", ""),
    ("", "Partial", "1.000", "gap 0.500"),
    ("k=3", "Hit", "1.000", ""),
    ("", "Partial", "1.000", ""),
    ("k=5", "Hit", "1.000", ""),
    ("", "Partial", "1.000", ""),
    ("k=10", "Hit", "1.000", ""),
    ("", "Partial", "1.000", ""),
]
ROW = re.compile(r" *(k=\d+)? (Hit|Partial) +([█▏▎▍▌▋▊▉]*) *(\d\.\d{3})(?:  (gap \d\.\d{3}))?")


def rendered(widget: Widget) -> list[str]:
    """The widget's whole content as drawn at its current size, one string per row (its
    rows scrolled out of the pane included), trailing spaces dropped."""
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return [strip.text.rstrip() for strip in strips]


def run(app: LabelerApp, size: tuple[int, int], body: Any) -> None:
    async def main() -> None:
        async with app.run_test(size=size, notifications=False) as pilot:
            await settle(app, pilot)
            await pilot.press("f4")
            await settle(app, pilot)
            assert isinstance(app.screen, ScoresScreen) and app.screen.scored is not None
            await body(app.screen, pilot)

    asyncio.run(main())


def chart_rows(screen: ScoresScreen) -> list[tuple[str, str, str, str, int]]:
    """The chart's rows parsed whole (a row that does not parse fails the test), with
    each bar's length in cells."""
    lines = rendered(screen.query_one("#chart"))
    assert not [line for line in lines if "…" in line]  # nothing cut
    assert lines[0] == "Hit@k and Partial@k of bm25 (the gap is the chunking loss)"
    out = []
    for line in lines[1:]:
        match = ROW.fullmatch(line)
        assert match is not None, line
        label, kind, bar, value, gap = match.groups()
        out.append((label or "", kind, value, gap or "", len(bar)))
    return out


def test_80x24_chart_labels_and_values_are_whole_and_the_bars_readable(db: Path) -> None:
    async def body(screen: ScoresScreen, pilot: Pilot[Any]) -> None:
        rows = chart_rows(screen)
        assert [r[:4] for r in rows] == CHART
        full = rows[2][4]  # a bar of 1.000 fills the bar column
        assert full >= 30  # of the 76 columns the pane gives the chart, minus 30 of text
        assert all(r[4] == full for r in rows[1:])
        assert rows[0][4] == full // 2 + full % 2  # 0.500: half, an eighth-cell rounded up
        # the chart is as wide as the pane and inside the screen
        chart = screen.query_one("#chart")
        assert chart.region.right <= screen.size.width
        assert max(len(line) for line in rendered(chart)) <= chart.size.width

    run(labelled(db), (80, 24), body)


def test_80x24_summary_lines_and_the_whole_metrics_table(db: Path) -> None:
    async def body(screen: ScoresScreen, pilot: Pilot[Any]) -> None:
        assert rendered(screen.query_one("#score-summary")) == [
            "bm25 on demo: 2 question(s) scored, θ=0.5",
            "at k=5: 2 full, 0 chunking, 0 retrieval",
            "0 missing from run, 0 without elements, 0 stale element(s) left out",
        ]
        metrics = screen.query_one("#metrics", DataTable)
        # a header row and the seven metrics, every column on screen, none scrolled away
        assert metrics.region.height == metrics.virtual_size.height == 8
        assert metrics.virtual_size.width <= metrics.region.width
        assert metrics.region.y + metrics.region.height <= screen.size.height - 1  # footer

    run(labelled(db), (80, 24), body)


def test_runs_list_goes_above_below_100_columns_following_resizes(db: Path) -> None:
    async def body(screen: ScoresScreen, pilot: Pilot[Any]) -> None:
        runs, scores = screen.query_one("#runs-pane"), screen.query_one("#score-pane")
        bars = {}
        for width, height in [(80, 24), (120, 36), (99, 30), (100, 30), (80, 24)]:
            await pilot.resize_terminal(width, height)
            await settle(pilot.app, pilot)  # type: ignore[arg-type]
            if width < 100:  # stacked: the runs above, the scores the whole width
                assert runs.region.bottom <= scores.region.y
                assert scores.region.width == width
            else:  # side by side, the runs 30 columns wide (app.tcss)
                assert runs.region.width == 30 and scores.region.x >= runs.region.right
                assert scores.region.y == runs.region.y
            bars[width] = chart_rows(screen)[2][4]
        # the bars take what the pane has: 120 - 30 runs - 2 padding - 30 of text (all of
        # it fits in 36 rows: no scrollbar); at 80, 80 - 2 padding - 2 scrollbar - 30
        assert bars[120] == 58 and bars[80] == 46

    run(labelled(db), (80, 24), body)


@pytest.mark.parametrize(("width", "cells"), [(200, 60), (90, 60), (60, 30), (40, 10)])
def test_chart_bars_take_the_width_left_by_the_text(width: int, cells: int) -> None:
    """Text columns: ``k=10`` 4 + 1, ``Partial`` 7 + 1, 1 + ``1.000`` 5, 2 + ``gap 0.500``
    9 = 30; the bar gets ``width - 30`` cells, at most 60."""
    console = Console(width=width, color_system=None)
    with console.capture() as captured:
        console.print(hit_partial_chart("bm25", [1, 10], [0.5, 1.0], [1.0, 1.0]))
    lines = captured.get().splitlines()
    # the title first, wrapped at spaces at 40 columns
    title = " ".join(line.strip() for line in lines[:-4])
    assert title == "Hit@k and Partial@k of bm25 (the gap is the chunking loss)"
    assert [line.rstrip() for line in lines[-4:]] == [
        " k=1 Hit     " + "█" * (cells // 2) + " " * (cells - cells // 2) + " 0.500",
        "     Partial " + "█" * cells + " 1.000  gap 0.500",
        "k=10 Hit     " + "█" * cells + " 1.000",
        "     Partial " + "█" * cells + " 1.000",
    ]
    assert max(len(line) for line in lines) <= width


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_scores_screen_snapshot(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f4")

    assert snap_compare(labelled(db), terminal_size=size, run_before=prepare(go))


@pytest.fixture
def no_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> LabelerApp:
    """The seeded store (pages, gold set 'demo'), no run, opened as ``labels.db`` in its
    folder: the empty state names the database as given, the same in every test run."""
    monkeypatch.chdir(tmp_path)
    seed_store(Path("labels.db"))
    return make_app(open_store("labels.db"))


def test_80x24_empty_state_wraps_commands_under_themselves(no_runs: LabelerApp) -> None:
    async def main() -> None:
        async with no_runs.run_test(size=(80, 24), notifications=False) as pilot:
            await settle(no_runs, pilot)
            await pilot.press("f4")
            await settle(no_runs, pilot)
            screen = no_runs.screen
            assert isinstance(screen, ScoresScreen) and not screen.runs
            # no runs list, no empty tables: the text has the pane (76 columns)
            for hidden in ("#runs-pane", "#metrics", "#chart", "#worst-title", "#worst"):
                assert not screen.query_one(hidden).display
            assert rendered(screen.query_one("#score-summary")) == [
                "no runs stored yet in labels.db; to score gold set 'demo':",
                "  1. labeler chunks make --chunker structure -o chunks.jsonl",
                "  2. labeler evaluate --gold-set demo --retriever",
                "     labeler.evaluation:bm25_retriever --retriever-arg chunks=chunks.jsonl",
                "     --store-run bm25",
                "     or, for a run made elsewhere: labeler run import RUN.jsonl --name NAME",
                "then press r",
            ]

    asyncio.run(main())


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_empty_scores_snapshot(
    snap_compare: SnapCompare, no_runs: LabelerApp, size: tuple[int, int]
) -> None:
    async def go(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f4")

    assert snap_compare(no_runs, terminal_size=size, run_before=prepare(go))


def test_hanging_indent_continues_lines_under_their_text() -> None:
    """The empty state's numbered commands wrap under their own text, so does an indented
    line; with under 20 columns left by the indent, at the left edge."""
    text = Text(
        "no runs: to fill it\n"
        "  'alpha beta gamma delta epsilon'\n"
        "  1. labeler chunks make -o chunks.jsonl\n"
        "            twelve spaces leave eighteen columns here"
    )
    console = Console(width=30, color_system=None)
    with console.capture() as captured:
        console.print(Hanging(text))
    assert captured.get().splitlines() == [
        "no runs: to fill it",
        "  'alpha beta gamma delta",
        "  epsilon'",
        "  1. labeler chunks make -o",
        "     chunks.jsonl",
        "            twelve spaces",
        "leave eighteen columns here",
    ]
    assert str(Hanging(text)) == text.plain  # what a reader of the Static's content gets
