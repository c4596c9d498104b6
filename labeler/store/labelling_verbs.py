"""Labelling verbs: one call per change or read of the annotator's workplace.

Each verb takes the :class:`~labeler.store.session.Store` (never a session), opens its own
transaction (``store.write()`` for a change, ``store.session()`` for a read), calls the
session-level functions that hold the rules (the blind view of :mod:`labeler.store.blind`,
the own-layer checks of :mod:`labeler.store.own_layer`, the audited writes of
:mod:`labeler.store.annotate` and :mod:`labeler.store.labels`, undo and redo of
:mod:`labeler.store.history`) and returns what it did. An error raised inside a write rolls
the whole transaction back, so a refused change leaves the database as it was.

The front ends (the TUI first) keep only argument conversion and display.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from sqlmodel import Session

from labeler.errors import NotFoundError, StoreError, UsageError
from labeler.store.annotate import (
    ElementRow,
    GoldSetProgress,
    QuestionRow,
    confirm_snapped,
    delete_query,
    gold_set_progress,
    question_elements,
    set_grade,
    set_key,
    update_query,
)
from labeler.store.audit import LastPlace, last_place
from labeler.store.blind import (
    progress_for,
    questions_for,
    visible_overlaps,
    visible_page_counts,
    visible_page_elements,
    visible_question_elements,
)
from labeler.store.browse import (
    PAGE_SIZE,
    DocumentHit,
    RunChunk,
    RunSummary,
    SearchPage,
    count_documents,
    final_elements_on,
    list_runs,
    page_text,
    run_chunks,
    search_documents,
)
from labeler.store.document_table import document_fingerprint
from labeler.store.history import redo, undo
from labeler.store.labels import add_query, create_gold_set, get_gold_set, remove_element
from labeler.store.models import Query
from labeler.store.own_layer import attach_visible, check_editable
from labeler.store.pageblocks import page_and_blocks
from labeler.store.roles import require_lead
from labeler.store.session import Store

#: the gold set created when the store has none and none was asked for by name
DEFAULT_GOLD_SET = "gold"


# -- start-up ---------------------------------------------------------------------------


@dataclass(frozen=True)
class StartChoice:
    """The gold set a workplace opens, the counts its first screen needs and where to resume."""

    gold_set_id: int
    name: str
    n_docs: int
    runs: list[RunSummary]
    #: the annotator's last question and page, in this gold set (None: start afresh)
    resume_at: LastPlace | None


def choose_start(store: Store, annotator: str, wanted: str | None, resume: bool) -> StartChoice:
    """Choose the gold set to open, creating it when none fits, and the place to resume.

    The gold set is, in order: the one ``annotator`` last labelled in (the audit log knows,
    :func:`labeler.store.audit.last_place`) unless another one was asked for by name
    (``wanted``); the one asked for; the first stored one; else a new one (named as asked,
    or :data:`DEFAULT_GOLD_SET`), created in its own write. The place to resume (with
    ``resume``) is returned only when the gold set chosen is the one it belongs to.
    """
    with store.session() as s:
        sets = gold_set_progress(s)
        n_docs = count_documents(s)
        runs = list_runs(s)
        # Resume where this annotator last labelled, unless a different gold set was asked for.
        place = last_place(s, annotator) if resume else None
    resume_at: LastPlace | None = None
    chosen = next((g for g in sets if g.name == wanted), None) if wanted else None
    if place is not None and (chosen is None or chosen.id == place.gold_set_id):
        chosen = next((g for g in sets if g.id == place.gold_set_id), chosen)
        resume_at = place if chosen is not None and chosen.id == place.gold_set_id else None
    if chosen is None and not wanted and sets:
        chosen = sets[0]
    if chosen is not None:
        return StartChoice(chosen.id, chosen.name, n_docs, runs, resume_at)
    with store.write() as s:
        gs = create_gold_set(s, wanted or DEFAULT_GOLD_SET)
        assert gs.id is not None
        return StartChoice(gs.id, gs.name, n_docs, runs, resume_at)


def gold_set_id_named(store: Store, name: str) -> int | None:
    """The id of the gold set called ``name``; None when there is none."""
    with store.session() as s:
        return next((g.id for g in gold_set_progress(s) if g.name == name), None)


def has_gold_set(store: Store, name: str) -> bool:
    """Whether a gold set called ``name`` is stored."""
    with store.session() as s:
        try:
            get_gold_set(s, name)
        except NotFoundError:
            return False
        return True


def stored_runs(store: Store) -> list[RunSummary]:
    """Every stored run (:func:`labeler.store.browse.list_runs`)."""
    with store.session() as s:
        return list_runs(s)


# -- reads of the annotator's view ------------------------------------------------------


def annotator_questions(store: Store, gold_set_id: int, annotator: str) -> list[QuestionRow]:
    """The questions of ``gold_set_id`` in creation order, with the counts ``annotator``
    may see (their own layer in a team gold set: :func:`labeler.store.blind.questions_for`)."""
    with store.session() as s:
        return questions_for(s, gold_set_id, annotator)


def annotator_progress(store: Store, annotator: str) -> list[GoldSetProgress]:
    """Every gold set's progress as ``annotator`` may see it
    (:func:`labeler.store.blind.progress_for`)."""
    with store.session() as s:
        return progress_for(s, annotator)


def seen_question_elements(store: Store, query_id: int, annotator: str) -> list[ElementRow]:
    """The elements of ``query_id`` that ``annotator`` may see, by page then start
    (:func:`labeler.store.blind.visible_question_elements`)."""
    with store.session() as s:
        return visible_question_elements(s, query_id, annotator)


def seen_page_elements(
    store: Store, document_id: str, annotator: str, gold_set_id: int | None
) -> list[ElementRow]:
    """The elements on ``document_id`` that ``annotator`` may see, of gold set
    ``gold_set_id``'s questions only (:func:`labeler.store.blind.visible_page_elements`;
    None: of every gold set, for a view with no gold set chosen)."""
    with store.session() as s:
        return visible_page_elements(s, document_id, annotator, gold_set_id)


def find_documents(
    store: Store,
    needle: str,
    annotator: str,
    gold_set_id: int | None,
    *,
    offset: int = 0,
    limit: int = PAGE_SIZE,
) -> SearchPage:
    """One page of the stored pages matching ``needle`` (best first, from ``offset`` on;
    empty: every page by id; see :func:`labeler.store.browse.search_documents` for the
    order and the query syntax), each with the number of elements on it that ``annotator``
    may see (blind team labelling) among gold set ``gold_set_id``'s (None: every gold
    set's)."""
    with store.session() as s:
        found = search_documents(s, needle, offset=offset, limit=limit)
        seen = visible_page_counts(s, (h.id for h in found.hits), annotator, gold_set_id)
    hits = [replace(h, elements=seen.get(h.id, 0)) for h in found.hits]
    return replace(found, hits=hits)


