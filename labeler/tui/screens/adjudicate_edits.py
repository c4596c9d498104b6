"""The adjudicator's edits on the adjudication screen (:mod:`labeler.tui.screens.adjudicate`):
the screen's state and one action per key, each a database job writing one audited change
(``accept_unanimous``: one per span), reported with how to undo it.

Keys: ``a`` accept the highlighted span group (provenance ``adjudicated``, the grade most
of its annotators gave, their key clause when unambiguous: see
:mod:`labeler.store.adjudication`; a key disagreement is accepted without a key and said in
the message), ``U`` accept every unanimous group (``unanimous``, keys alike), ``x`` reject
(an accepted span leaves the final layer; any other is simply not accepted), ``1``-``3``
grade an accepted span, ``w``/``W`` move its end one word out/in, ``e`` store the page
selection as its new boundaries (or accept it, on a group not accepted), ``m`` mark the
question adjudicated (with nothing accepted: "no answer on these pages", confirmed), ``K``
set the accepted span's key clause to the page selection (nothing selected: clear it),
``s`` list the settled questions too (who settled each and when) or hide them again, ``r``
reopen the highlighted settled question (pending again: :func:`labeler.store.reopen_questions`;
ctrl+z settles it again as it was). On a settled question every edit key says what to press
instead (``r``, then the edit, then ``m``): the store's adjudicated lock would refuse it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, TypeVar, cast

from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable

from labeler.store import (
    ElementRow,
    QuestionForAdjudication,
    Reopened,
    SpanGroup,
    Store,
    UnanimousAccepted,
    WaitingQuestion,
    accept_all_unanimous,
    accept_group,
    adjudication_question,
    adjust_span,
    grade_final,
    key_final,
    reject_final,
    reopen_questions,
    settle_question,
)
from labeler.tui import span_marks
from labeler.tui.attach import element_words, gone_as, quote, removed_words
from labeler.tui.pagemap import PageMap
from labeler.tui.screens.forms import ConfirmDialog
from labeler.tui.widgets.page_view import PageView

if TYPE_CHECKING:
    from labeler.tui.context import AppContext

T = TypeVar("T")


def settled_words(w: WaitingQuestion) -> str:
    """Who settled a listed question and when: ``settled by lead 2026-12-02 01:10 UTC``."""
    when = "" if w.settled_at is None else f" {w.settled_at:%Y-%m-%d %H:%M} UTC"
    return f"settled by {w.settled_by}{when}"


def group_key(group: SpanGroup) -> str:
    """The groups table's row key of ``group``."""
    return f"{group.document_id}\t{group.start}\t{group.end}"


def accepted_words(name: str, group: SpanGroup) -> str:
    """What accepting ``group`` into question ``name``'s final layer did, key included:
    ``accepted ana's span 63–105 (policy.html) 'Exceptions…' g1 with key 90–105 'the data
    owner.' into q1's final layer``; a key disagreement is said (the span is accepted without a key)."""
    who = " and ".join(group.annotators) if group.annotators else "the"
    tie = f" [{group.tie_words()}]" if group.tie_words() else ""
    whose = f"{who}'s" if group.annotators else who
    key = group.key
    if key is not None:
        clause = group.text[key[0] - group.start : key[1] - group.start]
        keyed = f" with key {key[0]}–{key[1]} {quote(clause)}"
    elif group.key_conflict():
        keyed = f" without a key ({group.key_conflict_words()}; select the clause and K to set one)"
    else:
        keyed = ""
    return (
        f"accepted {whose} span {group.start}–{group.end} ({group.document_id}) "
        f"{quote(group.text)} g{group.grade}{tie}{keyed} into {name}'s final layer"
    )


