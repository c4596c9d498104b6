"""``labeler score``: bootstrap intervals on every metric (``--ci``) and the quality gate
(``--fail-under``); ``labeler compare`` of several runs against a baseline. Through the
CLI on a real database."""

from __future__ import annotations

import json
from typing import Any

import pytest
from _scoring_db import build

from labeler.cli import main
from labeler.cli.score_cmd import BELOW_BAR


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    work = tmp_path_factory.mktemp("ci")
    db = build(work)
    # run "c": run a again under another name (every delta against a is 0)
    assert main(["run", "import", str(work / "a.jsonl"), "--name", "c", "--db", db, "-q"]) == 0
    return db


SCORE = ["score", "--gold-set", "g", "--run", "a", "--k", "1,5"]


def score_json(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> dict[str, object]:
    capsys.readouterr()
    assert main([*SCORE, "--db", db, "--format", "json", *extra]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_intervals_by_default_and_off_with_ci_0(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data = score_json(capsys, db)
    metrics = data["metrics"]
    ci = data["ci"]
    assert isinstance(metrics, dict) and isinstance(ci, dict)
    assert set(ci) == set(metrics)
    for key, (low, high) in ci.items():
        assert 0.0 <= low <= metrics[key] <= high <= 1.0, key
    assert data["bootstrap"] == {
        "method": "percentile bootstrap over questions",
        "level": 0.95,
        "resamples": 2000,
        "seed": 0,
    }
    assert score_json(capsys, db) == data  # seeded: the same intervals every time
    other = score_json(capsys, db, "--seed", "1", "--ci", "0.8", "--bootstrap", "500")
    assert other["ci"] != ci and other["metrics"] == metrics
    off = score_json(capsys, db, "--ci", "0")
    assert "ci" not in off and "bootstrap" not in off
    assert off["metrics"] == metrics


def test_table_shows_value_and_interval(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    ci = score_json(capsys, db)["ci"]
    metrics = score_json(capsys, db)["metrics"]
    assert isinstance(ci, dict) and isinstance(metrics, dict)
    assert main([*SCORE, "--db", db]) == 0
    out = capsys.readouterr().out
    low, high = ci["hit@5"]
    assert f"{metrics['hit@5']:.3f} [{low:.3f}, {high:.3f}]" in out
    assert "95% percentile bootstrap interval over the questions (2000 resamples" in out
    assert main([*SCORE, "--db", db, "--ci", "0"]) == 0
    assert "[" not in capsys.readouterr().out.split("partial−hit gap")[0]


def test_fail_under_exits_3_after_the_report(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    metrics = score_json(capsys, db, "--ci", "0")["metrics"]
    assert isinstance(metrics, dict)
    hit5, mrr1 = metrics["hit@5"], metrics["mrr@1"]
    assert 0 < mrr1 < hit5 < 1
    # a bar equal to the value passes; one above it fails
    gate = f"hit@5={hit5!r},mrr@1={mrr1 + 0.01!r},recall@1=0"
    assert main([*SCORE, "--db", db, "--ci", "0", "--fail-under", gate]) == BELOW_BAR == 3
    captured = capsys.readouterr()
    assert "metric" in captured.out and "Worst questions first" in captured.out
    failing = [line for line in captured.err.splitlines() if "is below" in line]
    assert failing == [f"labeler: mrr@1 = {mrr1:.4f} is below {mrr1 + 0.01:g}"]
    assert main([*SCORE, "--db", db, "--ci", "0", "--fail-under", f"hit@5={hit5!r}"]) == 0
    assert "is below" not in capsys.readouterr().err


def test_fail_under_unknown_metric_is_a_usage_error(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*SCORE, "--db", db, "--fail-under", "hti@5=0.8"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # refused before any report
    assert "--fail-under: no metric 'hti@5' (did you mean 'hit@5'?)" in captured.err
    assert main([*SCORE, "--db", db, "--fail-under", "hit@3=0.8"]) == 2  # k not scored
    assert "no metric 'hit@3'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main([*SCORE, "--db", db, "--fail-under", "hit@5"])
    assert exit_info.value.code == 2
    assert "expected METRIC=VALUE" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main([*SCORE, "--db", db, "--ci", "1"])
    assert "confidence level must be in [0, 1)" in capsys.readouterr().err


def compare_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["compare", "--gold-set", "g", "--k", "1,5", "--format", "json", *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_compare_several_runs_against_the_first(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--permutations", "2000", "--db", db]
    multi = compare_json(capsys, "--run", "a", "--run", "b", "--run", "c", *common)
    assert multi["baseline"] == "a" and multi["runs"] == ["b", "c"]
    assert multi["correction"] == "holm"
    vs_b, vs_c = multi["comparisons"]
    assert (vs_b["run_a"], vs_b["run_b"], vs_c["run_b"]) == ("a", "b", "c")
    for key, m in vs_c["metrics"].items():  # c is a again: nothing moves
        assert m["delta"] == 0 and m["p_value"] == 1.0 and m["p_holm"] == 1.0, key
        assert m["delta_ci"] == [0.0, 0.0]
    # the pair alone: the same test, Holm over two comparisons (the other p is 1)
    pair = compare_json(capsys, "--run", "a", "--run", "b", *common)
    assert "baseline" not in pair and pair["run_b"] == "b"  # two runs: one comparison
    for key, m in vs_b["metrics"].items():
        alone = pair["metrics"][key]
        assert m["p_value"] == alone["p_value"] and "p_holm" not in alone
        assert m["p_holm"] == min(1.0, 2 * m["p_value"]), key
        low, high = m["delta_ci"]
        assert m["delta_ci"] == alone["delta_ci"] and low <= m["delta"] <= high
    assert pair["ci_level"] == 0.95
    # --baseline picks another run (and need not be among the --run options)
    other = compare_json(capsys, "--run", "a", "--run", "c", "--baseline", "b", *common)
    assert other["baseline"] == "b" and other["runs"] == ["a", "c"]
    # with --ci 0 no intervals
    bare = compare_json(capsys, "--run", "a", "--run", "b", "--ci", "0", *common)
    assert all("delta_ci" not in m for m in bare["metrics"].values())
    assert (
        main(["compare", "--gold-set", "g", "--run", "a", "--run", "b", "--run", "c", *common]) == 0
    )
    out = capsys.readouterr().out
    assert "b vs a on g" in out and "c vs a on g" in out and "p_holm" in out
    assert "Holm's correction" in out


def test_compare_refuses_a_run_given_twice_or_alone(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", "--gold-set", "g", "--run", "a", "--run", "a", "--db", db]) == 2
    assert "run 'a' is given twice" in capsys.readouterr().err
    assert main(["compare", "--gold-set", "g", "--run", "a", "--db", db]) == 2
    assert "two or more runs" in capsys.readouterr().err
    assert main(["compare", "--gold-set", "g", "--run", "a", "--baseline", "a", "--db", db]) == 2


def test_compare_several_runs_as_html_and_markdown(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", "--gold-set", "g", "--run", "a", "--run", "b", "--run", "c"]
    args += ["--k", "1", "--permutations", "200", "--db", db]
    capsys.readouterr()
    assert main([*args, "--format", "html"]) == 0
    page = capsys.readouterr().out
    assert page.count("<svg") == 2  # one chart per comparison
    assert "<h2>b vs a</h2>" in page and "<h2>c vs a</h2>" in page
    assert "<title>b, c vs a on g</title>" in page and "<th>p_holm</th>" in page
    assert main([*args, "--format", "markdown"]) == 0
    report = capsys.readouterr().out
    assert "## b vs a on g" in report and "## c vs a on g" in report
    assert "| metric | a | b | delta | better | worse | p_value | p_holm |" in report