@dataclass(frozen=True)
class SearchResult:
    """A page found by :func:`search_pages`, with the elements of the gold set asked for."""

    hit: DocumentHit
    #: (question external id, start, end) of the gold set's final-layer elements on the page
    elements: list[tuple[str, int, int]]


def search_pages(
    store: Store, query: str, *, gold_set: str | None = None, limit: int = PAGE_SIZE
) -> tuple[SearchPage, list[SearchResult]]:
    """The first ``limit`` pages matching ``query`` (as :func:`find_documents` orders them)
    and the search's page (its ``total``, ``exact`` and ``ranked``: how many match in all); with ``gold_set``, each with that set's elements on it (its
    final layer: what it scores). An unknown gold set is :class:`NotFoundError`; an
    empty query or ``limit`` below 1 :class:`UsageError`. Reads only."""
    if not query.strip():
        raise UsageError("the search query is empty (give words to find, or a page id)")
    if limit < 1:
        raise UsageError(f"--limit must be at least 1 (got {limit})")
    with store.session() as s:
        gold_set_id = None if gold_set is None else get_gold_set(s, gold_set).id
        found = search_documents(s, query, limit=limit)
        on_page = (
            {}
            if gold_set_id is None
            else final_elements_on(s, gold_set_id, [h.id for h in found.hits])
        )
    return found, [SearchResult(h, on_page.get(h.id, [])) for h in found.hits]


@dataclass(frozen=True)
class LabellingPage:
    """A stored page as the page view opens it."""

    text: str
    #: the page's block starts (None: ingested before they were stored)
    blocks: list[int] | None
    #: the elements on it the annotator may see
    elements: list[ElementRow]
    #: the page's extraction profile, as stored
    profile: str


def labelling_page(
    store: Store, document_id: str, annotator: str, gold_set_id: int | None
) -> LabellingPage:
    """The page ``document_id`` with its blocks, its profile and the elements on it that
    ``annotator`` may see among gold set ``gold_set_id``'s (see :func:`seen_page_elements`);
    :class:`LookupError` when no such page is stored."""
    with store.session() as s:
        found = page_and_blocks(s, document_id)
        known = document_fingerprint(s, document_id)
        if found is None or known is None:
            raise LookupError(f"no document {document_id!r}")
        rows = visible_page_elements(s, document_id, annotator, gold_set_id)
    text, blocks = found
    return LabellingPage(text, blocks, rows, known.profile)


