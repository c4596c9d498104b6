"""A gold set or run name that is not in the database: the error lists the names that are
("no gold set 'x' in the database (gold sets: a, b)"), or says there are none yet; the
same for runs, through every command that looks one up, on both backends (scoring on
SQLite reads through its own reader)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.cli import main
from labeler.errors import NotFoundError, not_found
from labeler.store import Store, create_gold_set

pytestmark = pytest.mark.backends("sqlite", "postgresql")


@pytest.fixture
def two_sets(store: Store, db_url: str) -> str:
    with store.write() as session:
        create_gold_set(session, "zeta")
        create_gold_set(session, "alpha")
    return db_url


@pytest.mark.parametrize(
    "command",
    [
        ["gold", "export", "--gold-set", "nope"],
        ["score", "--gold-set", "nope", "--run", "r"],
        ["chunks", "audit", "unused.jsonl", "--gold-set", "nope"],
        ["evaluate", "--gold-set", "nope", "--retriever", "not_imported:ever"],
    ],
    ids=["export", "score", "audit", "evaluate"],
)
def test_unknown_gold_set_lists_the_gold_sets(
    two_sets: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--db", two_sets]) == 1
    err = capsys.readouterr().err
    assert "labeler: error: no gold set 'nope' in the database (gold sets: alpha, zeta)\n" in err


def test_unknown_gold_set_in_an_empty_database(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["gold", "export", "--gold-set", "nope", "--db", db_url]) == 1
    err = capsys.readouterr().err
    assert err == "labeler: error: no gold set 'nope' in the database (no gold sets yet)\n"


def test_unknown_run_lists_the_runs(
    two_sets: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "--gold-set", "alpha", "--run", "r0", "--db", two_sets]) == 1
    assert capsys.readouterr().err == (
        "labeler: error: no run 'r0' in the database (no runs imported yet)\n"
    )
    rows = tmp_path / "run.jsonl"
    rows.write_text(json.dumps({"query_id": "q", "results": [{"text": "x"}]}) + "\n")
    for name in ("r2", "r1"):
        assert main(["run", "import", str(rows), "--name", name, "-q", "--db", two_sets]) == 0
    capsys.readouterr()
    assert main(["score", "--gold-set", "alpha", "--run", "r0", "--db", two_sets]) == 1
    assert capsys.readouterr().err == (
        "labeler: error: no run 'r0' in the database (runs: r1, r2)\n"
    )
    assert main(["run", "place", "--name", "r0", "--db", two_sets]) == 1
    assert "(runs: r1, r2)" in capsys.readouterr().err


@pytest.mark.backends("sqlite")
def test_a_long_list_is_cut_after_twenty_names() -> None:
    names = [f"s{i:02}" for i in range(25)]
    err = not_found("gold set", "x", names)
    assert isinstance(err, NotFoundError)
    assert str(err) == (
        "no gold set 'x' in the database (gold sets: s00, s01, s02, s03, s04, s05, s06, s07, "
        "s08, s09, s10, s11, s12, s13, s14, s15, s16, s17, s18, s19, ... and 5 more)"
    )
