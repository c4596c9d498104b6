"""``labeler demo --no-tui`` end to end in a temporary folder, run twice (build, then reuse)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.demo import CORPUS, demo_pages

DEMO = CORPUS / "gold" / "demo.jsonl"
LABELER = [sys.executable, "-m", "labeler"]


def demo(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LABELER, "demo", "--no-tui", "-o", str(out), *extra],
        capture_output=True,
        text=True,
        cwd=out.parent,
    )


@pytest.fixture(scope="module")
def built(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, subprocess.CompletedProcess[str]]:
    out = tmp_path_factory.mktemp("demo") / "out"
    proc = demo(out)
    assert proc.returncode == 0, proc.stderr
    return out, proc


def test_report_names_both_runs_and_compares_them(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    _, proc = built
    assert "fixed-800 on demo" in proc.stdout
    assert "structure on demo" in proc.stdout
    assert "structure vs fixed-800 on demo" in proc.stdout
    assert "Partial − Hit gap" in proc.stdout
    assert "Traceback" not in proc.stderr
    # both runs side by side at each default budget (500, 1000, 2000 tokens)
    budgets = proc.stdout.split("At equal token budgets (words tokens)")[1]
    for budget in ("500t", "1000t", "2000t"):
        rows = [line for line in budgets.splitlines() if line.startswith(budget + " ")]
        assert [row.split()[1] for row in rows] == ["fixed-800", "structure"]


def test_database_holds_the_gold_set_and_both_runs(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    out, _ = built
    questions = len(DEMO.read_text(encoding="utf-8").splitlines())
    with sqlite3.connect(out / "demo.db") as con:
        (stored,) = con.execute(
            "SELECT count(*) FROM query q JOIN gold_set g ON g.id = q.gold_set_id "
            "WHERE g.name = 'demo'"
        ).fetchone()
        runs = dict(
            con.execute(
                "SELECT r.name, count(DISTINCT x.query_external_id) FROM run r "
                "JOIN run_result x ON x.run_id = r.id GROUP BY r.name"
            ).fetchall()
        )
        docs = {doc for (doc,) in con.execute("SELECT id FROM document")}
    assert stored == questions
    assert set(runs) == {"fixed-800", "structure"}
    assert all(n > questions * 0.9 for n in runs.values())  # nearly every question retrieves
    first = json.loads((out / "fixed-800.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert first["results"] and {"text", "doc", "score"} <= set(first["results"][0])
    # the structure run came through `labeler evaluate` with the BM25 retriever over the
    # chunk file the demo wrote; its answers hold the retriever's doc and score
    chunk = json.loads((out / "structure-chunks.jsonl").read_text(encoding="utf-8").split("\n")[0])
    assert {"doc", "text", "start", "end"} == set(chunk)
    with sqlite3.connect(out / "demo.db") as con:
        (params,) = con.execute("SELECT parameters FROM run WHERE name = 'structure'").fetchone()
        (scored,) = con.execute(
            "SELECT count(*) FROM run_result x JOIN run r ON r.id = x.run_id "
            "WHERE r.name = 'structure' AND x.doc_id IS NOT NULL AND x.score > 0"
        ).fetchone()
    assert json.loads(params)["retriever"] == "labeler.evaluation:bm25_retriever"
    assert json.loads(params)["failed"] == 0
    assert scored > 0
    cited = {
        e["doc"] for line in DEMO.read_text().splitlines() for e in json.loads(line)["elements"]
    }
    assert cited <= docs == set(demo_pages(CORPUS, sorted(cited)))
    assert 40 < len(docs) < 100  # the cited pages plus a few dozen others, not the corpus


def test_second_run_reuses_the_database(
    built: tuple[Path, subprocess.CompletedProcess[str]],
) -> None:
    out, first = built
    proc = demo(out)
    assert proc.returncode == 0, proc.stderr
    assert "0 added, 0 updated" in proc.stderr
    assert proc.stdout == first.stdout  # deterministic: same runs, same scores


def test_bad_size_is_a_usage_error(tmp_path: Path) -> None:
    proc = demo(tmp_path / "out", "--size", "0")
    assert proc.returncode == 2
    assert "positive integer" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_rerun_refuses_to_drop_labels_added_to_the_demo_set(
    built: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """A label added in the demo's database is not wiped by the demo's next run."""
    from labeler.store import add_element, add_query, get_gold_set, open_store

    out, _ = built
    db = tmp_path / "copy.db"
    with sqlite3.connect(out / "demo.db") as source, sqlite3.connect(db) as copy:
        source.backup(copy)
    with open_store(str(db)) as store, store.write() as s:
        query = add_query(s, get_gold_set(s, "demo"), "mine", "My question?", actor="ana")
        add_element(s, query, "foreignkeys.html", 0, 7, annotator="ana")
    before = db.read_bytes()
    proc = demo(tmp_path / "again", "--db", str(db))
    assert proc.returncode == 1
    assert "replacing it would remove 1 element(s)" in proc.stderr
    assert "  mine foreignkeys.html [0:7]" in proc.stderr
    assert "The demo rebuilds gold set 'demo'" in proc.stderr and "--force" not in proc.stderr
    assert db.read_bytes() == before
