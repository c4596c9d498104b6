"""Bad input on purpose: the gold and run importers on arbitrary bytes and mangled lines.

Property, for any file content: ``labeler gold import`` / ``labeler run import`` (the real
CLI entry point, in process) either imports it correctly (exit 0) or rejects it with a clear
error naming the file and the line (exit 1, ``labeler: error: FILE:LINE: ...``), and then the
database is exactly as before. Never another exception (exit 70), never a partial write.

Two strategies per importer: raw bytes, and JSON lines built from the format's fields with
values of the wrong type, out of range (beyond a database integer or a float), pointing at
nothing or not valid Unicode (lone surrogates), nested past the decoder's limit or holding
integers too long to read, with stray bytes mixed in.
Example counts are kept modest (the suite runs on two cores).
"""

from __future__ import annotations

import hashlib
import io
import json
import sqlite3
from contextlib import redirect_stderr, redirect_stdout
from itertools import count
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from labeler.cli import main
from labeler.pages import ingest_paths
from labeler.store import open_store

PAGE = "Intro. FR-001: The index is never the source of record. Outro. Data data data."
EXAMPLES = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
_names = count()

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**65), 2**65),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["q1", "policy.txt", "FR-001", PAGE[7:55], "\ud800", "\udc00x", ""]),
    st.sampled_from([2**31 - 1, 2**31, 10**30, 10**400, -(10**400)]),  # column and float limits
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
offsets = st.one_of(st.none(), st.integers(-3, len(PAGE) + 3), values)
gold_elements = st.fixed_dictionaries(
    {},
    optional={
        "doc": st.one_of(st.just("policy.txt"), values),
        "text": st.one_of(
            st.builds(lambda a, n: PAGE[a : a + n], st.integers(0, 80), st.integers(0, 30)),
            values,
        ),
        "start": offsets,
        "end": offsets,
        "grade": st.one_of(st.integers(-1, 4), values),
        "offset_unit": st.sampled_from(["codepoint", "utf16"]),
    },
)
gold_objects = st.fixed_dictionaries(
    {},
    optional={
        "query_id": st.one_of(st.text(max_size=6), st.integers(0, 5), values),
        "query": st.one_of(st.text(max_size=20), values),
        "elements": st.one_of(st.lists(gold_elements, max_size=3), values),
        "notes": st.one_of(st.text(max_size=10), values),
        "offset_unit": st.sampled_from(["codepoint", "utf16"]),
    },
)
_spans = st.tuples(st.integers(0, len(PAGE) - 1), st.integers(1, 20))
valid_gold = st.builds(
    lambda qid, spans, with_offsets: {
        "query_id": qid,
        "query": "question?",
        "elements": [
            {"doc": "policy.txt", "text": PAGE[a : a + n]}
            | ({"start": a, "end": min(len(PAGE), a + n)} if with_offsets else {})
            for a, n in spans
        ],
    },
    st.text("abq123", min_size=1, max_size=3),
    st.lists(_spans, max_size=3),
    st.booleans(),
)
run_results = st.one_of(
    st.text(max_size=20),
    st.fixed_dictionaries(
        {},
        optional={
            "text": st.one_of(st.text(max_size=20), values),
            "doc": values,
            "score": values,
            "rank": st.one_of(st.integers(-1, 4), values),
        },
    ),
    values,
)
run_objects = st.fixed_dictionaries(
    {},
    optional={
        "query_id": st.one_of(st.text(max_size=6), st.integers(0, 5), values),
        "results": st.one_of(st.lists(run_results, max_size=4), values),
        "user_input": st.one_of(st.just("question one?"), st.text(max_size=10), values),
        "retrieved_contexts": st.one_of(st.lists(st.text(max_size=10), max_size=3), values),
    },
)


# JSON the decoder chokes on rather than rejects: nesting past its recursion limit, integers
# past Python's 4,300-digit limit (json.dumps cannot even write those, so they are spliced in)
_deep = st.integers(900, 6000).map(lambda d: b"[" * d + b"]" * d)
_too_long = st.integers(4301, 6000).map(lambda n: b"9" * n)


