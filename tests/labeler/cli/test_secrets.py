"""A database password never reaches the output of any command.

Every command that takes ``--db`` runs with a URL carrying the password ``SECRETPW``: against
the real test server (trust authentication ignores the password, so every command
succeeds and prints its normal output) and against URLs that fail in every way a user can
type: an unreachable server, an unsupported scheme, a port that is not a number. Neither
stdout nor stderr may contain the password; a failure is one ``labeler: error:`` line,
never an internal error.
"""

from __future__ import annotations

import json
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


#: marks the end of each command's output on stdout and stderr (see IN_ONE_PROCESS)
END = "\n--- end of command ---\n"

#: the commands run one after the other by ``labeler.cli.main`` in one real process: every
#: byte they write to the process's stdout and stderr is read, whatever writes it, and
#: the interpreter starts once, not once per command; each command's exit code opens the
#: stdout that follows its end mark (a dummy 0 opens the first command's)
IN_ONE_PROCESS = f"""
import json, sys
from labeler.cli import main
print("0", flush=True)
for line in json.loads(sys.argv[1]):
    try:
        code = main(line)
    except SystemExit as exit_:
        code = exit_.code
    sys.stdout.write({END!r} + str(code) + "\\n")
    sys.stdout.flush()
    sys.stderr.write({END!r})
    sys.stderr.flush()
"""


