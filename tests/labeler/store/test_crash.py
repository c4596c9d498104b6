"""SIGKILL in the middle of an import or an ingest leaves a consistent database.

Each command runs as the real CLI in a subprocess on data big enough to take a moment
(about a second or more), and is killed after a seeded random delay, a fraction of how long
an uninterrupted run took. The database is then read in one transaction (on SQLite
``PRAGMA integrity_check`` must say ok first), and the content must be

* gold import, run import: exactly the state before the command or exactly the state after
  a complete run (each is one transaction: all or nothing);
* ingest: per document, exactly before or exactly after. Ingest commits one document at a
  time, so the contract is per-document atomicity: each page, its elements (moved, marked
  stale) and their audit entries are either all old or all new, never half.

Timestamps are left out of the comparison; everything else, ids included, is compared.

Every test runs on SQLite and on PostgreSQL. Each killed run starts from a copy of one base
database: a file copy on SQLite, ``CREATE DATABASE ... TEMPLATE`` on PostgreSQL. PostgreSQL
runs the same commands about twice as slowly, so it kills at :data:`PG_SEEDS` (two of the
four delays, one midway and one late) to keep the suite fast.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from pg_support import create_database, drop_database, new_database_name
from sqlalchemy import Connection, Engine
from sqlalchemy.engine import make_url

from labeler.store.engine import create_store_engine

pytestmark = pytest.mark.backends("sqlite", "postgresql")

SEEDS = (11, 23, 37, 41)
PG_SEEDS = (41, 23)  # delays 0.46 and 0.89 of the full run
WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
]
# Half of what the first version used (200 pages, 8,000 questions, 30,000 run lines): the
# kills land at the same fractions of a run, so in the same phases (staging, the write
# transaction, the per-page commits), and each test takes half as long.
DOCS = 100
NEW_DOCS = 10
QUESTIONS = 4_000  # every page's 40 sentences labelled once, as before (q -> page, sentence)
RUN_LINES = 15_000


def _page(rng: random.Random, d: int, preface: str = "", change: bool = False) -> str:
    paras = [
        " ".join(rng.choice(WORDS) for _ in range(30)) + f" sentence {d}-{p}." for p in range(40)
    ]
    if change:
        paras[5] = paras[5].replace(f"sentence {d}-5.", f"clause {d}-5.")
    body = "".join(f"<p>{p}</p>" for p in ([preface] if preface else []) + paras)
    return f"<html><body>{body}</body></html>"


@dataclass(frozen=True)
class Corpus:
    base_db: Path
    old_pages: Path
    new_pages: Path
    gold: Path
    run: Path


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    root = tmp_path_factory.mktemp("crash")
    old, new = root / "old", root / "new"
    old.mkdir()
    new.mkdir()
    for d in range(DOCS + NEW_DOCS):
        if d < DOCS:
            (old / f"d{d:03}.html").write_text(_page(random.Random(d), d), encoding="utf-8")
        # even pages gain a preface (labels move), every third loses a labelled sentence
        # (stale), odd ones not divisible by three stay the same; the rest are new pages
        preface = "Revised edition." if d % 2 == 0 else ""
        page = _page(random.Random(d), d, preface, change=d % 3 == 0)
        (new / f"d{d:03}.html").write_text(page, encoding="utf-8")
    gold = root / "gold.jsonl"
    with gold.open("w", encoding="utf-8") as f:
        for q in range(QUESTIONS):
            d, p = q % DOCS, (q // DOCS) % 40
            element = {"doc": f"d{d:03}.html", "text": f"sentence {d}-{p}."}
            f.write(json.dumps({"query_id": f"q{q}", "query": f"q {q}?", "elements": [element]}))
            f.write("\n")
    run = root / "run.jsonl"
    with run.open("w", encoding="utf-8") as f:
        for q in range(RUN_LINES):
            results = [
                {"text": f"chunk {q}-{r} " + "x" * 40, "score": 1 / (r + 1)} for r in range(5)
            ]
            f.write(json.dumps({"query_id": f"q{q}", "results": results}) + "\n")
    base = root / "base.db"
    _build_base(str(base), old, gold)
    return Corpus(base, old, new, gold, run)


def _build_base(db: str, old: Path, gold: Path) -> None:
    _cli("ingest", "-q", str(old), "--db", db)
    # a first gold set labels every page, so the re-ingest has elements to move and stale
    _cli("gold", "import", str(gold), "--gold-set", "labels", "--annotator", "ana", "--db", db)


def _pg_url(name: str) -> str:
    base = make_url(os.environ["LABELER_TEST_PG_URL"].strip())
    return base.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="module")
def pg_base(corpus: Corpus, pg_admin: Engine) -> Iterator[str]:
    """The PostgreSQL base database (its name), built by the CLI like the SQLite one."""
    name = new_database_name()
    create_database(pg_admin, name)
    try:
        _build_base(_pg_url(name), corpus.old_pages, corpus.gold)
        yield name
    finally:
        drop_database(pg_admin, name)


@pytest.fixture
def copy_base(
    backend: str, corpus: Corpus, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Callable[[str], str]]:
    """``copy_base(label)``: a fresh copy of the base database, as a ``--db`` value."""
    if backend == "sqlite":

        def copy_file(label: str) -> str:
            db = tmp_path / f"{label}.db"
            shutil.copy(corpus.base_db, db)
            return str(db)

        yield copy_file
        return
    base: str = request.getfixturevalue("pg_base")
    admin: Engine = request.getfixturevalue("pg_admin")
    created: list[str] = []

    def copy_database(label: str) -> str:
        name = new_database_name()
        create_database(admin, name, template=base)
        created.append(name)
        return _pg_url(name)

    try:
        yield copy_database
    finally:
        for name in created:
            drop_database(admin, name)  # FORCE: a killed client's server process may linger


def _cli(*args: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", *args], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr


def _start(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "labeler", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _digest(rows: list[tuple[object, ...]]) -> str:
    return hashlib.sha256(repr(sorted(rows, key=repr)).encode()).hexdigest()


def _strip_times(value: object) -> object:
    """An audit entry's JSON (text on SQLite, parsed on PostgreSQL) without its times."""
    if isinstance(value, str) and value.startswith("{"):
        value = json.loads(value)
    if not isinstance(value, dict):
        return value
    return json.dumps({k: v for k, v in value.items() if k not in ("created_at",)}, sort_keys=True)