def page_with_blocks(store: Store, document_id: str) -> tuple[str, list[int] | None] | None:
    """The stored text of ``document_id`` and its block starts; None when not stored."""
    with store.session() as s:
        return page_and_blocks(s, document_id)


@dataclass(frozen=True)
class AssistInputs:
    """What assist mode grades: a run's chunks for a question and the elements to grade
    them against, with the text of every page those elements are on."""

    chunks: list[RunChunk]
    elements: list[ElementRow]
    #: page id → stored text ("" when the page is gone)
    pages: dict[str, str]


def assist_inputs(
    store: Store,
    run_id: int,
    query_id: int,
    external_id: str,
    k: int,
    *,
    annotator: str | None = None,
) -> AssistInputs:
    """The top ``k`` chunks of run ``run_id`` for question ``external_id`` and the elements
    of ``query_id``: all of them, or with ``annotator`` only those they may see (their own
    in a team gold set: assist must not reveal another annotator's spans)."""
    with store.session() as s:
        chunks = run_chunks(s, run_id, external_id).get(external_id, [])[:k]
        elements = (
            question_elements(s, query_id)
            if annotator is None
            else visible_question_elements(s, query_id, annotator)
        )
        pages = {e.document_id: page_text(s, e.document_id) or "" for e in elements}
    return AssistInputs(chunks, elements, pages)


# -- attach, grade, key, remove ---------------------------------------------------------


def _gold_set_of(session: Session, query_id: int) -> int | None:
    """The gold set of question ``query_id`` (None when it is gone): what a page view
    around one question is scoped to."""
    query = session.get(Query, query_id)
    return None if query is None else query.gold_set_id


@dataclass(frozen=True)
class AttachCheck:
    """What stands in the way of attaching a span: the same span already stored for the
    question (None: not stored), and the question's elements it overlaps."""

    duplicate: ElementRow | None
    overlaps: list[ElementRow]


def check_attach(
    store: Store, query_id: int, document_id: str, start: int, end: int, annotator: str
) -> AttachCheck:
    """Look for a duplicate of ``page[start:end]`` and for overlapping elements of
    ``query_id``, within the layer ``annotator`` labels (their own in a team gold set:
    another annotator's label of the same span is no concern of theirs)."""
    with store.session() as s:
        rows = visible_page_elements(s, document_id, annotator, _gold_set_of(s, query_id))
        overlaps = visible_overlaps(s, query_id, document_id, start, end, annotator)
    same = [e for e in rows if (e.query_id, e.start, e.end) == (query_id, start, end)]
    return AttachCheck(same[0] if same else None, overlaps)


@dataclass(frozen=True)
class Attached:
    """An element just attached, and the page's elements as the annotator now sees them."""

    element: ElementRow
    page_elements: list[ElementRow]


def attach_span(
    store: Store,
    query_id: int,
    document_id: str,
    start: int,
    end: int,
    *,
    annotator: str,
    assisted: bool = False,
) -> Attached:
    """Label ``page[start:end]`` for ``query_id`` in the layer ``annotator`` labels (audited
    ``add``; :func:`labeler.store.own_layer.attach_visible` refuses a duplicate and an
    adjudicated team question), then re-read the page's elements in a new transaction.

    Raises :class:`~labeler.errors.NotFoundError` when the question or page is gone and
    :class:`~labeler.errors.IntegrityError` for a refused span; nothing is stored then.
    """
    with store.write() as s:
        row = attach_visible(
            s, query_id, document_id, start, end, annotator=annotator, assisted=assisted
        )
    with store.session() as s:
        seen = visible_page_elements(s, document_id, annotator, _gold_set_of(s, query_id))
        return Attached(row, seen)


def grade_span(store: Store, element_id: int, grade: int, *, actor: str) -> ElementRow:
    """Set the grade of element ``element_id`` (audited): only an element ``actor`` may
    edit (:func:`labeler.store.own_layer.check_editable`: their own in a team gold set, not
    on an adjudicated question). Returns the element as stored now."""
    with store.write() as s:
        check_editable(s, element_id, actor)
        return set_grade(s, element_id, grade, actor=actor)


def key_span(
    store: Store, element_id: int, start: int | None, end: int | None, *, actor: str
) -> ElementRow:
    """Make ``page[start:end]`` the key clause of element ``element_id``, or clear it with
    ``(None, None)`` (audited; :func:`labeler.store.annotate.set_key` checks that the key
    lies inside the element). Returns the element as stored now."""
    with store.write() as s:
        return set_key(s, element_id, start, end, actor=actor)


