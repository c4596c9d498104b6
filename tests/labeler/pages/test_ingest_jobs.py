"""Ingest in several processes: the same stored rows, report and progress as in one.

A sample of the bundled corpus (``corpus_sample``: every eighth page in each folder, the
largest page, the pages changed later, and the files ingest skips) is ingested into two
databases, once with ``jobs=1`` (no worker) and once with ``jobs=2`` (a forked worker
extracts half the pages), then a few of its files are changed and both are ingested again;
every table of the two databases is compared, row by row, after each step (timestamps left
out: they say when, not what). Real forks, no mocks. A sample, not all 766 pages: each
ingest of the whole corpus is about 13 s of CPU through the port, and the sharing of the
pages between the processes does not depend on how many there are.
"""

from __future__ import annotations

import dataclasses
import hashlib
import resource
from collections.abc import Callable
from pathlib import Path

import pytest
from _corpus_sample import corpus_sample
from sqlalchemy import DateTime, create_engine, inspect
from sqlalchemy.engine import make_url

from labeler.pages import IngestReport, ingest_paths
from labeler.store import open_store
from labeler.store.postgres import with_driver
from labeler.workers import may_fork

pytestmark = pytest.mark.backends("sqlite", "postgresql")

CHANGED = ("about.html", "lang_select.html", "wal.html")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def checksums(db: str) -> dict[str, tuple[int, str]]:
    """Per table: its row count and the sha256 of its rows, sorted, timestamps left out."""
    engine = create_engine(with_driver(make_url(db)) if "://" in db else f"sqlite:///{db}")
    found: dict[str, tuple[int, str]] = {}
    try:
        schema = inspect(engine)
        with engine.connect() as conn:
            for table in sorted(schema.get_table_names()):
                kept = [
                    c["name"]
                    for c in schema.get_columns(table)
                    if not isinstance(c["type"], DateTime) and not c["name"].endswith("_at")
                ]
                columns = ", ".join(f'"{name}"' for name in kept)
                rows = sorted(
                    repr(tuple(row))
                    for row in conn.exec_driver_sql(f'SELECT {columns} FROM "{table}"')
                )
                digest = hashlib.sha256("\n".join(rows).encode()).hexdigest()
                found[table] = (len(rows), digest)
    finally:
        engine.dispose()
    return found


def _ingest(db: str, folder: Path, jobs: int) -> tuple[IngestReport, list[tuple[int, int, str]]]:
    calls: list[tuple[int, int, str]] = []
    with open_store(db) as store:
        report = ingest_paths(
            store, [folder], jobs=jobs, progress=lambda d, t, p: calls.append((d, t, p))
        )
    return dataclasses.replace(report, seconds=0.0), calls


@pytest.mark.skipif(not may_fork(), reason="needs os.fork and two usable CPUs")
def test_one_and_two_processes_store_the_same_rows(
    backend: str, db_url: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if backend == "postgresql":
        factory: Callable[..., str] = request.getfixturevalue("pg_databases")
        other = factory()
    else:
        other = str(tmp_path / "other.db")
    folder = tmp_path / "corpus"
    pages = corpus_sample(folder, also=CHANGED)
    assert 90 < pages < 766
    one, one_calls = _ingest(db_url, folder, jobs=1)
    before = _children_cpu()
    two, two_calls = _ingest(other, folder, jobs=2)
    assert _children_cpu() > before  # a worker extracted pages (and was reaped)
    assert len(one.added_ids) == pages and one.failed == () and one.skipped == 3
    assert two == one
    assert two_calls == one_calls
    assert [(d, t) for d, t, _ in one_calls] == [(i, one.files) for i in range(1, one.files + 1)]
    tables = checksums(db_url)
    assert tables["document"][0] == pages
    assert checksums(other) == tables

    for name in CHANGED:  # three pages change: re-extracted, the rest read and left alone
        page = folder / name
        page.write_bytes(page.read_bytes() + b"<p>One more line.</p>")
    again_one, _ = _ingest(db_url, folder, jobs=1)
    again_two, _ = _ingest(other, folder, jobs=2)
    assert sorted(again_one.updated_ids) == list(CHANGED)
    assert len(again_one.unchanged_ids) == pages - len(CHANGED)
    assert again_two == again_one
    tables_again = checksums(db_url)
    assert tables_again != tables
    assert checksums(other) == tables_again