def _spliced(objects: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[bytes]:
    """A line of ``objects`` with one value replaced by a deep list or a too-long number."""

    def splice(obj: dict[str, Any], raw: bytes) -> bytes:
        if not obj:
            return raw
        text = json.dumps({**obj, sorted(obj)[0]: "SPLICE-HERE"})
        return text.replace('"SPLICE-HERE"', raw.decode(), 1).encode()

    return st.builds(splice, objects, st.one_of(_deep, _too_long))


def _lines(objects: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[bytes]:
    line = st.one_of(
        objects.map(lambda o: json.dumps(o).encode()),
        objects.map(lambda o: json.dumps(o, ensure_ascii=False).encode("utf-8", "surrogatepass")),
        _spliced(objects),
        _deep,
        st.binary(max_size=20),
        st.just(b""),
    )
    return st.lists(line, min_size=1, max_size=5).map(lambda ls: b"\n".join(ls))


def _database(tmp_path: Path) -> Path:
    db = tmp_path / "labels.db"
    page = tmp_path / "policy.txt"
    page.write_text(PAGE, encoding="utf-8")
    with open_store(str(db)) as store:
        ingest_paths(store, [page])
    assert (
        main(["gold", "import", str(_seed_gold(tmp_path)), "--gold-set", "seed", "--db", str(db)])
        == 0
    )
    return db


def _seed_gold(tmp_path: Path) -> Path:
    path = tmp_path / "seed.jsonl"
    path.write_text(
        json.dumps({"query_id": "q1", "query": "question one?", "elements": []}) + "\n",
        encoding="utf-8",
    )
    return path


def _state(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        tables = ["gold_set", "query", "element", "run", "run_result", "audit_entry"]
        rows = [conn.execute(f'SELECT * FROM "{t}" ORDER BY 1').fetchall() for t in tables]
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def _run_cli(args: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        code = main(args)
    return code, err.getvalue()


def _check(db: Path, path: Path, data: bytes, verb: list[str]) -> tuple[int, str]:
    """Import ``data`` and check the all-or-nothing contract; returns (exit code, stderr)."""
    path.write_bytes(data)
    before = _state(db)
    code, err = _run_cli([*verb, str(path), "--db", str(db)])
    assert code in (0, 1), err  # 70 would be an internal error: an exception escaped
    if code == 1:
        assert err.startswith(f"labeler: error: {path}:"), err
        line = err.split(f"{path}:", 1)[1].split(":", 1)[0]
        assert line.isdigit() and 1 <= int(line) <= data.count(b"\n") + 1, err
        assert _state(db) == before, "a rejected import changed the database"
    return code, err


def _gold_ok(db: Path, name: str) -> None:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            'SELECT e.start, e."end", e.text, d.text FROM element e JOIN document d '
            'ON d.id = e.document_id JOIN "query" q ON q.id = e.query_id '
            "JOIN gold_set g ON g.id = q.gold_set_id WHERE g.name = ?",
            (name,),
        ).fetchall()
    for start, end, text, page in rows:
        assert page[start:end] == text


@EXAMPLES
@given(data=st.binary(max_size=200))
def test_gold_import_on_any_bytes(tmp_path: Path, data: bytes) -> None:
    _gold_property(tmp_path, data)


@EXAMPLES
@given(data=_lines(st.one_of(valid_gold, gold_objects)))
def test_gold_import_on_mangled_lines(tmp_path: Path, data: bytes) -> None:
    _gold_property(tmp_path, data)


def _gold_property(tmp_path: Path, data: bytes) -> None:
    db = tmp_path / "labels.db"
    if not db.exists():
        _database(tmp_path)
    name = f"g{next(_names)}"
    code, _ = _check(db, tmp_path / "in.jsonl", data, ["gold", "import", "--gold-set", name])
    if code == 0:
        _gold_ok(db, name)


@EXAMPLES
@given(data=st.binary(max_size=200))
def test_run_import_on_any_bytes(tmp_path: Path, data: bytes) -> None:
    _run_property(tmp_path, data)


@EXAMPLES
@given(data=_lines(run_objects))
# found by a CI run: a refusal of the whole file ("nothing to import") named no line
@example(data=b'{"query_id": "0", "retrieved_contexts": []}')
def test_run_import_on_mangled_lines(tmp_path: Path, data: bytes) -> None:
    _run_property(tmp_path, data)


def _run_property(tmp_path: Path, data: bytes) -> None:
    db = tmp_path / "labels.db"
    if not db.exists():
        _database(tmp_path)
    name = f"r{next(_names)}"
    code, _ = _check(db, tmp_path / "run.jsonl", data, ["run", "import", "-q", "--name", name])
    if code == 0:
        with sqlite3.connect(db) as conn:
            (found,) = conn.execute("SELECT count(*) FROM run WHERE name = ?", (name,)).fetchone()
        assert found == 1
