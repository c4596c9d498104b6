"""Small modal dialogs: the question form and a yes/no confirmation."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, TextArea

from labeler.errors import LabelerError
from labeler.tui.key_hold import KeysReady

if TYPE_CHECKING:
    from labeler.store import Store
    from labeler.tui.context import AppContext


@dataclass(frozen=True)
class QuestionForm:
    """What the question dialog returns."""

    external_id: str
    text: str
    notes: str


class QuestionDialog(ModalScreen[QuestionForm | None]):
    """Add or edit a question: id, text and notes.

    What is missing (an empty id: the grey placeholder is an example, not a value) is said
    inside the dialog. With ``store``, saving runs ``store(database, form)`` as a database
    job first and closes only when it succeeded, handing its result to ``stored``; a refusal
    (a duplicate id, say) is shown in the dialog, which stays open with what was typed.

    Every key typed is kept, however fast. The app hands each key to the widget focused
    when the app reads it, into that widget's own queue; a ``tab`` read by the id field
    after the keys behind it had been handed to the same field moved the focus too late,
    and the question's text went into the id. ``tab``/``shift+tab`` are therefore priority
    keys here (the focus moves the moment the app reads them, so the keys after them go to
    the next field), and saving (``ctrl+s``, also a priority key, and ``enter``) waits
    until every field has taken the keys already handed to it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
    ]
    DEFAULT_CSS = """
    QuestionDialog .dialog-error { color: $error; text-style: bold; }
    """

    def __init__(
        self,
        title: str,
        initial: QuestionForm | None = None,
        *,
        store: Callable[[Store, QuestionForm], Any] | None = None,
        stored: Callable[[Any], None] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.initial = initial or QuestionForm("", "", "")
        self.store_form = store
        self.stored = stored
        self.saving = False
        #: the id field has the focus (labeler.tui.key_hold.TakesEarlyKeys)
        self.keys_ready = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Label("Question id")
            yield Input(self.initial.external_id, placeholder="q1", id="qid")
            yield Label("Question")
            yield Input(self.initial.text, placeholder="Who approves…?", id="qtext")
            yield Label("Notes")
            yield TextArea(self.initial.notes, id="qnotes", soft_wrap=True)
            yield Label("", id="qerror", classes="dialog-error")
            with Horizontal(classes="buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="save")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#qerror", Label).display = False
        self.query_one("#qid", Input).focus()
        # the keys typed while the dialog opened come now, to the id (labeler.tui.key_hold);
        # the focus is set from the app's queue, ahead of this message
        self.keys_ready = True
        self.app.post_message(KeysReady())

    def error(self, message: str) -> None:
        """Say what is wrong inside the dialog (empty to clear)."""
        label = self.query_one("#qerror", Label)
        label.update(message)
        label.display = bool(message)

    def action_save(self) -> None:
        """Save once each field has taken the keys typed before this one (see the class)."""
        fields = [self.query_one("#qid"), self.query_one("#qtext"), self.query_one("#qnotes")]

        def after(index: int) -> None:
            if index == len(fields):
                self._save()
            else:  # runs after every message already in that field's queue
                fields[index].call_later(after, index + 1)

        after(0)

    def _save(self) -> None:
        qid = self.query_one("#qid", Input).value.strip()
        text = self.query_one("#qtext", Input).value.strip()
        if not qid:
            self.error("type an id for the question (the grey q1 is only an example)")
            self.query_one("#qid", Input).focus()
            return
        if not text:
            self.error("type the question's text")
            self.query_one("#qtext", Input).focus()
            return
        form = QuestionForm(qid, text, self.query_one("#qnotes", TextArea).text)
        if self.store_form is None:
            self.dismiss(form)
            return
        if self.saving:
            return  # one save at a time: a second ctrl+s must not add it twice
        self.saving = True
        self.error("saving…")
        store_form = self.store_form

        def job(database: Store) -> tuple[bool, Any]:
            try:
                return True, store_form(database, form)
            except LabelerError as err:  # refused: say so here, keep what was typed
                return False, str(err)

        def done(outcome: tuple[bool, Any]) -> None:
            self.saving = False
            ok, value = outcome
            if not ok:
                self.error(str(value))
                return
            self.dismiss(form)
            if self.stored is not None:
                self.stored(value)

        cast("AppContext", self.app).db(job, done, what="save question")

    def action_cancel(self) -> None:
        self.dismiss(None)

    def on_input_submitted(self) -> None:
        self.action_save()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.action_save()
        else:
            self.action_cancel()


class ConfirmDialog(ModalScreen[bool]):
    """Ask a yes/no question (y / n / escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question, classes="dialog-question")
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", variant="error", id="yes")
                yield Button("No (n)", id="no")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")
