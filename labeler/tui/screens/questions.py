"""Gold sets and their questions: progress at a glance; add, edit, delete questions.

The table is drawn from the app's ``questions`` and ``current_query_id`` whenever they
change (watchers), and the progress header is re-read after every write (``revision``),
so the list is right even when the change was made from a page opened through F3.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Header, Input, Static
from textual.widgets.data_table import ColumnKey, RowKey

from labeler.report import plural
from labeler.store import (
    AddedQuestion,
    GoldSetProgress,
    QuestionRow,
    Store,
    add_question,
    annotator_progress,
    delete_question,
)
from labeler.tui.keys import most_important_first, team_labels
from labeler.tui.question_edit import open_question_editor
from labeler.tui.screens.forms import ConfirmDialog, QuestionDialog, QuestionForm
from labeler.tui.teamwork import final_note, team_state
from labeler.tui.widgets.footer import LabelerFooter
from labeler.tui.widgets.row_table import RowTable

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


def _annotators(by: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in by.items()) or "—"


FLAGS = {"is:labelled", "is:unlabelled", "is:mine", "is:done", "is:todo", "is:snapped"}

#: how ``gold import --snap-review`` notes a reference text left to label
_REVIEW_NOTE = "to label (not found on"


def question_filter(text: str, annotator: str) -> Callable[[QuestionRow], bool]:
    """A test for questions from a filter: every word must occur in the id or the text
    (case-insensitive); ``is:labelled`` keeps questions with elements, ``is:unlabelled``
    those without, ``is:mine`` those with an element by ``annotator``; in a team gold set
    ``is:done`` those the annotator marked done, ``is:todo`` those still in their queue
    (not done, not adjudicated); ``is:snapped`` those to review after ``gold import
    --snap``: with an element snapped onto its page that nobody confirmed, or a reference
    text left to label in the notes (``--snap-review``). Empty: all."""
    words = text.lower().split()
    flags = {w for w in words if w in FLAGS}
    needles = [w for w in words if w not in FLAGS]

    def keep(q: QuestionRow) -> bool:
        if "is:labelled" in flags and q.n_gold == 0:
            return False
        if "is:unlabelled" in flags and q.n_gold > 0:
            return False
        if "is:mine" in flags and not q.by_annotator.get(annotator):
            return False
        if "is:done" in flags and not q.done:
            return False
        if "is:todo" in flags and (q.done or q.adjudicated):
            return False
        if "is:snapped" in flags and not (q.n_snapped or _REVIEW_NOTE in q.notes):
            return False
        haystack = f"{q.external_id}\n{q.text}".lower()
        return all(n in haystack for n in needles)

    return keep


class QuestionsScreen(Screen[None]):
    """The gold set being labelled, its questions and who labelled what."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add", "Add question"),
        Binding("e", "edit", "Edit"),
        Binding("x", "delete", "Delete"),
        Binding("x", "app.needs_lead('deleting a question')", show=False),
        Binding("enter", "open", "Open", show=False),
        Binding("g", "next_gold_set", "Next gold set"),
        Binding("slash", "filter", "Filter", key_display="/"),
        Binding("escape", "clear_filter", "Clear filter", show=False),
    ]

    #: the footer's order (:mod:`labeler.tui.keys`)
    FOOTER_FIRST: ClassVar[tuple[str, ...]] = (
        "next_unlabelled",
        "toggle_done",  # team gold sets only
        "filter",
        "add",
        "edit",
        "delete",
    )

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        bindings = most_important_first(super().active_bindings, self.FOOTER_FIRST)
        return team_labels(bindings, self.labeler.team)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # deleting a question takes every annotator's labels along: the lead role's (hidden
        # for an annotator; labeler.store.delete_question refuses it again)
        if action == "delete":
            return self.labeler.may_lead
        return True

    def __init__(self) -> None:
        super().__init__()
        self.sets: list[GoldSetProgress] = []
        self._id_column: ColumnKey | None = None
        #: "labelled by"; in a team gold set "your state" (assigned, done, adjudicated)
        self._who_column: ColumnKey | None = None
        #: the filter typed after ``/`` (see :func:`question_filter`)
        self.filter_text = ""

    @property
    def labeler(self) -> AppContext:
        """The running app, as screens see it (:mod:`labeler.tui.context`)."""
        return cast("AppContext", self.app)

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="progress")
        yield Input(
            placeholder="filter: words in id or text; is:labelled is:unlabelled is:mine",
            id="qfilter",
        )
        yield RowTable(id="questions", cursor_type="row", zebra_stripes=True)
        yield Static("", id="notes")
        yield LabelerFooter()

    def on_mount(self) -> None:
        table = self.query_one("#questions", RowTable)
        self._id_column, _, self._who_column, _ = table.add_columns(
            "id", "n_gold", "labelled by", "question"
        )
        # the question's text gets at least half the width, at 80 columns too
        table.last_column_share = 0.5
        table.focus()
        self.query_one("#qfilter", Input).display = False
        self.watch(self.app, "questions", self._show_questions, init=False)
        self.watch(self.app, "current_query_id", self._show_current, init=False)
        self.watch(self.app, "revision", self.reload, init=False)
        self.watch(self.app, "gold_set_id", self.reload, init=False)
        self._show_questions()
        self.reload()

    def reload(self) -> None:
        """Re-read the gold sets' progress (the questions come from the app)."""

        annotator = self.labeler.annotator

        def load(store: Store) -> list[GoldSetProgress]:
            return annotator_progress(store, annotator)

        self.labeler.db(load, self._show, what="load progress")

    def _show(self, sets: list[GoldSetProgress]) -> None:
        self.sets = sets
        app = self.labeler
        current = next((g for g in sets if g.id == app.gold_set_id), None)
        header = Text()
        for g in sets:
            mark = "▶ " if current is not None and g.id == current.id else "  "
            header.append(f"{mark}{g.name}", style="bold" if g is current else "")
            header.append(
                f"  {plural(g.questions, 'question')} · {g.without_elements} without elements"
                f" · {plural(g.elements, 'element')} · {_annotators(g.by_annotator)}\n"
            )
        if not sets:
            header.append(f"no gold set yet in {app.database}")
        elif current is not None and current.questions == 0:
            # the empty state names what fills it (the TUI's key and the CLI's import)
            name = shlex.quote(app.gold_set_name or "NAME")
            header.append(
                f"no questions yet: a adds one, or labeler gold import FILE --gold-set {name}",
                style="bold",
            )
        self.query_one("#progress", Static).update(header)

    def _show_questions(self) -> None:
        """Redraw the table from the app's questions, the cursor on the current one."""
        app = self.labeler
        table = self.query_one("#questions", DataTable)
        scrolled = table.scroll_y  # a refresh (labeler.tui.live) keeps the list where it was
        table.clear()
        team = app.team
        if self._who_column is not None:
            label = "your state" if team else "labelled by"
            column = table.columns[self._who_column]
            if column.label.plain != label:
                column.label = Text(label)
                table.refresh()
        for q in self.shown():
            n_gold = Text(str(q.n_gold), style="bold red" if q.n_gold == 0 else "")
            if q.n_stale:
                n_gold.append(f" ({q.n_stale} stale)", style="red")
            mark = "▶ " if q.id == app.current_query_id else ""
            who = team_state(q) if team else _annotators(q.by_annotator)
            table.add_row(
                Text(mark + q.external_id, overflow="ellipsis", no_wrap=True),
                n_gold,
                Text(who, overflow="ellipsis", no_wrap=True),
                Text(q.text, overflow="ellipsis", no_wrap=True),  # never read as markup
                key=str(q.id),
            )
        self._show_current()
        self.call_after_refresh(self._keep_scroll, scrolled)

    def _keep_scroll(self, scrolled: float) -> None:
        """Scroll back to where the list was before it was redrawn, as long as the cursor
        stays in view there (a move to another question scrolls to it instead)."""
        table = self.query_one("#questions", DataTable)
        shown = table.scrollable_content_region.height - 1  # less the header row
        if scrolled <= table.cursor_row < scrolled + shown:
            table.scroll_to(y=scrolled, animate=False)

    def shown(self) -> list[QuestionRow]:
        """The app's questions that pass the filter, in order."""
        keep = question_filter(self.filter_text, self.labeler.annotator)
        return [q for q in self.labeler.questions if keep(q)]

    def action_filter(self) -> None:
        box = self.query_one("#qfilter", Input)
        box.display = True
        box.focus()

    def action_clear_filter(self) -> None:
        box = self.query_one("#qfilter", Input)
        box.value = ""
        box.display = False
        self.query_one("#questions", DataTable).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "qfilter":
            self.filter_text = event.value
            self._show_questions()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "qfilter":
            event.input.display = bool(event.value)
            self.query_one("#questions", DataTable).focus()

    def _show_current(self) -> None:
        """Move the ▶ mark and the cursor to the app's current question."""
        app = self.labeler
        table = self.query_one("#questions", DataTable)
        if self._id_column is not None:
            for q in app.questions:
                key = RowKey(str(q.id))
                if key not in table.rows:
                    continue
                mark = "▶ " if q.id == app.current_query_id else ""
                table.update_cell(
                    key,
                    self._id_column,
                    Text(mark + q.external_id, overflow="ellipsis", no_wrap=True),
                )
        ids = [q.id for q in self.shown()]
        if app.current_query_id in ids:
            row = ids.index(app.current_query_id)
            if table.cursor_row != row:
                table.move_cursor(row=row)
        self._show_notes()

    def _selected_id(self) -> int | None:
        """The question under the table's cursor, by the row's key (never by position in
        a list that may have been reloaded since the table was drawn)."""
        table = self.query_one("#questions", DataTable)
        if table.row_count == 0 or table.cursor_row < 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return None if key is None else int(key)

    def _show_notes(self) -> None:
        qid = self._selected_id()
        q = next((x for x in self.labeler.questions if x.id == qid), None)
        lines = [f"notes: {q.notes}"] if q is not None and q.notes else []
        if q is not None and final_note(q):
            lines.append(final_note(q))
        self.query_one("#notes", Static).update("\n".join(lines))

    def on_data_table_row_highlighted(self) -> None:
        # The highlighted question is the current one: the page view labels for it. Only
        # the user moving the cursor here counts; redraws of a screen in the background
        # (another mode, a dialog on top) must not change the question behind their back.
        if self.is_current:
            qid = self._selected_id()
            if qid is not None:
                self.labeler.current_query_id = qid
        self._show_notes()

    def on_data_table_row_selected(self) -> None:
        self.action_open()

    # -- actions --------------------------------------------------------------------------

    def action_add(self) -> None:
        app = self.labeler
        name, actor = app.gold_set_name, app.annotator

        def job(store: Store, form: QuestionForm) -> AddedQuestion:
            # Runs from the dialog: a refusal (duplicate id) keeps it open with the text.
            return add_question(
                store, name, form.external_id, form.text, actor=actor, notes=form.notes
            )

        def done(added: AddedQuestion) -> None:
            query_id, external_id = added.id, added.external_id
            app.current_query_id = query_id
            self.notify(f"question {external_id} added", title="saved", timeout=3)
            app.changed()

        self.app.push_screen(QuestionDialog(f"New question in {name}", store=job, stored=done))

    def action_edit(self) -> None:
        """Edit the question under the cursor (see :func:`open_question_editor`)."""
        qid = self._selected_id()
        if qid is None:
            self.notify("no question selected", severity="warning")
            return
        open_question_editor(self.labeler, qid)

    def action_delete(self) -> None:
        app = self.labeler
        qid = self._selected_id()
        q = next((x for x in app.questions if x.id == qid), None)
        if q is None:
            self.notify("no question selected", severity="warning")
            return
        actor = app.annotator

        def confirmed(yes: bool | None) -> None:
            if not yes:
                return

            def job(store: Store) -> None:
                delete_question(store, q.id, actor=actor)

            def done(_: None) -> None:
                self.notify(f"question {q.external_id} deleted (ctrl+z to undo)", title="saved")
                app.changed()

            app.db(job, done, what="delete question")

        self.app.push_screen(
            ConfirmDialog(
                f"Delete question {q.external_id} with every annotator's labels and done marks?"
                if q.team
                else f"Delete question {q.external_id} and its {q.n_gold} element(s)?"
            ),
            confirmed,
        )

    def action_open(self) -> None:
        qid = self._selected_id()
        if qid is None:
            return
        self.labeler.current_query_id = qid
        self.labeler.open_question(qid)

    def action_next_gold_set(self) -> None:
        if not self.sets:
            return
        ids = [g.id for g in self.sets]
        app = self.labeler
        index = ids.index(app.gold_set_id) if app.gold_set_id in ids else -1
        chosen = self.sets[(index + 1) % len(self.sets)]
        app.select_gold_set(chosen.id, chosen.name)
