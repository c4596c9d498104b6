"""Key spans in the store, on SQLite and PostgreSQL: the schema step, the constraint, audited
set/undo/redo, gold JSONL import/export round trip, import errors and what scoring reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import exc

from labeler.errors import InputError, IntegrityError
from labeler.evaluation import load_gold
from labeler.formats.gold_jsonl import gold_line_json
from labeler.gold import import_gold_file
from labeler.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Store,
    add_query,
    attach_element,
    create_gold_set,
    list_audit,
    open_store,
    page_elements,
    redo,
    set_key,
    undo,
    upsert_document,
)
from labeler.store.engine import create_store_engine
from labeler.store.goldsets import export_gold_set
from labeler.store.migrations import KEYS_VERSION
from labeler.store.session import upgrade

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Intro. Writers MUST NOT commit unless the lock is held. Outro."
# the element "Writers MUST NOT commit unless the lock is held." is page[7:55];
# its clause "unless the lock is held" is page[31:54]
ELEMENT = (7, 55)
KEY = (31, 54)


def seed(store: Store) -> int:
    with store.write() as s:
        upsert_document(
            s, doc_id="p.html", source_path="p.html", sha256="x", profile="t", text=PAGE
        )
        gs = create_gold_set(s, "g")
        q = add_query(s, gs, "q1", "When may writers commit?", actor="ana")
        assert q.id is not None
        row = attach_element(s, q.id, "p.html", *ELEMENT, annotator="ana")
        return row.id


def test_worked_offsets() -> None:
    assert PAGE[slice(*ELEMENT)] == "Writers MUST NOT commit unless the lock is held."
    assert PAGE[slice(*KEY)] == "unless the lock is held"


def test_key_is_the_current_schema_step() -> None:
    assert MIGRATIONS[KEYS_VERSION - 1].version == KEYS_VERSION <= SCHEMA_VERSION
    assert MIGRATIONS[KEYS_VERSION - 1].description == "element key spans"


def test_set_key_audited_and_undone(store: Store) -> None:
    element_id = seed(store)
    with store.write() as s:
        row = set_key(s, element_id, *KEY, actor="ana")
        assert (row.key_start, row.key_end) == KEY
        again = set_key(s, element_id, *KEY, actor="ana")  # unchanged: no entry
        assert again == row
    with store.session() as s:
        (shown,) = page_elements(s, "p.html")
        assert (shown.key_start, shown.key_end) == KEY
        entries = list_audit(s, entity="element", entity_id=element_id)
        assert [e.action for e in entries] == ["change", "add"]
        assert entries[0].before is not None and entries[0].after is not None
        assert entries[0].before["key_start"] is None and entries[0].after["key_end"] == 54
    with store.write() as s:
        reversal = undo(s, actor="ana")
        assert reversal is not None and "key 31–54 → none" in reversal.describe()
    with store.session() as s:
        assert (page_elements(s, "p.html")[0].key_start, page_elements(s, "p.html")[0].key_end) == (
            None,
            None,
        )
    with store.write() as s:
        assert redo(s, actor="ana") is not None
    with store.session() as s:
        assert page_elements(s, "p.html")[0].key_end == 54
    with store.write() as s:  # clearing is a change too
        assert set_key(s, element_id, None, None, actor="ana").key_start is None


@pytest.mark.parametrize(
    ("start", "end"),
    [(6, 20), (30, 56), (40, 40), (41, 40), (31, None)],
    ids=["before-element", "past-element", "empty", "reversed", "half"],
)
def test_key_outside_element_refused(store: Store, start: int, end: int | None) -> None:
    element_id = seed(store)
    with store.write() as s, pytest.raises(IntegrityError, match="key"):
        set_key(s, element_id, start, end, actor="ana")


def test_database_constraint_refuses_a_key_outside(store: Store) -> None:
    """The check holds for every writer, not only through the store's functions."""
    element_id = seed(store)
    for start, end in [(6, 20), (30, 56), (40, 40), (31, None)]:
        with pytest.raises(exc.IntegrityError), store.engine.begin() as conn:
            conn.exec_driver_sql(
                "UPDATE element SET key_start = %s, key_end = %s WHERE id = %s"
                if conn.dialect.name == "postgresql"
                else "UPDATE element SET key_start = ?, key_end = ? WHERE id = ?",
                (start, end, element_id),
            )
    with store.engine.begin() as conn:  # from the element's very start to its very end
        conn.exec_driver_sql("UPDATE element SET key_start = 7, key_end = 55")
    with store.session() as s:
        (row,) = page_elements(s, "p.html")
        assert (row.key_start, row.key_end) == ELEMENT


