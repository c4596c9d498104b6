"""SIGKILL in the middle of an import or an ingest leaves a consistent database.

Each command runs as the real CLI in a subprocess on data big enough to take a moment
(about a second or more), and is killed after a seeded random delay, a fraction of how long
an uninterrupted run took. The database is then opened with the standard driver:
``PRAGMA integrity_check`` must say ok, and the content must be

* gold import, run import: exactly the state before the command or exactly the state after
  a complete run (each is one transaction: all or nothing);
* ingest: per document, exactly before or exactly after. Ingest commits one document at a
  time, so the contract is per-document atomicity: each page, its elements (moved, marked
  stale) and their audit entries are either all old or all new, never half.

Timestamps are left out of the comparison; everything else, ids included, is compared.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

SEEDS = (11, 23, 37, 41)
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
DOCS = 200
NEW_DOCS = 20
QUESTIONS = 8_000
RUN_LINES = 30_000


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
    _cli("ingest", "-q", str(old), "--db", str(base))
    # a first gold set labels every page, so the re-ingest has elements to move and stale
    _cli(
        "gold", "import", str(gold), "--gold-set", "labels", "--annotator", "ana", "--db", str(base)
    )
    return Corpus(base, new, gold, run)


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
    if not isinstance(value, str) or not value.startswith("{"):
        return value
    data = json.loads(value)
    return json.dumps({k: v for k, v in data.items() if k not in ("created_at",)}, sort_keys=True)


def _open(db: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return conn


def whole_state(db: Path) -> str:
    """Everything but timestamps, as one digest."""
    with _open(db) as conn:
        parts = [
            conn.execute("SELECT id, name, description FROM gold_set").fetchall(),
            conn.execute(
                'SELECT id, gold_set_id, external_id, text, notes FROM "query"'
            ).fetchall(),
            conn.execute(
                'SELECT id, query_id, document_id, start, "end", text, grade, status FROM element'
            ).fetchall(),
            conn.execute("SELECT id, name, source_file, parameters FROM run").fetchall(),
            conn.execute("SELECT * FROM run_result").fetchall(),
            [
                (i, actor, action, entity, eid, _strip_times(b), _strip_times(a))
                for i, actor, action, entity, eid, b, a in conn.execute(
                    "SELECT id, actor, action, entity, entity_id, before, after FROM audit_entry"
                )
            ],
            conn.execute("SELECT id, sha256, profile, text FROM document").fetchall(),
        ]
    return "|".join(_digest(rows) for rows in parts)


def per_document(db: Path) -> dict[str, str]:
    """Document id → digest of the page, its elements and their audit entries."""
    with _open(db) as conn:
        docs = dict(conn.execute("SELECT id, sha256 FROM document").fetchall())
        elements: dict[str, list[tuple[object, ...]]] = {d: [] for d in docs}
        for row in conn.execute(
            'SELECT document_id, id, query_id, start, "end", text, grade, status FROM element'
        ):
            elements[row[0]].append(row[1:])
        audit: dict[int, list[tuple[object, ...]]] = {}
        for eid, actor, action, before, after in conn.execute(
            "SELECT entity_id, actor, action, before, after FROM audit_entry "
            "WHERE entity = 'element' ORDER BY id"
        ):
            audit.setdefault(eid, []).append(
                (actor, action, _strip_times(before), _strip_times(after))
            )
    return {
        d: f"{sha}:{_digest(elements[d])}:{_digest([tuple(audit.get(int(str(e[0])), [])) for e in elements[d]])}"
        for d, sha in docs.items()
    }


def _crash_runs(
    corpus: Corpus, tmp_path: Path, args: Callable[[Path], list[str]]
) -> tuple[Path, Path, list[Path]]:
    """Run the command once to the end (timing it), then once per seed killed midway.

    Returns the untouched before copy, the completed after copy and the killed copies.
    """
    before = tmp_path / "before.db"
    shutil.copy(corpus.base_db, before)
    after = tmp_path / "after.db"
    shutil.copy(corpus.base_db, after)
    started = time.monotonic()
    proc = _start(*args(after))
    assert proc.wait(timeout=300) == 0
    full = time.monotonic() - started
    killed: list[Path] = []
    for seed in SEEDS:
        db = tmp_path / f"killed-{seed}.db"
        shutil.copy(corpus.base_db, db)
        delay = random.Random(seed).uniform(0.15, 0.95) * full
        proc = _start(*args(db))
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        killed.append(db)
    return before, after, killed


def test_killed_gold_import_leaves_before_or_after(corpus: Corpus, tmp_path: Path) -> None:
    before, after, killed = _crash_runs(
        corpus,
        tmp_path,
        lambda db: [
            "gold",
            "import",
            str(corpus.gold),
            "--gold-set",
            "new",
            "--annotator",
            "bo",
            "--db",
            str(db),
        ],
    )
    states = {whole_state(before): "before", whole_state(after): "after"}
    assert len(states) == 2
    for db in killed:
        assert whole_state(db) in states, f"{db.name}: neither before nor after"


def test_killed_run_import_leaves_before_or_after(corpus: Corpus, tmp_path: Path) -> None:
    before, after, killed = _crash_runs(
        corpus,
        tmp_path,
        lambda db: ["run", "import", str(corpus.run), "--name", "bm25", "-q", "--db", str(db)],
    )
    states = {whole_state(before): "before", whole_state(after): "after"}
    assert len(states) == 2
    for db in killed:
        assert whole_state(db) in states, f"{db.name}: neither before nor after"


def test_killed_ingest_leaves_each_document_before_or_after(corpus: Corpus, tmp_path: Path) -> None:
    before, after, killed = _crash_runs(
        corpus, tmp_path, lambda db: ["ingest", "-q", str(corpus.new_pages), "--db", str(db)]
    )
    old, new = per_document(before), per_document(after)
    assert len(new) == DOCS + NEW_DOCS and len(old) == DOCS
    assert sum(old[d] != new[d] for d in old) > DOCS // 2  # most pages really change
    for db in killed:
        for doc, state in per_document(db).items():
            assert state in (old.get(doc), new[doc]), f"{db.name}: {doc} is half ingested"
