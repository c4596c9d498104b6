"""Finding pages and reading runs: the look-ups behind the TUI's documents and scores views."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, text
from sqlmodel import Session, col, select

from labeler.store.models import (
    LAYER_FINAL,
    PG_SEARCH_COLUMN,
    PG_SEARCH_CONFIG,
    PG_SEARCH_SEPARATORS,
    Document,
    Element,
    GoldSet,
    Query,
    Run,
    RunResult,
)
from labeler.store.pg_search import text_matches

SNIPPET_LENGTH = 90
#: the marks around each matched word in a text hit's snippet
MATCH_START, MATCH_END = "\u00ab", "\u00bb"
#: how many words of the page a text hit's snippet shows (about)
SNIPPET_WORDS = 12
#: the part of a page a snippet is cut from: this many characters before the first match...
WINDOW_BEFORE = 120
#: ...in a window this long
WINDOW_LENGTH = 600
#: the fewest bytes a page's text has when a PostgreSQL tsvector of it reaches the last
#: position it keeps (16383 words, one character each, one between)
LONG_PAGE = 2 * 16383 - 1
#: the page of results a search returns unless asked for another size
PAGE_SIZE = 50


@dataclass(frozen=True)
class DocumentHit:
    """A page found by id or text, with where the text matched (-1: matched by id only).

    ``rank`` is the text match's score (higher is better: SQLite's ``-bm25()``,
    PostgreSQL's ``ts_rank``); None for a page found by its id or listed without a query.
    """

    id: str
    length: int
    elements: int
    position: int
    snippet: str
    rank: float | None = None


@dataclass(frozen=True)
class SearchPage:
    """One page of a search's results and how many there are in all."""

    query: str
    offset: int
    hits: list[DocumentHit]
    #: every result of the query (id matches and text matches), not only this page's;
    #: a lower bound when not ``exact``
    total: int
    #: whether ``total`` is the exact count (False: "at least", see :mod:`labeler.store.pg_search`)
    exact: bool = True
    #: None when every text match was ranked; else how many were (the rest follow unranked)
    ranked: int | None = None


def search_phrases(query: str) -> list[str]:
    """The phrases of a search: each double-quoted part is one phrase, every other word is
    one; an unclosed quote runs to the end. Parts with no letter or digit are dropped (they
    match nothing). A word like ``journal_mode`` is one phrase, which the index splits into
    its words (``journal`` then ``mode``, adjacent), as it split the page text."""
    phrases: list[str] = []
    for i, part in enumerate(query.split('"')):
        pieces = [part] if i % 2 else part.split()
        phrases.extend(p.strip() for p in pieces if any(c.isalnum() for c in p))
    return phrases


def _words(text: str) -> list[str]:
    """The words of ``text`` as the index reads them: runs of letters and digits, lower case."""
    return re.findall(r"[^\W_]+", text.lower())


def snippet_of(window: str, marks: set[str], *, at: int, lead: bool, tail: bool) -> str:
    """About :data:`SNIPPET_WORDS` words of ``window`` from three words before the match (the
    first word in ``marks`` from offset ``at`` of the window on, else the first anywhere), each word in ``marks`` between :data:`MATCH_START` and
    :data:`MATCH_END`, whitespace made single spaces; ``…`` where the page goes on (``lead``:
    the window does not start the page, ``tail``: it does not end it)."""
    found = list(re.finditer(r"[^\W_]+", window))
    hits = [i for i, m in enumerate(found) if m.group().lower() in marks]
    hits = [i for i in hits if found[i].end() > at] or hits
    if not hits:
        return " ".join(window[:SNIPPET_LENGTH].split())
    lo = max(0, hits[0] - 3)
    hi = min(len(found), lo + SNIPPET_WORDS)
    start, end = found[lo].start(), found[hi - 1].end()
    piece = re.sub(
        r"[^\W_]+",
        lambda m: (
            f"{MATCH_START}{m.group()}{MATCH_END}" if m.group().lower() in marks else m.group()
        ),
        window[start:end],
    )
    before = "\u2026" if lead or start > 0 else ""
    after = "\u2026" if tail or end < len(window) else ""
    return before + " ".join(piece.split()) + after


def _fts5_query(phrases: list[str]) -> str:
    # every phrase as an FTS5 string (its own quotes doubled): the tokenizer splits it as it
    # split the pages, and no query syntax (NEAR, -, :, *) reaches FTS5 from the user
    return " ".join('"' + p.replace('"', '""') + '"' for p in phrases)


