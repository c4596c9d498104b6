"""Review a question across all its pages (``v`` on a page, palette "Review question").

The elements panel of the page view shows one page; this screen lists every element of
the current question on every page (page, offsets, grade, annotator, assisted, key clause
and the text, wrapped: :mod:`labeler.tui.screens.review_layout`), so an annotator can check
a question whole, jump to any element (``enter`` opens its page with the element selected)
and grade or remove it from here. The list follows the app's current
question and is re-read after every committed write (``revision``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static

from labeler.store import ElementRow, Store, grade_span, remove_span, seen_question_elements
from labeler.tui.attach import element_words, gone_as, quote, removed_words
from labeler.tui.grade_keys import GRADE_LEGEND
from labeler.tui.screens.review_layout import review_layout
from labeler.tui.widgets.footer import LabelerFooter
from labeler.tui.widgets.row_table import RowTable

if TYPE_CHECKING:
    from labeler.tui.context import AppContext

HINT = f"enter: open the page at this element · 1-3: grade ({GRADE_LEGEND}) · x: remove"
#: the hint on one line of a narrow terminal
NARROW_HINT = f"enter open · 1-3 grade ({GRADE_LEGEND}) · x remove"


class ReviewScreen(Screen[None]):
    """Every element of the current question, on every page."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("enter", "jump", "Open", show=False),
        Binding("1", "grade(1)", "Grade 1", show=False),
        Binding("2", "grade(2)", "Grade 2", show=False),
        Binding("3", "grade(3)", "Grade", key_display="1-3"),
        Binding("x", "remove", "Remove"),
        Binding("full_stop", "question_step(1)", "Next Q", key_display="."),
        Binding("comma", "question_step(-1)", "Prev Q", show=False),
    ]

    DEFAULT_CSS = """
    ReviewScreen #review { height: 1fr; }
    ReviewScreen #review-title, ReviewScreen #review-hint { padding: 0 1; }
    ReviewScreen #review-hint { color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[ElementRow] = []
        #: the screen size the rows were last laid out for (None: not drawn yet)
        self._drawn_for: tuple[int, int] | None = None

    @property
    def labeler(self) -> AppContext:
        """The running app, as screens see it (:mod:`labeler.tui.context`)."""
        return cast("AppContext", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="review-title")
        yield RowTable(id="review", cursor_type="row", zebra_stripes=True)
        yield Static(HINT, id="review-hint")
        yield LabelerFooter()

    def on_mount(self) -> None:
        self.query_one("#review", DataTable).focus()
        self.watch(self.app, "current_query_id", self.reload, init=False)
        self.watch(self.app, "revision", self.reload, init=False)
        self.reload()

    def reload(self) -> None:
        """Re-read the current question's elements."""
        qid, annotator = self.labeler.current_query_id, self.labeler.annotator
        if qid is None:
            self._show([])
            return

        def load(store: Store) -> list[ElementRow]:
            return seen_question_elements(store, qid, annotator)

        def loaded(rows: list[ElementRow]) -> None:
            if qid == self.labeler.current_query_id:  # else a newer load follows
                self._show(rows)

        self.labeler.db(load, loaded, what="review question")

    def _show(self, rows: list[ElementRow]) -> None:
        self.rows = rows
        q = self.labeler.current_question
        pages = len({e.document_id for e in rows})
        title = self.query_one("#review-title", Static)
        if q is None:
            title.update("[b]no question[/b] — add one on the Questions screen (F2, then a)")
        else:
            head = Text(f"{q.external_id}", style="bold")
            head.append(f"  {q.text}\n")
            head.append(f"{len(rows)} element(s) on {pages} page(s)", style="dim")
            title.update(head)
        table = self.query_one("#review", DataTable)
        cursor = table.cursor_row
        # the element under the cursor stays under it when rows come or go (another
        # window's change, labeler.tui.live); else the same row number
        was = self.selected()
        layout = review_layout(rows, self._width(), self._lines(), self.app.console)
        self._drawn_for = (self.size.width, self.size.height)
        self.query_one("#review-hint", Static).update(HINT if layout.wide else NARROW_HINT)
        table.clear(columns=True)
        for header, width in layout.columns:
            table.add_column(header, width=width)
        for e, (cells, height) in zip(rows, layout.rows, strict=True):
            table.add_row(*cells, key=str(e.id), height=height)
        ids = [e.id for e in rows]
        if was is not None and was.id in ids:
            cursor = ids.index(was.id)
        if rows:
            table.move_cursor(row=min(max(cursor, 0), len(rows) - 1))

    def _width(self) -> int:
        """The table's width in cells (it spans the screen; before the first layout, the
        terminal's)."""
        return self.size.width or self.app.size.width

    def _lines(self) -> int:
        """How many lines the table shows under its header (at least 3)."""
        height = self.query_one("#review", DataTable).size.height
        if height <= 1:  # not laid out yet: the screen less header, title, hint and footer
            height = (self.size.height or self.app.size.height) - 5
        return max(height - 1, 3)

    def on_resize(self) -> None:
        # the columns and the wrapping depend on the width, the cut of a long text on the
        # height: lay the rows out again once the table has its new size
        self.call_after_refresh(self._relayout)

    def _relayout(self) -> None:
        if self._drawn_for not in (None, (self.size.width, self.size.height)):
            self._show(self.rows)

    def selected(self) -> ElementRow | None:
        """The element under the table's cursor, by row key."""
        table = self.query_one("#review", DataTable)
        if table.row_count == 0 or table.cursor_row < 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((e for e in self.rows if str(e.id) == key), None)

    def _question_name(self, query_id: int) -> str:
        q = next((x for x in self.labeler.questions if x.id == query_id), None)
        return q.external_id if q is not None else "the question"

    # -- actions --------------------------------------------------------------------------

    def on_data_table_row_selected(self) -> None:
        self.action_jump()

    def action_jump(self) -> None:
        """Open the element's page with the element selected; a page view of that page
        right under this screen is reused instead of stacking a second one."""
        target = self.selected()
        if target is None:
            self.notify("this question has no elements yet", severity="warning")
            return
        app = self.labeler
        app.pop_screen()
        app.open_element(target)

    def action_grade(self, grade: int) -> None:
        """Set the grade of the element under the cursor."""
        target = self.selected()
        if target is None:
            self.notify("no element selected", severity="warning")
            return
        app = self.labeler
        actor = app.annotator

        def job(store: Store) -> ElementRow:
            with gone_as(element_words(target)):
                return grade_span(store, target.id, grade, actor=actor)

        def done(row: ElementRow) -> None:
            self.notify(
                f"{self._question_name(row.query_id)}: {quote(row.text)} now g{row.grade}",
                title="saved",
                timeout=3,
            )
            app.changed()

        app.db(job, done, what="grade")

    def action_remove(self) -> None:
        """Remove the element under the cursor; ctrl+z brings it back."""
        target = self.selected()
        if target is None:
            self.notify("no element selected", severity="warning")
            return
        app = self.labeler
        actor = app.annotator

        def job(store: Store) -> None:
            with gone_as(element_words(target)):
                remove_span(store, target.id, actor=actor)

        def done(_: None) -> None:
            self.notify(
                removed_words(self._question_name(target.query_id), target),
                title="saved",
                timeout=6,
            )
            app.changed()

        app.db(job, done, what="remove")

    def action_question_step(self, delta: int) -> None:
        if self.labeler.step_question(delta) is None:
            self.notify("this gold set has no questions yet", severity="warning")

    def action_back(self) -> None:
        self.dismiss()
