"""The bundled requirements gold set: rebuilt from requirements.html it is byte-identical to
the committed file, and every element imports at its offsets into a database of the pages."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpora" / "sqlite-docs"
GOLD = CORPUS / "gold"
SCRIPT = ROOT / "scripts" / "build_requirements_gold.py"


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("requirements")
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    return out, proc.stdout


def test_rebuild_is_identical_to_the_committed_files(rebuilt: tuple[Path, str]) -> None:
    out, _ = rebuilt
    for name in ("requirements.jsonl", "requirements-skipped.tsv"):
        assert (out / name).read_bytes() == (GOLD / name).read_bytes(), name


def test_summary_counts_match_the_files(rebuilt: tuple[Path, str]) -> None:
    _, stdout = rebuilt
    lines = (GOLD / "requirements.jsonl").read_text(encoding="utf-8").splitlines()
    skipped = (GOLD / "requirements-skipped.tsv").read_text(encoding="utf-8").splitlines()[1:]
    assert len(lines) > 3400
    assert f"found: {len(lines)} (" in stdout
    assert f"skipped: {len(skipped)} (" in stdout
    assert f"requirements: {len(lines) + len(skipped)}" in stdout
    reasons = {row.split("\t")[2] for row in skipped}
    assert reasons <= {"fragment", "not-on-page", "page-missing"}


def test_lines_are_one_requirement_question_each() -> None:
    for raw in (GOLD / "requirements.jsonl").read_text(encoding="utf-8").splitlines():
        obj = json.loads(raw)
        assert obj["query_id"] == obj["query"]
        assert obj["query_id"].startswith("R-")
        assert len(obj["elements"]) == 1


@pytest.mark.slow
def test_every_element_imports_at_its_offsets(tmp_path: Path) -> None:
    gold = GOLD / "requirements.jsonl"
    rows = [json.loads(line) for line in gold.read_text(encoding="utf-8").splitlines()]
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
        [*labeler, "gold", "import", str(gold), "--gold-set", "requirements", "--db", db],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"{len(rows)} questions, {len(rows)} elements (0 re-anchored" in proc.stdout
    with sqlite3.connect(db) as con:
        stored = con.execute(
            "SELECT e.text, substr(d.text, e.start + 1, e.end - e.start) FROM element e "
            "JOIN document d ON d.id = e.document_id"
        ).fetchall()
    assert len(stored) == len(rows)
    assert all(text == page_slice for text, page_slice in stored)