class AdjudicationEdits(Screen[None]):
    """The adjudication screen's state and its edits (the display is the subclass's)."""

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
        Binding("K", "key", "Key clause", show=False),
        Binding("s", "toggle_settled", "Show settled", show=False),
        Binding("r", "reopen", "Reopen", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.queue: list[WaitingQuestion] = []
        self.query_id: int | None = None
        self.state: QuestionForAdjudication | None = None
        self.document_id: str | None = None
        self.pages: dict[str, PageMap] = {}
        #: the span the groups cursor moves to on the next redraw (one just written)
        self.follow: tuple[str, int, int] | None = None
        #: the list shows the settled questions too (``s``)
        self.show_settled = False

    @property
    def labeler(self) -> AppContext:
        """The running app, as screens see it (:mod:`labeler.tui.context`)."""
        return cast("AppContext", self.app)

    @property
    def view(self) -> PageView:
        return self.query_one("#adj-page", PageView)

    def selected(self) -> SpanGroup | None:
        """The span group under the groups table's cursor."""
        table = self.query_one("#adj-groups", DataTable)
        if self.state is None or table.row_count == 0 or table.cursor_row < 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((g for g in self.state.spans.groups if group_key(g) == key), None)

    def _waiting(self) -> WaitingQuestion | None:
        """The chosen question's row of the list (None when nothing is listed); a settled
        one when ``s`` lists them."""
        return next((w for w in self.queue if w.query_id == self.query_id), None)

    def _question_name(self) -> str:
        w = self._waiting()
        return w.external_id if w is not None else "the question"

    def _settled_refusal(self, then: str) -> bool:
        """True (and says exactly what to press instead) when the chosen question is
        settled: its evidence is locked until it is reopened, here, with ``r``."""
        w = self._waiting()
        if w is None or not w.settled:
            return False
        self.notify(
            f"{w.external_id} is settled ({settled_words(w)}): press r to reopen it here, "
            f"then {then}, and m to settle it again",
            severity="warning",
            timeout=8,
        )
        return True

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
        if self._settled_refusal("a to accept the span"):
            return
        group, qid, actor = self.selected(), self.query_id, self.labeler.annotator
        if group is None or qid is None or self.state is None:
            self.notify("no span to accept", severity="warning", timeout=3)
            return
        if self.state.final_of(group) is not None:
            self.notify("already accepted", timeout=3)
            return
        name = self._question_name()

        def job(store: Store) -> None:
            # nothing returned: the cursor stays where it is (no ``follow``)
            accept_group(
                store,
                qid,
                group.document_id,
                group.start,
                group.end,
                actor=actor,
                grade=group.grade,
                key=group.key,
            )

        self._write(job, lambda _: f"{accepted_words(name, group)}  ·  ctrl+z: undo", "accept")

    def action_accept_unanimous(self) -> None:
        """Accept every span all done annotators chose."""
        if self._settled_refusal("U to accept the unanimous spans"):
            return
        qid, actor, name = self.query_id, self.labeler.annotator, self._question_name()
        if qid is None:
            self.notify("nothing waits for adjudication", severity="warning", timeout=3)
            return

        def job(store: Store) -> UnanimousAccepted:
            return accept_all_unanimous(store, qid, actor=actor)

        def message(result: UnanimousAccepted) -> str:
            rows, conflicts = result.accepted, result.key_conflicts
            if not rows:
                return f"{name}: no unanimous span left to accept"
            keyed = sum(1 for r in rows if r.key_start is not None)
            keys = f", {keyed} with their key clause" if keyed else ""
            disagree = "".join(
                f"; {g.start}–{g.end} accepted without a key ({g.key_conflict_words()})"
                for g in conflicts
            )
            return (
                f"{name}: accepted {len(rows)} unanimous span(s){keys}{disagree}  ·  ctrl+z "
                "undoes them one at a time"
            )

        self._write(job, message, "accept unanimous")

    def action_reject(self) -> None:
        """Take an accepted span out of the final layer; any other is just not accepted."""
        if self._settled_refusal("x to reject the span"):
            return
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
            with gone_as(element_words(final)):
                reject_final(store, final.id, actor=actor)

        self._write(job, lambda _: removed_words(name, final), "reject")

    def _accepted(self) -> ElementRow | None:
        group = self.selected()
        final = None if group is None or self.state is None else self.state.final_of(group)
        if final is None:
            self.notify("accept the span first (a)", severity="warning", timeout=3)
        return final

    def action_grade(self, grade: int) -> None:
        """Set the grade of the highlighted accepted span."""
        if self._settled_refusal(f"{grade} to grade the accepted span"):
            return
        final = self._accepted()
        if final is None:
            return
        actor, name = self.labeler.annotator, self._question_name()

        def job(store: Store) -> ElementRow:
            with gone_as(element_words(final)):
                return grade_final(store, final.id, grade, actor=actor)

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
            with gone_as(element_words(final)):
                return adjust_span(store, final.id, start, end, actor=actor)

        def message(row: ElementRow) -> str:
            return (
                f"{name}: accepted span now {quote(row.text)} ({row.document_id} "
                f"{row.start}–{row.end}, was {final.start}–{final.end})  ·  ctrl+z: undo"
            )

        self._write(job, message, "adjust")

    def action_adjust_end(self, delta: int) -> None:
        """Move the accepted span's end one word out (``w``) or in (``W``)."""
        if self._settled_refusal("w or W to move the span's end"):
            return
        final = self._accepted()
        page = self.pages.get(final.document_id) if final is not None else None
        if final is None or page is None:
            return
        text = page.stored
        if delta > 0:
            start, end = span_marks.extend(text, final.start, final.end, "word")
        else:
            start, end = span_marks.drop_last_word(text, final.start, final.end)
        self._adjust(final, start, end)

    def action_use_selection(self) -> None:
        """The page selection becomes the highlighted accepted span's boundaries; when the
        group is not accepted, the selection is accepted as a new final span, with the
        group's key clause (:attr:`SpanGroup.key`) when that lies inside the selection."""
        if self._settled_refusal("e to use the page selection"):
            return
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
        key = group.key if group.document_id == document_id else None
        if key is not None and not start <= key[0] < key[1] <= end:
            key = None

        def job(store: Store) -> ElementRow:
            return accept_group(store, qid, document_id, start, end, actor=actor, key=key)

        def message(row: ElementRow) -> str:
            keyed = "" if key is None else f" with key {key[0]}–{key[1]}"
            return (
                f"accepted into {name}'s final layer: {quote(row.text)} "
                f"({row.document_id} {row.start}–{row.end}){keyed}  ·  ctrl+z: undo"
            )

        self._write(job, message, "accept selection")

    def action_key(self) -> None:
        """The page selection (inside the accepted span) becomes its key clause; with
        nothing selected, the key is cleared."""
        if self._settled_refusal("K to set the key clause (select it on the page first)"):
            return
        final = self._accepted()
        if final is None:
            return
        start, end = self.view.offsets
        key: tuple[int | None, int | None] = (None, None) if start == end else (start, end)
        actor, name = self.labeler.annotator, self._question_name()

        def job(store: Store) -> ElementRow:
            with gone_as(element_words(final)):
                return key_final(store, final.id, key[0], key[1], actor=actor)

        def message(row: ElementRow) -> str:
            if row.key_start is None:
                return f"{name}: accepted span {row.start}–{row.end} has no key  ·  ctrl+z: undo"
            return (
                f"{name}: accepted span {row.start}–{row.end} now has key "
                f"{row.key_start}–{row.key_end}  ·  ctrl+z: undo"
            )

        self._write(job, message, "key clause")

    def action_settle(self) -> None:
        """Mark the question adjudicated (confirmed when nothing is accepted)."""
        w = self._waiting()
        if w is not None and w.settled:
            self.notify(
                f"{w.external_id} is settled already ({settled_words(w)}); r reopens it",
                timeout=5,
            )
            return
        qid, state = self.query_id, self.state
        if qid is None or state is None:
            self.notify("nothing waits for adjudication", severity="warning", timeout=3)
            return
        actor, name = self.labeler.annotator, self._question_name()

        def fresh(store: Store) -> QuestionForAdjudication:
            # jobs run in order: this reads after any accept or undo still on its way to
            # the screen, so the choice below is made on what is stored, not what was drawn
            return adjudication_question(store, qid)

        self.labeler.db(fresh, lambda now: self._settle_on(qid, now, actor, name), what="read")

    def _settle_on(self, qid: int, state: QuestionForAdjudication, actor: str, name: str) -> None:
        """Settle ``qid`` as ``state`` shows it (confirmed first when nothing is accepted);
        the core refuses if its final layer changes before the settlement is written."""
        n_final = len(state.final)
        left = sum(1 for g in state.spans.groups if state.final_of(g) is None)

        def job(store: Store) -> None:
            settle_question(store, qid, by=actor, expect_final=n_final)

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

    def action_toggle_settled(self) -> None:
        """List the settled questions too (after the waiting ones), or hide them again."""
        self.show_settled = not self.show_settled
        self.reload()

    def action_reopen(self) -> None:
        """Reopen the highlighted settled question: pending again, back in the queue."""
        w = self._waiting()
        if w is None:
            self.notify("no question selected", severity="warning", timeout=3)
            return
        if not w.settled:
            shown = "" if self.show_settled else " (s lists the settled questions)"
            self.notify(f"{w.external_id} is not settled: nothing to reopen{shown}", timeout=4)
            return
        actor, gold_set, name = self.labeler.annotator, self.labeler.gold_set_name, w.external_id
        few = len(w.done_by) < 2

        def job(store: Store) -> list[Reopened]:
            return reopen_questions(store, gold_set, [name], actor=actor)

        def message(_: list[Reopened]) -> str:
            away = " (fewer than two annotators marked it done: it is listed again once two have)"
            return (
                f"{name} reopened by {actor} (was {settled_words(w)}): pending, left out of "
                "scores until settled again; select a clause and K sets the key, 1-3 grade, "
                f"m settles again{away if few else ''}  ·  ctrl+z: undo (settles it again)"
            )

        self._write(job, message, "reopen")

    def reload(self) -> None:
        """Re-read the list and the chosen question (the display's: the subclass)."""
        raise NotImplementedError

    def action_back(self) -> None:
        self.dismiss()