def _id_class(dialect: str) -> str:
    """SQL ranking a page by how its id matches :n (lower case): 0 the id is it or ends in
    ``/it``, 1 starts with it, 2 contains it, 3 no match (substr comparisons, not LIKE: a
    needle's % and _ stay literal)."""
    if dialect == "postgresql":
        return (
            "CASE WHEN lower(d.id) = :n OR right(lower(d.id), :n1) = :slash THEN 0 "
            "WHEN left(lower(d.id), :nlen) = :n THEN 1 "
            "WHEN strpos(lower(d.id), :n) > 0 THEN 2 ELSE 3 END"
        )
    return (
        "CASE WHEN lower(d.id) = :n OR substr(lower(d.id), -:n1) = :slash THEN 0 "
        "WHEN substr(lower(d.id), 1, :nlen) = :n THEN 1 "
        "WHEN instr(lower(d.id), :n) > 0 THEN 2 ELSE 3 END"
    )


def search_documents(
    session: Session, needle: str = "", *, offset: int = 0, limit: int = PAGE_SIZE
) -> SearchPage:
    """Pages matching ``needle``, best first, ``limit`` of them from ``offset`` on.

    Order: pages whose id matches the whole ``needle`` (case-insensitive), the id equal to
    it or ending in ``/needle`` first, then starting with it, then containing it (by id in
    each class); then pages whose text (or id, as words) matches: those whose id holds more
    of the phrases as whole words first (``pragma`` puts ``pragma.html`` ahead of pages that
    only mention it), then by rank (the store's full-text index: SQLite FTS5's ``bm25()``,
    PostgreSQL's ``ts_rank``; ties by id on PostgreSQL, by storing order on SQLite). A page
    is listed once. A text match holds every
    phrase of :func:`search_phrases` (``"the default page size"`` in quotes is one
    phrase; words outside quotes may stand anywhere on the page). Case never matters;
    words match whole (``page`` does not find ``pages``). An empty ``needle`` lists every
    page by id. Nothing is left out: ``offset`` pages through every result. Only a window
    of each listed page's text leaves the database, for its snippet (:func:`snippet_of`).

    SQLite ranks every text match and counts them exactly. PostgreSQL ranks at most
    :data:`labeler.store.pg_search.RANK_CAP` of them (ranking reads each page's stored
    vector): past that many, the ranked part is the first ``RANK_CAP`` matches in storing
    order plus the pages named for a phrase, and the other matches follow in storing order
    (each still with its rank; ``ranked`` says how many were ranked). Its count stops at
    :data:`labeler.store.pg_search.COUNT_CAP`: ``exact`` False, ``total`` then a lower bound
    ("at least"), until a page past the ranked part is read (that read counts exactly).
    """
    if offset < 0 or limit < 1:
        raise ValueError(f"offset must be >= 0 and limit >= 1 (got {offset} and {limit})")
    conn = session.connection()
    dialect = conn.dialect.name
    counts = "(SELECT document_id, count(*) AS n FROM element GROUP BY document_id)"
    folded = needle.strip().lower()
    if not folded:
        total = int(conn.execute(text("SELECT count(*) FROM document")).scalar_one())
        listed = conn.execute(
            text(
                "SELECT d.id, length(d.text), coalesce(c.n, 0), "
                f"substr(d.text, 1, {SNIPPET_LENGTH}) FROM document d "
                f"LEFT JOIN {counts} c ON c.document_id = d.id ORDER BY d.id "
                "LIMIT :limit OFFSET :offset"
            ),
            {"limit": limit, "offset": offset},
        ).all()
        # listed without a query, each page shows how it begins
        hits = [
            DocumentHit(i, int(n_chars), int(n), -1, " ".join(str(start).split()))
            for i, n_chars, n, start in listed
        ]
        return SearchPage(needle, offset, hits, total)

    klass = _id_class(dialect)
    params: dict[str, Any] = {
        "n": folded,
        "n1": len(folded) + 1,
        "nlen": len(folded),
        "slash": "/" + folded,
    }
    find = "strpos" if dialect == "postgresql" else "instr"
    by_id = f"{find}(lower(d.id), :n) > 0"
    n_ids = int(
        conn.execute(text(f"SELECT count(*) FROM document d WHERE {by_id}"), params).scalar_one()
    )
    hits = []
    if offset < n_ids:
        for doc_id, n_chars, n in conn.execute(
            text(
                f"SELECT d.id, length(d.text), coalesce(c.n, 0) FROM document d "
                f"LEFT JOIN {counts} c ON c.document_id = d.id WHERE {by_id} "
                f"ORDER BY {klass}, d.id LIMIT :limit OFFSET :offset"
            ),
            {**params, "limit": limit, "offset": offset},
        ).all():
            hits.append(DocumentHit(doc_id, int(n_chars), int(n), -1, ""))
    phrases = search_phrases(needle)
    if not phrases:
        return SearchPage(needle, offset, hits, n_ids)
    first = phrases[0].lower()
    # where the page view opens a text hit: the first phrase as written, else its words
    # with single spaces between them, else its first word
    spaced = " ".join(_words(first))
    at = (
        f"coalesce(nullif({find}(lower(d.text), :first), 0), "
        f"nullif({find}(lower(d.text), :spaced), 0), {find}(lower(d.text), :word)) - 1"
    )
    params.update(first=first, spaced=spaced, word=_words(first)[0])
    # the snippet is cut from a window of the page around the first match (in Python: the
    # engines' own snippet functions tokenize the whole page, a megabyte for some)
    greatest = "greatest" if dialect == "postgresql" else "max"
    window = f"substr(d.text, {greatest}({at} - {WINDOW_BEFORE} + 1, 1), {WINDOW_LENGTH})"
    # how many phrases the page's id holds as whole words ("pragma" in pragma.html): a page
    # named for the query ranks before the text matches of pages that only mention it
    words = {
        f"w{i}": " " + " ".join(re.split(r"[\W_]+", p.lower())).strip() + " "
        for i, p in enumerate(phrases)
    }
    params.update(words)
    if dialect == "postgresql":
        id_words = "(' ' || translate(lower(d.id), '/._-', '    ') || ' ')"
    else:
        id_words = "(' ' || replace(replace(replace(replace(lower(d.id), '/', ' '), '.', ' '), '_', ' '), '-', ' ') || ' ')"
    named = " + ".join(f"(CASE WHEN {find}({id_words}, :{w}) > 0 THEN 1 ELSE 0 END)" for w in words)
    if dialect == "postgresql":
        # the query's words are split as the indexed text was (PG_SEARCH_SEPARATORS)
        split = str.maketrans(PG_SEARCH_SEPARATORS, " " * len(PG_SEARCH_SEPARATORS))
        params.update({f"p{i}": p.translate(split) for i, p in enumerate(phrases)})
        tsq = " && ".join(
            f"phraseto_tsquery('{PG_SEARCH_CONFIG}', :p{i})" for i in range(len(phrases))
        )
        vector = f"d.{PG_SEARCH_COLUMN}"
        # The index finds the pages holding every word; a phrase is then confirmed by the
        # vector's positions or, since those stop at 16383, by the text holding it as written.
        words_found = " && ".join(
            f"plainto_tsquery('{PG_SEARCH_CONFIG}', :p{i})" for i in range(len(phrases))
        )
        # (the text is read only on a page long enough for positions past 16383: as many
        # words, each a character with one between, fill LONG_PAGE bytes at the least)
        # a phrase of one word needs no check of the word order (reading every matching
        # page's vector again): the index alone answers it
        params.update({f"l{i}": p.lower() for i, p in enumerate(phrases)})
        in_order = " AND ".join(
            [
                f"({vector} @@ phraseto_tsquery('{PG_SEARCH_CONFIG}', :p{i}) "
                f"OR (octet_length(d.text) >= {LONG_PAGE} AND strpos(lower(d.text), :l{i}) > 0))"
                for i in range(len(phrases))
                if not re.fullmatch(r"[A-Za-z0-9]+", params[f"p{i}"].strip())
            ]
            or ["true"]
        )
        score = f"ts_rank({vector}, q.q, 1)"  # 1: divided by 1 + log(page length)
        found = text_matches(
            conn,
            where=f"{vector} @@ ({words_found}) AND {in_order} AND NOT {by_id}",
            named=f"({named})",
            not_by_id=f"NOT {by_id}",
            tsq=tsq,
            score=score,
            params=params,
            offset=max(0, offset - n_ids),
            limit=max(0, limit - len(hits)),
        )
        if limit > len(hits):
            hits.extend(_detailed(conn, found.rows, window, at, counts, params, phrases))
        return SearchPage(
            needle, offset, hits, n_ids + found.total, exact=found.exact, ranked=found.ranked
        )
    params["q"] = _fts5_query(phrases)
    # Everything the order needs comes from the index and the id index alone: looking
    # up each match's document row would read every matching page (the rows hold the
    # text). Pages named for a phrase are those whose indexed id holds it (the id
    # column's words, as with the id_words test above); ties go by storing order.
    params.update({f"idq{i}": "id : " + _fts5_query([p]) for i, p in enumerate(phrases)})
    named_fts = " + ".join(
        f"(f.rowid IN (SELECT rowid FROM document_fts WHERE document_fts MATCH :idq{i}))"
        for i in range(len(phrases))
    )
    ids = f"SELECT d.rowid FROM document d WHERE {by_id}"
    matched = f"FROM document_fts f WHERE document_fts MATCH :q AND f.rowid NOT IN ({ids})"
    # bm25() is lower for a better match; the rank shown is its negation. Only the
    # page's own rows then read their text (length, snippet window, first match).
    ranked = (
        f"SELECT f.rowid AS rid, {named_fts} AS named, -bm25(document_fts) AS score "
        f"{matched} ORDER BY named DESC, score DESC, rid LIMIT :limit OFFSET :offset"
    )
    page = (
        f"SELECT d.id, length(d.text), coalesce(c.n, 0), r.score, {window}, {at} "
        f"FROM ({ranked}) r JOIN document d ON d.rowid = r.rid "
        f"LEFT JOIN {counts} c ON c.document_id = d.id "
        "ORDER BY r.named DESC, r.score DESC, r.rid"
    )
    n_text = int(conn.execute(text(f"SELECT count(*) {matched}"), params).scalar_one())
    wanted = limit - len(hits)
    if wanted > 0 and n_text:
        rows = conn.execute(
            text(page), {**params, "limit": wanted, "offset": max(0, offset - n_ids)}
        ).all()
        hits.extend(_hit(tuple(r), phrases) for r in rows)
    return SearchPage(needle, offset, hits, n_ids + n_text)


