"""The Python API (``labeler.open``) on both backends, against the CLI's own results."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from _scoring_db import build

import labeler
from labeler.errors import InputError, NotFoundError
from labeler.store import open_store

pytestmark = pytest.mark.backends("sqlite", "postgresql")


def _rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return {line["query_id"]: line["results"] for line in lines}


def _bytes(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=False)


@pytest.fixture
def built(tmp_path: Path, db_url: str) -> str:
    open_store(db_url).close()
    return build(tmp_path, db=db_url)


def test_in_memory_run_scores_as_the_stored_run(built: str, tmp_path: Path) -> None:
    rows = _rows(tmp_path / "a.jsonl")  # as imported by `labeler run import` in build()
    assert list(rows)[-1] == "extra-a"  # a question not in the gold set, listed as unknown
    with labeler.open(built) as db:
        gold = db.gold_set("g")
        stored = gold.score("a", k=(1, 3, 10), threshold=0.4)
        memory = gold.score(rows, k=(1, 3, 10), threshold=0.4, name="a")
        assert _bytes(memory.to_dict()) == _bytes(stored.to_dict())
        assert stored.to_dict()["missing_from_run"]["count"] > 0
        assert stored.to_dict()["unknown_in_run"]["query_ids"] == ["extra-a"]
        # imported through the API and scored from the store: the same bytes again
        report = db.import_run("c", rows)
        assert report.questions == len(rows)
        again = gold.score("c", k=(1, 3, 10), threshold=0.4)
        assert _bytes(again.to_dict()) == _bytes(
            gold.score(rows, k=(1, 3, 10), threshold=0.4, name="c").to_dict()
        )
        assert again.metrics == stored.metrics


def test_score_equals_the_cli_json(built: str, tmp_path: Path) -> None:
    out = tmp_path / "score.json"
    from labeler.cli import main

    code = main(
        [
            "score",
            "--gold-set",
            "g",
            "--run",
            "b",
            "--db",
            built,
            "--format",
            "json",
            "-o",
            str(out),
            "--k",
            "1,5",
            "--ci",
            "0",  # the CLI adds bootstrap intervals on top of the same scoring
        ]
    )
    assert code == 0
    with labeler.open(built) as db:
        score = db.gold_set("g").score("b", k=(1, 5))
    assert json.loads(out.read_text()) == score.to_dict()
    assert [q.query_id for q in score.per_query] == [
        row["query_id"] for row in json.loads(out.read_text())["per_query"]
    ]


def test_listing_questions_runs_and_gold_sets(built: str, tmp_path: Path) -> None:
    gold_lines = [json.loads(line) for line in (tmp_path / "gold.jsonl").read_text().splitlines()]
    with labeler.open(built) as db:
        (gs,) = db.gold_sets()
        assert (gs.name, gs.questions) == ("g", len(gold_lines))
        assert [r.name for r in db.runs()] == ["a", "b"]
        questions = db.gold_set("g").questions()
        assert sorted(q.query_id for q in questions) == sorted(g["query_id"] for g in gold_lines)
        by_id = {q.query_id: q for q in questions}
        for line in gold_lines:
            assert [e.text for e in by_id[line["query_id"]].elements] == [
                e["text"] for e in line["elements"]
            ]
        with pytest.raises(
            NotFoundError, match=r"no gold set 'nope' in the database \(gold sets: g\)"
        ):
            db.gold_set("nope")


def test_bad_rows_name_the_question_and_write_nothing(built: str) -> None:
    with labeler.open(built) as db:
        with pytest.raises(InputError, match=r"rows: query 'q001': result 2: a result of type"):
            db.import_run("bad", {"q001": ["fine", object()]})
        with pytest.raises(InputError, match=r"query 'q001': result 1: score .* not a finite"):
            db.import_run("bad", {"q001": [{"text": "x", "score": float("nan")}]})
        assert [r.name for r in db.runs()] == ["a", "b"]


@pytest.mark.backends("sqlite")
def test_to_pandas_holds_the_per_query_rows(built: str, tmp_path: Path) -> None:
    with labeler.open(built) as db:
        score = db.gold_set("g").score("a", k=(1, 4))
    frame = score.to_pandas()
    assert list(frame["query_id"]) == [q.query_id for q in score.per_query]
    assert list(frame["hit@4"]) == [q.values["hit@4"] for q in score.per_query]
    assert list(frame["diagnosis@1"]) == [str(q.diagnoses[1].kind) for q in score.per_query]
    assert frame["recall@4"].mean() == pytest.approx(score.metrics["recall@4"])


@pytest.mark.backends("sqlite")
def test_import_labeler_stays_light() -> None:
    code = (
        "import sys, labeler; "
        "print(sorted(m for m in ('sqlalchemy', 'pandas', 'labeler.api', 'textual') "
        "if m in sys.modules)); labeler.open; print('labeler.api' in sys.modules, "
        "'pandas' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "True False"]


@pytest.mark.backends("sqlite")
def test_pandas_is_imported_by_to_pandas_alone(built: str) -> None:
    code = (
        "import sys, labeler\n"
        f"db = labeler.open({built!r})\n"
        "score = db.gold_set('g').score('a')\n"
        "print('pandas' in sys.modules)\n"
        "sys.modules['pandas'] = None  # as if the optional extra were not installed\n"
        "try:\n"
        "    score.to_pandas()\n"
        "except Exception as err:\n"
        "    print(type(err).__name__, err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "False",
        "UsageError to_pandas() needs pandas: pip install 'goldlabeler[pandas]'",
    ]


def test_budgets_in_memory_equal_the_cli_with_budgets(built: str, tmp_path: Path) -> None:
    """``budget=`` scores what ``labeler score --budget`` scores, stored or in memory."""
    from labeler.cli import main

    out = tmp_path / "budget.json"
    code = main(
        [
            "score",
            "--gold-set",
            "g",
            "--run",
            "a",
            "--db",
            built,
            "--format",
            "json",
            "-o",
            str(out),
            "--k",
            "1,3",
            "--budget",
            "20,200",
            "--ci",
            "0",
        ]
    )
    assert code == 0
    cli = json.loads(out.read_text())
    assert "hit@20t" in cli["metrics"] and "tokens@1" in cli["metrics"]
    with labeler.open(built) as db:
        gold = db.gold_set("g")
        stored = gold.score("a", k=(1, 3), budget=(200, 20))
        memory = gold.score(_rows(tmp_path / "a.jsonl"), k=(1, 3), budget=(20, 200), name="a")
    assert stored.to_dict() == cli
    assert _bytes(memory.to_dict()) == _bytes(stored.to_dict())