def test_upgrade_to_keys_keeps_elements(db_url: str) -> None:
    engine = create_store_engine(db_url)
    assert upgrade(engine, MIGRATIONS[: KEYS_VERSION - 1], where="test") == KEYS_VERSION - 1
    at = "'2024-01-01 00:00:00'"
    with engine.begin() as conn:
        mark = "%s" if conn.dialect.name == "postgresql" else "?"
        conn.exec_driver_sql(
            f"INSERT INTO document (id, source_path, sha256, profile, text, ingested_at) "
            f"VALUES ('p.html', 'p.html', 'x', 't', {mark}, {at})",
            (PAGE,),
        )
        conn.exec_driver_sql(
            f"INSERT INTO gold_set (id, name, description, created_at) VALUES (1, 'g', '', {at})"
        )
        conn.exec_driver_sql(
            "INSERT INTO query (id, gold_set_id, external_id, text, notes, created_at) "
            f"VALUES (1, 1, 'q1', '?', '', {at})"
        )
        conn.exec_driver_sql(
            'INSERT INTO element (id, query_id, document_id, start, "end", text, grade, '
            f"annotator, created_at, status) VALUES (1, 1, 'p.html', 7, 55, {mark}, 1, 'ana', "
            f"{at}, 'ok')",
            (PAGE[7:55],),
        )
    engine.dispose()
    with open_store(db_url) as store, store.session() as s:
        assert store.schema_version() == SCHEMA_VERSION
        (row,) = page_elements(s, "p.html")
        assert (row.start, row.end, row.key_start, row.key_end) == (*ELEMENT, None, None)


def _line(element: dict[str, object], qid: str = "q1") -> str:
    return json.dumps({"query_id": qid, "query": "?", "elements": [element]})


def _element(**extra: object) -> dict[str, object]:
    text = PAGE[slice(*ELEMENT)]
    return {"doc": "p.html", "start": ELEMENT[0], "end": ELEMENT[1], "text": text, **extra}


def test_jsonl_round_trip_and_scoring_input(store: Store, tmp_path: Path) -> None:
    seed(store)
    path = tmp_path / "gold.jsonl"
    lines = [
        _line(_element(key={"start": 31, "end": 54}), "a"),
        _line(_element(key={"start": 7, "end": 23}), "b"),  # at the element's start
        _line(_element(key={"start": 31, "end": 55}), "c"),  # at the element's end
        _line(_element(), "d"),  # no key
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    import_gold_file(store, path, "keys", annotator="ana")
    with store.session() as s:
        exported = [
            json.loads(gold_line_json(q.external_id, q.text, q.elements, q.notes))
            for q in export_gold_set(s, "keys")
        ]
    keys = [q["elements"][0].get("key") for q in exported]
    assert keys == [
        {"start": 31, "end": 54},
        {"start": 7, "end": 23},
        {"start": 31, "end": 55},
        None,
    ]
    # export → import → export gives the same lines
    again = tmp_path / "again.jsonl"
    again.write_text("\n".join(json.dumps(q) for q in exported) + "\n", encoding="utf-8")
    import_gold_file(store, again, "keys2", annotator="ana")
    with store.session() as s:
        second = [
            json.loads(gold_line_json(q.external_id, q.text, q.elements, q.notes))
            for q in export_gold_set(s, "keys2")
        ]
    assert second == exported
    # scoring gets the key as offsets into the element text
    questions, _, _ = load_gold(store, "keys")
    assert [q.elements[0].key for q in questions] == [(24, 47), (0, 16), (24, 48), None]
    assert questions[0].elements[0].text[24:47] == "unless the lock is held"


def test_reanchored_element_takes_its_key_along(store: Store, tmp_path: Path) -> None:
    seed(store)
    # offsets 3 too far right: the importer re-anchors the text at 7, the key moves by −3
    shifted = _element(start=10, end=58, key={"start": 34, "end": 57})
    path = tmp_path / "gold.jsonl"
    path.write_text(_line(shifted) + "\n", encoding="utf-8")
    import_gold_file(store, path, "moved", annotator="ana")
    with store.session() as s:
        (q,) = list(export_gold_set(s, "moved"))
    (e,) = q.elements
    assert (e.start, e.end, e.key_start, e.key_end) == (7, 55, 31, 54)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ({"start": 6, "end": 20}, r"key 6-20 is not inside the element 7-55"),
        ({"start": 31, "end": 56}, r"key 31-56 is not inside the element 7-55"),
        ({"start": 40, "end": 40}, r"key 40-40 is not inside"),
        ({"start": 31}, r"missing field elements\[0\]\.key\.'end'"),
        ({"start": "31", "end": 54}, r"key\.'start'"),
        ([31, 54], r"'key' must be an object"),
    ],
)
def test_bad_key_refused_with_line_number(
    store: Store, tmp_path: Path, key: object, message: str
) -> None:
    seed(store)
    path = tmp_path / "bad.jsonl"
    path.write_text(_line(_element(), "ok") + "\n" + _line(_element(key=key)) + "\n", "utf-8")
    with pytest.raises(InputError, match=message) as caught:
        import_gold_file(store, path, "bad", annotator="ana")
    assert caught.value.line == 2
    with store.session() as s:  # nothing written
        assert not list(page_elements(s, "p.html"))[1:]


