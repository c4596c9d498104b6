"""Gold set import and export orchestration (JSONL v1), independent of the UI.

Import is all-or-nothing: every line is parsed and every element anchored in its page
before anything is written, so a bad line leaves the database as it was. An element's key
span moves with it when it is re-anchored by its text. A stale element
(``"status": "stale"``) is stored stale as written: its offsets and text are what was
labelled on its page as it was then, so they are not anchored (its page must exist).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from dataclasses import replace as replace_summary
from pathlib import Path
from typing import TYPE_CHECKING

from labeler.anchoring import AnchorFailure, anchor
from labeler.errors import InputError
from labeler.formats.gold_jsonl import GoldElementLine, GoldLine, read_gold
from labeler.gold._snapping import SnapMiss, SnapOptions, review_note, snap_text
from labeler.progress import Progress, counted, no_progress

PROVENANCE_SINGLE = "single"
PROVENANCE_SNAPPED = "snapped"

if TYPE_CHECKING:
    from sqlmodel import Session

    from labeler.store import Store
    from labeler.store.goldrows import NewQuestion
    from labeler.store.goldsets import Dropped
    from labeler.store.goldstage import GoldStage


@dataclass(frozen=True)
class ResolvedElement:
    """An element placed in its page: ``text == page[start:end]`` holds unless ``stale``."""

    doc: str
    start: int
    end: int
    text: str
    grade: int
    reanchored: bool
    repeated: bool
    stale: bool = False
    #: key span, page offsets inside ``[start, end)``
    key: tuple[int, int] | None = None
    provenance: str | None = None
    annotator: str | None = None
    assisted: bool = False
    #: the alignment score of an element snapped onto its page (``--snap``), else None
    snap_score: float | None = None


@dataclass(frozen=True)
class ResolvedQuestion:
    line: int
    query_id: str
    query: str
    notes: str | None
    elements: tuple[ResolvedElement, ...]
    adjudicated: bool | None = None
    #: not-relevant judgements, checked against their pages: (doc, start, end, annotator)
    not_relevant: tuple[tuple[str, int, int, str | None], ...] = ()


@dataclass(frozen=True)
class ResolveSummary:
    """Counts of an import; ``removed`` what a replaced set lost (``--force``): elements,
    questions, notes, done marks, assignments, adjudication marks."""

    questions: int
    elements: int
    reanchored: int
    repeated: int
    stale: int = 0
    removed: tuple[Dropped, ...] = ()
    #: annotator-layer elements of the file a plain import left out (an ``--layer all``
    #: export read as a gold set: only its final layer is imported)
    layer_left_out: int = 0
    #: questions the file marks ``"adjudicated": false`` (pending where they came from)
    not_adjudicated: int = 0
    #: elements snapped onto their page (``--snap``) and the lowest score among them
    snapped: int = 0
    lowest_snap: float | None = None
    #: element texts below the snap minimum, left for review (``--snap-review``)
    review: tuple[SnapMiss, ...] = ()


def resolve_gold(
    path: str | Path,
    page_of: Callable[[str], str | None],
    *,
    allow_nul: bool = True,
    progress: Progress = no_progress,
    snap: SnapOptions | None = None,
    fmt: str = "jsonl",
) -> tuple[list[ResolvedQuestion], ResolveSummary]:
    """Parse ``path`` and anchor each element in ``page_of(doc)``'s text (``allow_nul``: see
    :func:`~labeler.formats.gold_jsonl.read_gold`).

    ``page_of`` returns a document's stored text, or None when no such document exists.
    Elements with offsets are checked against the page and re-anchored by text when they do
    not match; elements without offsets take the text's first occurrence; stale elements
    are kept as written. With ``snap``, a text not on its page is snapped onto it
    (:mod:`labeler.gold._snapping`). ``fmt``: ``jsonl`` (gold JSONL) or ``ragas``
    (:func:`labeler.formats.ragas.read_ragas`). Raises
    :class:`InputError` naming the line on an unknown document or a text not on its page
    (with ``snap``: every line whose text is below the snap minimum, unless ``review``).
    ``progress(questions_resolved, questions, "")`` as the read lines are resolved.
    """
    if fmt == "ragas":  # Ragas samples: reference contexts on the pages their ids name
        from labeler.formats.ragas import read_ragas

        lines = list(read_ragas(path, allow_nul=allow_nul))
    else:
        lines = list(read_gold(path, allow_nul=allow_nul))
    final = [final_layer(line) for line in lines]
    misses: list[SnapMiss] = []
    questions = list(
        resolve_lines(
            counted(final, progress, len(final), every=100), path, page_of, snap=snap, misses=misses
        )
    )
    if misses and (snap is None or not snap.review):
        raise _below_snap_minimum(path, misses, snap)
    snapped = [e.snap_score for q in questions for e in q.elements if e.snap_score is not None]
    return questions, summarize(
        questions,
        layer_left_out=sum(
            len(a.elements) - len(b.elements) for a, b in zip(lines, final, strict=True)
        ),
        not_adjudicated=sum(line.adjudicated is False for line in lines),
        snapped=len(snapped),
        lowest_snap=min(snapped, default=None),
        review=tuple(misses),
    )


def final_layer(line: GoldLine) -> GoldLine:
    """``line`` without its annotator-layer elements and judgements (a gold set is its
    final layer)."""
    kept = tuple(e for e in line.elements if e.layer != "annotator")
    judged = tuple(j for j in line.not_relevant if j.layer != "annotator")
    if len(kept) == len(line.elements) and len(judged) == len(line.not_relevant):
        return line
    return replace_summary(line, elements=kept, not_relevant=judged)


def summarize(
    questions: list[ResolvedQuestion],
    *,
    layer_left_out: int = 0,
    not_adjudicated: int = 0,
    snapped: int = 0,
    lowest_snap: float | None = None,
    review: tuple[SnapMiss, ...] = (),
) -> ResolveSummary:
    """The counts of resolved ``questions``."""
    elements = [e for q in questions for e in q.elements]
    return ResolveSummary(
        questions=len(questions),
        elements=len(elements),
        reanchored=sum(e.reanchored for e in elements),
        repeated=sum(e.repeated for e in elements),
        stale=sum(e.stale for e in elements),
        layer_left_out=layer_left_out,
        not_adjudicated=not_adjudicated,
        snapped=snapped,
        lowest_snap=lowest_snap,
        review=review,
    )


def resolve_lines(
    lines: Iterable[GoldLine],
    path: str | Path,
    page_of: Callable[[str], str | None],
    *,
    snap: SnapOptions | None = None,
    misses: list[SnapMiss] | None = None,
) -> Iterator[ResolvedQuestion]:
    """Anchor the elements of parsed ``lines`` (see :func:`resolve_gold`).

    Refused with :class:`InputError` naming the line, before anything is written: the same
    span twice for one question (by offsets, by text anchored onto the same span, or as two
    stale copies; the store's unique index would refuse it without naming the line), and a
    key clause that re-anchoring moved outside its element (the key moves with the
    element's start, so an element whose file offsets do not span its text can carry its
    key out: :func:`labeler.store.validation.key_problem`, the schema's ``ck_element_key``).
    With ``snap``, an element text not on its page is snapped onto it
    (:mod:`labeler.gold._snapping`); one below the minimum is appended to ``misses`` and
    left out (its text goes into the question's notes, for review).
    """
    from labeler.store.validation import key_problem

    cache = PageCache(page_of)
    for line in lines:
        placed = []
        missed: list[SnapMiss] = []
        # The store holds one element per question, page and span: say so by line here
        # rather than let the all-or-nothing write fail on the unique index.
        seen: dict[tuple[str, int, int], int] = {}
        for i, element in enumerate(line.elements):
            page = cache.get(element.doc)
            if page is None:
                raise InputError(
                    path, f"elements[{i}]: unknown document {element.doc!r}", line.line
                )
            if element.stale and element.start is not None and element.end is not None:
                _refuse_repeat(seen, element.doc, element.start, element.end, i, line, path)
                placed.append(
                    ResolvedElement(
                        element.doc,
                        element.start,
                        element.end,
                        element.text,
                        element.grade,
                        reanchored=False,
                        repeated=False,
                        stale=True,
                        key=element.key,
                        provenance=element.provenance,
                        annotator=element.annotator,
                        assisted=bool(element.assisted),
                    )
                )
                continue
            try:
                a = anchor(page, element.text, element.start, element.end)
            except AnchorFailure as err:
                if snap is None:
                    raise InputError(
                        path, f"elements[{i}] in {element.doc!r}: {err}", line.line
                    ) from None
                done = _snapped(page, element, snap, i, line, path)
                if done is None:
                    missed.append(SnapMiss(line.line, i, element.doc, element.text))
                else:
                    _refuse_repeat(seen, element.doc, done.start, done.end, i, line, path)
                    placed.append(done)
                continue
            _refuse_repeat(seen, element.doc, a.start, a.end, i, line, path)
            key = element.key
            if key is not None and element.start is not None:
                shift = a.start - element.start  # re-anchored by text: the key moves too
                key = (key[0] + shift, key[1] + shift)
                problem = key_problem(a.start, a.end, *key)
                if problem is not None:
                    raise InputError(
                        path,
                        f"elements[{i}] in {element.doc!r}: re-anchored by its text to "
                        f"{a.start}-{a.end}, its key moves to {key[0]}-{key[1]}, outside "
                        "the element (fix the element's offsets or its key)",
                        line.line,
                    )
            placed.append(
                ResolvedElement(
                    doc=element.doc,
                    start=a.start,
                    end=a.end,
                    text=element.text,
                    grade=element.grade,
                    reanchored=element.start is not None and a.how == "text",
                    repeated=a.repeated,
                    key=key,
                    provenance=element.provenance,
                    annotator=element.annotator,
                    assisted=bool(element.assisted),
                )
            )
        notes = line.notes
        if missed:
            notes = review_note(notes, missed)
            if misses is not None:
                misses.extend(missed)
        yield ResolvedQuestion(
            line.line,
            line.query_id,
            line.query,
            notes,
            tuple(placed),
            line.adjudicated,
            _resolve_judged(line, path, cache),
        )


class PageCache:
    """``page_of`` with the pages it returned kept while they total at most ``budget``
    characters, the least recently used dropped first: a gold file citing more pages than
    fit reads some again rather than holding every page of the database."""

    def __init__(self, page_of: Callable[[str], str | None], budget: int = 64 << 20) -> None:
        self._page_of = page_of
        self._budget = budget
        self._size = 0
        self._pages: OrderedDict[str, str | None] = OrderedDict()

    def get(self, doc: str) -> str | None:
        """The text of page ``doc`` (None: no such page)."""
        if doc in self._pages:
            self._pages.move_to_end(doc)
            return self._pages[doc]
        page = self._page_of(doc)
        self._pages[doc] = page
        self._size += len(page or "")
        while self._size > self._budget and len(self._pages) > 1:
            _, dropped = self._pages.popitem(last=False)
            self._size -= len(dropped or "")
        return page


def _snapped(
    page: str, element: GoldElementLine, snap: SnapOptions, i: int, line: GoldLine, path: str | Path
) -> ResolvedElement | None:
    """``element`` snapped onto ``page`` (provenance ``snapped``), or None below the minimum."""
    found = snap_text(page, element.text, snap)
    if found is None:
        return None
    if element.key is not None:
        raise InputError(
            path,
            f"elements[{i}] in {element.doc!r}: its text is not on the page and it has a key "
            "clause, which cannot follow a snapped element (label the key on the page)",
            line.line,
        )
    return ResolvedElement(
        doc=element.doc,
        start=found.start,
        end=found.end,
        text=page[found.start : found.end],
        grade=element.grade,
        reanchored=True,
        repeated=False,
        provenance=PROVENANCE_SNAPPED,
        annotator=element.annotator,
        assisted=bool(element.assisted),
        snap_score=found.score,
    )


def _resolve_judged(
    line: GoldLine,
    path: str | Path,
    cache: PageCache,
) -> tuple[tuple[str, int, int, str | None], ...]:
    """The line's ``judged_not_relevant`` regions, each on a stored page and inside its
    text, none twice for the same annotator; :class:`InputError` naming the line."""
    out: list[tuple[str, int, int, str | None]] = []
    seen: dict[tuple[str, int, int, str | None], int] = {}
    for i, j in enumerate(line.not_relevant):
        page = cache.get(j.doc)
        where = f"judged_not_relevant[{i}]"
        if page is None:
            raise InputError(path, f"{where}: unknown document {j.doc!r}", line.line)
        if j.end > len(page):
            raise InputError(
                path,
                f"{where}: {j.doc} {j.start}-{j.end} ends past the page's text "
                f"({len(page)} characters)",
                line.line,
            )
        first = seen.setdefault((j.doc, j.start, j.end, j.annotator), i)
        if first != i:
            raise InputError(
                path,
                f"{where} repeats judged_not_relevant[{first}]: {j.doc} {j.start}-{j.end} "
                f"twice for question {line.query_id!r}",
                line.line,
            )
        out.append((j.doc, j.start, j.end, j.annotator))
    return tuple(out)


def _refuse_repeat(
    seen: dict[tuple[str, int, int], int],
    doc: str,
    start: int,
    end: int,
    index: int,
    line: GoldLine,
    path: str | Path,
) -> None:
    """Record element ``index`` of ``line`` at ``doc`` ``[start, end)``; :class:`InputError`
    naming the line when an earlier element of the line holds that span already."""
    first = seen.setdefault((doc, start, end), index)
    if first != index:
        raise InputError(
            path,
            f"elements[{index}] repeats elements[{first}]: {doc} "
            f"{start}–{end} twice for question {line.query_id!r}",
            line.line,
        )


def import_gold_file(
    store: Store,
    path: str | Path,
    gold_set: str,
    *,
    annotator: str,
    description: str = "",
    replace: bool = False,
    force: bool = False,
    hint: str = "",
    keep: bool = True,
    progress: Progress = no_progress,
    snap: SnapOptions | None = None,
    fmt: str = "jsonl",
) -> tuple[list[ResolvedQuestion], ResolveSummary]:
    """Import gold JSONL ``path`` into gold set ``gold_set``, all or nothing.

    Every line is read, checked and its elements resolved against the stored pages
    (:func:`resolve_lines`, outside the write lock) into a staging file
    (:class:`~labeler.store.goldstage.GoldStage`), so memory does not grow with the file;
    only then is the set written, in one transaction. ``replace`` overwrites an existing
    set of that name (otherwise that is an :class:`~labeler.errors.IntegrityError`); when
    that would remove anything the file does not hold (an element of either layer, a
    question, notes, a done mark, an assignment, an adjudication mark: see
    :func:`~labeler.store.goldsets.replace_losses`),
    :class:`~labeler.store.goldsets.DropRefused` is raised (with ``hint`` appended to its
    message) and nothing is written, unless ``force`` (then the summary's ``removed``
    lists them).

    Returns the resolved questions (with ``keep`` false only those with a re-anchored or
    repeated element, which callers report: memory then stays bounded by those) and the
    summary. ``progress(done, total, "")`` is called per batch of questions: while they are
    resolved (``total`` None: the file is read once, as it comes) and while they are written
    (``total`` the number resolved). ``snap`` and ``fmt``: see :func:`resolve_gold`.
    """
    from labeler.gold._halves import Lines, stage_halves
    from labeler.store.goldsets import import_gold_set
    from labeler.store.goldstage import GoldStage
    from labeler.store.postgres import text_holds_nul

    allow_nul = text_holds_nul(store.engine)
    seen: set[str] = set()  # the query ids read here (the forked process's are checked)

    def read(part: Lines) -> Iterable[GoldLine]:
        if fmt == "ragas":  # Ragas samples: reference contexts on their pages
            from labeler.formats.ragas import read_ragas

            return read_ragas(path, allow_nul=allow_nul)
        return read_gold(path, allow_nul=allow_nul, part=part, seen=seen)

    def stage_part(
        part: Lines,
        stage: GoldStage,
        tally: Tally,
        alive: Callable[[], None],
        report: Progress,
    ) -> Tally:
        with store.session() as session:
            _stage_lines(
                read(part), path, session, stage, tally, annotator, snap, keep, report, alive
            )
        return tally

    tally = Tally()
    stage = GoldStage()
    child = None
    try:
        child = stage_halves(
            store,
            path,
            stage,
            seen,
            lambda part, _: stage_part(part, stage, tally, _always, progress),
            lambda part, part_stage, alive: stage_part(
                part, part_stage, Tally(), alive, no_progress
            ),
            tally.add,
            split=fmt == "jsonl",
        )
        seen.clear()  # not needed for the write: its memory back (and nothing for gc to walk)
        if tally.misses and (snap is None or not snap.review):
            raise _below_snap_minimum(path, tally.misses, snap)
        with store.write() as session:
            removed = import_gold_set(
                session,
                gold_set,
                stage,
                actor=annotator,
                description=description,
                replace=replace,
                force=force,
                hint=hint,
                progress=lambda written: progress(written, tally.counts["questions"], ""),
            )
    finally:
        if child is not None:
            child.discard()
        stage.close()
    return tally.kept, ResolveSummary(
        **tally.counts,
        **tally.other,
        removed=removed,
        snapped=len(tally.snapped),
        lowest_snap=min(tally.snapped, default=None),
        review=tuple(tally.misses),
    )


def _always() -> None:
    """The staging process runs on (it is not a forked one whose parent may be gone)."""


@dataclass
class Tally:
    """What staging some gold lines counted (see :class:`ResolveSummary`), the snap scores
    and misses, and the questions kept for the caller, in file order."""

    counts: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(
            ("questions", "elements", "reanchored", "repeated", "stale"), 0
        )
    )
    other: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(("layer_left_out", "not_adjudicated"), 0)
    )
    misses: list[SnapMiss] = field(default_factory=list)
    snapped: list[float] = field(default_factory=list)
    kept: list[ResolvedQuestion] = field(default_factory=list)

    def add(self, later: Tally) -> None:
        """Add what staging the lines after these tallied."""
        for mine, theirs in ((self.counts, later.counts), (self.other, later.other)):
            for name, count in theirs.items():
                mine[name] += count
        self.misses += later.misses
        self.snapped += later.snapped
        self.kept += later.kept


def _stage_lines(
    lines: Iterable[GoldLine],
    path: str | Path,
    session: Session,
    stage: GoldStage,
    tally: Tally,
    annotator: str,
    snap: SnapOptions | None,
    keep: bool,
    progress: Progress,
    alive: Callable[[], None],
) -> None:
    """Resolve the final layer of ``lines`` against the pages ``session`` reads
    (:func:`resolve_lines`) into ``stage``, a batch at a time, counting into ``tally``
    (``keep``: see :func:`import_gold_file`); ``alive()`` is called before each batch (it
    raises to stop)."""
    from labeler.store.goldsets import page_texts
    from labeler.store.goldstage import BATCH

    def page_of(doc: str) -> str | None:
        return page_texts(session, [doc]).get(doc)

    counts, other = tally.counts, tally.other

    def finals() -> Iterator[GoldLine]:
        for line in lines:
            final = final_layer(line)
            other["layer_left_out"] += len(line.elements) - len(final.elements)
            other["not_adjudicated"] += line.adjudicated is False
            yield final

    batch: list[NewQuestion] = []
    for q in resolve_lines(finals(), path, page_of, snap=snap, misses=tally.misses):
        counts["questions"] += 1
        counts["elements"] += len(q.elements)
        flagged = False
        for e in q.elements:
            counts["reanchored"] += e.reanchored
            counts["repeated"] += e.repeated
            counts["stale"] += e.stale
            flagged = flagged or e.reanchored or e.repeated
            if e.snap_score is not None:
                tally.snapped.append(e.snap_score)
        if keep or flagged:
            tally.kept.append(q)
        batch.append(_new_question(q, annotator))
        if len(batch) >= BATCH:
            alive()
            stage.add(batch)
            batch = []
        if counts["questions"] % 100 == 0:
            progress(counts["questions"], None, "")
    stage.add(batch)


def _below_snap_minimum(
    path: str | Path, misses: Sequence[SnapMiss], snap: SnapOptions | None
) -> InputError:
    """The refusal of element texts below the snap minimum (the first 20 named)."""
    shown = "; ".join(map(str, misses[:20])) + ("; ..." if len(misses) > 20 else "")
    return InputError(
        path,
        f"{len(misses)} element text(s) not on their page and below the snap minimum "
        f"{snap.min_score if snap else ''} ({shown}); import them as questions to label "
        "with --snap-review, or lower --snap-min",
        misses[0].line,
    )


def _new_question(q: ResolvedQuestion, annotator: str) -> NewQuestion:
    from labeler.store.goldrows import NewElement, NewJudgement, NewQuestion

    return NewQuestion(
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
                _who(e, annotator),
                e.stale,
                key=e.key,
                provenance=e.provenance or PROVENANCE_SINGLE,
                assisted=e.assisted,
                snap_score=e.snap_score,
            )
            for e in q.elements
        ),
        tuple(NewJudgement(d, a, b, who or annotator) for d, a, b, who in q.not_relevant),
    )


def _who(element: ResolvedElement, importer: str) -> str:
    """Who an imported final element is by: the importer, except for an element the file
    says was made final by someone (provenance other than ``single``, with an annotator)."""
    if element.provenance not in (None, PROVENANCE_SINGLE) and element.annotator:
        return element.annotator
    return importer
