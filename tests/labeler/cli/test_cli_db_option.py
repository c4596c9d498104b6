"""``--db`` before the command works as well as after it: ``labeler --db PATH COMMAND ...``,
``labeler COMMAND --db PATH``, ``labeler gold --db PATH list``; after the command wins when
both are given; ``labeler --db PATH`` alone is the TUI on that database."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.cli import parse_arguments, tui_cmd
from labeler.store import Store, create_gold_set


@pytest.mark.parametrize(
    "argv",
    [
        ["--db", "x.db", "gold", "list"],
        ["gold", "list", "--db", "x.db"],
        ["gold", "--db", "x.db", "list"],
        ["--db=x.db", "gold", "list"],
        ["--db", "other.db", "gold", "list", "--db", "x.db"],  # after the command wins
        ["--db", "other.db", "gold", "--db", "x.db", "list"],
    ],
)
def test_db_anywhere_before_or_after_the_command(argv: list[str]) -> None:
    args = parse_arguments(argv)
    assert (args.command, args.gold_command, args.db) == ("gold", "list", "x.db")


@pytest.mark.parametrize(
    "argv",
    [
        ["--db", "x.db", "score", "--gold-set", "g", "--run", "r"],
        ["--db", "x.db", "run", "import", "r.jsonl", "--name", "r"],
        ["--db", "x.db", "ingest", "docs"],
        ["--db", "x.db", "doctor"],
        ["--db", "x.db", "chunks", "audit", "c.jsonl", "--gold-set", "g"],
    ],
)
def test_db_before_every_kind_of_command(argv: list[str]) -> None:
    assert parse_arguments(argv).db == "x.db"


def test_no_db_anywhere_is_none() -> None:
    # None: the command then takes $LABELER_DB, else ./labels.db (resolve_db)
    assert parse_arguments(["gold", "list"]).db is None
    assert parse_arguments([]).db is None


def test_db_alone_opens_the_tui_on_that_database() -> None:
    args = parse_arguments(["--db", "x.db"])
    assert (args.command, args.db, args.handler) == ("tui", "x.db", tui_cmd.run)
    args = parse_arguments(["--db", "x.db", "tui", "--gold-set", "g"])
    assert (args.command, args.db, args.gold_set) == ("tui", "x.db", "g")


@pytest.mark.backends("sqlite", "postgresql")
def test_db_before_the_command_reads_that_database(
    store: Store, db_url: str, tmp_path: Path
) -> None:
    with store.write() as session:
        create_gold_set(session, "only-here")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()  # the working folder: its labels.db would be the default
    env = {k: v for k, v in os.environ.items() if k != "LABELER_DB"}
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", "--db", db_url, "gold", "list"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[2].split()[:4] == ["only-here", "0", "0", "0"]
    assert not (elsewhere / "labels.db").exists()
