"""Ranked full-text search on the bundled corpus, on both backends.

The corpus (766 pages of the SQLite documentation) is ingested once per module and backend
with ``labeler ingest``. Expected page sets come from a plain scan of the stored texts in
Python (the words of a page are its runs of letters and digits, lower-cased, as the index
splits them), never from the search itself.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pg_support import create_database, drop_database, new_database_name
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from labeler.store import (
    MATCH_END,
    MATCH_START,
    Store,
    add_query,
    attach_element,
    create_gold_set,
    get_gold_set,
    open_store,
    pg_search,
    search_documents,
    search_pages,
    upsert_document,
)
from labeler.store.postgres import with_driver

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
#: pages the corpus stores (its README: 766 pages)
CORPUS_PAGES = 766


PG_URL_ENV = "LABELER_TEST_PG_URL"


def _backends() -> list[object]:
    """Both backends, as ``$LABELER_TEST_BACKENDS`` selects them (the conftest's rule)."""
    raw = os.environ.get("LABELER_TEST_BACKENDS", "").strip()
    chosen = {n.strip() for n in raw.split(",")} if raw else {"sqlite", "postgresql"}
    return [
        pytest.param(name, marks=[] if name in chosen else [pytest.mark.skip(reason=raw)])
        for name in ("sqlite", "postgresql")
    ]


@pytest.fixture(scope="module", params=_backends())
def corpus(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Store]:
    """The bundled corpus in a database of this backend, ingested by the CLI."""
    admin = None
    name = ""
    if request.param == "postgresql":
        url = os.environ.get(PG_URL_ENV, "").strip()
        if not url:
            pytest.fail(f"${PG_URL_ENV} is not set", pytrace=False)
        admin = create_engine(
            with_driver(make_url(url)), isolation_level="AUTOCOMMIT", poolclass=NullPool
        )
        name = new_database_name()
        create_database(admin, name)
        db = make_url(url).set(database=name).render_as_string(hide_password=False)
    else:
        db = str(tmp_path_factory.mktemp("corpus") / "labels.db")
    done = subprocess.run(
        [sys.executable, "-m", "labeler", "ingest", "--quiet", "--db", db, str(CORPUS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    store = open_store(db)
    try:
        yield store
    finally:
        store.close()
        if admin is not None:
            drop_database(admin, name)
            admin.dispose()


@pytest.fixture(scope="module")
def texts(corpus: Store) -> dict[str, str]:
    """Every stored page's text, read with plain SQL."""
    with corpus.session() as s:
        return dict(s.connection().exec_driver_sql("SELECT id, text FROM document").all())


def words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())


def holds_in_order(text: str, phrase: list[str]) -> bool:
    """Whether the page's words hold ``phrase`` side by side (a plain scan)."""
    page, n = words(text), len(phrase)
    return any(page[i : i + n] == phrase for i in range(len(page) - n + 1))


def all_hits(store: Store, query: str, page: int = 100) -> list[str]:
    """Every result of ``query``, read page by page."""
    out: list[str] = []
    with store.session() as s:
        while True:
            found = search_documents(s, query, offset=len(out), limit=page)
            out.extend(h.id for h in found.hits)
            if not found.hits:
                assert len(out) == found.total
                return out


def backend_of(store: Store) -> str:
    with store.session() as s:
        return s.connection().dialect.name


def test_pragma_page_size_puts_pragma_html_first(corpus: Store) -> None:
    with corpus.session() as s:
        found = search_documents(s, "pragma page_size", limit=5)
    assert found.hits[0].id == "pragma.html"
    assert found.hits[0].rank is not None  # a text match (no id holds the whole query)


def test_journal_mode_finds_every_page_that_holds_it(corpus: Store, texts: dict[str, str]) -> None:
    # the pages where journal_mode is written, not inside a longer word (a plain scan)
    written = {
        doc for doc, t in texts.items() if re.search(r"(?<![^\W_])journal_mode(?![^\W_])", t, re.I)
    }
    assert len(written) > 20  # the scan itself finds what the issue reported (33 pages)
    found = all_hits(corpus, "journal_mode")
    assert len(found) == len(set(found))
    assert written <= set(found)
    # and nothing else than pages holding the words journal, mode side by side (SQLite's
    # tokenizer splits exactly as words() does; PostgreSQL's parser also reads host names
    # and the like, so there the check is that every page written with it is found)
    if backend_of(corpus) == "sqlite":
        assert set(found) == {d for d, t in texts.items() if holds_in_order(t, ["journal", "mode"])}


def test_a_quoted_phrase_must_stand_together(corpus: Store, texts: dict[str, str]) -> None:
    phrase = ["the", "default", "page", "size"]
    together = {d for d, t in texts.items() if holds_in_order(t, phrase)}
    anywhere = {d for d, t in texts.items() if set(phrase) <= set(words(t))}
    assert together and anywhere - together  # the corpus tells the two apart
    quoted = set(all_hits(corpus, '"the default page size"'))
    loose = set(all_hits(corpus, "the default page size"))
    assert together <= quoted
    assert not quoted & (anywhere - together)
    assert loose >= anywhere  # without quotes the words may stand anywhere


def test_snippet_and_position_show_the_match(corpus: Store, texts: dict[str, str]) -> None:
    with corpus.session() as s:
        found = search_documents(s, "journal_mode", limit=20)
    assert len(found.hits) == 20
    for hit in found.hits:
        marked = re.findall(f"{MATCH_START}(.*?){MATCH_END}", hit.snippet)
        assert {"journal", "mode"} <= {m.lower() for m in marked} | set(
            w for m in marked for w in words(m)
        ), hit
        # the page view opens at the query as written, else at its words with a space
        # between them (journal mode)
        text = texts[hit.id].lower()
        written = "journal_mode" if "journal_mode" in text else "journal mode"
        assert text[hit.position : hit.position + len(written)] == written, hit
        assert text.find(written) == hit.position


def test_paging_reaches_every_page(corpus: Store, texts: dict[str, str]) -> None:
    """Nothing is capped: the empty search lists all 766 pages by id, page after page, and
    a word on nearly every page (over 500 results) pages through all of them."""
    listed = all_hits(corpus, "")
    assert listed == sorted(texts) and len(listed) == CORPUS_PAGES
    with corpus.session() as s:
        assert search_documents(s, "", offset=700, limit=100).total == CORPUS_PAGES
    common = {d for d, t in texts.items() if "sqlite" in words(t)}
    assert len(common) > 500
    found = all_hits(corpus, "sqlite", page=150)
    assert len(found) == len(set(found))
    assert common <= set(found)


def test_ranks_fall_within_a_class(corpus: Store) -> None:
    with corpus.session() as s:
        hits = search_documents(s, "checkpoint", limit=200).hits
    ranked = [h.rank for h in hits if h.rank is not None]
    assert len(ranked) > 20
    # pages named for the word come first, then the rest, each best first
    named = [h for h in hits if h.rank is not None and "checkpoint" in words(h.id)]
    rest = [h for h in hits if h.rank is not None and "checkpoint" not in words(h.id)]
    assert hits[: len(named)] == named or [h.rank for h in hits if h.rank is None]
    for group in (named, rest):
        scores = [h.rank for h in group if h.rank is not None]
        assert scores == sorted(scores, reverse=True)


def test_id_and_path_matches_come_first(corpus: Store) -> None:
    with corpus.session() as s:
        wal = search_documents(s, "WAL.html", limit=10).hits
        tail = search_documents(s, "pragma-stmt.html", limit=10).hits
    assert wal[0].id == "wal.html" and wal[0].rank is None
    assert all(h.rank is not None for h in wal[1:])  # the rest match by text only
    assert tail[0].id == "syntax/pragma-stmt.html" and tail[0].rank is None


def test_search_pages_lists_the_gold_sets_elements(corpus: Store) -> None:
    with corpus.write() as s:
        gs = create_gold_set(s, "search-test", "")
        query = add_query(s, gs, "s1", "What does journal_mode do?", actor="t")
        page = (
            s.connection()
            .exec_driver_sql("SELECT text FROM document WHERE id = 'wal.html'")
            .scalar_one()
        )
        start = page.index("journal_mode")
        assert query.id is not None
        attach_element(s, query.id, "wal.html", start, start + 12, annotator="t")
    found, results = search_pages(corpus, "journal_mode", gold_set="search-test", limit=100)
    total = found.total
    by_id = {r.hit.id: r.elements for r in results}
    assert by_id["wal.html"] == [("s1", start, start + 12)]
    assert all(not e for doc, e in by_id.items() if doc != "wal.html")
    assert total >= len(results)
    with corpus.session() as s:
        assert get_gold_set(s, "search-test").name == "search-test"


@pytest.mark.backends("sqlite", "postgresql")
def test_the_index_follows_every_write_of_a_page(store: Store) -> None:
    """Adding, changing and re-adding a page's text: the index holds what is stored now,
    inside the writing transaction (no step of its own)."""
    with store.write() as s:
        upsert_document(
            s, doc_id="a.txt", source_path="a", sha256="1", profile="t", text="alpha beta"
        )
    with store.session() as s:
        assert [h.id for h in search_documents(s, "beta").hits] == ["a.txt"]
    with store.write() as s:
        upsert_document(
            s, doc_id="a.txt", source_path="a", sha256="2", profile="t", text="gamma delta"
        )
    with store.session() as s:
        assert search_documents(s, "beta").hits == []
        assert [h.id for h in search_documents(s, "gamma").hits] == ["a.txt"]
    # a write that fails leaves the index as it was (one transaction)
    with pytest.raises(RuntimeError), store.write() as s:
        upsert_document(s, doc_id="b.txt", source_path="b", sha256="3", profile="t", text="beta")
        s.flush()
        raise RuntimeError("abandon")
    with store.session() as s:
        assert search_documents(s, "beta").hits == []
        assert search_documents(s, "beta").total == 0


def test_a_capped_ranking_keeps_named_pages_first_and_pages_through_all(
    corpus: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL ranks at most RANK_CAP matches (a word on every one of 100,000 pages
    would read every page's vector): with the caps made small, the page named for the
    query still comes first, the ranked part falls by rank, the count says "at least", and
    paging still reaches every match once, its last page counting them exactly."""
    uncapped = set(all_hits(corpus, "pragma page_size"))
    assert len(uncapped) > 8  # the 11 pages: more than both caps below
    monkeypatch.setattr(pg_search, "RANK_CAP", 3)
    monkeypatch.setattr(pg_search, "COUNT_CAP", 6)
    if backend_of(corpus) != "postgresql":
        # SQLite ranks and counts every match whatever the caps (its index holds what
        # bm25 needs): the count is exact and nothing is left unranked
        with corpus.session() as s:
            full = search_documents(s, "pragma page_size", limit=4)
        assert (full.total, full.exact, full.ranked) == (len(uncapped), True, None)
        assert full.hits[0].id == "pragma.html"
        return
    with corpus.session() as s:
        first = search_documents(s, "pragma page_size", limit=4)
    assert first.hits[0].id == "pragma.html"
    assert (first.total, first.exact) == (6, False)
    assert first.ranked == 4  # the first three stored matches, and pragma.html
    ranks = [h.rank for h in first.hits[1:] if h.rank is not None]
    assert ranks[:2] == sorted(ranks[:2], reverse=True)
    found = all_hits(corpus, "pragma page_size", page=2)
    assert len(found) == len(set(found)) and set(found) == uncapped
    # ranked in part but counted in full: each match counts once (pragma.html too)
    monkeypatch.setattr(pg_search, "COUNT_CAP", 1000)
    with corpus.session() as s:
        counted = search_documents(s, "pragma page_size", limit=4)
    assert (counted.total, counted.exact, counted.ranked) == (len(uncapped), True, 4)


@pytest.mark.backends("sqlite", "postgresql")
def test_a_phrase_past_the_vectors_last_position_and_no_longer_word(store: Store) -> None:
    """A phrase 20,000 words down a page (past the 16383 positions a PostgreSQL tsvector
    keeps) is found; a short page holding only the longer word journal_modes is not
    (words match whole)."""
    pages = {
        "long.txt": "filler " * 20_000 + "set journal_mode here",
        "plural.txt": "the journal_modes of SQLite, one mode each",
        "short.txt": "the journal_mode pragma",
    }
    with store.write() as s:
        for doc_id, body in pages.items():
            upsert_document(
                s, doc_id=doc_id, source_path=doc_id, sha256=doc_id, profile="t", text=body
            )
    with store.session() as s:
        found = search_documents(s, "journal_mode")
    assert sorted(h.id for h in found.hits) == ["long.txt", "short.txt"]
    assert found.total == 2 and found.exact
