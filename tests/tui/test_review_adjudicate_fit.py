"""The review view (``v``), the adjudication screen (F5) and the lead's panel (``p``) at
80x24 and 120x36 (issue 22): Pilot checks of what is drawn, then snapshots.

Review: q1 has FR (``PAGE[7:55]``, key clause ``never the source of record`` = 28–54, by
ana) and the whole second line of the page (``PAGE[63:146]``, 83 characters, by bob, no
key): the key clause has a column, and the 85-character ``repr`` of the long one is drawn
whole, wrapped, in the text column (before: no key column, and the text cut at 80
characters and at the terminal's edge).

Adjudication: the team of ``test_adjudicate`` (q1, q2 done by ana and bob) and eight more
questions both marked done with FR, so ten wait; at 80x24 the queue shows at least
:data:`MIN_QUEUE_ROWS` of them (before: 2), every column of both tables is drawn whole
(before: "accepted" cut to "ac") and the key help is one line (before: 3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_adjudicate import seed_labels
from test_snapshots import SnapCompare, labelled, prepare
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Static
from tui_support import PAGE, make_app, make_team, run_app, settle

from labeler.store import (
    Store,
    add_query,
    attach_element,
    get_gold_set,
    mark_done,
    open_store,
    question_elements,
    set_key,
    upsert_document,
)
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR
from labeler.store.team import add_assignment
from labeler.tui.app import LabelerApp
from labeler.tui.screens.adjudicate import AdjudicationScreen
from labeler.tui.screens.page import PageScreen
from labeler.tui.screens.review import ReviewScreen
from labeler.tui.screens.review_layout import CUT
from labeler.tui.widgets.lead_panel import LeadPanel

FR = "FR-001: The index is never the source of record."
CLAUSE = "never the source of record"
LONG = "Exceptions are approved by the data owner. The data owner is named in the register."
SIZES = [(80, 24), (120, 36)]
SIZE_IDS = ["80x24", "120x36"]
#: the queue rows an 80x24 adjudication screen shows at least (ten wait)
MIN_QUEUE_ROWS = 6


def drawn(widget: Widget) -> list[str]:
    """What ``widget`` draws, line by line, as the terminal gets it."""
    return [widget.render_line(y).text for y in range(widget.size.height)]


def column_text(table: DataTable[Any], header: str) -> str:
    """Every drawn line's slice under column ``header`` (its cell padding left out), joined
    by spaces with runs of blanks made one: what can be read in that column."""
    x = 0
    for column in table.ordered_columns:
        width = column.get_render_width(table)
        if str(column.label) == header:
            pad = table.cell_padding
            return " ".join(
                " ".join(line[x + pad : x + width - pad] for line in drawn(table)).split()
            )
        x += width
    raise AssertionError(
        f"no column {header!r} in {[str(c.label) for c in table.columns.values()]}"
    )


def seed_review(store: Store) -> None:
    assert PAGE[7:55] == FR and PAGE[28:54] == CLAUSE and PAGE[63:146] == LONG
    with store.write() as s:
        fr = attach_element(s, 1, "policy.html", 7, 55, annotator="ana")
        set_key(s, fr.id, 28, 54, actor="ana")
        attach_element(s, 1, "policy.html", 63, 146, annotator="bob", grade=2)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_review_shows_the_key_clause_and_the_whole_text(
    store: Store, size: tuple[int, int]
) -> None:
    seed_review(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await app.push_screen(PageScreen("policy.html"))
        await settle(app, pilot)
        await pilot.press("v")
        await settle(app, pilot)
        assert isinstance(app.screen, ReviewScreen)
        table = app.screen.query_one("#review", DataTable)
        # no column runs past the table's right edge
        assert sum(c.get_render_width(table) for c in table.ordered_columns) <= table.size.width
        key = column_text(table, "key clause")
        assert key == f"key clause {CLAUSE!r}", key
        text = column_text(table, "text")
        assert text == f"text {FR!r} {LONG!r}", text
        # the 85 characters of the long one take several lines of the text column
        assert table.rows[table.coordinate_to_cell_key((1, 0)).row_key].height > 1

    run_app(store, body, size=size)


#: a 2000-character element (200 times "word word "), taller than any pane at 80x24
HUGE = "word word " * 200


def test_review_cuts_an_element_taller_than_the_pane_and_says_so(store: Store) -> None:
    """At 80x24 the text column is about 30 cells: 2002 characters of ``repr`` take some 70
    lines, the table shows under 20; the row is cut to the pane, its last line saying so."""
    with store.write() as s:
        upsert_document(
            s, doc_id="huge.html", source_path="huge.html", sha256="h", profile="text", text=HUGE
        )
        attach_element(s, 1, "huge.html", 0, len(HUGE), annotator="ana")

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await app.push_screen(PageScreen("huge.html"))
        await settle(app, pilot)
        await pilot.press("v")
        await settle(app, pilot)
        table = app.screen.query_one("#review", DataTable)
        lines = drawn(table)
        row = table.rows[table.coordinate_to_cell_key((0, 0)).row_key]
        assert row.height == table.size.height - 1  # every line under the header
        assert column_text(table, "text").endswith(CUT), lines
        await pilot.press("enter")  # and enter opens the page at it
        await settle(app, pilot)
        assert isinstance(app.screen, PageScreen) and app.screen.document_id == "huge.html"

    run_app(store, body, size=(80, 24))


def test_review_and_adjudication_lay_out_again_on_resize(store: Store) -> None:
    """120x36 → 80x24: the review view stacks page over offsets ("element"), the span table
    has its narrow columns; and back."""
    seed_review(store)
    make_team(store)
    seed_labels(store)

    def headers(table: DataTable[Any]) -> list[str]:
        return [str(c.label) for c in table.ordered_columns]

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await app.push_screen(PageScreen("policy.html"))
        await settle(app, pilot)
        await pilot.press("v")
        await settle(app, pilot)
        review = app.screen.query_one("#review", DataTable)
        assert headers(review)[0] == "page"
        await pilot.resize_terminal(80, 24)
        await settle(app, pilot)
        assert headers(review) == ["element", "grade · by", "key clause", "text"]
        await pilot.press("escape", "f5")
        await settle(app, pilot)
        groups = app.screen.query_one("#adj-groups", DataTable)
        assert headers(groups) == ["span", "by", "final"]
        await pilot.resize_terminal(120, 36)
        await settle(app, pilot)
        assert headers(groups)[:4] == ["page", "offsets", "chosen by", "accepted"]

    run_app(store, body, annotator="lead")


def seed_queue(store: Store) -> None:
    """The team of ``test_adjudicate`` and q5–q12, each assigned to ana and bob, who both
    chose FR and marked it done: ten questions wait."""
    make_team(store)
    seed_labels(store)
    with store.write() as s:
        gs = get_gold_set(s, "demo")
        for n in range(5, 13):
            q = add_query(s, gs, f"q{n}", f"Question {n}?", actor="seed")
            assert q.id is not None
            for who in ("ana", "bob"):
                add_assignment(s, q.id, who, actor="lead")
                add_element(s, q.id, "policy.html", 7, 55, annotator=who, layer=LAYER_ANNOTATOR)
                mark_done(s, q.id, who)


def test_adjudication_fits_80x24(store: Store) -> None:
    seed_queue(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen)
        assert len(screen.queue) == 10
        ids = {w.external_id for w in screen.queue}
        queue = screen.query_one("#adj-queue", DataTable)
        shown = [line.split()[0] for line in drawn(queue)[1:] if line.split()]
        assert len([q for q in shown if q in ids]) >= MIN_QUEUE_ROWS, drawn(queue)
        for name in ("#adj-queue", "#adj-groups"):
            table = screen.query_one(name, DataTable)
            width = sum(c.get_render_width(table) for c in table.ordered_columns)
            assert width <= table.size.width, (name, width, table.size.width)
            header = drawn(table)[0]
            for column in table.ordered_columns:
                assert str(column.label) in header, (name, header)
        assert screen.query_one("#adj-hint", Static).size.height == 1
        assert screen.query_one("#adj-title", Static).size.height == 1

    run_app(store, body, annotator="lead", size=(80, 24))


def test_lead_panel_dashes_rates_of_an_instant(store: Store) -> None:
    """seed_labels writes every label and done mark in one transaction: a few milliseconds
    of active time, which made ana's labels/h read in the hundreds of thousands. Under a
    minute both labels/h and s/q are "—". Hand-worked compact row: ana did q1, q2, q4 (3
    done, 0 left), bob q1, q2 of q1–q3 (2 done, 1 left); nothing settled, so F1 and α "—"."""
    make_team(store)
    seed_labels(store)

    async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        await pilot.press("p")
        await settle(app, pilot)
        panel = app.screen.query_one("#adj-lead", LeadPanel)
        assert panel.view is not None
        ana = next(p for p in panel.view.annotators if p.annotator == "ana")
        # the core measures no rate under a minute (labeler.report.lead)
        assert ana.active_seconds < 60 and ana.labels_per_hour is None
        rows = [[c for c in line.split() if c != "│"] for line in drawn(panel)]
        by_name = {row[0]: row for row in rows if len(row) > 3 and row[0] in ("ana", "bob")}
        assert by_name["ana"][:7] == ["ana", "3", "0", "—", "—", "—", "—"], by_name
        assert by_name["bob"][:7] == ["bob", "2", "1", "—", "—", "—", "—"], by_name

    run_app(store, body, annotator="lead", size=(80, 24))


# -- snapshots ---------------------------------------------------------------------------


async def open_review(app: LabelerApp, pilot: Pilot[Any]) -> None:
    await app.push_screen(PageScreen("policy.html"))
    await settle(app, pilot)
    await pilot.press("v")


def review_app(db: Path) -> LabelerApp:
    """:func:`test_snapshots.labelled` (FR on q1 by ana, g2) with FR's key clause and the
    long element on q1 too."""
    app = labelled(db)
    store = open_store(str(db))
    with store.write() as s:
        (fr,) = question_elements(s, 1)
        set_key(s, fr.id, 28, 54, actor="ana")
        attach_element(s, 1, "policy.html", 63, 146, annotator="bob", assisted=True)
        attach_element(s, 1, "wal.html", 41, 72, annotator="ana", grade=3)
    store.close()
    return app


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_review_view(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    assert snap_compare(review_app(db), terminal_size=size, run_before=prepare(open_review))


def team_app(db: Path, *, all_done: bool = False) -> LabelerApp:
    """The adjudication team of ``test_team_snapshots``; ``all_done``: bob marks q3 done too
    (no answer), so that nobody has work left and "done by" reads "done", not a time."""
    store = open_store(str(db))
    make_team(store)
    seed_labels(store)
    if all_done:
        with store.write() as s:
            mark_done(s, 3, "bob")
    return make_app(store, "lead")


async def adjudicate(app: LabelerApp, pilot: Pilot[Any]) -> None:
    await pilot.press("f5")
    await settle(app, pilot)
    await pilot.press("U")  # FR accepted: the final column shows it


async def adjudicate_with_panel(app: LabelerApp, pilot: Pilot[Any]) -> None:
    await adjudicate(app, pilot)
    await settle(app, pilot)
    await pilot.press("p")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_adjudication(snap_compare: SnapCompare, db: Path, size: tuple[int, int]) -> None:
    assert snap_compare(team_app(db), terminal_size=size, run_before=prepare(adjudicate))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_adjudication_lead_panel(
    snap_compare: SnapCompare, db: Path, size: tuple[int, int]
) -> None:
    app = team_app(db, all_done=True)
    assert snap_compare(app, terminal_size=size, run_before=prepare(adjudicate_with_panel))
