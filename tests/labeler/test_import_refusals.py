"""Input the JSON reader decodes but the database cannot take, through the real CLI.

Every importer (gold JSONL, Label Studio, doccano, run JSONL and Ragas lines, chunk files
for ``chunks audit`` and ``gold export --chunks``, correctness rows) on: JSON nested deeper
than the decoder goes, lone surrogates in every text field, grades and scores no column or
float holds, and NUL on PostgreSQL. Each must exit 1 with one line naming the file, line
and field, never "internal error", and leave the database exactly as it was. Expected
messages and character positions are worked out by hand from the lines below.
"""

from __future__ import annotations

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
from sqlalchemy import create_engine, text
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
]  # fmt: skip


@pytest.fixture()
def db(tmp_path: Path, db_url: str) -> str:
    return seed(tmp_path, db_url)


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
# (case id, importer, file content, message on PostgreSQL, exit code on SQLite: 1 where the
# NUL is in a name that must exist, which no stored name has)
NUL_CASES = [
    ("run-text", "run", '{"query_id": "q2", "results": [{"text": "FR\\u0000x"}]}\n',
     ":1: field 'results[0].text': " + NUL.format(3), 0),
    ("ragas-user-input", "run", RUN_OK + '\n{"query_id": "q3", "user_input": "\\u0000", "retrieved_contexts": []}\n',
     ":2: field 'user_input': " + NUL.format(1), 0),
    ("gold-query", "gold", '{"query_id": "q2", "query": "a\\u0000", "elements": []}\n',
     ":1: field 'query': " + NUL.format(2), 0),
    ("gold-doc", "gold", '{"query_id": "q2", "elements": [{"doc": "policy.txt\\u0000", "text": "FR"}]}\n',
     ":1: field 'elements[0].doc': " + NUL.format(11), 1),
    ("doccano-label", "doccano", '{"doc": "policy.txt", "label": [[7, 13, "q\\u0000"]]}\n',
     ":1: field 'label[0][2]': " + NUL.format(2), 0),
    ("labelstudio-label", "labelstudio", ls_file(ls_task(label="\\u0000")),
     ": task 2: field 'annotations[0].result[0].value.labels[0]': " + NUL.format(1), 0),
    ("chunks-doc", "audit", '{"doc": "policy.txt\\u0000", "text": "FR-001"}\n',
     ":1: field 'doc': " + NUL.format(11), 1),
]  # fmt: skip


@pytest.mark.parametrize(
    ("importer", "content", "message", "sqlite_code"),
    [pytest.param(*case[1:], id=case[0]) for case in NUL_CASES],
)
def test_nul_refused_on_postgresql_only(
    db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    backend: str,
    importer: str,
    content: str,
    message: str,
    sqlite_code: int,
) -> None:
    if backend == "postgresql":
        assert refused(db, tmp_path, capsys, importer, content) == message
        return
    path = tmp_path / "input.jsonl"
    path.write_text(content, encoding="utf-8")
    code = main(command(importer, str(path), db, tmp_path / "out.txt"))
    err = capsys.readouterr().err
    assert "NUL" not in err and "internal error" not in err
    assert code == sqlite_code, err


@pytest.mark.backends("sqlite")
def test_nul_in_run_text_is_stored_on_sqlite(db: str, tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text('{"query_id": "q2", "results": [{"text": "FR\\u0000x"}]}\n', encoding="utf-8")
    assert main(["run", "import", "-q", str(path), "--name", "nul", "--db", db]) == 0
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        stored = conn.execute(
            text(
                "SELECT r.chunk_text FROM run_result r JOIN run ON run.id = r.run_id WHERE name = 'nul'"
            )
        ).scalar_one()
    engine.dispose()
    assert stored == "FR\x00x"


def test_edge_values_that_fit_are_imported(db: str, tmp_path: Path) -> None:
    """The largest grade PostgreSQL's INTEGER holds, a surrogate pair (one astral character)
    and the largest finite float are stored as given, on both backends."""
    gold = tmp_path / "edge.jsonl"
    gold.write_text(
        '{"query_id": "q2", "query": "smile \\ud83d\\ude00", "elements": '
        '[{"doc": "policy.txt", "text": "FR-001", "grade": 2147483647}]}\n',
        encoding="utf-8",
    )
    assert main(["gold", "import", str(gold), "--gold-set", "edge", "--db", db]) == 0
    run = tmp_path / "edge-run.jsonl"
    run.write_text(
        '{"query_id": "q2", "results": [{"text": "FR-001", "score": 1.7976931348623157e308}]}\n',
        encoding="utf-8",
    )
    assert main(["run", "import", "-q", str(run), "--name", "edge", "--db", db]) == 0
    url = with_driver(make_url(db)) if "://" in db else f"sqlite:///{db}"
    engine = create_engine(url)
    with engine.connect() as conn:
        query, grade = conn.execute(
            text(
                'SELECT q.text, e.grade FROM "query" q JOIN element e ON e.query_id = q.id '
                "JOIN gold_set g ON g.id = q.gold_set_id WHERE g.name = 'edge'"
            )
        ).one()
        score = conn.execute(
            text(
                "SELECT r.score FROM run_result r JOIN run ON run.id = r.run_id WHERE name = 'edge'"
            )
        ).scalar_one()
    engine.dispose()
    assert (query, grade, score) == ("smile \U0001f600", 2**31 - 1, 1.7976931348623157e308)