def _rows(conn: Connection, sql: str) -> list[tuple[object, ...]]:
    return [tuple(row) for row in conn.exec_driver_sql(sql)]


@contextmanager
def _snapshot(db: str) -> Iterator[Connection]:
    """One read transaction on ``db``: one snapshot on PostgreSQL too, where a killed
    client's server process may still be finishing. SQLite must pass ``integrity_check``."""
    engine = create_store_engine(db)
    try:
        with engine.connect() as conn, conn.begin():
            if engine.url.get_backend_name() == "sqlite":
                assert conn.exec_driver_sql("PRAGMA integrity_check").one() == ("ok",)
            yield conn
    finally:
        engine.dispose()


def whole_state(db: str) -> str:
    """Everything but timestamps, as one digest."""
    with _snapshot(db) as conn:
        parts = [
            _rows(conn, "SELECT id, name, description FROM gold_set"),
            _rows(conn, 'SELECT id, gold_set_id, external_id, text, notes FROM "query"'),
            _rows(
                conn,
                'SELECT id, query_id, document_id, start, "end", text, grade, status FROM element',
            ),
            [
                (i, name, source, _strip_times(parameters))
                for i, name, source, parameters in _rows(
                    conn, "SELECT id, name, source_file, parameters FROM run"
                )
            ],
            _rows(conn, "SELECT * FROM run_result"),
            [
                (i, actor, action, entity, eid, _strip_times(b), _strip_times(a))
                for i, actor, action, entity, eid, b, a in _rows(
                    conn,
                    "SELECT id, actor, action, entity, entity_id, before, after FROM audit_entry",
                )
            ],
            _rows(conn, "SELECT id, sha256, profile, text FROM document"),
        ]
    return "|".join(_digest(rows) for rows in parts)


