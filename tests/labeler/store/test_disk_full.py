"""A full disk is the user's to fix, never an internal error: the real CLI in subprocesses
writes a database on a small tmpfs that a run import overflows, and output to ``/dev/full``
and to a full tmpfs. Each time: one line ``no space left on device: <path>``, exit 1, and
the database unchanged (same dump, integrity check ok)."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
FULL = "no space left on device"


def labeler(*args: str, stdout: int | object = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        stdout=stdout,  # type: ignore[arg-type]
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture()
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs mounted for the test (we run as root), unmounted afterwards."""
    mount = tmp_path / "small"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=True)


def prepare(db: Path, tmp_path: Path) -> None:
    """wal.html ingested and one question labelled on it, in ``db``."""
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    shutil.copy(CORPUS / "wal.html", docs / "wal.html")
    assert labeler("ingest", str(docs), "--db", str(db), "-q").returncode == 0
    gold = tmp_path / "gold.jsonl"
    element = {"doc": "wal.html", "text": "WAL is significantly faster in most scenarios."}
    gold.write_text(json.dumps({"query_id": "q1", "query": "Why?", "elements": [element]}))
    proc = labeler("gold", "import", str(gold), "--gold-set", "g", "--db", str(db))
    assert proc.returncode == 0, proc.stderr


def dump(db: Path) -> tuple[str, list[str]]:
    with closing(sqlite3.connect(db)) as conn:
        check = conn.execute("PRAGMA integrity_check").fetchone()[0]
        return check, list(conn.iterdump())


def one_line(proc: subprocess.CompletedProcess[str], path: str) -> None:
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == f"labeler: error: {FULL}: {path}\n" or (
        proc.stderr.startswith(f"labeler: error: {FULL}: {path} (") and proc.stderr.count("\n") == 1
    ), proc.stderr


def test_run_import_overflowing_the_database_disk(small_fs: Path, tmp_path: Path) -> None:
    db = small_fs / "labels.db"
    prepare(db, tmp_path)
    before = dump(db)
    assert before[0] == "ok"
    # 300 results of 10,000 random hex digits: 3 MB of text, for 1 MiB of disk
    rng = random.Random(7)
    results = [{"text": rng.randbytes(5000).hex(), "doc": "wal.html"} for _ in range(300)]
    run = tmp_path / "run.jsonl"
    run.write_text(json.dumps({"query_id": "q1", "results": results}) + "\n")
    proc = labeler("run", "import", str(run), "--name", "r", "--db", str(db))
    one_line(proc, str(db))
    assert dump(db) == before
    proc = labeler("run", "list", "--db", str(db))
    assert proc.returncode == 0 and "r" not in proc.stdout.split(), proc.stdout


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database (on the ordinary disk) with a gold set and a run; tests leave it as it is."""
    tmp_path = tmp_path_factory.mktemp("db")
    path = tmp_path / "labels.db"
    prepare(path, tmp_path)
    run = tmp_path / "run.jsonl"
    results = [{"text": "WAL is significantly faster in most scenarios.", "doc": "wal.html"}]
    run.write_text(json.dumps({"query_id": "q1", "results": results}) + "\n")
    assert labeler("run", "import", str(run), "--name", "r", "--db", str(path)).returncode == 0
    return path


EXPORTS = [
    ["gold", "export", "--gold-set", "g"],
    ["gold", "export", "--gold-set", "g", "--format", "ragas"],
    ["score", "--gold-set", "g", "--run", "r"],
    ["score", "--gold-set", "g", "--run", "r", "--format", "markdown"],
    ["chunks", "make", "--chunker", "fixed", "--size", "5"],
]


@pytest.mark.parametrize("command", EXPORTS, ids=lambda c: "-".join(c[:2] + c[-1:]))
def test_output_to_dev_full(db: Path, command: list[str]) -> None:
    before = dump(db)
    if command[0] != "chunks":
        one_line(labeler(*command, "--db", str(db), "-o", "/dev/full"), "/dev/full")
    with open("/dev/full", "w") as full:
        out = ["-o", "-"] if command[0] == "chunks" else []
        one_line(labeler(*command, *out, "--db", str(db), stdout=full), "standard output")
    assert dump(db) == before


def test_printed_tables_to_dev_full(db: Path) -> None:
    with open("/dev/full", "w") as full:
        one_line(labeler("run", "list", "--db", str(db), stdout=full), "standard output")


def test_chunks_onto_a_full_disk(db: Path, small_fs: Path) -> None:
    filler = small_fs / "filler"
    with filler.open("wb") as out:
        out.write(b"x" * (1024 - 64) * 1024)  # 64 KiB left
    target = small_fs / "chunks.jsonl"
    # windows of 5 tokens sharing 4: one line per token of wal.html, about 800 KB
    args = ["chunks", "make", "--chunker", "fixed", "--size", "5", "--overlap", "4"]
    one_line(labeler(*args, "--db", str(db), "-o", str(target)), str(target))
    assert list(small_fs.iterdir()) == [filler]  # the half-written file was removed


def test_beir_folder_onto_a_full_disk(db: Path, small_fs: Path, tmp_path: Path) -> None:
    chunks = tmp_path / "chunks.jsonl"
    args = ["chunks", "make", "--chunker", "fixed", "--size", "5", "--overlap", "4"]
    assert labeler(*args, "--db", str(db), "-o", str(chunks)).returncode == 0
    (small_fs / "filler").write_bytes(b"x" * (1024 - 64) * 1024)  # 64 KiB left
    folder = small_fs / "beir"
    export = ["gold", "export", "--gold-set", "g", "--format", "beir", "--chunks", str(chunks)]
    one_line(labeler(*export, "--db", str(db), "-o", str(folder)), str(folder))
    assert [p.name for p in folder.rglob("*") if p.is_file()] == []  # no half-written file
