"""Team labelling in the TUI: an annotator's own state per question, their queue, done marks.

In a team gold set (:mod:`labeler.store.team`) every question row the app holds says where
it stands for the annotator (:func:`team_state`). The queue (``u``) is their next assigned
question they have not marked done and that is not adjudicated; without any assignment to
them, the next such question of the gold set. ``D`` marks the current question done by
them, or removes that mark (audited; ctrl+z undoes it); done with no element of their own
is confirmed first ("no answer on these pages").

Final elements labelled before team work are hidden from every annotator on a question not
adjudicated (:mod:`labeler.store.final_hidden`); the state column counts them, the notes
say what scoring does with them (:func:`final_note`), and the first label or done mark that
makes the question pending says so (:func:`now_pending`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.report import plural
from labeler.store import REOPEN_KEYS, DoneChange, QuestionRow, Store, flip_done
from labeler.tui.screens.forms import ConfirmDialog

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


def team_state(q: QuestionRow) -> str:
    """The question's state for the viewing annotator, e.g. ``assigned · done``,
    ``done: no answer``, ``assigned · to do``, ``adjudicated``; empty outside team work.
    Final elements hidden from them are added: ``not assigned · 3 final (scored)``, or
    ``· 3 final (pending)`` when team work leaves them out of scores until adjudicated
    (:mod:`labeler.store.final_hidden`)."""
    if not q.team:
        return ""
    if q.adjudicated:
        return "adjudicated"
    parts = ["assigned"] if q.assigned else []
    if q.done:
        # labels added after a "no answer" mark: it is done with them
        parts.append("done: no answer" if q.no_answer and not q.n_gold else "done")
    else:
        parts.append("to do" if q.assigned else "not assigned")
    if q.n_final_hidden:
        parts.append(f"{q.n_final_hidden} final ({'pending' if q.pending else 'scored'})")
    return " · ".join(parts)


def final_note(q: QuestionRow) -> str:
    """One sentence on the final elements of ``q`` the annotator does not see (empty when
    there are none): what scoring does with them now and what a label or done mark does.
    True of the adjudication screen: the final layer keeps them and lists them there as
    accepted spans (:func:`labeler.store.adjudication.question_spans`)."""
    if not q.team or q.adjudicated or not q.n_final_hidden:
        return ""
    n = plural(q.n_final_hidden, "final element")
    one = q.n_final_hidden == 1
    them, are = ("it", "is") if one else ("them", "are")
    adjudication = f"(the adjudication screen lists {them} as accepted, to keep or reject)"
    if q.pending:
        return (
            f"{q.external_id} has {n}, hidden here: with team work on it, {them} {are} "
            f"left out of scores until it is adjudicated {adjudication}."
        )
    return (
        f"{q.external_id} has {n} from before team work, hidden here and scored as long as "
        "no one labels it; a label or done mark makes it team work, left out of scores "
        f"until adjudicated {adjudication}."
    )


def now_pending(q: QuestionRow) -> str:
    """What the first label or done mark on ``q`` (as it was before) did to its hidden
    final elements, to add to the message confirming it; empty when nothing changed (no
    such elements, or the question had team work already)."""
    if not q.team or q.adjudicated or q.pending or not q.n_final_hidden:
        return ""
    are = "is" if q.n_final_hidden == 1 else "are"
    return (
        f"{q.external_id} now waits for adjudication and is left out of scores "
        f"(its {plural(q.n_final_hidden, 'final element')} from before team work {are} kept)"
    )


def in_queue(q: QuestionRow, assigned_only: bool) -> bool:
    """True when ``q`` still waits for the annotator: not done by them, not adjudicated,
    and (``assigned_only``) assigned to them."""
    return not q.done and not q.adjudicated and (q.assigned or not assigned_only)


def next_in_queue(questions: tuple[QuestionRow, ...], current: int | None) -> QuestionRow | None:
    """The annotator's next question in a team gold set after ``current`` (wrapping round):
    assigned to them and waiting (:func:`in_queue`); when nothing at all is assigned to
    them, any waiting question. None when nothing waits."""
    ids = [q.id for q in questions]
    here = ids.index(current) if current in ids else -1
    assigned_only = any(q.assigned for q in questions)
    n = len(questions)
    for step in range(1, n + 1):
        q = questions[(here + step) % n]
        if in_queue(q, assigned_only):
            return q
    return None


def queue_left(questions: tuple[QuestionRow, ...]) -> int:
    """How many questions wait in the annotator's queue."""
    assigned_only = any(q.assigned for q in questions)
    return sum(in_queue(q, assigned_only) for q in questions)


def toggle_done_mark(app: AppContext) -> None:
    """``D``: mark the current question done by the annotator (confirming "no answer" when
    they labelled nothing on it), or remove their done mark."""
    q = app.current_question
    if q is None:
        app.notify("no current question", severity="warning", timeout=3)
        return
    if not q.team:
        app.notify(
            "done marks are for team gold sets: assign questions first (labeler gold assign)",
            severity="warning",
            timeout=5,
        )
        return
    if q.adjudicated:
        app.notify(
            f"{q.external_id} is adjudicated already: its done marks are settled; to change "
            f"them, a lead reopens it ({REOPEN_KEYS})",
            severity="warning",
            timeout=6,
        )
        return
    if q.done or q.n_gold:
        _store(app, q)
        return

    def confirmed(yes: bool | None) -> None:
        if yes:
            _store(app, q)
        else:
            app.notify(f"{q.external_id} not marked done", timeout=3)

    app.push_screen(
        ConfirmDialog(
            f"You have no element on {q.external_id}. Mark it done with no answer on these pages?"
        ),
        confirmed,
    )


def _store(app: AppContext, q: QuestionRow) -> None:
    actor = app.annotator

    def job(store: Store) -> DoneChange:
        # refused, naming who, when the mark was flipped meanwhile (another window)
        return flip_done(store, q.id, actor, expect_done=q.done)

    def done(change: DoneChange) -> None:
        if change.marked:
            what = (
                "no answer on these pages"
                if change.no_answer
                else f"{change.elements} element(s) of yours"
            )
            message = f"{change.external_id} marked done by {actor} ({what})"
            pending = now_pending(q)
        else:
            message = f"{change.external_id}: done mark of {actor} removed"
            pending = ""
        app.notify(
            f"{message}  ·  D again or ctrl+z: undo  ·  u: next in your queue"
            + (f"  ·  ⚠ {pending}" if pending else ""),
            title="saved",
            severity="warning" if pending else "information",
            timeout=10 if pending else 5,
        )
        app.changed()

    app.db(job, done, what=f"done mark of {q.external_id}")
