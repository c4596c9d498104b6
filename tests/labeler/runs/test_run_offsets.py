"""Run results with offsets through run import, storage and scoring, on both backends.

The hand-worked page repeats a sentence; the expected values are worked out by hand. On the
generated corpus the score with offsets is compared with and without stored placements, and
with ``scoring.score_run`` given the same chunks in memory.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _scoring_db import build
from sqlalchemy import delete, select

from labeler.cli import main
from labeler.evaluation import load_gold
from labeler.store import open_store
from labeler.store.models import RunPlacement, RunResult
from scoring import Chunk, score_run

pytestmark = pytest.mark.backends("sqlite", "postgresql")

# "Beta one." is at 7..16 and again at 24..33; the element "Beta one. Delta" is at 24..39.
PAGE = "Alpha. Beta one. Gamma. Beta one. Delta end."


def score_json(db: str, capsys: pytest.CaptureFixture[str], run: str, k: str = "1") -> Any:
    capsys.readouterr()
    args = ["score", "--gold-set", "g", "--run", run, "--k", k, "--format", "json"]
    assert main([*args, "--db", db, "--jobs", "1"]) == 0
    return json.loads(capsys.readouterr().out)


def drop_placements(db: str) -> None:
    store = open_store(db)
    try:
        with store.write() as session:
            session.execute(delete(RunPlacement))
    finally:
        store.close()


def import_run(db: str, tmp_path: Path, name: str, results: list[dict[str, Any]]) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_text(json.dumps({"query_id": "q", "results": results}) + "\n")
    assert main(["run", "import", str(path), "--name", name, "--db", db, "-q"]) == 0


@pytest.fixture()
def page_db(db_url: str, tmp_path: Path) -> str:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "p.txt").write_text(PAGE, encoding="utf-8")
    assert main(["ingest", str(docs), "--db", db_url, "-q"]) == 0
    gold = tmp_path / "gold.jsonl"
    element = {"doc": "p.txt", "start": 24, "end": 39, "text": "Beta one. Delta"}
    gold.write_text(json.dumps({"query_id": "q", "query": "beta?", "elements": [element]}))
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db_url]) == 0
    return db_url


def test_a_chunk_at_the_second_copy_scores_there_through_import(
    page_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import_run(
        page_db, tmp_path, "at", [{"text": "Beta one.", "doc": "p.txt", "start": 24, "end": 33}]
    )
    import_run(page_db, tmp_path, "plain", [{"text": "Beta one.", "doc": "p.txt"}])
    store = open_store(page_db)
    try:
        with store.session() as session:
            stored = session.execute(
                select(RunResult.chunk_start, RunResult.chunk_end).order_by(RunResult.run_id)
            ).all()
    finally:
        store.close()
    assert [tuple(r) for r in stored] == [(24, 33), (None, None)]
    at = score_json(page_db, capsys, "at")
    # 9 of the element's 15 code points, the chunk all inside it
    assert at["metrics"]["partial@1"] == 1.0
    assert at["metrics"]["hit@1"] == 0.0
    assert at["metrics"]["span_recall@1"] == 9 / 15
    assert at["metrics"]["span_precision@1"] == 1.0
    assert at["flags"]["chunk_repeated"] == at["flags"]["offset_mismatch"] == 0
    plain = score_json(page_db, capsys, "plain")
    assert plain["metrics"]["partial@1"] == plain["metrics"]["span_recall@1"] == 0.0
    assert plain["flags"]["chunk_repeated"] == 1
    drop_placements(page_db)
    assert score_json(page_db, capsys, "at") == at


def test_offsets_that_miss_the_text_are_counted_at_import_and_in_the_score(
    page_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    results = [
        {"text": "Beta one.", "doc": "p.txt", "start": 0, "end": 9},  # "Alpha. Be"
        {"text": "Gamma.", "doc": "p.txt", "start": 17, "end": 23},  # right
        {"text": "Alpha.", "doc": "elsewhere", "start": 0, "end": 6},  # page not stored
    ]
    import_run(page_db, tmp_path, "off", results)
    err = capsys.readouterr().err
    assert "1 result with offsets that do not hold their text" in err
    assert "offset_mismatch" in err
    scored = score_json(page_db, capsys, "off", "3")
    assert scored["flags"]["offset_mismatch"] == 1
    assert scored["per_query"][0]["flags"]["offset_mismatch"] == 1
    assert scored["metrics"]["partial@3"] == 0.0  # placed by its text: the first copy
    capsys.readouterr()
    assert main(["score", "--gold-set", "g", "--run", "off", "--k", "3", "--db", page_db]) == 0
    report = capsys.readouterr().out
    assert "offset_mismatch" in report
    assert "do not point at its text" in report


def test_offsets_score_the_same_with_and_without_placements_and_in_memory(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(tmp_path, db=db_url, offsets=True)
    with_placements = score_json(db_url, capsys, "a", "1,3,10")
    assert with_placements["flags"]["offset_mismatch"] > 10
    drop_placements(db_url)
    assert score_json(db_url, capsys, "a", "1,3,10") == with_placements
    store = open_store(db_url)
    try:
        questions, pages, _ = load_gold(store, "g")
    finally:
        store.close()
    run: dict[str, list[Chunk]] = {}
    for line in (tmp_path / "a.jsonl").read_text().splitlines():
        obj = json.loads(line)
        run[obj["query_id"]] = [
            Chunk(r["text"], r.get("doc"), None, r.get("start"), r.get("end"))
            for r in obj["results"]
        ]
    memory = score_run(questions, pages, run, ks=[1, 3, 10])
    assert memory.metrics == with_placements["metrics"]
    assert memory.flags.to_dict() == with_placements["flags"]
