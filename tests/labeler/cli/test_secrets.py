"""A database password never reaches the output of any command.

Every command that takes ``--db`` runs with a URL carrying the password ``SECRETPW``: against
the real test server (trust authentication ignores the password, so every command
succeeds and prints its normal output) and against URLs that fail in every way a user can
type: an unreachable server, an unsupported scheme, a port that is not a number. Neither
stdout nor stderr may contain the password; a failure is one ``labeler: error:`` line,
never an internal error.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from labeler.cli import main
from labeler.store.location import display_location

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpora" / "sqlite-docs"
SECRET = "SECRETPW"


def _command_lines(tmp: Path) -> list[list[str]]:
    """One invocation of every command that takes ``--db`` (``--db`` appended later)."""
    gold = str(CORPUS / "gold" / "demo.jsonl")
    chunks = str(tmp / "chunks.jsonl")
    return [
        ["demo", "--no-tui", "-o", str(tmp / "demo")],
        ["extract", str(CORPUS / "about.html")],
        ["ingest", "-q", str(CORPUS / "about.html")],
        ["gold", "import", gold, "--gold-set", "again", "--annotator", "ana"],
        ["gold", "export", "--gold-set", "demo", "-o", str(tmp / "export.jsonl")],
        ["chunks", "make", "--chunker", "fixed", "-o", chunks],
        ["chunks", "audit", chunks, "--gold-set", "demo"],
        ["run", "import", str(tmp / "demo" / "fixed-800.jsonl"), "--name", "again"],
        ["run", "list"],
        ["run", "place", "--name", "structure"],
        ["score", "--gold-set", "demo", "--run", "structure"],
        ["compare", "--gold-set", "demo", "--run", "fixed-800", "--run", "structure"],
        [
            "evaluate",
            "--gold-set",
            "demo",
            "--retriever",
            "labeler.evaluation:bm25_retriever",
            "--retriever-arg",
            f"chunks={tmp / 'demo' / 'structure-chunks.jsonl'}",
            "--store-run",
            "loop",
        ],
        ["correctness", "--schema"],
        ["doctor"],
        ["annotators", "add", "ana"],
        ["annotators", "list"],
    ]


def _with_password(url: str) -> str:
    return make_url(url).set(password=SECRET).render_as_string(hide_password=False)


@pytest.mark.backends("postgresql")
def test_no_command_prints_the_password_of_a_working_database(
    backend: str, pg_databases: object, tmp_path: Path
) -> None:
    assert backend == "postgresql" and callable(pg_databases)
    db = _with_password(pg_databases())
    assert SECRET in db
    for line in _command_lines(tmp_path):
        proc = subprocess.run(
            [sys.executable, "-m", "labeler", *line, "--db", db],
            capture_output=True,
            text=True,
            check=False,
        )
        assert proc.returncode == 0, (line, proc.stderr)
        assert SECRET not in proc.stdout + proc.stderr, line
        if line[0] == "demo":  # the demo names its database: masked, not left out
            assert f"database {db.replace(SECRET, '***')}" in proc.stderr


BAD_URLS = {
    "unreachable": f"postgresql://u:{SECRET}@127.0.0.1:1/db",
    "unsupported": f"mysql://u:{SECRET}@h/db",
    "malformed port": f"postgresql://u:{SECRET}@127.0.0.1:99999x/db",
    "port out of range": f"postgresql://u:{SECRET}@127.0.0.1:99999/db",
    "password holding @ and /": "postgresql://u:SECRET@PW/x@127.0.0.1:1/db",
    "password in the query": f"postgresql://u@127.0.0.1:1/db?password={SECRET}",
}


@pytest.mark.parametrize("db", list(BAD_URLS.values()), ids=list(BAD_URLS))
def test_no_failure_prints_the_password(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [*_command_lines(tmp_path), ["tui"], ["serve", "--port", "0"]]
    lines.remove(["correctness", "--schema"])  # never opens the database
    (tmp_path / "chunks.jsonl").write_text("", encoding="utf-8")
    for line in lines:
        code = main([*line, "--db", db])
        out, err = capsys.readouterr()
        assert "SECRET" not in out + err, (line, err)
        assert "PW" not in out + err, (line, err)
        if line[0] == "extract":  # accepts --db like every command, never opens it
            assert code == 0, (line, err)
            continue
        assert code == 1, (line, err)
        assert err.startswith("labeler: error: ") and err.count("\n") == 1, (line, err)


def test_display_location_masks_the_password_only() -> None:
    # hand-written expectations: the user's spelling kept, the password alone replaced
    assert display_location("labels.db") == "labels.db"
    assert display_location("sqlite:////a@b/x.db") == "sqlite:////a@b/x.db"
    assert display_location("postgresql://u@h/db") == "postgresql://u@h/db"
    assert display_location("postgresql://u:pw@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert display_location("postgresql://u:p@s/s@h/db") == "postgresql://u:***@h/db"
    assert display_location("mysql://u:pw@h:99x/db") == "mysql://u:***@h:99x/db"
    assert (
        display_location("postgresql://h/db?sslmode=require&password=pw")
        == "postgresql://h/db?sslmode=require&password=***"
    )