def test_key_without_element_offsets_refused(store: Store, tmp_path: Path) -> None:
    seed(store)
    path = tmp_path / "bad.jsonl"
    element = {"doc": "p.html", "text": PAGE[slice(*ELEMENT)], "key": {"start": 31, "end": 54}}
    path.write_text(_line(element) + "\n", "utf-8")
    with pytest.raises(InputError, match="has a 'key' but no 'start'/'end'"):
        import_gold_file(store, path, "bad", annotator="ana")


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_score_counts_key_lost_through_the_fast_reader(
    store: Store, db_url: str, tmp_path: Path, jobs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Gold import with keys, run import, ``labeler score`` on the SQLite file (the stdlib
    reader, one or two processes): q1's only chunk holds 39 of 48 code points of its element
    (page[0:46]) but not the key (page[31:54]); q2's chunk holds its element whole."""
    from labeler.cli import main
    from labeler.runs import import_run_file
    from labeler.store.fastread import open_reader

    seed(store)
    gold = tmp_path / "gold.jsonl"
    outro = {"doc": "p.html", "start": 56, "end": 62, "text": "Outro."}
    gold.write_text(
        _line(_element(key={"start": 31, "end": 54}), "q1") + "\n" + _line(outro, "q2") + "\n",
        encoding="utf-8",
    )
    import_gold_file(store, gold, "keys", annotator="ana")
    run = tmp_path / "run.jsonl"
    run.write_text(
        json.dumps({"query_id": "q1", "results": [{"text": PAGE[0:46]}]})
        + "\n"
        + json.dumps({"query_id": "q2", "results": [{"text": "Outro."}]})
        + "\n",
        encoding="utf-8",
    )
    import_run_file(store, run, "r")
    store.close()
    reader = open_reader(Path(db_url))
    assert reader is not None  # at the current schema: scoring takes the fast path
    reader.close()
    capsys.readouterr()
    args = ["score", "--gold-set", "keys", "--run", "r", "--k", "1", "--db", db_url]
    assert main([*args, "--jobs", jobs, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metrics"]["partial@1"] == 0.5 and out["metrics"]["hit@1"] == 0.5
    assert out["keys"] == 1 and out["key_lost"] == {"1": 1}
    assert [q["key_lost"] for q in out["per_query"]] == [[1], []]
    assert main([*args, "--jobs", jobs]) == 0
    table = capsys.readouterr().out
    assert "key lost" in table and "1 element(s) have one" in table


def test_reingest_moves_the_key_with_its_element(store: Store, tmp_path: Path) -> None:
    """The page gains "Version 2. " (11 code points) in front: the element moves from 7 to
    18 and its key from 31–54 to 42–65, still over "unless the lock is held"."""
    from labeler.pages import ingest_paths
    from labeler.store import get_document

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "p.txt").write_text(PAGE, encoding="utf-8")
    ingest_paths(store, [corpus])
    with store.write() as s:
        q = add_query(s, create_gold_set(s, "g"), "q1", "?", actor="ana")
        assert q.id is not None
        element_id = attach_element(s, q.id, "p.txt", *ELEMENT, annotator="ana").id
        set_key(s, element_id, *KEY, actor="ana")
    new = "Version 2. " + PAGE
    (corpus / "p.txt").write_text(new, encoding="utf-8")
    report = ingest_paths(store, [corpus])
    assert [m.element_id for m in report.moved] == [element_id]
    with store.session() as s:
        (row,) = page_elements(s, "p.txt")
        assert get_document(s, "p.txt").text == new
    assert (row.start, row.end, row.key_start, row.key_end, row.status) == (18, 66, 42, 65, "ok")
    assert new[42:65] == "unless the lock is held"


def test_cli_export_writes_keys_in_every_layer(
    store: Store, db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``labeler gold export`` (final, all, one annotator's layer) keeps key spans, and the
    final export reads back to the same lines."""
    from labeler.cli import main

    seed(store)
    path = tmp_path / "gold.jsonl"
    path.write_text(_line(_element(key={"start": 31, "end": 54}), "a") + "\n", encoding="utf-8")
    assert main(["gold", "import", str(path), "--gold-set", "k", "--db", db_url]) == 0
    assert (
        main(
            [
                "gold",
                "import",
                str(path),
                "--gold-set",
                "t",
                "--annotator",
                "ana",
                "--layer",
                "--db",
                db_url,
            ]
        )
        == 0
    )
    capsys.readouterr()
    for gold_set, layer in (("k", "final"), ("t", "all"), ("t", "annotator:ana")):
        argv = ["gold", "export", "--gold-set", gold_set, "--layer", layer, "--db", db_url]
        assert main(argv) == 0
        (line,) = capsys.readouterr().out.splitlines()
        assert json.loads(line)["elements"][0]["key"] == {"start": 31, "end": 54}, layer
    exported = tmp_path / "k.jsonl"
    assert main(["gold", "export", "--gold-set", "k", "-o", str(exported), "--db", db_url]) == 0
    assert main(["gold", "import", str(exported), "--gold-set", "k2", "--db", db_url]) == 0
    capsys.readouterr()
    assert main(["gold", "export", "--gold-set", "k2", "--db", db_url]) == 0
    assert capsys.readouterr().out == exported.read_text(encoding="utf-8")