def per_document(db: str) -> dict[str, str]:
    """Document id → digest of the page, its elements and their audit entries."""
    with _snapshot(db) as conn:
        docs = {str(d): sha for d, sha in _rows(conn, "SELECT id, sha256 FROM document")}
        elements: dict[str, list[tuple[object, ...]]] = {d: [] for d in docs}
        for row in _rows(
            conn, 'SELECT document_id, id, query_id, start, "end", text, grade, status FROM element'
        ):
            elements[str(row[0])].append(row[1:])
        audit: dict[object, list[tuple[object, ...]]] = {}
        for eid, actor, action, before, after in _rows(
            conn,
            "SELECT entity_id, actor, action, before, after FROM audit_entry "
            "WHERE entity = 'element' ORDER BY id",
        ):
            audit.setdefault(eid, []).append(
                (actor, action, _strip_times(before), _strip_times(after))
            )
    return {
        d: f"{sha}:{_digest(elements[d])}:{_digest([tuple(audit.get(e[0], [])) for e in elements[d]])}"
        for d, sha in docs.items()
    }


def _crash_runs(
    backend: str, copy_base: Callable[[str], str], args: Callable[[str], list[str]]
) -> tuple[str, str, dict[str, str]]:
    """Run the command once to the end (timing it), then once per seed killed midway.

    Returns the untouched before copy, the completed after copy and the killed copies (by
    label).
    """
    before = copy_base("before")
    after = copy_base("after")
    started = time.monotonic()
    proc = _start(*args(after))
    assert proc.wait(timeout=300) == 0
    full = time.monotonic() - started
    killed: dict[str, str] = {}
    for seed in SEEDS if backend == "sqlite" else PG_SEEDS:
        label = f"killed-{seed}"
        db = copy_base(label)
        delay = random.Random(seed).uniform(0.15, 0.95) * full
        proc = _start(*args(db))
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        killed[label] = db
    return before, after, killed


def test_killed_gold_import_leaves_before_or_after(
    backend: str, corpus: Corpus, copy_base: Callable[[str], str]
) -> None:
    before, after, killed = _crash_runs(
        backend,
        copy_base,
        lambda db: [
            "gold",
            "import",
            str(corpus.gold),
            "--gold-set",
            "new",
            "--annotator",
            "bo",
            "--db",
            db,
        ],
    )
    states = {whole_state(before): "before", whole_state(after): "after"}
    assert len(states) == 2
    for label, db in killed.items():
        assert whole_state(db) in states, f"{label}: neither before nor after"


def test_killed_run_import_leaves_before_or_after(
    backend: str,
    corpus: Corpus,
    copy_base: Callable[[str], str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Killed while staging (reading the file, outside any transaction) or while writing:
    the database is as before or as after, and whatever staging a killed import left in
    its temporary directory does not disturb the next import, which removes it."""
    staging = tmp_path / "tmp"
    staging.mkdir()
    monkeypatch.setenv("TMPDIR", str(staging))  # the CLI subprocesses stage there
    before, after, killed = _crash_runs(
        backend,
        copy_base,
        lambda db: ["run", "import", str(corpus.run), "--name", "bm25", "-q", "--db", db],
    )
    states = {whole_state(before): "before", whole_state(after): "after"}
    assert len(states) == 2
    for label, db in killed.items():
        assert whole_state(db) in states, f"{label}: neither before nor after"
    left = sorted(staging.iterdir())
    assert all(p.name.startswith("labeler-run-stage-") for p in left)
    db = next(iter(killed.values()))
    # a small file will do: the clean-up comes before reading, whatever the file's size
    small = tmp_path / "small.jsonl"
    small.write_text(
        json.dumps({"query_id": "q0", "results": [{"text": "chunk", "score": 1.0}]}) + "\n",
        encoding="utf-8",
    )
    _cli("run", "import", str(small), "--name", "again", "-q", "--db", db)
    # the new import removed the killed imports' staging files, then its own
    assert sorted(staging.iterdir()) == []


def test_killed_ingest_leaves_each_document_before_or_after(
    backend: str, corpus: Corpus, copy_base: Callable[[str], str]
) -> None:
    before, after, killed = _crash_runs(
        backend,
        copy_base,
        lambda db: ["ingest", "-q", "--replace-source", str(corpus.new_pages), "--db", db],
    )
    old, new = per_document(before), per_document(after)
    assert len(new) == DOCS + NEW_DOCS and len(old) == DOCS
    assert sum(old[d] != new[d] for d in old) > DOCS // 2  # most pages really change
    for label, db in killed.items():
        for doc, state in per_document(db).items():
            assert state in (old.get(doc), new[doc]), f"{label}: {doc} is half ingested"
