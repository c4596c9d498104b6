"""A command that only reads, or that needs data already stored, never creates a database
(issue 22): with no database at ``--db`` it says ``no database at PATH (create one with
labeler ingest ...)``, exits 1 and leaves no file behind. The "nothing here yet" messages of
an existing empty database name it.

Each command runs in an empty folder (its working directory), on the default ``./labels.db``
(no ``--db``, no ``$LABELER_DB``): the reproduction of the issue. PostgreSQL: a database
without the labeller's tables gets the same message, its URL masked, and stays empty.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process
from sqlalchemy import create_engine, inspect
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from labeler.cli import main
from labeler.store import Store, create_gold_set, display_location
from labeler.store.postgres import with_driver

MISSING = "no database at {} (create one with labeler ingest PATH..., or labeler demo)"

#: every command that must refuse a missing database; the ones that create one on purpose
#: (ingest, gold import, run import, annotators add, tui, serve, demo) are not here
COMMANDS: dict[str, list[str]] = {
    "annotators list": ["annotators", "list"],
    "annotators role": ["annotators", "role", "ana", "lead"],
    "annotators rotate": ["annotators", "rotate", "ana"],
    "annotators revoke": ["annotators", "revoke", "ana"],
    "gold list": ["gold", "list"],
    "gold progress": ["gold", "progress", "--gold-set", "g"],
    "gold export jsonl": ["gold", "export", "--gold-set", "g"],
    "gold export ragas": ["gold", "export", "--gold-set", "g", "--format", "ragas"],
    "gold export trec": ["gold", "export", "--gold-set", "g", "--format", "trec", "--chunks", "c"],
    "gold assign": ["gold", "assign", "--gold-set", "g", "--annotators", "a,b"],
    "gold done": ["gold", "done", "--gold-set", "g", "--query", "q1"],
    "adjudicate auto": ["adjudicate", "--gold-set", "g", "--auto", "unanimous"],
    "adjudicate reopen": ["adjudicate", "--gold-set", "g", "--reopen", "q1"],
    "chunks make": ["chunks", "make", "--chunker", "fixed", "-o", "chunks.jsonl"],
    "chunks audit": ["chunks", "audit", "chunks.jsonl", "--gold-set", "g"],
    "run list": ["run", "list"],
    "run place": ["run", "place", "--name", "r"],
    "score": ["score", "--gold-set", "g", "--run", "r"],
    "compare": ["compare", "--gold-set", "g", "--run", "a", "--run", "b"],
    "evaluate": ["evaluate", "--gold-set", "g", "--retriever", "labeler.evaluation:bm25_retriever"],
    "agreement": ["agreement", "--gold-set", "g"],
    "doctor": ["doctor"],
    "search": ["search", "journal_mode"],
    "pool": ["pool", "--gold-set", "g", "--run", "a", "--depth", "10"],
}


def _labeler(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return labeler_in_process(*args, cwd=cwd, env={"LABELER_DB": None})


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_no_database_is_refused_and_not_created(tmp_path: Path, command: list[str]) -> None:
    proc = _labeler(command, tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == f"labeler: error: {MISSING.format('labels.db')}\n"
    assert proc.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.backends("sqlite")
def test_an_empty_file_is_no_database_and_stays_empty(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    db.touch()
    for command in (["gold", "list"], ["run", "list"], ["annotators", "list"]):
        proc = _labeler([*command, "--db", f"sqlite:///{db}"], tmp_path)
        assert proc.returncode == 1
        assert proc.stderr == f"labeler: error: {MISSING.format(f'sqlite:///{db}')}\n"
    assert db.stat().st_size == 0
    assert [p.name for p in tmp_path.iterdir()] == ["empty.db"]


@pytest.mark.backends("postgresql")
def test_a_postgresql_database_without_tables_is_no_database(
    pg_databases: Callable[[], str], capsys: pytest.CaptureFixture[str]
) -> None:
    url = pg_databases()
    # a password in the URL is masked in the message (the test server needs none)
    with_password = make_url(url).set(password="s3cret").render_as_string(hide_password=False)
    for command in (["gold", "list"], ["score", "--gold-set", "g", "--run", "r"], ["run", "list"]):
        assert main([*command, "--db", with_password]) == 1
        err = capsys.readouterr().err
        assert err == f"labeler: error: {MISSING.format(display_location(with_password))}\n"
        assert "s3cret" not in err
    engine = create_engine(with_driver(make_url(url)), poolclass=NullPool)
    try:
        with engine.connect() as conn:
            assert inspect(conn).get_table_names() == []  # nothing was created
    finally:
        engine.dispose()


@pytest.mark.backends("sqlite", "postgresql")
def test_empty_lists_name_the_database(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    url = db_url
    db = display_location(url)
    expected = {
        ("gold", "list"): f"labeler: no gold sets yet in {db} (labeler gold import, or label in "
        "the TUI)\n",
        ("run", "list"): f"labeler: no runs imported yet in {db} (labeler run import, or "
        "labeler evaluate --store-run)\n",
        ("annotators", "list"): f"labeler: no annotators yet in {db} "
        "(`labeler annotators add NAME`)\n",
    }
    for command, message in expected.items():
        assert main([*command, "--db", url]) == 0
        captured = capsys.readouterr()
        assert (captured.out, captured.err) == ("", message)
    with store.write() as session:
        create_gold_set(session, "solo")
    assert main(["gold", "progress", "--gold-set", "solo", "--db", url]) == 0
    assert capsys.readouterr().err == (
        f"labeler: gold set 'solo' in {db} has no team work yet (labeler gold assign)\n"
    )
