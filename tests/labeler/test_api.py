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
import labeler.api
import labeler.errors
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


def _cli(tmp_path: Path, *argv: str) -> tuple[int, dict[str, Any]]:
    """``labeler ARGV --format json -o FILE``: the exit status and the JSON written."""
    from labeler.cli import main

    out = tmp_path / "cli.json"
    code = main([*argv, "--format", "json", "-o", str(out)])
    data: dict[str, Any] = json.loads(out.read_text())
    return code, data


def test_intervals_equal_the_cli(built: str, tmp_path: Path) -> None:
    """``ci=``/``bootstrap=``/``seed=`` add the intervals ``labeler score --ci`` adds, to
    the byte, for a stored run and the same run in memory."""
    score = ["score", "--gold-set", "g", "--run", "a", "--db", built, "--k", "1,5"]
    _, default = _cli(tmp_path, *score)  # the CLI's default: 0.95, 2000 resamples, seed 0
    _, chosen = _cli(tmp_path, *score, "--ci", "0.8", "--bootstrap", "300", "--seed", "3")
    assert chosen["bootstrap"] == {
        "method": "percentile bootstrap over questions",
        "level": 0.8,
        "resamples": 300,
        "seed": 3,
    }
    assert chosen["ci"] != default["ci"]
    with labeler.open(built) as db:
        gold = db.gold_set("g")
        assert "ci" not in gold.score("a", k=(1, 5)).to_dict()  # the API's default: none
        assert _bytes(gold.score("a", k=(1, 5), ci=0.95).to_dict()) == _bytes(default)
        stored = gold.score("a", k=(1, 5), ci=0.8, bootstrap=300, seed=3)
        memory = gold.score(
            _rows(tmp_path / "a.jsonl"), k=(1, 5), ci=0.8, bootstrap=300, seed=3, name="a"
        )
    assert _bytes(stored.to_dict()) == _bytes(chosen)
    assert _bytes(memory.to_dict()) == _bytes(chosen)


