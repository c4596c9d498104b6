"""Damage from outside a SQLite store file: never written into, never a false success.

Real CLI subprocesses on real files: a WAL file deleted under a running gold import, and
pages of the database overwritten before an import or an ingest. Reference verdicts come
from SQLite itself (``PRAGMA quick_check`` through the standard driver) and from reading the
database back in a fresh process.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
DOCS = 200
QUESTIONS = 1_500  # a gold import of a few seconds, whose WAL stays under autocheckpoint


def _page(d: int) -> str:
    rng = random.Random(d)
    paras = [
        " ".join(rng.choice(WORDS) for _ in range(30)) + f" sentence {d}-{p}." for p in range(40)
    ]
    return "<html><body>" + "".join(f"<p>{p}</p>" for p in paras) + "</body></html>"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return labeler_in_process(*args)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("integrity")
    pages = root / "pages"
    pages.mkdir()
    for d in range(DOCS):
        (pages / f"d{d:03}.html").write_text(_page(d), encoding="utf-8")
    gold = root / "gold.jsonl"
    with gold.open("w", encoding="utf-8") as f:
        for q in range(QUESTIONS):
            d, p = q % DOCS, (q // DOCS) % 40
            element = {"doc": f"d{d:03}.html", "text": f"sentence {d}-{p}."}
            f.write(json.dumps({"query_id": f"q{q}", "query": f"q {q}?", "elements": [element]}))
            f.write("\n")
    run = root / "run.jsonl"
    with run.open("w", encoding="utf-8") as f:
        for q in range(1_000):
            results = [
                {"text": f"sentence {q}-{r}", "doc": f"d{q % DOCS:03}.html"} for r in range(5)
            ]
            f.write(json.dumps({"query_id": f"q{q}", "results": results}) + "\n")
    extra = root / "extra.html"
    extra.write_text("<html><body><p>a new page</p></body></html>", encoding="utf-8")
    base = root / "base.db"
    assert _cli("ingest", "-q", str(pages), "--db", str(base)).returncode == 0
    return {"base": base, "gold": gold, "run": run, "extra": extra}


def _gold_sets(db: Path) -> list[tuple[str, int]]:
    """The gold sets and their question counts, read by a fresh process's connection."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT g.name, (SELECT count(*) FROM query q WHERE q.gold_set_id = g.id) "
            "FROM gold_set g ORDER BY g.name"
        ).fetchall()
    return [(str(name), int(n)) for name, n in rows]


def test_gold_import_with_its_wal_removed_fails_or_is_really_there(
    files: dict[str, Path], tmp_path: Path
) -> None:
    db = tmp_path / "labels.db"
    shutil.copy(files["base"], db)
    wal = Path(f"{db}-wal")
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "labeler", "gold", "import", str(files["gold"])),
            *("--gold-set", "g", "--annotator", "ana", "--db", str(db)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    while not wal.exists():  # the import has opened the database
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.002)
    wal.unlink()
    # Another program opens the database meanwhile (a TUI, a sqlite3 shell): it starts a
    # new -wal file, so what the import appends to the deleted one is read by nobody.
    reader = sqlite3.connect(db, timeout=30)
    try:
        # (may fail: the shared-memory index still counts the deleted file's frames)
        with contextlib.suppress(sqlite3.Error):
            reader.execute("SELECT count(*) FROM gold_set").fetchone()
        out, err = proc.communicate(timeout=300)
    finally:
        reader.close()
    if proc.returncode == 0:
        assert "imported gold set 'g'" in out
        assert _gold_sets(db) == [("g", QUESTIONS)], "reported imported, but it is not there"
    else:
        assert proc.returncode == 1, err
        assert err.count("\n") == 1, err
        assert "-wal file was removed" in err or "-wal file was replaced" in err, err
        assert _gold_sets(db) == []


def _damage(db: Path) -> None:
    """Overwrite one whole page in the middle of the run results (dbstat finds it), which
    the imports and the ingest below never read; SQLite must then see damage."""
    with sqlite3.connect(db) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        leaves = [
            row[0]
            for row in conn.execute(
                "SELECT pageno FROM dbstat WHERE name = 'run_result' AND pagetype = 'leaf' "
                "ORDER BY pageno"
            )
        ]
    assert len(leaves) > 10
    with db.open("r+b") as f:
        f.seek((leaves[len(leaves) // 2] - 1) * page_size)
        f.write(b"\x5a" * page_size)
    with sqlite3.connect(db) as conn:
        try:
            verdict = conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as err:
            verdict = [(str(err),)]
    assert verdict != [("ok",)]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("command", ["gold import", "gold import --layer", "run import", "ingest"])
def test_no_write_into_a_damaged_file(files: dict[str, Path], tmp_path: Path, command: str) -> None:
    db = tmp_path / "labels.db"
    shutil.copy(files["base"], db)
    # a clean write first: the file is checked and recorded as checked as it is now
    first = _cli("run", "import", str(files["run"]), "--name", "first", "--db", str(db))
    assert first.returncode == 0, first.stderr
    _damage(db)
    before = _digest(db)
    args = {
        "gold import": [
            "gold",
            "import",
            str(files["gold"]),
            "--gold-set",
            "g",
            "--annotator",
            "a",
        ],
        "gold import --layer": [
            "gold",
            "import",
            str(files["gold"]),
            "--gold-set",
            "t",
            "--layer",
            "--annotator",
            "a",
        ],
        "run import": ["run", "import", str(files["run"]), "--name", "second"],
        "ingest": ["ingest", "-q", str(files["extra"])],
    }[command]
    proc = _cli(*args, "--db", str(db))
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert f"{db}: the database file is damaged" in proc.stderr
    assert "labeler doctor" in proc.stderr
    assert proc.stdout == ""
    assert _digest(db) == before
