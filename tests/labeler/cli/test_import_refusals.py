"""Input the JSON reader decodes but the database cannot take, through the real CLI.

Every importer (gold JSONL, Label Studio, doccano, run JSONL and Ragas lines, chunk files
for ``chunks audit`` and ``gold export --chunks``, correctness rows) on: JSON nested deeper
than the decoder goes, lone surrogates in every text field, grades and scores no column or
float holds, and NUL on PostgreSQL. Each must exit 1 with one line naming the file, line
and field, never "internal error", and leave the database exactly as it was. Expected
messages and character positions are worked out by hand from the lines below.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from _db_dump import dump
from _import_inputs import (
    CHUNK_OK,
    DOCCANO_OK,
    GOLD_OK,
    RAGAS_OK,
    ROW_OK,
    RUN_OK,
    command,
    ls_file,
    ls_task,
    seed,
)
from pg_support import create_database, drop_database, new_database_name
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from labeler.cli import main
from labeler.store.postgres import with_driver

pytestmark = pytest.mark.backends("sqlite", "postgresql")

DEEP = "[" * 6000 + "]" * 6000  # json gives up near 1,000 levels (RecursionError)
DIGITS_5000 = "9" * 5000  # past Python's 4,300-digit limit on reading integers
DIGITS_400 = "9" * 400  # an int, but too large for a float
SURROGATE = "lone surrogate \\ud800 at character {} (not valid Unicode text)"


# (case id, importer, file content, expected message after "labeler: error: FILE")
# JSONL cases put the bad line second, after a good one: the whole file must be refused.
CASES = [
    # --- JSON nested too deeply: every reader ---
    ("gold-deep", "gold", f'{GOLD_OK}\n{{"query_id": "q2", "elements": {DEEP}}}\n',
     ":2: JSON nested too deeply"),
    ("run-deep", "run", f'{RUN_OK}\n{{"query_id": "q2", "results": {DEEP}}}\n',
     ":2: JSON nested too deeply"),
    ("ragas-deep", "run", f'{RAGAS_OK}\n{{"user_input": "x", "retrieved_contexts": {DEEP}}}\n',
     ":2: JSON nested too deeply"),
    ("doccano-deep", "doccano", f"{DOCCANO_OK}\n{DEEP}\n", ":2: JSON nested too deeply"),
    ("labelstudio-deep", "labelstudio", ls_file(DEEP), ": JSON nested too deeply"),
    ("chunks-deep", "audit", f'{CHUNK_OK}\n{{"doc": {DEEP}}}\n', ":2: JSON nested too deeply"),
    ("trec-chunks-deep", "trec", f"{CHUNK_OK}\n{DEEP}\n", ":2: JSON nested too deeply"),
    ("rows-deep", "correctness", f"{ROW_OK}\n{DEEP}\n", ":2: JSON nested too deeply"),
    # --- lone surrogates, field by field (character positions are 1-based) ---
    ("gold-query", "gold", GOLD_OK + '\n{"query_id": "q2", "query": "ab\\ud800c", "elements": []}\n',
     ":2: field 'query': " + SURROGATE.format(3)),
    ("gold-query-id", "gold", GOLD_OK + '\n{"query_id": "\\ud800q", "elements": []}\n',
     ":2: field 'query_id': " + SURROGATE.format(1)),
    ("gold-notes-upper-hex", "gold", GOLD_OK + '\n{"query_id": "q2", "elements": [], "notes": "note \\uD800"}\n',
     ":2: field 'notes': " + SURROGATE.format(6)),
    ("gold-low-then-high", "gold", GOLD_OK + '\n{"query_id": "q2", "query": "\\udc00\\ud800", "elements": []}\n',
     ":2: field 'query': lone surrogate \\udc00 at character 1 (not valid Unicode text)"),
    ("gold-element-doc", "gold", GOLD_OK + '\n{"query_id": "q2", "elements": [{"doc": "pol\\ud800.txt", "text": "FR-001"}]}\n',
     ":2: field 'elements[0].doc': " + SURROGATE.format(4)),
    ("gold-element-text", "gold", GOLD_OK + '\n{"query_id": "q2", "elements": [{"doc": "policy.txt", "text": "FR\\ud800"}]}\n',
     ":2: field 'elements[0].text': " + SURROGATE.format(3)),
    ("gold-field-name", "gold", GOLD_OK + '\n{"query_id": "q2", "elements": [], "x\\ud800": 1}\n',
     ":2: a field name: " + SURROGATE.format(2)),
    ("run-text", "run", RUN_OK + '\n{"query_id": "q2", "results": [{"text": "FR\\ud800"}]}\n',
     ":2: field 'results[0].text': " + SURROGATE.format(3)),
    ("run-plain-result", "run", RUN_OK + '\n{"query_id": "q2", "results": ["ok", "b\\ud800"]}\n',
     ":2: field 'results[1]': " + SURROGATE.format(2)),
    ("run-doc", "run", RUN_OK + '\n{"query_id": "q2", "results": [{"text": "x", "doc": "\\ud800"}]}\n',
     ":2: field 'results[0].doc': " + SURROGATE.format(1)),
    ("run-query-id", "run", RUN_OK + '\n{"query_id": "q\\ud800", "results": []}\n',
     ":2: field 'query_id': " + SURROGATE.format(2)),
    ("ragas-user-input", "run", RAGAS_OK + '\n{"user_input": "why\\ud800", "retrieved_contexts": []}\n',
     ":2: field 'user_input': " + SURROGATE.format(4)),
    ("ragas-context", "run", RAGAS_OK + '\n{"user_input": "x", "retrieved_contexts": ["a", "\\ud800"]}\n',
     ":2: field 'retrieved_contexts[1]': " + SURROGATE.format(1)),
    ("doccano-label", "doccano", DOCCANO_OK + '\n{"doc": "policy.txt", "label": [[7, 13, "q\\ud800"]]}\n',
     ":2: field 'label[0][2]': " + SURROGATE.format(2)),
    ("doccano-doc", "doccano", DOCCANO_OK + '\n{"doc": "\\ud800", "label": []}\n',
     ":2: field 'doc': " + SURROGATE.format(1)),
    ("labelstudio-label", "labelstudio", ls_file(ls_task(label="q\\ud800")),
     ": task 2: field 'annotations[0].result[0].value.labels[0]': " + SURROGATE.format(2)),
    ("labelstudio-text", "labelstudio", ls_file(ls_task(text="FR\\ud800")),
     ": task 2: field 'annotations[0].result[0].value.text': " + SURROGATE.format(3)),
    ("chunks-text", "audit", CHUNK_OK + '\n{"doc": "policy.txt", "text": "\\ud800"}\n',
     ":2: field 'text': " + SURROGATE.format(1)),
    ("chunks-doc", "trec", CHUNK_OK + '\n{"doc": "p\\ud800", "text": "FR-001"}\n',
     ":2: field 'doc': " + SURROGATE.format(2)),
    ("rows-prompt", "correctness", ROW_OK + '\n{"prompt": "\\ud800"}\n',
     ":2: field 'prompt': " + SURROGATE.format(1)),
    # --- numbers no column or float holds ---
    ("grade-10e30", "gold", GOLD_OK + '\n{"query_id": "q2", "elements": [{"doc": "policy.txt", "text": "FR-001", "grade": 1000000000000000000000000000000}]}\n',
     ":2: field elements[0].'grade' must be <= 2,147,483,647 (a database integer), got an integer of 31 digits"),
    ("grade-2**31", "gold", GOLD_OK + '\n{"query_id": "q2", "elements": [{"doc": "policy.txt", "text": "FR-001", "grade": 2147483648}]}\n',
     ":2: field elements[0].'grade' must be <= 2,147,483,647 (a database integer), got 2147483648"),
    ("grade-5000-digits", "gold", GOLD_OK + f'\n{{"query_id": "q2", "elements": [{{"doc": "policy.txt", "text": "FR-001", "grade": {DIGITS_5000}}}]}}\n',
     ":2: a number with more than 4,300 digits"),
    ("score-400-digits", "run", RUN_OK + f'\n{{"query_id": "q2", "results": [{{"text": "x", "score": {DIGITS_400}}}]}}\n',
     ":2: field results[0].'score' must be a finite number, got an integer of 400 digits, too large for a float"),
    ("score-5000-digits", "run", RUN_OK + f'\n{{"query_id": "q2", "results": [{{"text": "x", "score": -{DIGITS_5000}}}]}}\n',
     ":2: a number with more than 4,300 digits"),
    ("score-1e400", "run", RUN_OK + '\n{"query_id": "q2", "results": [{"text": "x", "score": 1e400}]}\n',
     ":2: field results[0].'score' must be a finite number, got infinite (or beyond a float's range, like 1e400)"),
    ("score-nan", "run", RUN_OK + '\n{"query_id": "q2", "results": [{"text": "x", "score": NaN}]}\n',
     ":2: field results[0].'score' must be a finite number, got NaN"),
    ("score-minus-infinity", "run", RUN_OK + '\n{"query_id": "q2", "results": [{"text": "x", "rank": 1, "score": -Infinity}]}\n',
     ":2: field results[0].'score' must be a finite number, got infinite (or beyond a float's range, like 1e400)"),
    ("offset-5000-digits", "labelstudio", ls_file(ls_task(start=DIGITS_5000)),
     ": a number with more than 4,300 digits"),
    # --- nothing guessed: ids typed, offsets and text agreeing, something stored ---
    ("gold-query-id-number", "gold", GOLD_OK + '\n{"query_id": 2, "elements": []}\n',
     ':2: field \'query_id\' must be a string, got the integer 2 (write "query_id": "2")'),
    ("labelstudio-text-disagrees", "labelstudio", ls_file(ls_task(text="FR-002")),
     ": task 2 (id 5), annotation 1, result 1, span 7-13: offsets 7-13 (UTF-16 code units) "
     "cut 'FR-001' but its text says 'FR-002'; give --prefer offsets to store what the "
     "offsets cut, or --prefer text to place the text at its first occurrence"),
    ("labelstudio-nothing", "labelstudio", "[" + ls_task().replace('"labels"', '"choices"', 1) + "]",
     ": nothing to import: 1 task(s), no result of type 'labels' with a label; read and "
     "skipped: 1 result of type 'choices' (--allow-empty imports an empty gold set)"),
    ("doccano-nothing", "doccano", DOCCANO_OK.replace('"label"', '"spans"') + "\n",
     ": nothing to import: 1 line(s), no span under 'label', 'labels', 'entities' or "
     "'annotations'; read and skipped: 1 line without a span field (--allow-empty imports an "
     "empty gold set)"),
    ("run-nothing", "run", '{"query_id": "q1", "results": []}\n',
     ":1: nothing to import: 1 question line(s), the first here, none with a result (every "
     "'results' or 'retrieved_contexts' list is empty); --allow-empty imports it"),
]  # fmt: skip


@pytest.fixture(scope="session")
def seeded_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database made by ``seed`` (the real CLI) once per test process: each test
    gets a copy. Seeding is four commands (the schema created, then ingest, gold import,
    run import), a copy a few milliseconds."""
    folder = tmp_path_factory.mktemp("refusals")
    db = Path(seed(folder, str(folder / "labels.db")))
    assert not db.with_name(db.name + "-wal").exists()  # closed: the file holds it all
    return db


