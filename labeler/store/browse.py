"""Finding pages and reading runs: the look-ups behind the TUI's documents and scores views."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, case, func
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, or_, select

from labeler.store.models import Document, Element, GoldSet, Query, Run, RunResult

SNIPPET_BEFORE = 30
SNIPPET_LENGTH = 90


@dataclass(frozen=True)
class DocumentHit:
    """A page found by id or text, with where the text matched (-1: matched by id only)."""

    id: str
    length: int
    elements: int
    position: int
    snippet: str


def search_documents(session: Session, needle: str = "", *, limit: int = 500) -> list[DocumentHit]:
    """Pages whose id or text contains ``needle`` (case-insensitive for ASCII), best first.

    Ranked by how the page matched, then by id: the id is ``needle`` (or ends in
    ``/needle``), the id starts with it, the id contains it, only the text contains it.
    An empty ``needle`` lists every page by id. The snippet is cut around the first text match,
    in SQL, so page texts never leave the database.
    """
    folded = needle.lower()
    position = func.instr(func.lower(Document.text), folded) if folded else func.abs(0)
    counts = (
        select(Element.document_id, func.count().label("n"))
        .group_by(col(Element.document_id))
        .subquery()
    )
    start = func.max(position - SNIPPET_BEFORE, 1)
    rank: ColumnElement[Any] = func.abs(0)
    if folded:
        # substr/length comparisons instead of LIKE: a needle's % and _ stay literal.
        lid, n = func.lower(Document.id), len(folded)
        tail = func.substr(lid, func.length(lid) - n)
        rank = case(
            (or_(lid == folded, tail == "/" + folded), 0),
            (func.substr(lid, 1, n) == folded, 1),
            (func.instr(lid, folded) > 0, 2),
            else_=3,
        )
    # Five columns: SQLModel's typed select() stops at four, so use SQLAlchemy Core here.
    stmt = (
        sa_select(
            col(Document.id),
            func.length(Document.text),
            func.coalesce(counts.c.n, 0),
            position,
            func.substr(Document.text, start, SNIPPET_LENGTH),
        )
        .outerjoin(counts, counts.c.document_id == Document.id)
        .order_by(rank, col(Document.id))
        .limit(limit)
    )
    if folded:
        stmt = stmt.where(or_(func.lower(Document.id).contains(folded), position > 0))
    hits: list[DocumentHit] = []
    for doc_id, length, n, pos, snippet in session.connection().execute(stmt).all():
        text = " ".join(str(snippet or "").split()) if not folded or pos else ""
        hits.append(DocumentHit(doc_id, int(length), int(n), int(pos) - 1, text))
    return hits


def page_text(session: Session, document_id: str) -> str | None:
    """The stored text of one page, or None when it is not in the database."""
    return session.exec(select(Document.text).where(Document.id == document_id)).first()


def count_documents(session: Session) -> int:
    """How many pages are stored."""
    return int(session.exec(select(func.count()).select_from(Document)).one())


@dataclass(frozen=True)
class RunSummary:
    """A stored run without its results."""

    id: int
    name: str
    source_file: str
    questions: int
    results: int
    parameters: dict[str, Any]


def list_runs(session: Session) -> list[RunSummary]:
    """Every stored run, by name, with question and result counts."""
    counts = {
        run_id: (int(q), int(r))
        for run_id, q, r in session.exec(
            select(
                RunResult.run_id,
                func.count(func.distinct(RunResult.query_external_id)),
                func.count(),
            ).group_by(col(RunResult.run_id))
        ).all()
    }
    out: list[RunSummary] = []
    for run in session.exec(select(Run).order_by(col(Run.name))).all():
        assert run.id is not None
        q, r = counts.get(run.id, (0, 0))
        out.append(RunSummary(run.id, run.name, run.source_file, q, r, dict(run.parameters)))
    return out


@dataclass(frozen=True)
class RunChunk:
    """One ranked chunk of a run."""

    rank: int
    text: str
    doc_id: str | None
    score: float | None


def run_chunks(
    session: Session, run_id: int, query_external_id: str | None = None
) -> dict[str, list[RunChunk]]:
    """Query external id → chunks in rank order, for one run (optionally one question)."""
    stmt = select(RunResult).where(RunResult.run_id == run_id)
    if query_external_id is not None:
        stmt = stmt.where(RunResult.query_external_id == query_external_id)
    out: dict[str, list[RunChunk]] = {}
    for r in session.exec(
        stmt.order_by(col(RunResult.query_external_id), col(RunResult.rank))
    ).all():
        out.setdefault(r.query_external_id, []).append(
            RunChunk(r.rank, r.chunk_text, r.doc_id, r.score)
        )
    return out


@dataclass(frozen=True)
class GoldElementRow:
    """One element of a gold set with the question it belongs to (scoring input)."""

    query_external_id: str
    query_text: str
    document_id: str
    start: int
    end: int
    text: str
    grade: int


def gold_set_elements(
    session: Session, gold_set_id: int
) -> tuple[list[tuple[str, str]], list[GoldElementRow]]:
    """The questions (external id, text) of a gold set in order, and all their elements."""
    questions = [
        (q.external_id, q.text)
        for q in session.exec(
            select(Query).where(Query.gold_set_id == gold_set_id).order_by(col(Query.id))
        ).all()
    ]
    rows = session.exec(
        select(Element, Query.external_id, Query.text)
        .join(Query, col(Query.id) == col(Element.query_id))
        .where(Query.gold_set_id == gold_set_id)
        .order_by(col(Query.id), col(Element.id))
    ).all()
    elements = [
        GoldElementRow(qid, qtext, e.document_id, e.start, e.end, e.text, e.grade)
        for e, qid, qtext in rows
    ]
    return questions, elements


def pages_of(session: Session, document_ids: set[str]) -> dict[str, str]:
    """Document id → page text for the given ids (absent ids are left out)."""
    if not document_ids:
        return {}
    stmt = select(Document.id, Document.text).where(col(Document.id).in_(sorted(document_ids)))
    return {doc_id: text for doc_id, text in session.exec(stmt).all()}


def gold_set_names(session: Session) -> list[str]:
    """Names of every gold set, sorted."""
    return list(session.exec(select(GoldSet.name).order_by(col(GoldSet.name))).all())
