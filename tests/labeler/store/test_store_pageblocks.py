"""Block starts stored per page (schema version 6): written by ingest, filled on re-ingest,
never outliving the text they were computed for.

Expected offsets are counted by hand from the page texts written out in the comments.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from sqlalchemy import create_engine, event
from sqlalchemy import text as sql_text
from sqlalchemy.engine import make_url

from labeler.errors import IntegrityError
from labeler.pages import ingest_paths
from labeler.store import MIGRATIONS, Store, open_store, upsert_document
from labeler.store.pageblocks import decode_blocks, encode_blocks, page_and_blocks
from labeler.store.postgres import with_driver

pytestmark = pytest.mark.backends("sqlite", "postgresql")

# text: "2. Background In SQLite, rows. one two"
#        0             14                31  35
HTML = (
    b"<html><body><h2>2. Background</h2><p>In SQLite, rows.</p>"
    b"<ul><li>one</li><li>two</li></ul></body></html>"
)
HTML_BLOCKS = [0, 14, 31, 35]
# paragraphs start at 0 ("Title"), 7 ("First") and 42 ("Indented", after two spaces)
TEXT = "Title\n\nFirst para line one.\nline two.\n\n\n  Indented para.\n"
TEXT_BLOCKS = [0, 7, 42]


def rows(db: str) -> list[tuple[object, ...]]:
    """Every document row, read through a plain connection."""
    engine = create_engine(with_driver(make_url(db)) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.exec_driver_sql("SELECT * FROM document ORDER BY id")]
    finally:
        engine.dispose()


def forget_blocks(store: Store) -> None:
    """Make the pages look as if ingested before version 6."""
    with store.engine.connect() as conn, conn.begin():
        conn.exec_driver_sql("UPDATE document SET blocks = NULL")


def blocks_of(store: Store, doc_id: str) -> list[int] | None:
    with store.session() as s:
        found = page_and_blocks(s, doc_id)
    assert found is not None
    return found[1]


def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "page.html").write_bytes(HTML)
    (folder / "notes.txt").write_text(TEXT, encoding="utf-8")
    return folder


def test_ingest_stores_block_starts(store: Store, tmp_path: Path) -> None:
    report = ingest_paths(store, [corpus(tmp_path)])
    assert sorted(report.added_ids) == ["notes.txt", "page.html"]
    assert report.filled_ids == ()
    with store.session() as s:
        assert page_and_blocks(s, "page.html") == (
            "2. Background In SQLite, rows. one two",
            HTML_BLOCKS,
        )
        assert page_and_blocks(s, "notes.txt") == (TEXT, TEXT_BLOCKS)
        assert page_and_blocks(s, "absent.html") is None


def test_reingest_fills_missing_blocks_and_nothing_else(
    db_url: str, backend: str, tmp_path: Path
) -> None:
    folder = corpus(tmp_path)
    with open_store(db_url) as store:
        ingest_paths(store, [folder])
        forget_blocks(store)
    before = rows(db_url)
    with open_store(db_url) as store:
        report = ingest_paths(store, [folder])
        assert sorted(report.unchanged_ids) == ["notes.txt", "page.html"]
        assert sorted(report.filled_ids) == ["notes.txt", "page.html"]
        assert report.updated_ids == () and report.added_ids == ()
        assert blocks_of(store, "page.html") == HTML_BLOCKS
        assert blocks_of(store, "notes.txt") == TEXT_BLOCKS
    after = rows(db_url)
    blocks_column = 6  # id, source_path, sha256, profile, text, ingested_at, blocks
    strip = [r[:blocks_column] for r in before]
    assert [r[:blocks_column] for r in after] == strip  # text, time, source: untouched
    assert [r[blocks_column] for r in after] == [",".join(map(str, TEXT_BLOCKS)), "0,14,31,35"]

    # once filled, re-ingest is back to writing nothing at all
    with open_store(db_url) as store:
        statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        again = ingest_paths(store, [folder])
    assert again.filled_ids == () and len(again.unchanged_ids) == 2
    assert not [x for x in statements if x.startswith(("INSERT", "UPDATE"))]


def test_upgrade_from_version_4_then_reingest_fills(db_url: str, tmp_path: Path) -> None:
    folder = corpus(tmp_path)
    path = folder / "notes.txt"
    with open_store(db_url, migrations=MIGRATIONS[:4]) as old:  # as a version-4 labeller
        assert old.schema_version() == 4
        with old.engine.connect() as conn, conn.begin():
            conn.execute(
                sql_text(
                    "INSERT INTO document (id, source_path, sha256, profile, text, ingested_at) "
                    "VALUES ('notes.txt', :path, :sha, 'text', :text, '2024-01-01 00:00:00')"
                ),
                {
                    "path": os.path.abspath(path),
                    "sha": hashlib.sha256(path.read_bytes()).hexdigest(),
                    "text": TEXT,
                },
            )
    with open_store(db_url) as store:
        assert blocks_of(store, "notes.txt") is None  # the new column starts NULL
        report = ingest_paths(store, [path])
        assert (report.unchanged_ids, report.filled_ids) == (("notes.txt",), ("notes.txt",))
        assert blocks_of(store, "notes.txt") == TEXT_BLOCKS


def test_changed_page_gets_the_new_blocks(store: Store, tmp_path: Path) -> None:
    page = tmp_path / "notes.txt"
    page.write_text(TEXT, encoding="utf-8")
    ingest_paths(store, [page])
    page.write_text("Only one paragraph now.\n", encoding="utf-8")
    report = ingest_paths(store, [page])
    assert report.updated_ids == ("notes.txt",) and report.filled_ids == ()
    assert blocks_of(store, "notes.txt") == [0]


def test_upsert_never_keeps_blocks_of_an_old_text(store: Store) -> None:
    with store.write() as s:
        upsert_document(
            s, doc_id="d", source_path="d", sha256="1", profile="text", text="a\n\nb", blocks=[0, 3]
        )
    assert blocks_of(store, "d") == [0, 3]
    with store.write() as s:  # same text, another source file, no blocks given: kept
        upsert_document(
            s, doc_id="d", source_path="e", sha256="1", profile="text", text="a\n\nb",
            replace_source=True,
        )  # fmt: skip
    assert blocks_of(store, "d") == [0, 3]
    with store.write() as s:  # new text without blocks: none, rather than the old ones
        result = upsert_document(
            s, doc_id="d", source_path="e", sha256="2", profile="text", text="xyz"
        )
    assert result.outcome == "updated"
    assert blocks_of(store, "d") is None
    with store.write() as s:  # unchanged page, blocks given: only they are written
        result = upsert_document(
            s, doc_id="d", source_path="e", sha256="2", profile="text", text="xyz", blocks=[0]
        )
    assert (result.outcome, result.blocks_written) == ("unchanged", True)
    assert blocks_of(store, "d") == [0]


@pytest.mark.parametrize("bad", [[3], [0, 0], [2, 1], [-1], [0, 3, 5]])
def test_upsert_refuses_offsets_that_are_not_block_starts(store: Store, bad: list[int]) -> None:
    refused = pytest.raises(IntegrityError, match="block starts must increase strictly")
    with refused, store.write() as s:
        upsert_document(
            s, doc_id="d", source_path="d", sha256="1", profile="text", text="abc", blocks=bad
        )
    with store.session() as s:
        assert page_and_blocks(s, "d") is None  # nothing written


@pytest.mark.backends("sqlite")
def test_decode_rejects_what_encode_never_writes() -> None:
    assert encode_blocks([0, 5, 9], 10) == "0,5,9"
    assert decode_blocks("0,5,9", 10) == [0, 5, 9]
    assert decode_blocks("", 0) == [] and decode_blocks(None, 10) is None
    for value in ("0,5,10", "5,0", "0,x", "0,,5", "-1"):
        assert decode_blocks(value, 10) is None, value


def test_deeply_nested_page_gets_the_blocks_of_its_shallow_twin(
    store: Store, tmp_path: Path
) -> None:
    """5,000 nested spans: the block walk keeps its own stack, so the page gets the block
    starts of the same text nested once (spans are inline: nesting adds no block)."""
    deep, flat = tmp_path / "deep.html", tmp_path / "flat.html"
    deep.write_bytes(("<p>top</p>" + "<span>" * 5000 + "deep").encode())
    flat.write_bytes(b"<p>top</p><span>deep</span>")
    report = ingest_paths(store, [deep, flat])
    assert report.failed == () and not [n for n in report.notes if "block" in n]
    with store.session() as s:
        got_deep, got_flat = page_and_blocks(s, "deep.html"), page_and_blocks(s, "flat.html")
    assert got_deep[0] == "topdeep" and got_deep[1] is not None
    assert got_deep == got_flat
