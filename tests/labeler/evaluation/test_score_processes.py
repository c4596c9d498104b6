"""Scoring in several processes (``--jobs``) gives exactly the one-process result.

A real database of corpus pages, a seeded gold set (questions with one to three elements,
questions without elements, repeated elements, elements on two pages) and a run cut from
the pages (chunks holding elements whole or in part, chunks from other pages, questions
missing from the run, run lines for questions not in the gold set).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from _scoring_db import build

from labeler.cli import main
from labeler.evaluation import _shards as shards
from labeler.evaluation import load_gold, open_source, plan_processes, score_in_processes, split_ids
from labeler.store.fastread import SqliteReader
from scoring import aggregate, score_run


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    return build(tmp_path_factory.mktemp("shards"))


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    capsys.readouterr()
    assert main([*args, "--format", "json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("jobs", ["2", "3", "7"])
def test_score_in_processes_equals_one_process(
    db: str, jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["score", "--gold-set", "g", "--run", "a", "--k", "1,3,5,10", "--db", db]
    one = cli_json(capsys, *common, "--jobs", "1")
    many = cli_json(capsys, *common, "--jobs", jobs)
    assert many == one
    # the data covers what the merge has to get right
    assert one["missing_from_run"]["count"] > 0  # type: ignore[index]
    assert one["unknown_in_run"]["query_ids"] == ["extra-a"]  # type: ignore[index]
    assert one["without_elements"]["count"] == 6  # type: ignore[index]
    assert set(one["by_n_gold"]) == {"1", "2", "3+"}  # type: ignore[arg-type]
    flags = one["flags"]
    assert flags["fallback"] and flags["repeated"] >= 0  # type: ignore[index]


def test_compare_in_processes_equals_one_process(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["compare", "--gold-set", "g", "--run", "a", "--run", "b", "--db", db]
    common += ["--permutations", "500"]
    assert cli_json(capsys, *common, "--jobs", "2") == cli_json(capsys, *common, "--jobs", "1")


def test_console_process_writes_everything_before_its_fast_exit(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["score", "--gold-set", "g", "--run", "a", "--db", db, "--format", "json"]
    capsys.readouterr()
    assert main(args) == 0
    in_process = capsys.readouterr().out
    for jobs in ("1", "2"):
        proc = subprocess.run(
            [sys.executable, "-m", "labeler", *args, "--jobs", jobs],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == in_process
        assert "missing from the run scored 0" in proc.stderr


def test_a_failed_process_is_redone_in_the_parent(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The parent's connection stays open on the file; the forked processes cannot open the
    # moved-away path, fail, and the parent scores their ranges itself.
    outcomes: list[bool] = []
    collect = shards._collect

    def watched(pid: int, fd: int, *merge: Any) -> Any:
        payload = collect(pid, fd, *merge)
        outcomes.append(payload is not None)
        return payload

    monkeypatch.setattr(shards, "_collect", watched)
    copy = tmp_path / "copy.db"
    with closing(sqlite3.connect(db)) as src, closing(sqlite3.connect(copy)) as dst:
        src.backup(dst)  # the WAL's pages too
    reader = SqliteReader(copy)
    questions, pages, _ = load_gold(reader, "g")
    expected = score_run(questions, pages, open_reader_run(copy, "a"), ks=(1, 5))
    copy.rename(tmp_path / "gone.db")
    rows, ids = score_in_processes(
        reader, questions, pages, "a", ks=(1, 5), threshold=0.5, processes=3
    )
    reader.close()
    assert outcomes == [False, False]
    assert aggregate(questions, rows, ids, ks=(1, 5)) == expected


def test_rows_sent_cut_short_are_put_again_by_the_parent(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that dies halfway through sending its rows (here: after its ids, first
    columns and half of its values) leaves rows merged in part; the parent scores that
    range itself and puts every row again: the result is the one-process result."""
    from scoring.querytable import QueryTable

    whole = QueryTable.parts

    def cut_short(self: QueryTable) -> Any:
        parts = whole(self)
        for _ in range(5 + len(self.keys) // 2):
            yield next(parts)
        raise SystemExit(1)

    outcomes: list[bool] = []
    collect = shards._collect

    def watched(pid: int, fd: int, *merge: Any) -> Any:
        payload = collect(pid, fd, *merge)
        outcomes.append(payload is not None)
        return payload

    monkeypatch.setattr(QueryTable, "parts", cut_short)
    monkeypatch.setattr(shards, "_collect", watched)
    reader = SqliteReader(Path(db))
    questions, pages, _ = load_gold(reader, "g")
    expected = score_run(questions, pages, open_reader_run(Path(db), "a"), ks=(1, 5))
    rows, ids = score_in_processes(
        reader, questions, pages, "a", ks=(1, 5), threshold=0.5, processes=3
    )
    reader.close()
    assert outcomes == [False, False]
    assert aggregate(questions, rows, ids, ks=(1, 5)) == expected


def open_reader_run(path: Path, run: str) -> dict[str, list[object]]:
    from labeler.evaluation import load_run

    source = open_source(str(path))
    try:
        return load_run(source, run)  # type: ignore[return-value]
    finally:
        source.close()


def test_unknown_run_fails_before_any_process(db: str) -> None:
    from labeler.errors import NotFoundError

    reader = SqliteReader(Path(db))
    questions, pages, _ = load_gold(reader, "g")
    with pytest.raises(NotFoundError, match="no run 'nope'"):
        score_in_processes(reader, questions, pages, "nope", ks=(1,), threshold=0.5, processes=2)
    reader.close()


def test_plan_processes() -> None:
    assert plan_processes(1, 10_000) == 1
    assert plan_processes(4, 3) == 3  # at most one process per question
    assert plan_processes(4, 1) == 1
    assert plan_processes(None, 100) == 1  # too few questions to pay for a fork
    assert 1 <= plan_processes(None, 100_000) <= 64


@pytest.mark.parametrize("parts", [1, 2, 3, 5, 40])
def test_split_ids_cover_every_id_once(parts: int) -> None:
    ids = [f"q{i}" for i in range(0, 37, 2)] + ["", "é", "Z"]
    ranges = split_ids(ids, parts)
    assert ranges[0][0] is None and ranges[-1][1] is None
    for (_, until), (since, _) in pairwise(ranges):
        assert until == since is not None
    probes = [*ids, "q1", "q99", "a", "\U0001f600"]
    for qid in probes:
        inside = [
            r for r in ranges if (r[0] is None or qid >= r[0]) and (r[1] is None or qid < r[1])
        ]
        assert len(inside) == 1
    assert len(ranges) == min(parts, len(set(ids)))


@pytest.mark.parametrize("bad", ["0", "-2", "two"])
def test_bad_jobs_value_is_a_usage_error(
    db: str, bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["score", "--gold-set", "g", "--run", "a", "--db", db, "--jobs", bad])
    assert exit_info.value.code == 2
    assert "--jobs" in capsys.readouterr().err


def test_a_process_that_cannot_start_is_done_in_the_parent(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fault injection: the system refuses to fork (a process limit); the parent scores
    # every range itself and the result is the same.
    reader = SqliteReader(Path(db))
    questions, pages, _ = load_gold(reader, "g")
    expected = aggregate(
        questions,
        *score_in_processes(reader, questions, pages, "a", ks=(1, 5), threshold=0.5, processes=1),
        ks=(1, 5),
    )

    def refuse() -> int:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(shards.os, "fork", refuse)
    rows, ids = score_in_processes(
        reader, questions, pages, "a", ks=(1, 5), threshold=0.5, processes=3
    )
    reader.close()
    assert aggregate(questions, rows, ids, ks=(1, 5)) == expected