def confirm_snap(store: Store, element_id: int, *, actor: str) -> ElementRow:
    """Confirm snapped element ``element_id`` (``gold import --snap``): audited under
    ``actor``, who confirmed it (:func:`labeler.store.annotate.confirm_snapped`); only an
    element ``actor`` may edit (:func:`labeler.store.own_layer.check_editable`)."""
    with store.write() as s:
        check_editable(s, element_id, actor)
        return confirm_snapped(s, element_id, actor=actor)


def remove_span(store: Store, element_id: int, *, actor: str) -> None:
    """Remove element ``element_id`` (audited, so undo brings it back): only an element
    ``actor`` may edit (:func:`labeler.store.own_layer.check_editable`)."""
    with store.write() as s:
        check_editable(s, element_id, actor)
        remove_element(s, element_id, actor=actor)


# -- questions --------------------------------------------------------------------------


@dataclass(frozen=True)
class QuestionFields:
    """The fields of a question an annotator edits."""

    external_id: str
    text: str
    notes: str


def _fields(query: Query | None) -> QuestionFields | None:
    return None if query is None else QuestionFields(query.external_id, query.text, query.notes)


def question_fields(store: Store, query_id: int) -> QuestionFields | None:
    """The id, text and notes of question ``query_id`` as last committed; None when gone."""
    with store.session() as s:
        return _fields(s.get(Query, query_id))


@dataclass(frozen=True)
class AddedQuestion:
    """A question just added."""

    id: int
    external_id: str


def add_question(
    store: Store, gold_set: str, external_id: str, text: str, *, actor: str, notes: str = ""
) -> AddedQuestion:
    """Add a question to the gold set called ``gold_set`` (audited). Raises
    :class:`~labeler.errors.NotFoundError` for an unknown gold set and
    :class:`~labeler.errors.IntegrityError` for an empty or taken id."""
    with store.write() as s:
        q = add_query(s, get_gold_set(s, gold_set), external_id, text, actor=actor, notes=notes)
        assert q.id is not None
        return AddedQuestion(q.id, q.external_id)


def edit_question(
    store: Store,
    query_id: int,
    initial: QuestionFields,
    wanted: QuestionFields,
    *,
    actor: str,
) -> QuestionFields:
    """Store the fields of ``wanted`` that differ from ``initial`` (audited), provided the
    row still holds ``initial``; returns what a fresh read after the commit holds.

    Refused, nothing stored: :class:`~labeler.errors.NotFoundError` when the question is
    gone, :class:`~labeler.errors.StoreError` when it no longer holds ``initial`` (edited
    elsewhere meanwhile). :class:`StoreError` too when it vanished after saving.
    """
    with store.write() as s:
        now = _fields(s.get(Query, query_id))
        if now is None:
            raise NotFoundError(f"question {initial.external_id} no longer exists")
        if now != initial:
            raise StoreError(
                f"{initial.external_id} was changed elsewhere while the dialog was open; "
                "nothing stored: press e again to edit what is stored now"
            )
        update_query(
            s,
            query_id,
            actor=actor,
            external_id=wanted.external_id if wanted.external_id != now.external_id else None,
            text=wanted.text if wanted.text != now.text else None,
            notes=wanted.notes if wanted.notes != now.notes else None,
        )
    with store.session() as s:  # a new transaction: what any reader now sees
        stored = _fields(s.get(Query, query_id))
    if stored is None:
        raise StoreError(f"question {initial.external_id} vanished after saving")
    return stored


def delete_question(store: Store, query_id: int, *, actor: str) -> None:
    """Delete question ``query_id`` with its elements (audited, so undo restores it).
    Needs the lead role: it takes every annotator's labels and done marks on it along
    (:class:`~labeler.errors.RoleError` for an annotator, nothing written)."""
    with store.write() as s:
        require_lead(s, actor, "deleting a question")
        delete_query(s, query_id, actor=actor)


# -- undo and redo ----------------------------------------------------------------------


def undo_change(store: Store, *, actor: str) -> str | None:
    """Undo ``actor``'s latest change (:func:`labeler.store.history.undo`); returns what
    was reversed, in words, or None when there was nothing to undo."""
    with store.write() as s:
        result = undo(s, actor=actor)
        return None if result is None else str(result.describe())


def redo_change(store: Store, *, actor: str) -> str | None:
    """Redo ``actor``'s latest undone change (:func:`labeler.store.history.redo`); returns
    what was restored, in words, or None when there was nothing to redo."""
    with store.write() as s:
        result = redo(s, actor=actor)
        return None if result is None else str(result.describe())