def _hit(row: tuple[Any, ...], phrases: list[str]) -> DocumentHit:
    """A text hit from (id, length, elements, score, window, first match's offset)."""
    doc_id, n_chars, n, score, cut, pos = row
    marks = {w for p in phrases for w in _words(p)}
    lead = int(pos) > WINDOW_BEFORE
    tail = max(int(pos) - WINDOW_BEFORE, 0) + len(cut or "") < int(n_chars)
    focus = min(max(int(pos), 0), WINDOW_BEFORE)  # the match's offset in the window
    snip = snippet_of(str(cut or ""), marks, at=focus, lead=lead, tail=tail)
    return DocumentHit(doc_id, int(n_chars), int(n), int(pos), snip, float(score))


def _detailed(
    conn: Connection,
    ranked: list[tuple[str, float]],
    window: str,
    at: str,
    counts: str,
    params: dict[str, Any],
    phrases: list[str],
) -> list[DocumentHit]:
    """The hits of ``ranked`` (page id, rank), in its order, each page's own row read for
    its length, element count and snippet window."""
    if not ranked:
        return []
    rows = {
        r[0]: tuple(r)
        for r in conn.execute(
            text(
                f"SELECT d.id, length(d.text), coalesce(c.n, 0), 0.0, {window}, {at} "
                f"FROM document d LEFT JOIN {counts} c ON c.document_id = d.id "
                "WHERE d.id = ANY(:ids)"
            ),
            {**params, "ids": [i for i, _ in ranked]},
        ).all()
    }
    return [_hit((*rows[i][:3], score, *rows[i][4:]), phrases) for i, score in ranked]


def final_elements_on(
    session: Session, gold_set_id: int, document_ids: list[str]
) -> dict[str, list[tuple[str, int, int]]]:
    """Page id → (question external id, start, end) of gold set ``gold_set_id``'s
    final-layer elements on it, by offsets; pages without any are absent."""
    if not document_ids:
        return {}
    rows = session.exec(
        select(Element.document_id, Query.external_id, Element.start, Element.end)
        .join(Query, col(Query.id) == col(Element.query_id))
        .where(Query.gold_set_id == gold_set_id, Element.layer == LAYER_FINAL)
        .where(col(Element.document_id).in_(sorted(set(document_ids))))
        .order_by(col(Element.document_id), col(Element.start), col(Element.end))
    ).all()
    out: dict[str, list[tuple[str, int, int]]] = {}
    for doc_id, qid, start, end in rows:
        out.setdefault(doc_id, []).append((qid, start, end))
    return out


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
