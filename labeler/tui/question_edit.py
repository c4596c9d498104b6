"""Editing a question (``e``) so that "updated" always means "stored".

Edits used to be lost like this: the dialog was filled from the app's copy of the
questions, which is re-read only after the previous save's job and the reload behind it
ran. An ``e`` pressed before that reload finished opened the dialog on the *old* notes,
and saving it wrote them back over the edit just confirmed as "updated". Now:

* the dialog is filled from a read of the database queued behind every earlier job (the
  job queue is FIFO), so it starts from what was last committed;
* the save stores only the fields the user changed, and refuses (nothing stored, a
  message) when the row no longer holds what the dialog started from, e.g. another
  annotator edited it meanwhile;
* "updated" is said only after a fresh read, in a new transaction after the commit, holds
  exactly what the user saved; anything else is reported as an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.store import QuestionFields, Store, edit_question, question_fields
from labeler.tui.screens.forms import QuestionDialog, QuestionForm

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


def _form(fields: QuestionFields | None) -> QuestionForm | None:
    return None if fields is None else QuestionForm(fields.external_id, fields.text, fields.notes)


def _fields(form: QuestionForm) -> QuestionFields:
    return QuestionFields(form.external_id, form.text, form.notes)


def open_question_editor(app: AppContext, query_id: int) -> None:
    """Open the question dialog for ``query_id`` and store what the user saves."""
    actor = app.annotator

    def load(store: Store) -> QuestionForm | None:
        return _form(question_fields(store, query_id))

    def loaded(initial: QuestionForm | None) -> None:
        if initial is None:
            app.notify("that question no longer exists", severity="warning", timeout=4)
            return

        def save(form: QuestionForm | None) -> None:
            if form is None:
                return
            if form == initial:
                app.notify(f"{initial.external_id}: nothing changed", timeout=3)
                return
            _save(app, query_id, initial, form, actor)

        app.push_screen(QuestionDialog(f"Edit {initial.external_id}", initial), save)

    app.db(load, loaded, what="open question")


def _save(
    app: AppContext, query_id: int, initial: QuestionForm, form: QuestionForm, actor: str
) -> None:
    def job(store: Store) -> QuestionForm:
        stored = edit_question(store, query_id, _fields(initial), _fields(form), actor=actor)
        return QuestionForm(stored.external_id, stored.text, stored.notes)

    def done(stored: QuestionForm) -> None:
        if stored != form:
            app.notify(
                f"{form.external_id}: the database does not hold what was saved",
                title="edit not stored",
                severity="error",
                timeout=10,
            )
        else:
            fields = [
                name
                for name, old, new in (
                    ("id", initial.external_id, form.external_id),
                    ("text", initial.text, form.text),
                    ("notes", initial.notes, form.notes),
                )
                if old != new
            ]
            app.notify(
                f"question {stored.external_id} updated ({', '.join(fields)})",
                title="saved",
                timeout=3,
            )
        app.changed()

    app.db(job, done, what=f"edit {initial.external_id}")
