"""Every command closes the database it opened before it returns, whoever calls it: run
in a process of its own, the exit would close it anyway, but ``labeler.cli.main`` is also
called in-process (the Python API's users, the tests), where an open connection keeps
SQLite's write-ahead log unmerged (a copy of the file then lacks what was written) until
the garbage collector happens to free it. The collector is off during the test, so a
connection left to it stays open: the test looks for the process's open files on the
database (Linux's ``/proc/self/fd``)."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
ELEMENT = {"doc": "wal.html", "text": "WAL is significantly faster in most scenarios."}


@pytest.fixture()
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _open_on(db: Path) -> list[str]:
    """The files of ``db`` (itself, its ``-wal`` and ``-shm``) this process holds open."""
    held = []
    for fd in Path("/proc/self/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith(str(db)):
                held.append(target)
    return held


def test_each_command_leaves_no_connection_open(tmp_path: Path, no_collector: None) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(CORPUS / "wal.html", docs / "wal.html")
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"query_id": "q1", "query": "Why?", "elements": [ELEMENT]}))
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps({"query_id": "q1", "results": [{"text": ELEMENT["text"]}]}))
    db = tmp_path / "labels.db"
    commands = [
        ["ingest", "-q", str(docs)],
        ["gold", "import", str(gold), "--gold-set", "g"],
        ["gold", "list"],
        ["gold", "export", "--gold-set", "g", "-o", str(tmp_path / "out.jsonl")],
        ["gold", "assign", "--gold-set", "g", "--annotators", "ana,bob"],
        ["gold", "progress", "--gold-set", "g"],
        ["run", "import", "-q", str(run), "--name", "r"],
        ["run", "import", "-q", str(run), "--name", "r2"],
        ["run", "list"],
        ["run", "export", "--name", "r", "-o", str(tmp_path / "run-out.jsonl")],
        ["chunks", "make", "--chunker", "fixed", "-q", "-o", str(tmp_path / "chunks.jsonl")],
        ["run", "place", "--name", "r"],
        ["score", "--gold-set", "g", "--run", "r", "-q"],
        ["compare", "--gold-set", "g", "--run", "r", "--run", "r2", "-q"],
        ["chunks", "audit", str(tmp_path / "chunks.jsonl"), "--gold-set", "g", "-q"],
        ["gold", "export", "--gold-set", "g", "--format", "ragas", "--run", "r"],
        ["gold", "done", "--gold-set", "g", "--query", "q1", "--annotator", "ana"],
        ["gold", "done", "--gold-set", "g", "--query", "q1", "--annotator", "bob"],
        ["agreement", "--gold-set", "g", "-q"],
        ["adjudicate", "--gold-set", "g", "--auto", "unanimous", "--actor", "ana"],
        ["adjudicate", "--gold-set", "g", "--reopen", "q1", "--actor", "ana"],
        ["pool", "--gold-set", "g", "--run", "r", "--depth", "5"],
        ["search", "journal"],
        ["annotators", "add", "cleo"],
        ["annotators", "list"],
        ["doctor"],
    ]
    for command in commands:
        done = labeler_in_process(*command, "--db", str(db))
        assert done.returncode == 0, (command, done.stderr)
        assert _open_on(db) == [], f"{' '.join(command)} left its connection open"
