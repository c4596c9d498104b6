"""Ingest: document ids, idempotence, change detection with stale elements, progress.

HTML expectations are built by calling page_text (the jsoup extractor is being rewritten);
exact texts come from ``.txt`` files (the ``text`` profile).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from _corpus_sample import corpus_sample
from sqlalchemy import create_engine, event
from sqlalchemy.engine import make_url

from labeler.extract import DEFAULT_PROFILE, page_text
from labeler.pages import IngestReport, ingest_paths
from labeler.store import (
    ELEMENT_OK,
    ELEMENT_STALE,
    Store,
    add_element,
    add_query,
    create_gold_set,
    get_document,
    list_documents,
    list_elements,
    open_store,
)
from labeler.store.postgres import WRITE_LOCK_KEY, with_driver

pytestmark = pytest.mark.backends("sqlite", "postgresql")

HTML = (
    b"<html><head><title>T</title></head>"
    b"<body><p>Hello <b>world</b>.</p>\n<p>Second para.</p></body></html>"
)


def write_begin(store: Store) -> str:
    """The statement that opens a write transaction: SQLite's BEGIN IMMEDIATE, PostgreSQL's
    write lock."""
    if store.engine.dialect.name == "postgresql":
        return f"SELECT pg_advisory_xact_lock({WRITE_LOCK_KEY})"
    return "BEGIN IMMEDIATE"


def tree(root: Path, files: dict[str, bytes]) -> Path:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def label(store: Store, doc_id: str, start: int, end: int, qid: str = "q1") -> int:
    with store.write() as s:
        gold = create_gold_set(s, f"g-{qid}")
        query = add_query(s, gold, qid, "question?", actor="ana")
        element = add_element(s, query, doc_id, start, end, annotator="ana")
        assert element.id is not None
        return element.id


def test_directory_doc_ids_profiles_and_texts(store: Store, tmp_path: Path) -> None:
    root = tree(
        tmp_path / "corpus",
        {
            "a.html": HTML,
            "sub/deeper/b.htm": HTML.replace(b"Hello", b"Bye"),
            "notes.txt": "plain text, café\n".encode(),
            "sub/readme.md": b"# Title\n",
            "image.png": b"\x89PNG",
            "sub/data.json": b"{}",
        },
    )
    report = ingest_paths(store, [root])
    assert sorted(report.added_ids) == ["a.html", "notes.txt", "sub/deeper/b.htm", "sub/readme.md"]
    assert sorted(Path(p).name for p in report.skipped_paths) == ["data.json", "image.png"]
    assert report.failed == () and report.updated_ids == () and report.unchanged_ids == ()
    assert (report.added, report.updated, report.unchanged, report.skipped) == (4, 0, 0, 2)
    assert report.files == 6
    assert report.bytes == sum(
        (root / d).stat().st_size
        for d in ("a.html", "sub/deeper/b.htm", "notes.txt", "sub/readme.md")
    )
    with store.session() as s:
        a = get_document(s, "a.html")
        assert a.text == page_text(HTML, DEFAULT_PROFILE)
        assert a.profile == DEFAULT_PROFILE
        assert a.sha256 == hashlib.sha256(HTML).hexdigest()
        assert a.source_path == os.path.abspath(root / "a.html")
        notes = get_document(s, "notes.txt")
        assert (notes.text, notes.profile) == ("plain text, café\n", "text")
        assert get_document(s, "sub/readme.md").text == "# Title\n"


def test_single_file_doc_id_is_its_name(store: Store, tmp_path: Path) -> None:
    path = tree(tmp_path, {"deep/dir/page.html": HTML}) / "deep" / "dir" / "page.html"
    report = ingest_paths(store, [str(path)])
    assert report.added_ids == ("page.html",)
    with store.session() as s:
        assert [d.id for d in list_documents(s)] == ["page.html"]


def test_reingest_unchanged_writes_nothing(db_url: str, backend: str, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"  # a sample: the whole corpus costs 13 s of CPU an ingest
    pages = corpus_sample(corpus)
    with open_store(db_url) as store:
        first = ingest_paths(store, [corpus])
        lock = write_begin(store)
    assert len(first.added_ids) == pages and first.failed == ()
    rows_before = _rows(db_url)
    bytes_before = Path(db_url).read_bytes() if backend == "sqlite" else b""

    with open_store(db_url) as store:
        statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        second = ingest_paths(store, [corpus])
    assert len(second.unchanged_ids) == pages
    assert (second.added_ids, second.updated_ids, second.stale, second.failed) == ((), (), (), ())
    assert not [x for x in statements if x.startswith((lock, "INSERT", "UPDATE"))]
    if backend == "sqlite":
        assert Path(db_url).read_bytes() == bytes_before
    assert _rows(db_url) == rows_before


def _rows(db: str) -> list[tuple[object, ...]]:
    """Every document row, through a plain connection (none of the store's setup)."""
    engine = create_engine(with_driver(make_url(db)) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            rows = conn.exec_driver_sql("SELECT * FROM document ORDER BY id")
            return [tuple(row) for row in rows]
    finally:
        engine.dispose()


def test_changed_page_reports_stale_elements_and_keeps_them(store: Store, tmp_path: Path) -> None:
    page = tmp_path / "policy.txt"
    page.write_text("Intro. Exceptions are approved by the data owner. Outro.")
    ingest_paths(store, [page])
    text = "Intro. Exceptions are approved by the data owner. Outro."
    broken = label(store, "policy.txt", text.index("Exceptions"), text.index(" Outro"), "q1")
    kept = label(store, "policy.txt", 0, 6, "q2")  # "Intro."

    page.write_text("Intro. Exceptions are approved by the CISO. Outro.")
    report = ingest_paths(store, [page])
    assert report.updated_ids == ("policy.txt",) and report.added_ids == ()
    assert [(x.element_id, x.query_external_id, x.document_id) for x in report.stale] == [
        (broken, "q1", "policy.txt")
    ]
    assert report.stale[0].text == "Exceptions are approved by the data owner."
    assert str(report.stale[0]).startswith("policy.txt [7:49] g-q1/q1: 'Exceptions are approved")
    with store.session() as s:
        status = {e.id: (e.status, e.text) for e in list_elements(s, document_id="policy.txt")}
        assert status[broken] == (ELEMENT_STALE, "Exceptions are approved by the data owner.")
        assert status[kept] == (ELEMENT_OK, "Intro.")
        assert get_document(s, "policy.txt").text.endswith("by the CISO. Outro.")

    # ingesting the changed file again: unchanged, nothing newly stale
    again = ingest_paths(store, [page])
    assert again.unchanged_ids == ("policy.txt",) and again.stale == ()


def test_changed_html_page_with_still_matching_element(store: Store, tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(HTML)
    ingest_paths(store, [page])
    text = page_text(HTML, DEFAULT_PROFILE)
    start = text.index("Hello")
    element_id = label(store, "p.html", start, start + 5)
    changed = HTML.replace(b"<title>T</title>", b"<title>Other title</title><!-- edit -->")
    page.write_bytes(changed)
    report = ingest_paths(store, [page])
    assert report.updated_ids == ("p.html",)
    assert report.stale == ()
    with store.session() as s:
        (element,) = list_elements(s)
        assert (element.id, element.status) == (element_id, ELEMENT_OK)
        assert get_document(s, "p.html").sha256 == hashlib.sha256(changed).hexdigest()


def test_progress_called_once_per_file(store: Store, tmp_path: Path) -> None:
    root = tree(tmp_path / "c", {"a.html": HTML, "b.txt": b"b", "c.bin": b"c"})
    calls: list[tuple[int, int, str]] = []
    report = ingest_paths(store, [root], progress=lambda d, t, p: calls.append((d, t, p)))
    assert [(d, t) for d, t, _ in calls] == [(1, 3), (2, 3), (3, 3)]
    assert [Path(p).name for _, _, p in calls] == ["a.html", "b.txt", "c.bin"]
    assert isinstance(report, IngestReport) and report.seconds >= 0


def test_duplicate_doc_ids_from_two_directories(store: Store, tmp_path: Path) -> None:
    one = tree(tmp_path / "one", {"index.html": HTML})
    two = tree(tmp_path / "two", {"index.html": HTML.replace(b"Hello", b"Other")})
    report = ingest_paths(store, [one, two, one / "index.html"])
    assert report.added_ids == ("index.html",)
    assert len(report.failed) == 1
    assert report.failed[0].path == str(two / "index.html")
    assert "already taken" in report.failed[0].reason
    with store.session() as s:
        assert get_document(s, "index.html").text == page_text(HTML, DEFAULT_PROFILE)


def test_reextract_stores_new_extractor_output(store: Store, tmp_path: Path) -> None:
    page = tmp_path / "x.txt"
    page.write_text("same bytes")
    ingest_paths(store, [page])
    with store.engine.connect() as conn, conn.begin():  # as an older extractor had made it
        conn.exec_driver_sql("UPDATE document SET text = 'old output' WHERE id = 'x.txt'")
    assert ingest_paths(store, [page]).unchanged_ids == ("x.txt",)  # same bytes: not extracted
    with store.session() as s:
        assert get_document(s, "x.txt").text == "old output"
    report = ingest_paths(store, [page], reextract=True)
    assert report.updated_ids == ("x.txt",)
    with store.session() as s:
        assert get_document(s, "x.txt").text == "same bytes"
    assert ingest_paths(store, [page], reextract=True).unchanged_ids == ("x.txt",)


def test_same_file_named_twice_is_ingested_once(store: Store, tmp_path: Path) -> None:
    page = tmp_path / "a.txt"
    page.write_text("a")
    calls: list[int] = []
    report = ingest_paths(store, [page, str(page)], progress=lambda d, t, p: calls.append(t))
    assert report.added_ids == ("a.txt",) and report.failed == () and calls == [1]


@pytest.mark.parametrize("count", [1, 5])
def test_many_runs_accumulate_in_separate_transactions(
    store: Store, tmp_path: Path, count: int
) -> None:
    root = tree(tmp_path / "c", {f"p{i}.txt": f"page {i}".encode() for i in range(count)})
    statements: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
    report = ingest_paths(store, [root])
    assert len(report.added_ids) == count
    assert statements.count(write_begin(store)) == count  # one short transaction per document


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Count calls of ``module.name`` (the real function still runs)."""
    calls: list[int] = []
    real = getattr(module, name)

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


PAGES = {
    "a.html": HTML,
    "b.html": b"<div><h1>Title</h1><p>one</p>two<ul><li>x</li><li>y</li></ul></div>",
    "c.html": b"<p>only</p>",
}


def test_ingest_parses_each_page_once_on_the_default_profile(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text and block starts come from one parse of each page (the port's tree)."""
    from labeler.extract import block_starts, jsoup_parser

    calls = _counting(monkeypatch, jsoup_parser.tree_builder.HtmlTreeBuilder, "parse")
    report = ingest_paths(store, [tree(tmp_path / "d", PAGES)])
    assert report.added == 3
    assert len(calls) == 3
    with store.session() as s:
        for name, data in PAGES.items():
            doc = get_document(s, name)
            assert doc is not None and doc.text == page_text(data)
            assert doc.blocks == ",".join(map(str, block_starts(data)))


def test_ingest_parses_each_page_once_on_bs4(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bs4-get-text: one soup per page gives both its text and its block starts."""
    from labeler.extract import bs4text

    calls = _counting(monkeypatch, bs4text, "_soup")
    report = ingest_paths(store, [tree(tmp_path / "d", PAGES)], profile="bs4-get-text")
    assert report.added == 3
    assert len(calls) == 3
    with store.session() as s:
        doc = get_document(s, "b.html")
        assert doc is not None
        assert doc.text == "Titleonetwoxy"  # get_text() by hand: the strings joined
        assert doc.blocks == "0,5,11,12"  # div/h1, p ("two" is in no block of its own), li, li
