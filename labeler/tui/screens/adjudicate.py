"""Adjudication (F5, palette "Adjudicate"): settle what the annotators of a team gold set
chose into its final layer.

Left: the queue (questions two or more annotators marked done, not adjudicated, lowest
agreement first: :func:`labeler.store.adjudicating.adjudication_queue`; after ``s`` the
settled questions follow, each with who settled it and when, to reopen with ``r``) and, for the
highlighted question, its span groups (one row per exact span any done annotator chose,
how many chose it, their key clause when they agree on one or "keys differ" when they do
not, a grade tie and the grade it gives (:func:`labeler.store.tie_words`), and whether it is
accepted, with the accepted element's key). Right: the page of the highlighted group
with every annotator's spans in a colour each (spans all of them chose in green, accepted
ones bright and underlined), the group selected.

Keys and edits: :mod:`labeler.tui.screens.adjudicate_edits`.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Header, Static

from labeler.store import (
    QuestionForAdjudication,
    SpanGroup,
    Store,
    WaitingQuestion,
    adjudication_question,
    adjudication_view,
    page_with_blocks,
)
from labeler.tui.pagemap import DISPLAY_LINE, PageMap
from labeler.tui.screens.adjudicate_edits import AdjudicationEdits, group_key, settled_words
from labeler.tui.screens.adjudicate_layout import (
    WIDE,
    TableLayout,
    groups_layout,
    queue_layout,
)
from labeler.tui.widgets.footer import LabelerFooter
from labeler.tui.widgets.lead_panel import LeadPanel
from labeler.tui.widgets.notice import NoticeLine
from labeler.tui.widgets.page_view import PageView, Span
from labeler.tui.widgets.row_table import RowTable

#: one background per annotator, in the order of the question's done annotators
ANNOTATOR_STYLES = (
    Style(color="white", bgcolor="dark_orange3"),
    Style(color="white", bgcolor="blue3"),
    Style(color="white", bgcolor="magenta3"),
    Style(color="black", bgcolor="cyan3"),
    Style(color="black", bgcolor="khaki3"),
)
#: a span several (not all) annotators chose
SEVERAL = Style(color="white", bgcolor="purple4", bold=True)
#: a span every done annotator chose
ALL = Style(color="white", bgcolor="green4", bold=True)
#: an accepted (final) span
ACCEPTED = Style(color="black", bgcolor="bright_green", bold=True, underline=True)


HINT = (
    "a accept · U accept unanimous · x reject · 1-3 grade · w/W end ±word · "
    "e use page selection (tab to the page, shift+arrows) · m mark adjudicated · "
    "s show settled · r reopen · ctrl+z undo"
)
#: one line under :data:`WIDE` columns: the keys the footer has no room for there (every
#: key is in F1 and the palette)
NARROW_HINT = "w/W ±word · e selection · m settle · s settled · r reopen · p lead · F1 all"


def _fill(table: DataTable[object], layout: TableLayout, keys: list[str]) -> None:
    """Replace ``table``'s columns and rows with ``layout``'s (rows keyed ``keys``)."""
    table.clear(columns=True)
    for header, width in layout.columns:
        table.add_column(header, width=width)
    for (cells, height), key in zip(layout.rows, keys, strict=True):
        table.add_row(*cells, key=key, height=height)


class AdjudicationScreen(AdjudicationEdits):
    """The adjudication queue of the current gold set and one question's span groups; ``p``
    shows or hides the lead's panel (:mod:`labeler.tui.widgets.lead_panel`)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("p", "lead_panel", "Lead's view")]

    DEFAULT_CSS = """
    AdjudicationScreen #adj-body { height: 1fr; }
    AdjudicationScreen #adj-left { width: 1fr; }
    AdjudicationScreen #adj-queue { height: 1fr; }
    AdjudicationScreen #adj-groups { height: 2fr; }
    AdjudicationScreen #adj-page { width: 1fr; border: round $primary; }
    AdjudicationScreen #adj-title, AdjudicationScreen #adj-question { padding: 0 1; }
    AdjudicationScreen #adj-question { background: $boost; height: auto; }
    AdjudicationScreen #adj-hint { padding: 0 1; color: $text-muted; }
    AdjudicationScreen.narrow #adj-groups { height: 1fr; }
    AdjudicationScreen.narrow #adj-title, AdjudicationScreen.narrow #adj-hint { height: 1; }
    """

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="adj-title")
        yield LeadPanel(id="adj-lead")
        with Horizontal(id="adj-body"):
            with Vertical(id="adj-left"):
                yield RowTable(id="adj-queue", cursor_type="row", zebra_stripes=True)
                yield Static("", id="adj-question")
                yield RowTable(id="adj-groups", cursor_type="row", zebra_stripes=True)
            yield PageView(id="adj-page")
        yield NoticeLine(id="adj-notice")  # not a toast over the page pane
        yield Static(HINT, id="adj-hint")
        yield LabelerFooter()

    def on_mount(self) -> None:
        self._fit()
        self.query_one("#adj-groups", DataTable).focus()
        self.watch(self.app, "revision", self.reload, init=False)
        self.watch(self.app, "gold_set_id", self.reload, init=False)
        self.reload()

    @property
    def wide(self) -> bool:
        """The terminal has :data:`WIDE` columns or more (before the first layout: the
        app's)."""
        return (self.size.width or self.app.size.width) >= WIDE

    def _fit(self) -> None:
        """The narrow or the wide layout's class and hint, for the current width."""
        self.set_class(not self.wide, "narrow")
        self.query_one("#adj-hint", Static).update(HINT if self.wide else NARROW_HINT)

    def on_resize(self) -> None:
        # the tables' columns depend on the width: draw them again once laid out anew
        self.call_after_refresh(self._refit)

    def _refit(self) -> None:
        changed = self.has_class("narrow") == self.wide  # narrow class, wide terminal, or so
        if (changed or not self.wide) and (self.queue or self.state is not None):
            self._fit()
            self._loaded((self.queue, self.query_id, self.state))
        elif changed:
            self._fit()

    def action_lead_panel(self) -> None:
        """``p``: show or hide the per-annotator summary."""
        self.query_one("#adj-lead", LeadPanel).toggle()

    # -- loading --------------------------------------------------------------------------

    def reload(self) -> None:
        """Re-read the queue and the chosen question (after every committed write)."""
        gold_set_id = self.labeler.gold_set_id
        wanted, settled = self.query_id, self.show_settled
        if gold_set_id is None:
            return

        def load(
            store: Store,
        ) -> tuple[list[WaitingQuestion], int | None, QuestionForAdjudication | None]:
            view = adjudication_view(store, gold_set_id, wanted, settled=settled)
            return view.queue, view.chosen, view.state

        self.labeler.db(load, self._loaded, what="adjudication queue")

    def _loaded(
        self, result: tuple[list[WaitingQuestion], int | None, QuestionForAdjudication | None]
    ) -> None:
        self.queue, self.query_id, self.state = result
        n_settled = sum(w.settled for w in self.queue)
        n = len(self.queue) - n_settled
        # hidden, the hint line names s (the title stays one line on a narrow terminal)
        if self.wide:
            settled = (
                f" · {n_settled} settled listed after them (s hides them, r reopens one)"
                if self.show_settled
                else ""
            )
            about = (
                f" · {self.labeler.gold_set_name} · {n} question(s) waiting "
                f"(done by 2+ annotators, lowest agreement first){settled}"
            )
        else:
            settled = f" · {n_settled} settled after them" if self.show_settled else ""
            about = f" · {self.labeler.gold_set_name} · {n} waiting, least agreed first{settled}"
        title = Text.assemble(("Adjudication", "bold"), about)
        if not self.wide:
            title.no_wrap, title.overflow = True, "ellipsis"
        self.query_one("#adj-title", Static).update(title)
        table = self.query_one("#adj-queue", DataTable)
        layout = queue_layout(self.queue, self.wide, self.show_settled)
        _fill(table, layout, [str(w.query_id) for w in self.queue])
        ids = [w.query_id for w in self.queue]
        if self.query_id in ids:
            table.move_cursor(row=ids.index(self.query_id))
        self._show_question()

    def _choose(self, query_id: int) -> None:
        if query_id == self.query_id:
            return
        self.query_id = query_id

        def load(store: Store) -> QuestionForAdjudication:
            return adjudication_question(store, query_id)

        def loaded(state: QuestionForAdjudication) -> None:
            if self.query_id == query_id:
                self.state = state
                self._show_question()

        self.labeler.db(load, loaded, what="adjudication question")

    def _show_question(self) -> None:
        w, state = self._waiting(), self.state
        head = self.query_one("#adj-question", Static)
        table = self.query_one("#adj-groups", DataTable)
        cursor = table.cursor_row
        if w is None or state is None:
            table.clear()
            head.update(
                "nothing waits for adjudication in this gold set"
                + ("" if self.show_settled else " (s shows the settled questions)")
            )
            self.view.set_spans([])
            return
        legend = Text(f"{w.external_id}", style="bold")
        legend.append(f"  {w.text}\n")
        if w.settled:
            legend.append(f" {settled_words(w)} · r reopens it to change it \n", style="reverse")
        for i, name in enumerate(state.spans.done_by):
            legend.append(f" {name} ", style=ANNOTATOR_STYLES[i % len(ANNOTATOR_STYLES)])
            legend.append(" ")
        legend.append(" all ", style=ALL)
        legend.append(" ")
        legend.append(" accepted ", style=ACCEPTED)
        head.update(legend)
        width = (
            self.query_one("#adj-left").size.width or (self.size.width or self.app.size.width) // 2
        )
        layout = groups_layout(state, self.wide, width)
        _fill(table, layout, [group_key(g) for g in state.spans.groups])
        if state.spans.groups:
            keys = [(g.document_id, g.start, g.end) for g in state.spans.groups]
            if self.follow in keys:
                cursor = keys.index(self.follow)
            self.follow = None
            table.move_cursor(row=min(max(cursor, 0), len(state.spans.groups) - 1))
            self._show_group()
        else:
            self.view.set_spans([])

    def _show_group(self) -> None:
        group = self.selected()
        if group is None:
            return
        if group.document_id == self.document_id:
            self._paint(group)
            return
        document_id = group.document_id
        cached = self.pages.get(document_id)
        if cached is not None:
            self._show_page(document_id, cached)
            return
        view = self.view

        def load(store: Store) -> PageMap:
            found = page_with_blocks(store, document_id)
            if found is None:
                raise LookupError(f"no document {document_id!r}")
            text, blocks = found
            return PageMap(text, blocks, width=view.line_width() or DISPLAY_LINE)

        self.labeler.db(load, lambda page: self._show_page(document_id, page), what="open page")

    def _show_page(self, document_id: str, page: PageMap) -> None:
        self.pages[document_id] = page
        self.document_id = document_id
        self.view.show_page(page)
        self.view.border_title = document_id
        group = self.selected()
        if group is not None and group.document_id == document_id:
            self._paint(group)

    def _paint(self, group: SpanGroup) -> None:
        """Every group of this page in its colour, accepted ones last; ``group`` selected."""
        state = self.state
        if state is None:
            return
        order = {name: i for i, name in enumerate(state.spans.done_by)}
        n = len(order)
        painted: list[Span] = []
        here = [g for g in state.spans.groups if g.document_id == self.document_id]
        for g in sorted(here, key=lambda g: len(g.annotators)):
            if not g.annotators:
                continue
            if len(g.annotators) == n:
                style = ALL
            elif len(g.annotators) == 1:
                style = ANNOTATOR_STYLES[order[g.annotators[0]] % len(ANNOTATOR_STYLES)]
            else:
                style = SEVERAL
            painted.append(Span(g.start, g.end, style))
        painted += [Span(g.start, g.end, ACCEPTED) for g in here if state.final_of(g)]
        self.view.set_spans(painted)
        if 0 <= group.start <= group.end <= len(self.view.page):
            self.view.bring_into_view(group.start, group.end)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "adj-queue":
            key = event.row_key.value
            if key is not None and self.is_current:
                self._choose(int(key))
        elif event.data_table.id == "adj-groups":
            self._show_group()
