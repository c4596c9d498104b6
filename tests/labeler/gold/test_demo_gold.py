"""The hand-written demo gold set imports into a database of the corpus exactly as written:
50+ questions, 12+ needing several elements, 5+ with an element repeated on its page."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpora" / "sqlite-docs"
DEMO = CORPUS / "gold" / "demo.jsonl"


def test_demo_gold_set_imports_with_its_offsets(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    docs = tmp_path / "docs"
    for doc in sorted({e["doc"] for r in rows for e in r["elements"]}):
        (docs / doc).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CORPUS / doc, docs / doc)
    db = str(tmp_path / "labels.db")
    labeler = [sys.executable, "-m", "labeler"]
    proc = subprocess.run(
        [*labeler, "ingest", "-q", str(docs), "--db", db], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run(
        [*labeler, "gold", "import", str(DEMO), "--gold-set", "demo", "--db", db],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert "(0 re-anchored" in proc.stdout  # every offset was right as written
    repeated_lines = {
        line.split(":")[2] for line in proc.stderr.splitlines() if "more than once" in line
    }
    assert len(repeated_lines) >= 5

    with sqlite3.connect(db) as con:
        per_query = con.execute(
            "SELECT q.external_id, count(e.id) FROM query q JOIN element e ON e.query_id = q.id "
            "GROUP BY q.id"
        ).fetchall()
        pages = dict(con.execute("SELECT id, text FROM document").fetchall())
        stored = con.execute("SELECT document_id, start, end, text FROM element").fetchall()
    assert len(per_query) == len(rows) >= 50
    assert sum(n >= 2 for _, n in per_query) >= 12
    assert all(pages[doc][start:end] == text for doc, start, end, text in stored)
    repeated = {
        r["query_id"] for r in rows for e in r["elements"] if pages[e["doc"]].count(e["text"]) > 1
    }
    assert len(repeated) >= 5


def test_demo_questions_are_real_questions() -> None:
    rows = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    assert len({r["query_id"] for r in rows}) == len(rows)
    for r in rows:
        assert r["query"].endswith("?"), r["query_id"]
        assert r["elements"], r["query_id"]
        assert all(1 <= e["grade"] <= 3 for e in r["elements"])
