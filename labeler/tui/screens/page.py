"""The page view: select exact spans of one stored page and attach them to questions.

The question bar, the elements panel and the attach target all read the app's one
``current_query_id`` at the moment they draw or act; the screen watches it (and the
questions, assist mode and the write ``revision``) so it redraws the instant any screen,
the palette or ``.``/``,`` changes it. A question change also drops the selection, so text
chosen for one question is never attached to the next by a stray ``a``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.markup import escape
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from labeler.store import (
    ElementRow,
    Store,
    document_fingerprint,
    page_and_blocks,
    remove_element,
    set_grade,
    set_key,
)
from labeler.store.blind import visible_page_elements, visible_question_elements
from labeler.store.own_layer import check_editable
from labeler.tui import spans
from labeler.tui.assist import AssistChunk, assist_chunks, step_k
from labeler.tui.attach import attach_selection, element_words, gone_as, quote, removed_words
from labeler.tui.bars import coverage_bar
from labeler.tui.grades import GRADE_LEGEND, grade_meaning
from labeler.tui.keys import most_important_first, team_labels
from labeler.tui.pagemap import DISPLAY_LINE, PageMap
from labeler.tui.teamwork import team_state
from labeler.tui.widgets.page_view import (
    CURRENT,
    FOCUSED,
    FOUND,
    KEY,
    OTHER,
    STALE,
    PageView,
    Span,
)

if TYPE_CHECKING:
    from labeler.tui.app import LabelerApp


class PageScreen(Screen[None]):
    """One page, the current question, its elements and the selection readout."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("a,enter", "attach", "Attach", key_display="a"),
        Binding("1", "grade(1)", "Grade 1", show=False),
        Binding("2", "grade(2)", "Grade 2", show=False),
        Binding("3", "grade(3)", "Grade", key_display="1-3"),
        Binding("x", "remove", "Remove"),
        Binding("K", "key", "Key clause", show=False),
        Binding("w", "extend('word')", "Word", show=False),
        Binding("s", "extend('sentence')", "+Sentence"),
        Binding("b", "extend('block')", "+Block", show=False),
        Binding("W", "shrink('word')", "-Word", show=False),
        Binding("S", "shrink('sentence')", "-Sentence", show=False),
        Binding("B", "shrink('block')", "-Block", show=False),
        Binding("t", "trim", "Trim", show=False),
        Binding("slash", "find", "Find", key_display="/"),
        Binding("n", "find_step(1)", "Next match", show=False),
        Binding("N", "find_step(-1)", "Prev match", show=False),
        Binding("right_square_bracket", "element_step(1)", "Next element", key_display="]"),
        Binding("left_square_bracket", "element_step(-1)", "Prev element", show=False),
        Binding("full_stop", "question_step(1)", "Next Q", key_display="."),
        Binding("comma", "question_step(-1)", "Prev Q", show=False),
        Binding("A", "assist", "Assist", key_display="A"),
        Binding("v", "review", "Review Q", show=False),
        # assist mode: which run, how many chunks, jump to a chunk found on this page
        Binding("r", "assist_run(1)", "Assist run", show=False),
        Binding("plus", "assist_k(1)", "More chunks", show=False),
        Binding("minus", "assist_k(-1)", "Fewer chunks", show=False),
        Binding("c", "chunk_step(1)", "Next chunk", show=False),
        Binding("C", "chunk_step(-1)", "Prev chunk", show=False),
    ]

    #: the footer's order (:mod:`labeler.tui.keys`): labelling first, so 80 columns keep it
    FOOTER_FIRST: ClassVar[tuple[str, ...]] = (
        "attach",
        "question_step(1)",
        "next_unlabelled",
        "toggle_done",  # team gold sets only
        "remove",
        "grade(3)",
        "extend('sentence')",
        "find",
        "element_step(1)",
        "back",
        "undo",
    )

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
        self.loaded = False
        self.said_no_blocks = False
        self.profile = ""  # the page's extraction profile, as stored

    @property
    def labeler(self) -> LabelerApp:
        return cast("LabelerApp", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="question-bar")
        with Horizontal(id="page-body"):
            yield PageView(id="page")
            with Vertical(id="side"):
                yield Static("", id="elements")
                yield Static("", id="assist")
        yield Static("loading…", id="readout")
        yield Input(placeholder="find in page (enter: search, n/N: next/previous)", id="find")
        yield Footer()

    @property
    def view(self) -> PageView:
        return self.query_one(PageView)

    #: below this many columns the elements panel folds away (the page needs the room)
    FOLD_SIDE_BELOW: ClassVar[int] = 70

    def on_resize(self) -> None:
        self.query_one("#side").display = self.size.width >= self.FOLD_SIDE_BELOW

    def on_mount(self) -> None:
        self.query_one("#find", Input).display = False
        self.view.focus()
        app = self.labeler
        self.watch(app, "current_query_id", self._question_changed, init=False)
        self.watch(app, "questions", self._questions_changed, init=False)
        self.watch(app, "assist", self._questions_changed, init=False)
        self.watch(app, "assist_run", self._questions_changed, init=False)
        self.watch(app, "assist_k", self._questions_changed, init=False)
        self.watch(app, "revision", self.reload, init=False)
        document_id = self.document_id
        view = self.view
        annotator = app.annotator

        def load(store: Store) -> tuple[PageMap, list[ElementRow], str]:
            with store.session() as s:
                found = page_and_blocks(s, document_id)
                known = document_fingerprint(s, document_id)
                if found is None or known is None:
                    raise LookupError(f"no document {document_id!r}")
                rows = visible_page_elements(s, document_id, annotator)
            # The map is built off the event loop too, for the pane's width as laid out by
            # now (a read of its size; show_page breaks the lines again if it has changed).
            text, blocks = found
            page = PageMap(text, blocks, width=view.line_width() or DISPLAY_LINE)
            return page, rows, known.profile

        self.labeler.db(load, self._loaded, what=f"open {document_id}")

    def _loaded(self, result: tuple[PageMap, list[ElementRow], str]) -> None:
        page, self.elements, self.profile = result
        self.view.show_page(page)  # breaks the lines again for the pane's width
        self.page = self.view.page
        self.loaded = True
        self.sub_title = self.document_id
        if self.position is not None and 0 <= self.position <= len(self.page):
            end = self.end if self.end is not None and self.end <= len(self.page) else None
            self.view.select_offsets(self.position, self.position if end is None else end)
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
            self._show_question()
            self._load_assist()

    def reload(self) -> None:
        """Re-read this page's elements (after any committed write, undo or redo)."""
        if not self.loaded:
            return
        document_id, annotator = self.document_id, self.labeler.annotator

        def load(store: Store) -> list[ElementRow]:
            with store.session() as s:
                return visible_page_elements(s, document_id, annotator)

        self.labeler.db(load, self._elements_loaded, what="reload elements")

    def _elements_loaded(self, rows: list[ElementRow]) -> None:
        self.elements = rows
        self.refresh_all()

    def refresh_all(self) -> None:
        self._paint_spans()
        self._show_question()
        self._show_elements()
        self._show_readout()
        self._load_assist()
        self._load_elsewhere()

    def _load_elsewhere(self) -> None:
        """When the current question has no element on this page, find the pages where it
        has some, so the panel (and ``]``) can say where to go."""
        qid = self.labeler.current_query_id
        if qid is None or self.mine():
            self.elsewhere = ""
            return
        document_id, annotator = self.document_id, self.labeler.annotator

        def load(store: Store) -> list[ElementRow]:
            with store.session() as s:
                return visible_question_elements(s, qid, annotator)

        def loaded(rows: list[ElementRow]) -> None:
            if qid != self.labeler.current_query_id or self.mine():
                return  # stale answer: a newer redraw asked again
            counts: dict[str, int] = {}
            for e in rows:
                if e.document_id != document_id:
                    counts[e.document_id] = counts.get(e.document_id, 0) + 1
            name = self._question_name(qid)
            if counts:
                pages = ", ".join(f"{doc} ({n})" for doc, n in counts.items())
                self.elsewhere = f"{name} has elements on: {pages}  (v: review)"
            else:
                self.elsewhere = f"{name} has no elements on any page yet"
            self._show_elements()

        self.labeler.db(load, loaded, what="question pages")

    def show_element(self, element: ElementRow) -> None:
        """Select ``element`` (of this page) and focus it, e.g. coming from the review."""
        self.focused_id = element.id
        self._select(element.start, element.end)
        self.refresh_all()

    def mine(self) -> list[ElementRow]:
        """The current question's elements on this page, by start."""
        qid = self.labeler.current_query_id
        return [e for e in self.elements if e.query_id == qid]

    def _paint_spans(self) -> None:
        qid = self.labeler.current_query_id
        painted: list[Span] = []
        for e in self.elements:
            if e.query_id != qid:
                painted.append(Span(e.start, e.end, STALE if e.status == "stale" else OTHER))
        if self.needle:
            painted += [Span(m, m + len(self.needle), FOUND) for m in self.matches[:2000]]
        for e in self.elements:
            if e.query_id == qid:
                style = FOCUSED if e.id == self.focused_id else CURRENT
                painted.append(Span(e.start, e.end, STALE if e.status == "stale" else style))
        # key clauses underlined on top of their elements' colours
        painted += [
            Span(e.key_start, e.key_end, KEY)
            for e in self.elements
            if e.key_start is not None and e.key_end is not None and e.status != "stale"
        ]
        self.view.set_spans(painted)

    def _show_question(self) -> None:
        app = self.labeler
        q = app.current_question
        bar = self.query_one("#question-bar", Static)
        if q is None:
            bar.update("[b]no question[/b] — add one on the Questions screen (F2, then a)")
            return
        index = [x.id for x in app.questions].index(q.id) + 1
        assist = "  [b black on yellow] ASSIST [/]" if app.assist else "  [dim]blind[/dim]"
        state = f"  [b]{escape(team_state(q))}[/b]" if q.team else ""
        bar.update(
            f"[b]{escape(q.external_id)}[/b] ({index}/{len(app.questions)})  "
            f"{escape(q.text)}  [dim]· n_gold {q.n_gold}[/dim]{state}{assist}"
        )

    def _show_elements(self) -> None:
        mine = self.mine()
        lines = Text(f"Elements here ({len(mine)})\n", style="bold")
        for e in mine:
            marker = "▶ " if e.id == self.focused_id else "  "
            flags = " assisted" if e.assisted else ""
            flags += " STALE" if e.status == "stale" else ""
            if e.key_start is not None:
                flags += f" key {e.key_start}–{e.key_end}"
            lines.append(f"{marker}{e.start}–{e.end} g{e.grade} {e.annotator}{flags}\n")
            shown = e.text if len(e.text) <= 70 else e.text[:69] + "…"
            lines.append(f"   {shown!r}\n", style="dim")
        if not mine and self.elsewhere:
            lines.append(self.elsewhere + "\n", style="yellow")
        others = len(self.elements) - len(mine)
        if others:
            lines.append(f"\n{others} element(s) of other questions (dim)\n", style="dim")
        self.query_one("#elements", Static).update(lines)

    def _show_readout(self) -> None:
        if not self.loaded:
            return
        start, end = self.view.offsets
        readout = self.query_one("#readout", Static)
        cursor = self.view.cursor_offset
        inside = next(
            (
                e
                for e in self.mine()
                if (start == end and e.start <= cursor <= e.end) or (start, end) == (e.start, e.end)
            ),
            None,
        )
        if inside is not None:
            # What the grade means, where the annotator is about to press 1-3.
            key = (
                f"key {inside.key_start}–{inside.key_end}"
                if inside.key_start is not None
                else "K on a selection inside: key clause"
            )
            readout.update(
                f"{inside.start}–{inside.end}  ·  {grade_meaning(inside.grade)}  ·  "
                f"1-3: {GRADE_LEGEND}  ·  {key}"
            )
            readout.set_class(False, "-warning")
            return
        if start == end:
            readout.update(
                f"cursor {start} of {len(self.page)}  ·  select with shift+arrows, "
                "mouse drag, w/s/b (extend), W/S/B (shrink), t (trim)"
            )
            readout.set_class(False, "-warning")
            return
        selected = self.page.stored[start:end]
        n = spans.count_occurrences(self.page.stored, selected)
        many = f"{n}+" if n >= spans.COUNT_CAP else str(n)
        text = f"{start}–{end}  ·  {end - start} chars  ·  {many}× on page"
        if n > 1:
            text += "  ⚠ repeated text: scoring will flag this element"
        readout.update(text)
        readout.set_class(n > 1, "-warning")

    def _load_assist(self) -> None:
        panel = self.query_one("#assist", Static)
        app = self.labeler
        q = app.current_question
        panel.display = app.assist
        if not app.assist or q is None or app.assist_run is None:
            return
        run, qid, ext, k, page = app.assist_run, q.id, q.external_id, app.assist_k, self.page
        stored = page.stored

        def load(store: Store) -> list[AssistChunk]:
            return assist_chunks(store, run.id, qid, ext, k, stored, annotator=app.annotator)

        def show(chunks: list[AssistChunk]) -> None:
            if (run, qid, k) != (app.assist_run, app.current_query_id, app.assist_k):
                return  # a newer load follows
            self.chunks = chunks
            self.chunk_index = -1
            out = Text(f"Assist: run {run.name}, top {len(chunks)}\n", style="bold")
            out.append("r: run · +/-: how many · c/C: jump to a chunk\n", style="dim")
            if not chunks:
                out.append("no results for this question\n", style="dim")
            for c in chunks:
                out.append(f"#{c.rank} ")
                out.append_text(coverage_bar(c.coverage, 12))
                if c.at is not None:
                    out.append(f" here {c.at[0]}–{c.at[1]}", style="green")
                elif c.doc_id and c.doc_id != self.document_id:
                    out.append(f" on {c.doc_id}", style="dim")
                shown = c.text if len(c.text) <= 80 else c.text[:79] + "…"
                out.append(f"\n   {shown!r}\n", style="dim")
            panel.update(out)

        app.db(load, show, what="assist")

    def on_text_area_selection_changed(self) -> None:
        self._show_readout()

    # -- selection ------------------------------------------------------------------------

    def _select(self, start: int, end: int) -> None:
        self.view.select_offsets(start, end)

    def _blocks(self, unit: str) -> list[int] | None:
        """The page's block starts for ``unit``; says once when the page has none stored."""
        if unit != "word" and self.page.blocks is None and not self.said_no_blocks:
            self.said_no_blocks = True
            from labeler.extract.blocks import reports_blocks

            if self.profile and not reports_blocks(self.profile):
                why = f"its profile {self.profile!r} reports no block offsets"
                fix = "ingest it with a profile that does (jsoup-1.15.3, bs4-get-text)"
            else:
                why, fix = "ingested by an older labeler", "ingest it again to store them"
            self.notify(
                f"this page has no stored block boundaries ({why}): "
                f"s and b go by line breaks; {fix}",
                severity="warning",
            )
        return self.page.blocks

    def action_extend(self, unit: str) -> None:
        """Grow the selection to word/sentence/block boundaries (the page's blocks)."""
        start, end = self.view.offsets
        grown = spans.extend(
            self.page.stored, start, end, cast("spans.Unit", unit), self._blocks(unit)
        )
        self._select(*grown)

    def action_shrink(self, unit: str) -> None:
        """Shrink the selection to the whole words/sentences/blocks inside it."""
        start, end = self.view.offsets
        inner = spans.shrink(
            self.page.stored, start, end, cast("spans.Unit", unit), self._blocks(unit)
        )
        self._select(*inner)

    def action_trim(self) -> None:
        """Drop surrounding whitespace from the selection."""
        self._select(*spans.trim(self.page.stored, *self.view.offsets))

    # -- labelling actions ----------------------------------------------------------------

    def _target(self) -> ElementRow | None:
        """The element an action applies to: under the cursor, else the focused one."""
        mine = self.mine()
        cursor = self.view.cursor_offset
        start, end = self.view.offsets
        for e in mine:
            if e.start <= cursor <= e.end or (start, end) == (e.start, e.end):
                return e
        return next((e for e in mine if e.id == self.focused_id), None)

    def action_attach(self) -> None:
        """Attach the selection to the current question (see :mod:`labeler.tui.attach`)."""
        attach_selection(self)

    def action_grade(self, grade: int) -> None:
        """Set the grade of the element under the cursor (or the focused one)."""
        target = self._target()
        if target is None:
            self.notify("put the cursor in a highlighted element first", severity="warning")
            return
        actor = self.labeler.annotator

        def job(store: Store) -> ElementRow:
            with store.write() as s, gone_as(element_words(target)):
                check_editable(s, target.id, actor)
                return set_grade(s, target.id, grade, actor=actor)

        def done(row: ElementRow) -> None:
            self.focused_id = row.id
            self.notify(
                f"{self._question_name(row.query_id)}: {quote(row.text)} now g{row.grade}",
                title="saved",
                timeout=3,
            )
            self.labeler.changed()

        self.labeler.db(job, done, what="grade")

    def action_key(self) -> None:
        """Make the selection the key clause of the current question's element holding it
        (underlined; Partial then needs it whole); with no selection, clear the key of the
        element under the cursor. Audited, so ctrl+z brings the old key back."""
        start, end = self.view.offsets
        if start == end:
            target = self._target()
            if target is None or target.key_start is None:
                self.notify(
                    "select the key clause inside a highlighted element, then press K",
                    severity="warning",
                )
                return
            span: tuple[int | None, int | None] = (None, None)
        else:
            target = next((e for e in self.mine() if e.start <= start and end <= e.end), None)
            if target is None:
                self.notify(
                    "a key clause lies inside one of the current question's elements: "
                    "select within a highlighted element",
                    severity="warning",
                )
                return
            span = (start, end)
        actor = self.labeler.annotator

        def job(store: Store) -> ElementRow:
            with store.write() as s, gone_as(element_words(target)):
                return set_key(s, target.id, *span, actor=actor)

        def done(row: ElementRow) -> None:
            self.focused_id = row.id
            name = self._question_name(row.query_id)
            if row.key_start is None or row.key_end is None:
                said = f"{name}: key clause cleared"
            else:
                clause = self.page.stored[row.key_start : row.key_end]
                said = f"{name}: key {quote(clause)} ({row.key_start}–{row.key_end})"
            self.notify(said, title="saved", timeout=3)
            self.labeler.changed()

        self.labeler.db(job, done, what="key clause")

    def action_remove(self) -> None:
        """Remove the element under the cursor (or the focused one); ctrl+z brings it back."""
        target = self._target()
        if target is None:
            self.notify("put the cursor in a highlighted element first", severity="warning")
            return
        actor = self.labeler.annotator

        def job(store: Store) -> None:
            with store.write() as s, gone_as(element_words(target)):
                check_editable(s, target.id, actor)
                remove_element(s, target.id, actor=actor)

        def done(_: None) -> None:
            self.focused_id = None
            self.notify(
                removed_words(self._question_name(target.query_id), target),
                title="saved",
                timeout=6,
            )
            self.labeler.changed()

        self.labeler.db(job, done, what="remove")

    # -- navigation -----------------------------------------------------------------------

    def action_element_step(self, delta: int) -> None:
        """Jump to the next/previous element of the current question on this page."""
        mine = self.mine()
        if not mine:
            where = f": {self.elsewhere}" if self.elsewhere else ""
            self.notify(
                f"the current question has no element on this page{where}", severity="warning"
            )
            return
        cursor = self.view.cursor_offset
        if delta > 0:
            target = next((e for e in mine if e.start > cursor), mine[0])
        else:
            target = next((e for e in reversed(mine) if e.end < cursor), mine[-1])
        self.show_element(target)

    def action_review(self) -> None:
        """Every element of the current question on every page (see ``screens.review``)."""
        from labeler.tui.screens.review import ReviewScreen

        self.app.push_screen(ReviewScreen())

    def action_question_step(self, delta: int) -> None:
        """Switch to the next/previous question without leaving the page (the watcher
        redraws and drops the selection)."""
        if self.labeler.step_question(delta) is None:
            self.notify("this gold set has no questions yet", severity="warning")

    def _question_name(self, query_id: int) -> str:
        q = next((x for x in self.labeler.questions if x.id == query_id), None)
        return q.external_id if q is not None else "a question no longer in this gold set"

    def action_assist(self) -> None:
        self.labeler.toggle_assist()

    def action_assist_run(self, delta: int) -> None:
        """Show the next stored run's chunks in assist mode."""
        app = self.labeler
        if not app.runs:
            self.notify("no run stored: import a run first", severity="warning")
            return
        ids = [r.id for r in app.runs]
        current = app.assist_run.id if app.assist_run is not None else None
        index = ids.index(current) if current in ids else -1
        app.choose_assist_run(ids[(index + delta) % len(ids)])

    def action_assist_k(self, delta: int) -> None:
        """Show more (``+``) or fewer (``-``) of the run's chunks."""
        app = self.labeler
        app.assist_k = step_k(app.assist_k, delta)
        self.notify(f"assist: top {app.assist_k} chunks", timeout=2)

    def action_chunk_step(self, delta: int) -> None:
        """Select the next/previous assist chunk whose text is on this page."""
        if not self.labeler.assist:
            self.notify("assist mode is off: press A first", severity="warning", timeout=3)
            return
        here = [i for i, c in enumerate(self.chunks) if c.at is not None]
        if not here:
            elsewhere = sorted({c.doc_id for c in self.chunks if c.doc_id})
            where = f" (they are on: {', '.join(elsewhere)})" if elsewhere else ""
            self.notify(f"none of the shown chunks is on this page{where}", severity="warning")
            return
        after = [i for i in here if (i > self.chunk_index if delta > 0 else i < self.chunk_index)]
        if delta > 0:
            self.chunk_index = after[0] if after else here[0]
        else:
            self.chunk_index = after[-1] if after else here[-1]
        chunk = self.chunks[self.chunk_index]
        assert chunk.at is not None
        self._select(*chunk.at)
        self.query_one("#readout", Static).update(
            f"chunk #{chunk.rank} at {chunk.at[0]}–{chunk.at[1]}  ·  a: attach it"
        )

    def action_back(self) -> None:
        find = self.query_one("#find", Input)
        if find.display:
            find.display = False
            self.view.focus()
            return
        self.dismiss()

    # -- find -----------------------------------------------------------------------------

    def action_find(self) -> None:
        find = self.query_one("#find", Input)
        find.display = True
        find.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "find":
            return
        self.needle = event.value
        self.matches = spans.find_all(self.page.stored, self.needle)
        event.input.display = False
        self.view.focus()
        self.match_index = -1
        if not self.matches:
            self.notify(f"{self.needle!r} not found on this page", severity="warning")
            self.needle = ""
            self._paint_spans()
            return
        self._paint_spans()
        self.action_find_step(1)

    def action_find_step(self, delta: int) -> None:
        """Select the next/previous match of the last search."""
        if not self.matches:
            self.notify("nothing to find: press / first", severity="warning", timeout=3)
            return
        if self.match_index < 0:
            cursor = self.view.cursor_offset
            after = [i for i, m in enumerate(self.matches) if m >= cursor]
            self.match_index = after[0] if after else 0
        else:
            self.match_index = (self.match_index + delta) % len(self.matches)
        m = self.matches[self.match_index]
        self._select(m, m + len(self.needle))
        self.query_one("#readout", Static).update(
            f"match {self.match_index + 1}/{len(self.matches)} of {self.needle!r} at {m}"
        )