@pytest.fixture(scope="session")
def seeded_pg(pg_admin: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The name of a PostgreSQL database made by ``seed`` once per test process, no
    connection left on it: each test's database is a copy (``CREATE DATABASE ... TEMPLATE``)."""
    name = new_database_name()
    create_database(pg_admin, name)
    try:
        base = make_url(os.environ["LABELER_TEST_PG_URL"].strip())  # pg_admin checked it
        seed(
            tmp_path_factory.mktemp("refusals-pg"),
            base.set(database=name).render_as_string(hide_password=False),
        )
        yield name
    finally:
        drop_database(pg_admin, name)


@pytest.fixture()
def db(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """This test's database: a copy of the seeded one (``seeded_sqlite``, ``seeded_pg``)."""
    if backend == "postgresql":
        factory: Callable[..., str] = request.getfixturevalue("pg_databases")
        return factory(template=request.getfixturevalue("seeded_pg"))
    shutil.copyfile(request.getfixturevalue("seeded_sqlite"), db_path)
    return str(db_path)


def refused(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], importer: str, content: str
) -> str:
    """Run ``importer`` on ``content``; check exit 1, one stderr line, no output file and an
    unchanged database; return the message after ``labeler: error: FILE``."""
    path = tmp_path / "input.jsonl"
    path.write_text(content, encoding="utf-8")
    out = tmp_path / "out.txt"
    before = dump(db)
    capsys.readouterr()
    code = main(command(importer, str(path), db, out))
    err = capsys.readouterr().err
    assert code == 1, err
    assert "internal error" not in err
    assert err.count("\n") == 1, err
    prefix = f"labeler: error: {path}"
    assert err.startswith(prefix), err
    assert dump(db) == before
    return err[len(prefix) :].rstrip("\n")


@pytest.mark.parametrize(
    ("importer", "content", "message"),
    [pytest.param(imp, content, msg, id=case) for case, imp, content, msg in CASES],
)
def test_refused_with_file_line_and_field(
    db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    importer: str,
    content: str,
    message: str,
) -> None:
    assert refused(db, tmp_path, capsys, importer, content) == message


# NUL: SQLite stores it (a page may hold one); PostgreSQL text cannot, so there it is refused
# up front, naming the field, instead of failing in the driver mid-import.
NUL = "NUL character (\\u0000) at character {}; PostgreSQL text cannot hold it"
NUL_RUN = '{"query_id": "q2", "results": [{"text": "FR\\u0000x"}]}\n'
NUL_CASES = [
    ("run-text", "run", NUL_RUN, ":1: field 'results[0].text': " + NUL.format(3)),
    ("ragas-user-input", "run", RUN_OK + '\n{"query_id": "q3", "user_input": "\\u0000", "retrieved_contexts": []}\n',
     ":2: field 'user_input': " + NUL.format(1)),
    ("gold-query", "gold", '{"query_id": "q2", "query": "a\\u0000", "elements": []}\n',
     ":1: field 'query': " + NUL.format(2)),
    ("gold-doc", "gold", '{"query_id": "q2", "elements": [{"doc": "policy.txt\\u0000", "text": "FR"}]}\n',
     ":1: field 'elements[0].doc': " + NUL.format(11)),
    ("doccano-label", "doccano", '{"doc": "policy.txt", "label": [[7, 13, "q\\u0000"]]}\n',
     ":1: field 'label[0][2]': " + NUL.format(2)),
    ("labelstudio-label", "labelstudio", ls_file(ls_task(label="\\u0000")),
     ": task 2: field 'annotations[0].result[0].value.labels[0]': " + NUL.format(1)),
    ("chunks-doc", "audit", '{"doc": "policy.txt\\u0000", "text": "FR-001"}\n',
     ":1: field 'doc': " + NUL.format(11)),
]  # fmt: skip


@pytest.mark.backends("postgresql")
@pytest.mark.parametrize(
    ("importer", "content", "message"), [pytest.param(*c[1:], id=c[0]) for c in NUL_CASES]
)
def test_nul_refused_on_postgresql(
    db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    importer: str,
    content: str,
    message: str,
) -> None:
    assert refused(db, tmp_path, capsys, importer, content) == message


def stored(db: str, sql: str) -> tuple[object, ...]:
    """The one row ``sql`` selects, read through a plain connection."""
    engine = create_engine(with_driver(make_url(db)) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return tuple(conn.execute(text(sql)).one())
    finally:
        engine.dispose()


RUN_TEXT = "SELECT r.chunk_text FROM run_result r JOIN run ON run.id = r.run_id WHERE name = 'nul'"


@pytest.mark.backends("postgresql")
def test_nul_in_run_text_kept_on_sqlite_refused_on_postgresql(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same run file: SQLite stores the NUL as given, PostgreSQL refuses the file."""
    (tmp_path / "lite").mkdir()
    lite = seed(tmp_path / "lite", str(tmp_path / "lite" / "labels.db"))
    path = tmp_path / "nul.jsonl"
    path.write_text(NUL_RUN, encoding="utf-8")
    assert main(["run", "import", "-q", str(path), "--name", "nul", "--db", lite]) == 0
    assert stored(lite, RUN_TEXT) == ("FR\x00x",)
    assert refused(db, tmp_path, capsys, "run", NUL_RUN) == NUL_CASES[0][3]


GRADE = (
    'SELECT e.grade, q.text FROM element e JOIN "query" q ON q.id = e.query_id '
    "JOIN gold_set g ON g.id = q.gold_set_id WHERE g.name = 'new'"
)
SCORE = "SELECT r.score FROM run_result r JOIN run ON run.id = r.run_id WHERE name = 'new'"


def test_values_at_the_limits_are_stored_one_past_refused(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The largest grade PostgreSQL's INTEGER holds is stored, one more is refused; a
    surrogate pair (one astral character) is stored, its high half alone is refused; the
    largest finite float is stored as a score, the next decimal step past it is refused."""
    line = (
        '{{"query_id": "q2", "query": "smile {}", "elements": '
        '[{{"doc": "policy.txt", "text": "FR-001", "grade": {}}}]}}\n'
    )
    assert refused(db, tmp_path, capsys, "gold", line.format("\\ud83d\\ude00", 2**31)) == (
        ":1: field elements[0].'grade' must be <= 2,147,483,647 (a database integer), "
        "got 2147483648"
    )
    assert refused(db, tmp_path, capsys, "gold", line.format("\\ud83d", 2**31 - 1)) == (
        ":1: field 'query': lone surrogate \\ud83d at character 7 (not valid Unicode text)"
    )
    gold = tmp_path / "edge.jsonl"
    gold.write_text(line.format("\\ud83d\\ude00", 2**31 - 1), encoding="utf-8")
    assert main(["gold", "import", str(gold), "--gold-set", "new", "--db", db]) == 0
    assert stored(db, GRADE) == (2**31 - 1, "smile \U0001f600")

    run = '{{"query_id": "q2", "results": [{{"text": "FR-001", "score": {}}}]}}\n'
    assert refused(db, tmp_path, capsys, "run", run.format("1.7976931348623159e308")) == (
        ":1: field results[0].'score' must be a finite number, got infinite (or beyond a "
        "float's range, like 1e400)"
    )
    path = tmp_path / "edge-run.jsonl"
    path.write_text(run.format("1.7976931348623157e308"), encoding="utf-8")
    assert main(["run", "import", "-q", str(path), "--name", "new", "--db", db]) == 0
    assert stored(db, SCORE) == (1.7976931348623157e308,)
