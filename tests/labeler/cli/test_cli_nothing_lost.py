"""Issue 10's story through real ``labeler`` processes: an unrelated page named like a stored
one must not cost a single label.

The demo gold set (``corpora/sqlite-docs/gold/demo.jsonl``) has 85 elements on 28 pages;
question ``fk-enable`` has the two on ``foreignkeys.html`` (counted in the file by hand).
The unrelated page is the corpus's ``wal.html`` copied as ``other/foreignkeys.html``: neither
of those two texts occurs in it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process

pytestmark = pytest.mark.backends("sqlite", "postgresql")

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
DEMO = CORPUS / "gold" / "demo.jsonl"
FK_TEXTS = {
    "Foreign key constraints are disabled by default (for backwards compatibility), so must "
    "be enabled separately for each database connection.",
    "sqlite> PRAGMA foreign_keys = ON;",
}


def labeler(*args: str) -> subprocess.CompletedProcess[str]:
    return labeler_in_process(*args)


def elements(export: Path) -> list[tuple[str, str, str]]:
    """(question, text, status) of every element of an exported gold JSONL file."""
    return [
        (line["query_id"], e["text"], e.get("status", "ok"))
        for line in map(json.loads, export.read_text(encoding="utf-8").splitlines())
        for e in line["elements"]
    ]


def test_unrelated_page_with_a_stored_name_loses_no_label(db_url: str, tmp_path: Path) -> None:
    db = ["--db", db_url]
    cited = sorted({e["doc"] for line in map(json.loads, DEMO.open()) for e in line["elements"]})
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in cited:
        shutil.copy(CORPUS / name, corpus / name)
    other = tmp_path / "other" / "foreignkeys.html"
    other.parent.mkdir()
    shutil.copy(CORPUS / "wal.html", other)
    assert not any(t in other.read_text(encoding="utf-8") for t in FK_TEXTS)

    proc = labeler("ingest", "-q", str(corpus), *db)
    assert proc.returncode == 0 and "added 28," in proc.stdout, proc.stderr
    proc = labeler("gold", "import", str(DEMO), "--gold-set", "demo", *db)
    assert proc.returncode == 0 and "85 elements" in proc.stdout, proc.stderr
    as_imported = tmp_path / "as-imported.jsonl"
    assert (
        labeler("gold", "export", "--gold-set", "demo", "-o", str(as_imported), *db).returncode == 0
    )

    # 1. the unrelated file is refused, naming both files and the way out
    proc = labeler("ingest", "-q", str(other), *db)
    assert proc.returncode == 1
    assert "updated 0," in proc.stdout and "failed 1" in proc.stdout
    assert (
        f"labeler: {other}: document id 'foreignkeys.html' is already stored from another "
        f"file, {corpus / 'foreignkeys.html'}; not replaced" in proc.stderr
    )
    assert "--replace-source" in proc.stderr

    # 2. asked for, it replaces the page: fk-enable's two labels go stale
    proc = labeler("ingest", "-q", "--replace-source", str(other), *db)
    assert proc.returncode == 0 and "updated 1," in proc.stdout, proc.stderr
    assert "2 labelled element(s) no longer match their page (stale)" in proc.stdout

    # 3. export keeps the stale ones, marked; import --replace keeps every element
    stale_export = tmp_path / "stale.jsonl"
    proc = labeler("gold", "export", "--gold-set", "demo", "-o", str(stale_export), *db)
    assert proc.returncode == 0 and "2 stale element(s) written" in proc.stderr
    exported = elements(stale_export)
    assert len(exported) == 85
    assert sorted((q, t) for q, t, s in exported if s == "stale") == sorted(
        ("fk-enable", t) for t in FK_TEXTS
    )
    proc = labeler("gold", "import", str(stale_export), "--gold-set", "demo", "--replace", *db)
    assert proc.returncode == 0 and "85 elements" in proc.stdout and "2 stale" in proc.stdout

    # 4. the original corpus again: refused (the page now comes from the other file) ...
    proc = labeler("ingest", "-q", str(corpus), *db)
    assert proc.returncode == 1 and "unchanged 27," in proc.stdout, proc.stderr
    assert f"labeler: {corpus / 'foreignkeys.html'}: document id 'foreignkeys.html'" in proc.stderr
    # ... and with --replace-source the two labels are ok again
    proc = labeler("ingest", "-q", "--replace-source", str(corpus), *db)
    assert proc.returncode == 0 and "updated 1," in proc.stdout, proc.stderr
    assert "2 stale labelled element(s) match their page again (ok)" in proc.stdout
    assert proc.stderr.count("labeler: label ok again: foreignkeys.html") == 2

    # 5. export → import --replace keeps all 85, and the set is exactly as first imported
    final = tmp_path / "final.jsonl"
    assert labeler("gold", "export", "--gold-set", "demo", "-o", str(final), *db).returncode == 0
    proc = labeler("gold", "import", str(final), "--gold-set", "demo", "--replace", *db)
    assert proc.returncode == 0 and "85 elements" in proc.stdout, proc.stderr
    again = tmp_path / "again.jsonl"
    assert labeler("gold", "export", "--gold-set", "demo", "-o", str(again), *db).returncode == 0
    assert final.read_bytes() == as_imported.read_bytes() == again.read_bytes()
    assert len(elements(again)) == 85 and {s for _, _, s in elements(again)} == {"ok"}
