"""``gold import --layer``: a gold JSONL file as one annotator's own labels, all or nothing.

Which parts of the file are the annotator's:

* an element with a ``"layer"`` field (an ``--layer all`` export) counts only when it is in
  the annotator layer and its ``"annotator"`` is the one importing; every other element
  (no ``"layer"``: a plain or ``--layer final`` file, or ``annotator:NAME`` export) counts;
* a question is marked done by the annotator unless the line says ``"done": false`` (their
  labels are then replaced and their done mark removed) or has a ``"done_by"`` list
  without them; a line with such a list and none of their elements (another annotator's
  question in an ``all`` export) is skipped.

Every line is read, checked and its elements anchored in their pages (outside the write
lock) into a staging file (:class:`~labeler.store.goldstage.GoldStage`, a large file by two
processes: :mod:`labeler.gold._halves`), as a plain ``gold import`` does, so memory does not
grow with the file; the labels are then written set-based in one transaction
(:class:`labeler.store.layer_write.LayerWrite`), and a refusal there names the file and
line. On SQLite, when a forked process stages the later two thirds of the file, that
transaction begins as soon as the first third is staged, and writes it while the forked
process works (:data:`EARLY_SHARE`); a refusal met there (the actor's role, a settled
question, a page gone) rolls it back and waits for the whole file to be read, so that the
import reports what it reports when the write begins after staging. A line that cannot be read (broken JSON, a field missing, a query id twice, a stale
element of the annotator's) is reported before an element that cannot be placed on its page
on an earlier line: the file is read whole before a bad element is reported.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from threading import Thread
from typing import TYPE_CHECKING

from labeler.errors import InputError, StoreError
from labeler.formats.gold_jsonl import GoldLine, read_gold
from labeler.gold._transfer import ResolvedQuestion, _always, resolve_lines
from labeler.progress import Progress, no_progress

if TYPE_CHECKING:
    from sqlmodel import Session

    from labeler.gold._halves import Lines
    from labeler.store import Store
    from labeler.store.goldstage import GoldStage
    from labeler.store.layer_write import LayerWrite


@dataclass(frozen=True)
class LayerImport:
    """What a layer import did: the annotator's questions read (``questions``), how many
    were created, elements removed (their earlier labels) and added, questions marked done
    and done with no answer, and lines skipped (not theirs); ``resolved``: the questions with
    an element re-anchored by its text (callers report them), in file order."""

    gold_set: str
    annotator: str
    created_set: bool
    questions: int
    created: int
    removed: int
    added: int
    done: int
    no_answer: int
    skipped: int
    resolved: tuple[ResolvedQuestion, ...]


def own_part(line: GoldLine, annotator: str) -> tuple[GoldLine, bool] | None:
    """``line`` cut to ``annotator``'s elements, and whether they did the question; None when
    the line is not theirs at all (see the module docstring)."""
    kept = tuple(
        e
        for e in line.elements
        if e.layer is None or (e.layer == "annotator" and e.annotator == annotator)
    )
    done = line.done is not False and (line.done_by is None or annotator in line.done_by)
    if not kept and line.done_by is not None and annotator not in line.done_by:
        return None
    if len(kept) == len(line.elements):  # all of it: no copy (one per line adds up)
        return line, done
    return replace(line, elements=kept), done


def import_layer_file(
    store: Store,
    path: str | Path,
    gold_set: str,
    *,
    annotator: str,
    description: str = "",
    actor: str | None = None,
    allow_empty: bool = False,
    progress: Progress = no_progress,
) -> LayerImport:
    """Import ``path`` as ``annotator``'s layer of gold set ``gold_set`` (created when
    missing; made a team gold set). :class:`InputError` naming the line on any problem,
    and naming every adjudicated question whose labels or done mark the file would change
    (the adjudicated lock), the database then unchanged.

    ``actor`` (default: ``annotator``) is who imports: an annotator imports only their own
    layer; another's needs the lead role (:func:`labeler.store.roles.require_self_or_lead`,
    :class:`~labeler.errors.RoleError` before anything is written). The entries are audited
    under ``annotator``, whose labels they are (so their undo works as for labelling).
    ``progress(done, total, "")`` per batch of questions: while they are resolved (``total``
    None: the file is read once, as it comes) and while they are written (``total`` the
    number resolved; none for those written while the forked process stages its lines).

    A file whose every line is skipped (none is ``annotator``'s) would store nothing: that
    raises :class:`InputError` unless ``allow_empty``."""
    from labeler.gold._halves import stage_halves
    from labeler.store.goldstage import GoldStage
    from labeler.store.integrity import check_early
    from labeler.store.layer_plans import LineRefused
    from labeler.store.postgres import text_holds_nul

    if not annotator.strip():
        raise InputError(path, "--layer needs an --annotator name")
    allow_nul = text_holds_nul(store.engine)
    seen: set[str] = set()  # the query ids read here (the forked process's are checked)

    def own_lines(part: Lines, tally: LayerTally) -> Iterator[tuple[GoldLine, bool]]:
        """The annotator's part of each line of ``part`` (skipped ones counted), its
        problems raised as :class:`_Unreadable`."""
        try:
            for line in read_gold(path, allow_nul=allow_nul, part=part, seen=seen):
                own = own_part(line, annotator)
                if own is None:
                    tally.skipped += 1
                    continue
                for i, element in enumerate(own[0].elements):
                    if element.stale:
                        raise InputError(
                            path,
                            f"elements[{i}] is stale: an annotator's own labels must be on the "
                            "page as it is now (re-anchor it first)",
                            line.line,
                        )
                yield own
        except InputError as err:
            raise _Unreadable(err) from None

    def stage_part(
        part: Lines,
        after: Lines,
        stage: GoldStage,
        tally: LayerTally,
        alive: Callable[[], None],
        report: Progress,
    ) -> LayerTally:
        lines = own_lines(part, tally)
        try:
            with store.session() as session:
                _stage_own(lines, path, session, stage, tally, annotator, report, alive)
        except _Unreadable as err:
            raise err.error from None
        except InputError as err:
            # an element not placed: a line after it that cannot be read is reported first
            # (the file is read whole before any element is placed)
            try:
                for _ in lines:
                    pass
                if after is not None:
                    for _ in own_lines(after, LayerTally()):
                        pass
            except _Unreadable as unreadable:
                raise unreadable.error from None
            raise err from None
        return tally

    tally = LayerTally()
    stage = GoldStage()
    child = None
    who = annotator if actor is None else actor
    writing = _Writing(store, gold_set, description, annotator, who)
    # The write begins early on SQLite only: a later line may yet refuse the file, and the
    # write is then rolled back; PostgreSQL's sequences would keep the ids it drew, and the
    # next import's rows would not get the ids they get when nothing was drawn. There the
    # file is cut at the middle, as a plain gold import's is.
    early = store.engine.dialect.name == "sqlite"

    def meanwhile() -> None:
        # the earlier lines are staged and the forked process stages the later ones
        if tally.questions and early:
            with suppress(StoreError):  # the staging file is unusable: its merge says so
                stage.set_aside(seen)  # their memory would add to the write's (taken back)
                writing.early(stage)

    def here(part: Lines, after: Lines) -> LayerTally:
        # the lines here are read once any forked process is started (a fork copies only
        # this thread): the damage check the write would begin with runs meanwhile
        if writing.checking is None:
            writing.checking = check_early(store.file_to_check, store.location)
        return stage_part(part, after, stage, tally, _always, progress)

    try:
        child = stage_halves(
            store,
            path,
            stage,
            seen,
            here,
            lambda part, part_stage, alive: stage_part(
                part, None, part_stage, LayerTally(), alive, no_progress
            ),
            tally.add,
            share=EARLY_SHARE if early else 0.5,
            meanwhile=meanwhile,
        )
        seen.clear()  # not needed for the write: its memory back
        if tally.skipped and not tally.questions and not allow_empty:
            raise InputError(
                path,
                f"nothing to import: {tally.skipped} line(s), none with {annotator}'s labels or "
                f"done mark (each has a 'done_by' list without {annotator} and no element of "
                "their layer); check --annotator (--allow-empty accepts the file anyway)",
            )
        layer = writing.layer or writing.begin()
        try:
            layer.write(stage, lambda written: progress(written, tally.questions, ""))
        except LineRefused as err:
            raise InputError(path, str(err), err.line) from None
        counts = layer.counts
        if counts.settled:
            named = ", ".join(f"{qid} (line {line})" for qid, line in counts.settled)
            ids = " ".join(dict.fromkeys(qid for qid, _ in counts.settled))
            raise InputError(
                path,
                f"refused: {len(counts.settled)} question(s) of the file are adjudicated and "
                f"the file changes {annotator}'s labels or done mark on them: {named}; "
                "their evidence is settled; a lead reopens them first (labeler adjudicate "
                f"--gold-set {gold_set} --reopen {ids}, or on the adjudication screen, F5, "
                "s lists settled questions and r reopens one); nothing was imported",
            )
        writing.commit()
    except BaseException as err:
        writing.roll_back(err)
        raise
    finally:
        if child is not None:
            child.discard()
        stage.close()
    return LayerImport(
        gold_set,
        annotator,
        writing.created_set,
        tally.questions,
        counts.created,
        counts.removed,
        counts.added,
        counts.done,
        counts.no_answer,
        tally.skipped,
        tuple(tally.kept),
    )


#: the part of a large file (in bytes) staged here while a forked process stages the rest.
#: On SQLite the questions staged here are written while that process still stages its
#: lines, so that both processes are busy most of the time: staging a line costs about as
#: much CPU as writing it (32,000 questions: 1.9 s staging in all, 1.4 s writing a new
#: layer, 2.0 s replacing one), and a third here is written about when the forked process
#: is done with the other two.
EARLY_SHARE = 1 / 3


class _Writing:
    """The write transaction of a layer import (see :func:`import_layer_file`): begun once
    the whole file is staged, or early, once its earlier lines are (:meth:`early`)."""

    def __init__(
        self, store: Store, gold_set: str, description: str, annotator: str, actor: str
    ) -> None:
        self.store = store
        self.gold_set = gold_set
        self.description = description
        self.annotator = annotator
        self.actor = actor
        self._open: ExitStack | None = None
        #: the store's damage check, run in a thread while the file is staged (see
        #: :func:`~labeler.store.integrity.check_early`), joined before the write begins
        self.checking: Thread | None = None
        #: the layer being written (None: not begun)
        self.layer: LayerWrite | None = None
        self.created_set = False

    def begin(self) -> LayerWrite:
        """Begin the write: the write lock taken, the actor's right to write the layer
        checked (:class:`~labeler.errors.RoleError`), the gold set made a team one (created
        when missing)."""
        from labeler.store.layer_write import LayerWrite, team_gold_set
        from labeler.store.roles import require_self_or_lead

        if self.checking is not None:
            self.checking.join()  # its check done, the write finds the file checked
        with ExitStack() as opened:
            session = opened.enter_context(self.store.write())
            require_self_or_lead(session, self.actor, self.annotator, "importing a layer")
            gs, self.created_set = team_gold_set(session, self.gold_set, self.description)
            self.layer = LayerWrite(session, gs, annotator=self.annotator)
            self._open = opened.pop_all()
        return self.layer

    def early(self, stage: GoldStage) -> None:
        """Begin the write and write the questions staged so far. An error rolls back what
        this did, silently: the write begins again once the whole file is staged, where the
        same error comes in its place (after a problem of a later line, which goes first)."""
        try:
            self.begin().write(stage)
        except Exception as err:  # raised again, in its place, by the write begun again
            with suppress(Exception):  # err, or the store's error for it
                self.roll_back(err)

    def commit(self) -> None:
        """Commit the write (nothing when not begun)."""
        opened, self._open, self.layer = self._open, None, None
        if opened is not None:
            opened.close()

    def roll_back(self, err: BaseException) -> None:
        """Roll the write back, ``err`` the reason (nothing when not begun); raises the
        store's own error for ``err`` when it makes one (a database error becomes an
        :class:`~labeler.errors.IntegrityError` or :class:`~labeler.errors.StoreError`,
        as it does inside :meth:`~labeler.store.Store.write`)."""
        opened, self._open, self.layer = self._open, None, None
        if opened is not None:
            opened.__exit__(type(err), err, err.__traceback__)


class _Unreadable(Exception):
    """A line that cannot be read (its :class:`InputError` in ``error``), told apart from an
    element that cannot be placed, which a later unreadable line goes before."""

    def __init__(self, error: InputError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass
class LayerTally:
    """What staging some lines of a layer file counted: the annotator's questions, the lines
    skipped (not theirs), and the questions with a re-anchored element, in file order."""

    questions: int = 0
    skipped: int = 0
    kept: list[ResolvedQuestion] = field(default_factory=list)

    def add(self, later: LayerTally) -> None:
        """Add what staging the lines after these tallied."""
        self.questions += later.questions
        self.skipped += later.skipped
        self.kept += later.kept


def _stage_own(
    lines: Iterator[tuple[GoldLine, bool]],
    path: str | Path,
    session: Session,
    stage: GoldStage,
    tally: LayerTally,
    annotator: str,
    progress: Progress,
    alive: Callable[[], None],
) -> None:
    """Resolve the annotator's ``lines`` (each with whether they did the question) against
    the pages ``session`` reads (:func:`resolve_lines`) into ``stage``, a batch at a time,
    counting into ``tally``; ``alive()`` is called before each batch (it raises to stop)."""
    from labeler.store.goldrows import NewElement, NewQuestion
    from labeler.store.goldsets import page_texts
    from labeler.store.goldstage import BATCH
    from labeler.store.models import PROVENANCE_OWN

    def page_of(doc: str) -> str | None:
        return page_texts(session, [doc]).get(doc)

    done: deque[bool] = deque()  # the done flag of the line being resolved

    def parsed() -> Iterator[GoldLine]:
        for line, did in lines:
            done.append(did)
            yield line

    batch: list[NewQuestion] = []
    for q in resolve_lines(parsed(), path, page_of):
        tally.questions += 1
        if any(e.reanchored for e in q.elements):
            tally.kept.append(q)
        batch.append(
            NewQuestion(
                q.query_id,
                q.query,
                q.notes or "",
                tuple(
                    NewElement(
                        e.doc,
                        e.start,
                        e.end,
                        e.text,
                        e.grade,
                        annotator,
                        key=e.key,
                        provenance=PROVENANCE_OWN,
                        assisted=e.assisted,
                    )
                    for e in q.elements
                ),
                line=q.line,
                done=done.popleft(),
            )
        )
        if len(batch) >= BATCH:
            alive()
            stage.add(batch)
            batch = []
        if tally.questions % 100 == 0:
            progress(tally.questions, None, "")
    stage.add(batch)