@pytest.mark.backends("postgresql")
def test_no_command_prints_the_password_of_a_working_database(
    backend: str, pg_databases: object, tmp_path: Path
) -> None:
    assert backend == "postgresql" and callable(pg_databases)
    db = _with_password(pg_databases())
    assert SECRET in db
    lines = [[*line, "--db", db] for line in _command_lines(tmp_path)]
    proc = subprocess.run(
        [sys.executable, "-c", IN_ONE_PROCESS, json.dumps(lines)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    outs, errs = proc.stdout.split(END), proc.stderr.split(END)
    assert len(outs) == len(errs) == len(lines) + 1, proc.stderr
    for i, (line, err) in enumerate(zip(lines, errs, strict=False)):
        out = outs[i].partition("\n")[2]
        code = outs[i + 1].partition("\n")[0]
        assert code == "0", (line, err)
        assert SECRET not in out + err, line
        if line[0] == "demo":  # the demo names its database: masked, not left out
            assert f"database {db.replace(SECRET, '***')}" in err


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


def test_display_location_masks_every_form_of_password() -> None:
    # each form SQLAlchemy or libpq accepts, written out by hand with what must be shown
    cases = {
        # an unencoded "?" inside the password: SQLAlchemy reads password "Pa?ss"
        "postgresql://u:Pa?ss@h/db": "postgresql://u:***@h/db",
        "postgresql://u:Pa?ss@h/db?sslmode=require": "postgresql://u:***@h/db?sslmode=require",
        # unencoded ":" and "/" and "@" inside the password
        "postgresql://u:Pa:ss@h:5432/db": "postgresql://u:***@h:5432/db",
        "postgresql://u:a/b?c:d@e@h/db": "postgresql://u:***@h/db",
        "postgresql+psycopg://u:pw@h/db": "postgresql+psycopg://u:***@h/db",
        "postgresql://:pw@h/db": "postgresql://:***@h/db",
        "postgresql://u:@h/db": "postgresql://u:***@h/db",
        # query parameters, any case, percent-encoded names, with an "@" in the value
        "postgresql://h/db?password=pw": "postgresql://h/db?password=***",
        "postgresql://u@h/db?sslmode=require&sslpassword=pw&x=1": (
            "postgresql://u@h/db?sslmode=require&sslpassword=***&x=1"
        ),
        "postgresql://h/db?PassWord=pw": "postgresql://h/db?PassWord=***",
        "postgresql://h/db?pass%77ord=pw": "postgresql://h/db?pass%77ord=***",
        "postgresql://h/db?user=u&password=a@b": "postgresql://h/db?user=u&password=***",
        "postgresql://u:p1@h/db?password=p2": "postgresql://u:***@h/db?password=***",
        # no user, no password: unchanged; percent-encoded user kept as written
        "postgresql://h:5432/db": "postgresql://h:5432/db",
        "postgresql://u%40x:p%3Fw@h/db": "postgresql://u%40x:***@h/db",
        # libpq keyword/value strings: spaces around "=", quoted values with escapes
        "host=h password=pw dbname=db": "host=h password=*** dbname=db",
        "host=h password = pw dbname=db": "host=h password = *** dbname=db",
        "host=h password='a b' dbname=db": "host=h password=*** dbname=db",
        "password='it\\'s x' host=h": "password=*** host=h",
        "host=h sslpassword=pw": "host=h sslpassword=***",
        "host=h password='never closed": "host=h password=***",
        # plain paths and SQLite URLs: unchanged
        "labels.db": "labels.db",
        "/data/a b@c:d.db": "/data/a b@c:d.db",
        "sqlite:///a:b@c.db": "sqlite:///a:b@c.db",
    }
    for db, shown in cases.items():
        assert display_location(db) == shown, db


def _gold_file(tmp: Path) -> Path:
    path = tmp / "gold.jsonl"
    line = '{"query_id": "q1", "question": "What is the source of record?", "elements": []}'
    path.write_text(line + "\n", encoding="utf-8")
    return path


#: password-bearing forms of one working PostgreSQL location (``{url}`` is the test
#: database's URL without a password, ``{netloc}`` its ``host:port``, ``{db}`` its name),
#: each with its secret; trust authentication ignores the password, so every command runs
WORKING_FORMS = {
    "? in the password": ("postgresql://labeler:Pa?SEKRIT1@{netloc}/{db}", "SEKRIT1"),
    ": / and ? in the password": (
        "postgresql+psycopg://labeler:a:b/c?SEKRIT2@{netloc}/{db}",
        "SEKRIT2",
    ),
    "?password=": ("postgresql://labeler@{netloc}/{db}?password=SEKRIT3", "SEKRIT3"),
    "no user, &password=": (
        "postgresql://{netloc}/{db}?user=labeler&password=SEKRIT4",
        "SEKRIT4",
    ),
    "&sslpassword=": (
        "postgresql://labeler:SEKRIT5@{netloc}/{db}?sslmode=disable&sslpassword=SEKRIT6",
        "SEKRIT",
    ),
}


def _location_commands(tmp: Path) -> list[list[str]]:
    """Every command the issue names as printing a location (``--db`` appended)."""
    return [
        ["gold", "import", str(_gold_file(tmp)), "--gold-set", "team", "--annotator", "ana"],
        ["doctor"],
        ["gold", "list"],
        ["gold", "export", "--gold-set", "team", "-o", str(tmp / "out.jsonl")],
        ["annotators", "add", "bea"],
        ["annotators", "list"],
    ]


@pytest.mark.backends("postgresql")
@pytest.mark.parametrize("form", list(WORKING_FORMS), ids=list(WORKING_FORMS))
def test_location_table_working_database(
    form: str,
    backend: str,
    pg_databases: object,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each password form × each command, on a real database: the commands succeed, the
    secret is nowhere in their output, and the doctor names the database masked."""
    assert backend == "postgresql" and callable(pg_databases)
    url = make_url(pg_databases())
    template, secret = WORKING_FORMS[form]
    db = template.format(netloc=f"{url.host}:{url.port}", db=url.database)
    assert secret in db
    for line in _location_commands(tmp_path):
        code = main([*line, "--db", db])
        out, err = capsys.readouterr()
        assert code == 0, (line, err)
        assert secret not in out + err, (line, out, err)
        if line == ["doctor"]:
            assert f"database {display_location(db)}\n" in out
            assert "***" in display_location(db)


FAILING_FORMS = {
    "? in the password, unreachable": "postgresql://u:Pa?SEKRIT@127.0.0.1:1/db",
    "@ in the password": "postgresql://u:Pa@SEKRIT@127.0.0.1:1/db",
    ": and @ in the password": "postgresql://u:Pa:SE@KRIT@127.0.0.1:1/db",
    "? and @ in the password": "postgresql://u:Pa?SE@KRIT@127.0.0.1:1/db",
    "/ ? and @ in the password": "postgresql://u:P/a?SE@KRIT@127.0.0.1:1/db?sslmode=disable",
    "?password=, unreachable": "postgresql://127.0.0.1:1/db?user=u&password=SEKRIT",
    "keyword string": "host=127.0.0.1 port=1 dbname=db password=SEKRIT",
    "keyword string, spaces and quotes": "host=127.0.0.1 password = 'SE KRIT' dbname=db",
}


@pytest.mark.parametrize("db", list(FAILING_FORMS.values()), ids=list(FAILING_FORMS))
def test_location_table_failing_database(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each password form × each command (and ``serve``), where the database cannot be
    used: one ``labeler: error:`` line naming the location masked, never the secret; a
    keyword string is refused before any file is made."""
    monkeypatch.chdir(tmp_path)
    shown = display_location(db)
    assert "KRIT" not in shown and "***" in shown
    for line in [*_location_commands(tmp_path), ["serve", "--port", "0"]]:
        code = main([*line, "--db", db])
        out, err = capsys.readouterr()
        assert code == 1, (line, err)
        assert "KRIT" not in out + err, (line, err)
        assert err.startswith(f"labeler: error: {shown}: ") and err.count("\n") == 1, (line, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gold.jsonl"]
