"""The page view: select exact spans of one stored page and attach them to questions.

The question bar, the elements panel and the attach target all read the app's one
``current_query_id`` at the moment they draw or act; the screen watches it (and the
questions, assist mode and the write ``revision``) so it redraws the instant any screen,
the palette or ``.``/``,`` changes it. A question change also drops the selection, so text
chosen for one question is never attached to the next by a stray ``a``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import ActiveBinding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Header, Input, Static

from labeler.store import ElementRow, LabellingPage, Store, labelling_page, seen_page_elements
from labeler.tui.assist import AssistChunk
from labeler.tui.attach import attach_selection
from labeler.tui.keys import most_important_first, team_labels
from labeler.tui.pagemap import DISPLAY_LINE, PageMap
from labeler.tui.screens.page import assist_panel, labelling, panels, selection
from labeler.tui.screens.page.bindings import PAGE_BINDINGS, PAGE_FOOTER_FIRST
from labeler.tui.widgets.footer import LabelerFooter
from labeler.tui.widgets.notice import NoticeLine
from labeler.tui.widgets.page_view import PageView

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


class PageScreen(Screen[None]):
    """One page, the current question, its elements and the selection readout."""

    BINDINGS: ClassVar[list[BindingType]] = PAGE_BINDINGS

    #: the footer's order (:mod:`labeler.tui.keys`): labelling first, so 80 columns keep it
    FOOTER_FIRST: ClassVar[tuple[str, ...]] = PAGE_FOOTER_FIRST

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = most_important_first(super().active_bindings, self.FOOTER_FIRST)
        return team_labels(bindings, self.labeler.team)

    def __init__(
        self, document_id: str, *, position: int | None = None, end: int | None = None
    ) -> None:
        super().__init__()
        self.document_id = document_id
        self.position = position
        self.end = end  # with ``position``: open with this span selected
        #: where the current question has elements when it has none on this page
        self.elsewhere = ""
        #: the assist panel's chunks, with where each is on this page
        self.chunks: list[AssistChunk] = []
        self.chunk_index = -1
        self.page = PageMap("")
        self.elements: list[ElementRow] = []
        self.focused_id: int | None = None
        self.matches: list[int] = []
        self.match_index = -1
        self.needle = ""
        self.last_needle = ""
        self.whole_word = False
        self.wrapped = ""
        self.loaded = False
        self.said_no_blocks = False
        self.profile = ""  # the page's extraction profile, as stored

    @property
    def labeler(self) -> AppContext:
        """The running app, as screens see it (:mod:`labeler.tui.context`)."""
        return cast("AppContext", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="question-bar")
        with Horizontal(id="page-body"):
            yield PageView(id="page")
            with Vertical(id="side"):
                yield Static("", id="elements")
                yield Static("", id="assist")
        yield NoticeLine(id="notice")
        yield Static("loading…", id="readout")
        yield Input(placeholder=selection.find_placeholder(False), id="find")
        yield LabelerFooter()

    @property
    def view(self) -> PageView:
        return self.query_one(PageView)

    #: below this many columns the elements panel folds away (the page needs the room)
    FOLD_SIDE_BELOW: ClassVar[int] = 70

    def on_resize(self) -> None:
        self.query_one("#side").display = self.size.width >= self.FOLD_SIDE_BELOW
        # the readout is fitted to its width: fit it again once the new width is laid out
        self.call_after_refresh(panels.show_readout, self)

    def on_mount(self) -> None:
        self.query_one("#find", Input).display = False
        self.view.focus()
        app = self.labeler
        self.watch(self.app, "current_query_id", self._question_changed, init=False)
        self.watch(self.app, "questions", self._questions_changed, init=False)
        self.watch(self.app, "assist", self._questions_changed, init=False)
        self.watch(self.app, "assist_run", self._questions_changed, init=False)
        self.watch(self.app, "assist_k", self._questions_changed, init=False)
        self.watch(self.app, "revision", self.reload, init=False)
        document_id = self.document_id
        view = self.view
        annotator, gold_set_id = app.annotator, app.gold_set_id

        def load(store: Store) -> tuple[PageMap, list[ElementRow], str]:
            found: LabellingPage = labelling_page(store, document_id, annotator, gold_set_id)
            # The map is built off the event loop too, for the pane's width as laid out by
            # now (a read of its size; show_page breaks the lines again if it has changed).
            page = PageMap(found.text, found.blocks, width=view.line_width() or DISPLAY_LINE)
            return page, found.elements, found.profile

        self.labeler.db(load, self._loaded, what=f"open {document_id}")

    def _loaded(self, result: tuple[PageMap, list[ElementRow], str]) -> None:
        page, self.elements, self.profile = result
        self.view.show_page(page)  # breaks the lines again for the pane's width
        self.page = self.view.page
        self.loaded = True
        self.sub_title = self.document_id
        if self.position is not None and 0 <= self.position <= len(self.page):
            end = self.end if self.end is not None and self.end <= len(self.page) else None
            self.view.bring_into_view(self.position, self.position if end is None else end)
            self.focused_id = next(
                (e.id for e in self.mine() if (e.start, e.end) == (self.position, end)), None
            )
        self.refresh_all()

    # -- redraw ---------------------------------------------------------------------------

    def _question_changed(self) -> None:
        """Another question is current: redraw everything and drop the selection."""
        self.focused_id = None
        self.elsewhere = ""
        if not self.loaded:
            return
        cursor = self.view.cursor_offset
        self.view.select_offsets(cursor, cursor)
        self.refresh_all()

    def _questions_changed(self) -> None:
        if self.loaded:
            panels.show_question(self)
            assist_panel.load_assist(self)

    def reload(self) -> None:
        """Re-read this page's elements (after any committed write, undo or redo)."""
        if not self.loaded:
            return
        document_id, annotator = self.document_id, self.labeler.annotator
        gold_set_id = self.labeler.gold_set_id

        def load(store: Store) -> list[ElementRow]:
            return seen_page_elements(store, document_id, annotator, gold_set_id)

        self.labeler.db(load, self._elements_loaded, what="reload elements")

    def _elements_loaded(self, rows: list[ElementRow]) -> None:
        self.elements = rows
        self.refresh_all()

    def refresh_all(self) -> None:
        panels.paint_spans(self)
        panels.show_question(self)
        panels.show_elements(self)
        panels.show_readout(self)
        assist_panel.load_assist(self)
        panels.load_elsewhere(self)

    def show_element(self, element: ElementRow) -> None:
        """Select ``element`` (of this page) and focus it, e.g. coming from the review."""
        self.focused_id = element.id
        self.view.bring_into_view(element.start, element.end)
        self.refresh_all()

    def mine(self) -> list[ElementRow]:
        """The current question's elements on this page, by start."""
        qid = self.labeler.current_query_id
        return [e for e in self.elements if e.query_id == qid]

    def on_text_area_selection_changed(self) -> None:
        panels.show_readout(self)

    # -- selection (see ``selection``) ----------------------------------------------------

    def action_extend(self, unit: str) -> None:
        """Grow the selection to word/sentence/block boundaries (the page's blocks)."""
        selection.extend(self, unit)

    def action_shrink(self, unit: str) -> None:
        """Shrink the selection to the whole words/sentences/blocks inside it."""
        selection.shrink(self, unit)

    def action_trim(self) -> None:
        """Drop surrounding whitespace from the selection."""
        selection.trim(self)

    # -- labelling actions (see ``labelling``) --------------------------------------------

    def action_attach(self) -> None:
        """Attach the selection to the current question (see :mod:`labeler.tui.attach`)."""
        attach_selection(self)

    def action_grade(self, grade: int) -> None:
        """Set the grade of the element under the cursor (or the focused one)."""
        labelling.grade_target(self, grade)

    def action_key(self) -> None:
        """Make the selection the key clause of the current question's element holding it
        (underlined; Partial then needs it whole); with no selection, clear the key of the
        element under the cursor. Audited, so ctrl+z brings the old key back."""
        labelling.key_target(self)

    def action_remove(self) -> None:
        """Remove the element under the cursor (or the focused one); ctrl+z brings it back."""
        labelling.remove_target(self)

    # -- navigation -----------------------------------------------------------------------

    def action_element_step(self, delta: int) -> None:
        """Jump to the next/previous element of the current question on this page."""
        selection.step_element(self, delta)

    def action_review(self) -> None:
        """Every element of the current question on every page (see ``screens.review``)."""
        self.labeler.review_question()

    def action_question_step(self, delta: int) -> None:
        """Switch to the next/previous question without leaving the page (the watcher
        redraws and drops the selection)."""
        if self.labeler.step_question(delta) is None:
            self.notify("this gold set has no questions yet", severity="warning")

    def action_back(self) -> None:
        if not selection.close_find(self):
            self.dismiss()

    # -- assist (see ``assist_panel``) ----------------------------------------------------

    def action_assist(self) -> None:
        self.labeler.toggle_assist()

    def action_assist_run(self, delta: int) -> None:
        """Show the next stored run's chunks in assist mode."""
        assist_panel.step_run(self, delta)

    def action_assist_k(self, delta: int) -> None:
        """Show more (``+``) or fewer (``-``) of the run's chunks."""
        assist_panel.step_count(self, delta)

    def action_chunk_step(self, delta: int) -> None:
        """Select the next/previous assist chunk whose text is on this page."""
        assist_panel.step_chunk(self, delta)

    # -- find -----------------------------------------------------------------------------

    def action_find(self) -> None:
        find = self.query_one("#find", Input)
        find.display = True
        find.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "find":
            return
        selection.find(self, event.input, event.value)

    def action_whole_word(self) -> None:
        """Find whole words only, or any part of a word again (runs the search again)."""
        selection.toggle_whole_word(self)

    def action_page_edge(self, delta: int) -> None:
        """``ctrl+home`` / ``ctrl+end``: the cursor to the page's first / last character."""
        selection.page_edge(self, delta)

    def action_find_step(self, delta: int) -> None:
        """Select the next/previous match of the last search."""
        selection.step_match(self, delta)