def test_fail_under_raises_what_the_cli_reports(
    built: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``fail_under=`` is ``--fail-under``: a bar equal to the value passes, one above it
    fails; the CLI prints the failures and exits 3, the API raises them (exit code 3)."""
    from labeler.evaluation import QualityGateError, UnknownMetricError

    score = ["score", "--gold-set", "g", "--run", "a", "--db", built, "--k", "1,5", "--ci", "0"]
    _, plain = _cli(tmp_path, *score)
    hit5, mrr1 = plain["metrics"]["hit@5"], plain["metrics"]["mrr@1"]
    assert 0 < mrr1 < hit5 < 1
    capsys.readouterr()
    gate = {"hit@5": hit5, "mrr@1": mrr1 + 0.01, "recall@1": 0.0}
    bars = ",".join(f"{key}={bar!r}" for key, bar in gate.items())
    code, cli = _cli(tmp_path, *score, "--fail-under", bars)
    assert code == 3
    reported = [line for line in capsys.readouterr().err.splitlines() if "is below" in line]
    assert reported == [f"labeler: mrr@1 = {mrr1:.4f} is below {mrr1 + 0.01:g}"]
    with labeler.open(built) as db:
        gold = db.gold_set("g")
        with pytest.raises(QualityGateError) as raised:
            gold.score("a", k=(1, 5), fail_under=gate)
        err = raised.value
        assert err.exit_code == 3
        assert [f"labeler: {failure}" for failure in err.failures] == reported
        assert [(f.metric, f.value, f.bar) for f in err.failures] == [("mrr@1", mrr1, mrr1 + 0.01)]
        assert str(err) == f"quality gate failed: mrr@1 = {mrr1:.4f} is below {mrr1 + 0.01:g}"
        assert isinstance(err.result, labeler.api.Evaluation)
        assert err.result.below == err.failures and not err.result.passed
        assert err.result.to_dict() == cli  # the report the CLI printed before exiting 3
        passed = gold.score("a", k=(1, 5), fail_under={"hit@5": hit5})  # equal: passes
        assert passed.passed and passed.below == ()
        assert passed.to_dict() == plain
        with pytest.raises(UnknownMetricError) as unknown:
            gold.score("a", k=(1, 5), fail_under={"hti@5": 0.8})
        assert str(unknown.value).startswith(
            "fail_under: no metric 'hti@5' (did you mean 'hit@5'?) in this score; "
            "the metrics are hit@1, "
        )
        assert isinstance(unknown.value, labeler.errors.UsageError)


def test_compare_equals_the_cli(built: str, tmp_path: Path) -> None:
    """``GoldSet.compare`` is ``labeler compare``: the same comparison JSON, with the
    delta intervals of ``ci=``."""
    argv = ["compare", "--gold-set", "g", "--run", "a", "--run", "b", "--db", built]
    _, cli = _cli(tmp_path, *argv, "--k", "1,5", "--permutations", "500", "--seed", "2")
    with labeler.open(built) as db:
        got = db.gold_set("g").compare(["a", "b"], k=(1, 5), permutations=500, seed=2, ci=0.95)
        scored = db.gold_set("g").score("b", k=(1, 5))
        with pytest.raises(labeler.errors.UsageError, match="baseline 'c' is not one of"):
            db.gold_set("g").compare(["a", "b"], baseline="c")
    assert got.comparison is not None
    (comparison,) = got.comparison.comparisons
    assert comparison.to_dict() == cli
    assert cli["ci_level"] == 0.95  # intervals of the deltas, the CLI's default level
    assert [ev.result.run for ev in got.evaluations] == ["a", "b"]
    assert got.evaluations[1].to_dict() == scored.to_dict()


#         0         1         2         3         4         5         6
#         0123456789012345678901234567890123456789012345678901234567890
PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta. Theta iota kappa."
A = {"doc": "p.txt", "start": 0, "end": 11, "text": "Alpha beta."}
G = {"doc": "p.txt", "start": 12, "end": 32, "text": "Gamma delta epsilon."}
Z = {"doc": "p.txt", "start": 33, "end": 42, "text": "Zeta eta."}
T = {"doc": "p.txt", "start": 43, "end": 60, "text": "Theta iota kappa."}


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def _line(qid: str, *elements: dict[str, Any]) -> dict[str, Any]:
    return {"query_id": qid, "query": f"question {qid}", "elements": list(elements)}


@pytest.fixture
def team(tmp_path: Path, db_url: str) -> str:
    """Gold set "team" (q1–q4) on p.txt, assigned to ana and bob; ana's layer q1 (G), q2
    (A, Z), q3 (no answer), q4 (T); bob's q1 (G), q2 (A), q3 (no answer). ``adjudicate
    --auto unanimous`` settles q1 (G) and q3 (no element); q2 keeps ana's Z disputed and
    q4 waits for bob, so both stay pending. Run "r" as in test_cli_team."""
    from labeler.cli import main

    page = tmp_path / "p.txt"
    page.write_text(PAGE, encoding="utf-8")
    db = db_url

    def run(*argv: str) -> None:
        assert main([*argv, "--db", db]) == 0

    run("ingest", str(page), "-q")
    gold = _jsonl(tmp_path / "gold.jsonl", [_line(q) for q in ("q1", "q2", "q3", "q4")])
    run("gold", "import", gold, "--gold-set", "team")
    chunks = {
        "q1": ["Alpha beta. Gamma delta", "Gamma delta epsilon. Zeta eta."],
        "q2": ["Zeta eta.", "Alpha beta."],
        "q4": ["Theta iota"],
    }
    results = [{"query_id": q, "results": [{"text": c} for c in cs]} for q, cs in chunks.items()]
    run("run", "import", _jsonl(tmp_path / "run.jsonl", results), "--name", "r", "-q")
    run("gold", "assign", "--gold-set", "team", "--annotators", "ana,bob", "--per-question", "2")
    ana = [_line("q1", G), _line("q2", A, Z), _line("q3"), _line("q4", T)]
    bob = [_line("q1", G), _line("q2", A), _line("q3")]
    for name, rows in (("ana", ana), ("bob", bob)):
        path = _jsonl(tmp_path / f"{name}.jsonl", rows)
        run("gold", "import", path, "--gold-set", "team", "--annotator", name, "--layer")
    run("adjudicate", "--gold-set", "team", "--auto", "unanimous", "--actor", "lead")
    return db


def test_layer_each_equals_the_cli(team: str, tmp_path: Path) -> None:
    """``layer="each"`` is ``--layer each``; the figures worked by hand from the page.

    Final layer: q1 (G) and q3 (settled, no element) scored, q2 and q4 pending. q1: rank 1
    = [0, 23) holds 11 of G's 20 characters (Partial), rank 2 holds G whole → hit@1 0,
    hit@3 1, mrr@3 1/2, recall@3 1; q3 has no element (not a scored query).
    ana (q1, q2, q3, q4 done): q1 as above; q2 (A, Z): Z whole at rank 1, A at rank 2 →
    hit@1 1, hit@3 1, mrr@3 1, recall@3 1; q4 (T): 10 of 17 characters, Partial only → 0.
    hit@1 = 1/3, hit@3 = 2/3, mrr@3 = (1/2 + 1 + 0)/3 = 1/2, recall@3 = 2/3.
    bob (q1, q2, q3 done): q1 as above; q2 (A) whole at rank 2 → hit@1 0, hit@3 1,
    mrr@3 1/2 → hit@1 0, hit@3 1, mrr@3 1/2, recall@3 1 over 2 questions.
    """
    argv = ["score", "--gold-set", "team", "--run", "r", "--db", team, "--k", "1,3"]
    _, cli = _cli(tmp_path, *argv, "--ci", "0", "--layer", "each")
    with labeler.open(team) as db:
        each = db.gold_set("team").score("r", k=(1, 3), layer="each")
        ana = db.gold_set("team").score("r", k=(1, 3), layer="annotator:ana")
        with pytest.raises(labeler.errors.UsageError, match="'cleo' marked no question"):
            db.gold_set("team").score("r", layer="annotator:cleo")
        with pytest.raises(labeler.errors.UsageError, match="expected final, each or anno"):
            db.gold_set("team").score("r", layer="everyone")
    assert _bytes(each.to_dict()) == _bytes(cli)
    assert [name for name, _ in each.layers] == ["final", "annotator:ana", "annotator:bob"]
    assert each.pending == ("q2", "q4") and each.layer == "final"
    worked = {
        "final": (1, 0.0, 1.0, 0.5, 1.0),
        "annotator:ana": (3, 1 / 3, 2 / 3, 1 / 2, 2 / 3),
        "annotator:bob": (2, 0.0, 1.0, 0.5, 1.0),
    }
    for name, result in each.layers:
        m = result.metrics
        got = (result.questions, m["hit@1"], m["hit@3"], m["mrr@3"], m["recall@3"])
        assert got == pytest.approx(worked[name]), name
    assert ana.layer == "annotator:ana" and ana.layers == ()
    assert ana.metrics == dict(each.layers)["annotator:ana"].metrics
