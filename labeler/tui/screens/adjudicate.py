"""Adjudication (F5, palette "Adjudicate"): settle what the annotators of a team gold set
chose into its final layer.

Left: the queue (questions two or more annotators marked done, not adjudicated, lowest
agreement first: :func:`labeler.store.adjudicating.adjudication_queue`) and, for the
highlighted question, its span groups (one row per exact span any done annotator chose,
how many chose it, and whether it is accepted). Right: the page of the highlighted group
with every annotator's spans in a colour each (spans all of them chose in green, accepted
ones bright and underlined), the group selected.

Keys: ``a`` accept the group (provenance ``adjudicated``), ``U`` accept every unanimous
group (``unanimous``), ``x`` reject (an accepted span leaves the final layer; any other is
simply not accepted), ``1``-``3`` grade an accepted span, ``w``/``W`` move its end one word
out/in, ``e`` store the page selection (select with shift+arrows on the page, ``tab`` to
get there) as the accepted span's new boundaries, or accept it when the group is not
accepted, ``m`` mark the question adjudicated (with no accepted span: "no answer on these
pages", confirmed). Every step is one audited change the app's ctrl+z undoes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from labeler.store import ElementRow, Store, page_and_blocks, remove_element, set_grade
from labeler.store.adjudicating import (
    QuestionForAdjudication,
    WaitingQuestion,
    accept_unanimous,
    adjudication_queue,
    adjust_final,
    question_for_adjudication,
)
from labeler.store.adjudication import SpanGroup
from labeler.store.models import PROVENANCE_ADJUDICATED
from labeler.store.team import accept_span, set_adjudicated
from labeler.tui import spans
from labeler.tui.attach import element_words, gone_as, quote, removed_words
from labeler.tui.pagemap import DISPLAY_LINE, PageMap
from labeler.tui.screens.forms import ConfirmDialog
from labeler.tui.widgets.page_view import PageView, Span
from labeler.tui.widgets.row_table import RowTable

if TYPE_CHECKING:
    from labeler.tui.app import LabelerApp

T = TypeVar("T")

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


def _alpha(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


class AdjudicationScreen(Screen[None]):
    """The adjudication queue of the current gold set and one question's span groups."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back"),
        Binding("a", "accept", "Accept"),
        Binding("U", "accept_unanimous", "Accept unanimous", key_display="U"),
        Binding("x", "reject", "Reject"),
        Binding("1", "grade(1)", "Grade 1", show=False),
        Binding("2", "grade(2)", "Grade 2", show=False),
        Binding("3", "grade(3)", "Grade", key_display="1-3"),
        Binding("w", "adjust_end(1)", "+Word", show=False),
        Binding("W", "adjust_end(-1)", "-Word", show=False),
        Binding("e", "use_selection", "Use selection"),
        Binding("m", "settle", "Mark adjudicated"),
    ]

    DEFAULT_CSS = """
    AdjudicationScreen #adj-body { height: 1fr; }
    AdjudicationScreen #adj-left { width: 1fr; }
    AdjudicationScreen #adj-queue { height: 1fr; }
    AdjudicationScreen #adj-groups { height: 2fr; }
    AdjudicationScreen #adj-page { width: 1fr; border: round $primary; }
    AdjudicationScreen #adj-title, AdjudicationScreen #adj-question { padding: 0 1; }
    AdjudicationScreen #adj-question { background: $boost; height: auto; }
    AdjudicationScreen #adj-hint { padding: 0 1; color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.queue: list[WaitingQuestion] = []
        self.query_id: int | None = None
        self.state: QuestionForAdjudication | None = None
        self.document_id: str | None = None
        self.pages: dict[str, PageMap] = {}
        #: the span the groups cursor moves to on the next redraw (one just written)
        self.follow: tuple[str, int, int] | None = None

    @property
    def labeler(self) -> LabelerApp:
        return cast("LabelerApp", self.app)

    @property
    def view(self) -> PageView:
        return self.query_one("#adj-page", PageView)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="adj-title")
        with Horizontal(id="adj-body"):
            with Vertical(id="adj-left"):
                yield RowTable(id="adj-queue", cursor_type="row", zebra_stripes=True)
                yield Static("", id="adj-question")
                yield RowTable(id="adj-groups", cursor_type="row", zebra_stripes=True)
            yield PageView(id="adj-page")
        yield Static(
            "a accept · U accept unanimous · x reject · 1-3 grade · w/W end ±word · "
            "e use page selection (tab to the page, shift+arrows) · m mark adjudicated · "
            "ctrl+z undo",
            id="adj-hint",
        )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#adj-queue", DataTable).add_columns("question", "done by", "α", "exact F1")
        self.query_one("#adj-groups", DataTable).add_columns(
            "page", "offsets", "chosen by", "accepted", "text"
        )
        self.query_one("#adj-groups", DataTable).focus()
        app = self.labeler
        self.watch(app, "revision", self.reload, init=False)
        self.watch(app, "gold_set_id", self.reload, init=False)
        self.reload()

    # -- loading --------------------------------------------------------------------------

    def reload(self) -> None:
        """Re-read the queue and the chosen question (after every committed write)."""
        gold_set_id = self.labeler.gold_set_id
        wanted = self.query_id
        if gold_set_id is None:
            return

        def load(
            store: Store,
        ) -> tuple[list[WaitingQuestion], int | None, QuestionForAdjudication | None]:
            with store.session() as s:
                queue = adjudication_queue(s, gold_set_id)
                ids = [w.query_id for w in queue]
                chosen = wanted if wanted in ids else (ids[0] if ids else None)
                state = None if chosen is None else question_for_adjudication(s, chosen)
            return queue, chosen, state

        self.labeler.db(load, self._loaded, what="adjudication queue")

    def _loaded(
        self, result: tuple[list[WaitingQuestion], int | None, QuestionForAdjudication | None]
    ) -> None:
        self.queue, self.query_id, self.state = result
        n = len(self.queue)
        self.query_one("#adj-title", Static).update(
            Text.assemble(
                ("Adjudication", "bold"),
                f" · {self.labeler.gold_set_name} · {n} question(s) waiting "
                "(done by 2+ annotators, lowest agreement first)",
            )
        )
        table = self.query_one("#adj-queue", DataTable)
        table.clear()
        for w in self.queue:
            table.add_row(
                w.external_id,
                ", ".join(w.done_by),
                _alpha(w.char_alpha),
                f"{w.exact_f1:.2f}",
                key=str(w.query_id),
            )
        ids = [w.query_id for w in self.queue]
        if self.query_id in ids:
            table.move_cursor(row=ids.index(self.query_id))
        self._show_question()

    def _choose(self, query_id: int) -> None:
        if query_id == self.query_id:
            return
        self.query_id = query_id

        def load(store: Store) -> QuestionForAdjudication:
            with store.session() as s:
                return question_for_adjudication(s, query_id)

        def loaded(state: QuestionForAdjudication) -> None:
            if self.query_id == query_id:
                self.state = state
                self._show_question()

        self.labeler.db(load, loaded, what="adjudication question")

    def _waiting(self) -> WaitingQuestion | None:
        return next((w for w in self.queue if w.query_id == self.query_id), None)

    def _show_question(self) -> None:
        w, state = self._waiting(), self.state
        head = self.query_one("#adj-question", Static)
        table = self.query_one("#adj-groups", DataTable)
        cursor = table.cursor_row
        table.clear()
        if w is None or state is None:
            head.update("nothing waits for adjudication in this gold set")
            self.view.set_spans([])
            return
        legend = Text(f"{w.external_id}", style="bold")
        legend.append(f"  {w.text}\n")
        for i, name in enumerate(state.spans.done_by):
            legend.append(f" {name} ", style=ANNOTATOR_STYLES[i % len(ANNOTATOR_STYLES)])
            legend.append(" ")
        legend.append(" all ", style=ALL)
        legend.append(" ")
        legend.append(" accepted ", style=ACCEPTED)
        head.update(legend)
        n = len(state.spans.done_by)
        for g in state.spans.groups:
            final = state.final_of(g)
            accepted = f"✓ g{final.grade}" if final is not None else ""
            shown = g.text if len(g.text) <= 60 else g.text[:59] + "…"
            table.add_row(
                g.document_id,
                f"{g.start}–{g.end}",
                f"{len(g.annotators)}/{n} {', '.join(g.annotators)}".strip(),
                accepted,
                repr(shown),
                key=f"{g.document_id}\t{g.start}\t{g.end}",
            )
        if state.spans.groups:
            keys = [(g.document_id, g.start, g.end) for g in state.spans.groups]
            if self.follow in keys:
                cursor = keys.index(self.follow)
            self.follow = None
            table.move_cursor(row=min(max(cursor, 0), len(state.spans.groups) - 1))
            self._show_group()
        else:
            self.view.set_spans([])

    def selected(self) -> SpanGroup | None:
        """The span group under the groups table's cursor."""
        table = self.query_one("#adj-groups", DataTable)
        if self.state is None or table.row_count == 0 or table.cursor_row < 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next(
            (g for g in self.state.spans.groups if f"{g.document_id}\t{g.start}\t{g.end}" == key),
            None,
        )

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
            with store.session() as s:
                found = page_and_blocks(s, document_id)
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
            self.view.select_offsets(group.start, group.end)
            self.view.scroll_cursor_visible(center=True)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "adj-queue":
            key = event.row_key.value
            if key is not None and self.is_current:
                self._choose(int(key))
        elif event.data_table.id == "adj-groups":
            self._show_group()

    # -- actions --------------------------------------------------------------------------

    def _question_name(self) -> str:
        w = self._waiting()
        return w.external_id if w is not None else "the question"

    def _write(self, job: Callable[[Store], T], message: Callable[[T], str], what: str) -> None:
        """Run a write ``job(store)``; then notify ``message(result)`` and reload."""
        app = self.labeler

        def done(result: T) -> None:
            if isinstance(result, ElementRow):  # keep the cursor on the span just written
                self.follow = (result.document_id, result.start, result.end)
            self.notify(message(result), title="saved", timeout=5)
            app.changed()

        app.db(job, done, what=what)

    def action_accept(self) -> None:
        """Accept the highlighted span group into the final layer."""
        group, qid, actor = self.selected(), self.query_id, self.labeler.annotator
        if group is None or qid is None or self.state is None:
            self.notify("no span to accept", severity="warning", timeout=3)
            return
        if self.state.final_of(group) is not None:
            self.notify("already accepted", timeout=3)
            return
        name = self._question_name()

        def job(store: Store) -> None:
            with store.write() as s:
                accept_span(
                    s,
                    qid,
                    group.document_id,
                    group.start,
                    group.end,
                    provenance=PROVENANCE_ADJUDICATED,
                    actor=actor,
                    grade=group.grade,
                )

        self._write(
            job,
            lambda _: (
                f"accepted into {name}'s final layer: {quote(group.text)} g{group.grade} "
                f"({group.document_id} {group.start}–{group.end})  ·  ctrl+z: undo"
            ),
            "accept",
        )

    def action_accept_unanimous(self) -> None:
        """Accept every span all done annotators chose."""
        qid, actor, name = self.query_id, self.labeler.annotator, self._question_name()
        if qid is None:
            self.notify("nothing waits for adjudication", severity="warning", timeout=3)
            return

        def job(store: Store) -> list[ElementRow]:
            with store.write() as s:
                return accept_unanimous(s, qid, actor=actor)

        def message(rows: list[ElementRow]) -> str:
            if not rows:
                return f"{name}: no unanimous span left to accept"
            return (
                f"{name}: accepted {len(rows)} unanimous span(s)  ·  ctrl+z undoes them one "
                "at a time"
            )

        self._write(job, message, "accept unanimous")

    def action_reject(self) -> None:
        """Take an accepted span out of the final layer; any other is just not accepted."""
        group = self.selected()
        if group is None or self.state is None:
            self.notify("no span selected", severity="warning", timeout=3)
            return
        final = self.state.final_of(group)
        if final is None:
            self.notify(
                f"not accepted: {quote(group.text)} stays out of {self._question_name()}'s final layer",
                timeout=4,
            )
            return
        actor, name = self.labeler.annotator, self._question_name()

        def job(store: Store) -> None:
            with store.write() as s, gone_as(element_words(final)):
                remove_element(s, final.id, actor=actor)

        self._write(job, lambda _: removed_words(name, final), "reject")

    def _accepted(self) -> ElementRow | None:
        group = self.selected()
        final = None if group is None or self.state is None else self.state.final_of(group)
        if final is None:
            self.notify("accept the span first (a)", severity="warning", timeout=3)
        return final

    def action_grade(self, grade: int) -> None:
        """Set the grade of the highlighted accepted span."""
        final = self._accepted()
        if final is None:
            return
        actor, name = self.labeler.annotator, self._question_name()

        def job(store: Store) -> ElementRow:
            with store.write() as s, gone_as(element_words(final)):
                return set_grade(s, final.id, grade, actor=actor)

        self._write(
            job,
            lambda row: f"{name}: {quote(row.text)} now g{row.grade}  ·  ctrl+z: undo",
            "grade",
        )

    def _adjust(self, final: ElementRow, start: int, end: int) -> None:
        actor, name = self.labeler.annotator, self._question_name()
        if (start, end) == (final.start, final.end):
            self.notify("the span stays as it is", timeout=3)
            return

        def job(store: Store) -> ElementRow:
            with store.write() as s, gone_as(element_words(final)):
                return adjust_final(s, final.id, start, end, actor=actor)

        def message(row: ElementRow) -> str:
            return (
                f"{name}: accepted span now {quote(row.text)} ({row.document_id} "
                f"{row.start}–{row.end}, was {final.start}–{final.end})  ·  ctrl+z: undo"
            )

        self._write(job, message, "adjust")

    def action_adjust_end(self, delta: int) -> None:
        """Move the accepted span's end one word out (``w``) or in (``W``)."""
        final = self._accepted()
        page = self.pages.get(final.document_id) if final is not None else None
        if final is None or page is None:
            return
        text = page.stored
        if delta > 0:
            start, end = spans.extend(text, final.start, final.end, "word")
        else:
            start, end = spans.drop_last_word(text, final.start, final.end)
        self._adjust(final, start, end)

    def action_use_selection(self) -> None:
        """The page selection becomes the highlighted accepted span's boundaries; when the
        group is not accepted, the selection is accepted as a new final span."""
        group, qid = self.selected(), self.query_id
        start, end = self.view.offsets
        if group is None or qid is None or self.state is None or self.document_id is None:
            self.notify("no span selected", severity="warning", timeout=3)
            return
        if start == end:
            self.notify("select some text on the page first", severity="warning", timeout=3)
            return
        final = self.state.final_of(group)
        if final is not None and final.document_id == self.document_id:
            self._adjust(final, start, end)
            return
        actor, name, document_id = self.labeler.annotator, self._question_name(), self.document_id

        def job(store: Store) -> ElementRow:
            from labeler.store.annotate import element_row

            with store.write() as s:
                return element_row(
                    accept_span(
                        s,
                        qid,
                        document_id,
                        start,
                        end,
                        provenance=PROVENANCE_ADJUDICATED,
                        actor=actor,
                    )
                )

        self._write(
            job,
            lambda row: (
                f"accepted into {name}'s final layer: {quote(row.text)} "
                f"({row.document_id} {row.start}–{row.end})  ·  ctrl+z: undo"
            ),
            "accept selection",
        )

    def action_settle(self) -> None:
        """Mark the question adjudicated (confirmed when nothing is accepted)."""
        qid, state = self.query_id, self.state
        if qid is None or state is None:
            self.notify("nothing waits for adjudication", severity="warning", timeout=3)
            return
        actor, name = self.labeler.annotator, self._question_name()
        n_final = len(state.final)
        left = sum(1 for g in state.spans.groups if state.final_of(g) is None)

        def job(store: Store) -> None:
            with store.write() as s:
                set_adjudicated(s, qid, by=actor)

        def message(_: None) -> str:
            what = f"{n_final} accepted span(s)" if n_final else "no answer on these pages"
            rest = f", {left} span(s) not accepted" if left else ""
            return f"{name} adjudicated by {actor}: {what}{rest}  ·  ctrl+z: undo"

        if n_final:
            self._write(job, message, "mark adjudicated")
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self._write(job, message, "mark adjudicated")

        self.app.push_screen(
            ConfirmDialog(
                f"Nothing accepted. Mark {name} adjudicated with no answer on these pages?"
            ),
            confirmed,
        )

    def action_back(self) -> None:
        self.dismiss()
