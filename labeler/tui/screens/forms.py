"""Small modal dialogs: the question form and a yes/no confirmation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, TextArea


@dataclass(frozen=True)
class QuestionForm:
    """What the question dialog returns."""

    external_id: str
    text: str
    notes: str


class QuestionDialog(ModalScreen[QuestionForm | None]):
    """Add or edit a question: id, text and notes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "save", "Save", priority=True),
    ]

    def __init__(self, title: str, initial: QuestionForm | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.initial = initial or QuestionForm("", "", "")

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            yield Label("Question id")
            yield Input(self.initial.external_id, placeholder="q1", id="qid")
            yield Label("Question")
            yield Input(self.initial.text, placeholder="Who approves…?", id="qtext")
            yield Label("Notes")
            yield TextArea(self.initial.notes, id="qnotes", soft_wrap=True)
            with Horizontal(classes="buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="save")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#qid", Input).focus()

    def action_save(self) -> None:
        qid = self.query_one("#qid", Input).value.strip()
        text = self.query_one("#qtext", Input).value.strip()
        if not qid or not text:
            self.notify("a question needs an id and a text", severity="warning")
            return
        self.dismiss(QuestionForm(qid, text, self.query_one("#qnotes", TextArea).text))

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
