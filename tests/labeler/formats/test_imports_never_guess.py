"""Imports that never guess, through the real CLI on both backends (issue 23).

Each reproduction failed before: doccano's ``annotations`` download form imported nothing
and exited 0; a Label Studio span with right offsets and a shifted ``text`` was re-anchored
mid-word; offsets without text were read by a word-boundary guess; a file storing nothing
exited 0; the Ragas export had no ``retrieved_contexts``. Every expected offset and slice is
counted by hand in the comments next to the page it is on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from _db_dump import dump

from labeler.cli import main

pytestmark = pytest.mark.backends("sqlite", "postgresql")

# doccano's own example text (its issue 113, the "format 0" export)
LAMB = "EU rejects German call to boycott British lamb."
# "Some " is 5 characters: "simple text" is 5..16, "ple tex" 8..15 (mid-word)
SIMPLE = "Some simple text here."
# code points: 🙂 0, " " 1, I 2, " " 3, a 4, m 5, " " 6, a 7, " " 8, c 9 a 10 t 11
# UTF-16 units: 🙂 0-1, " " 2, I 3, " " 4, a 5, m 6, " " 7, a 8, " " 9, c 10 a 11 t 12
CAT = "🙂 I am a cat"
# "Cafe" then U+0301 COMBINING ACUTE ACCENT at 4 (the "é" is two code points), " au" 5..8
CAFE = "Cafe\u0301 au lait"


def _ingest_pages(folder: Path, db: str) -> None:
    pages = folder / "pages"
    pages.mkdir()
    for name, text in (("lamb", LAMB), ("simple", SIMPLE), ("cat", CAT), ("cafe", CAFE)):
        (pages / f"{name}.txt").write_text(text, encoding="utf-8")
    assert main(["ingest", str(pages), "--db", db, "-q"]) == 0


@pytest.fixture()
def db(seeded_db: Callable[[str, Callable[[Path, str], object]], str]) -> str:
    """The four pages ingested (once per test process and backend; each test a copy)."""
    return seeded_db("never-guess", _ingest_pages)


def write(tmp_path: Path, name: str, rows: list[object] | object) -> Path:
    path = tmp_path / name
    if name.endswith(".jsonl"):
        assert isinstance(rows, list)
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    else:
        path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    return path


def gold_import(path: Path, fmt: str, db: str, *extra: str) -> int:
    return main(
        ["gold", "import", str(path), "--format", fmt, "--gold-set", "g", "--db", db, *extra]
    )


def exported(db: str, tmp_path: Path) -> dict[str, list[tuple[str, int, int, str]]]:
    out = tmp_path / "out.jsonl"
    assert main(["gold", "export", "--gold-set", "g", "-o", str(out), "--db", db]) == 0
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    return {
        r["query_id"]: [(e["doc"], e["start"], e["end"], e["text"]) for e in r["elements"]]
        for r in rows
    }


def refused(capsys: pytest.CaptureFixture[str], db: str, path: Path, fmt: str, *extra: str) -> str:
    """Import ``path``; check exit 1, one stderr line, the database unchanged; return the
    message after ``labeler: error: PATH``."""
    before = dump(db)
    capsys.readouterr()
    assert gold_import(path, fmt, db, *extra) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error" not in err, err
    assert dump(db) == before
    prefix = f"labeler: error: {path}"
    assert err.startswith(prefix), err
    return err[len(prefix) :].rstrip("\n")


def ls_task(
    doc: str, start: int, end: int, text: str | None, label: str = "q1"
) -> dict[str, object]:
    value: dict[str, object] = {"start": start, "end": end, "labels": [label]}
    if text is not None:
        value["text"] = text
    return {
        "id": 1,
        "data": {"doc": doc},
        "annotations": [{"result": [{"type": "labels", "value": value}]}],
    }


def test_doccano_download_form_with_label_ids_imports(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """doccano's export example (issue 113): ``annotations`` with numeric label ids; each id
    becomes its question's id, as a number in ``[start, end, 7]`` always did."""
    row = {
        "id": 15,
        "text": LAMB,
        "annotations": [
            {"label": 7, "start_offset": 0, "end_offset": 2, "user": 1},
            {"label": 6, "start_offset": 11, "end_offset": 17, "user": 1},
        ],
        "meta": {},
    }
    assert gold_import(write(tmp_path, "dc.jsonl", [row]), "doccano", db) == 0
    out, err = capsys.readouterr()
    assert "2 questions (one per label), 2 elements" in out
    assert "labels given as numeric ids (6, 7): each id is its question's id" in err
    assert exported(db, tmp_path) == {
        "7": [("lamb.txt", 0, 2, "EU")],
        "6": [("lamb.txt", 11, 17, "German")],
    }


def test_right_offsets_shifted_text_refused_unless_prefer(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Label Studio issue 1931: offsets 5..16 are "simple text", the text says "ple tex"."""
    path = write(tmp_path, "ls.json", [ls_task("simple.txt", 5, 16, "ple tex")])
    assert refused(capsys, db, path, "labelstudio") == (
        ": task 1 (id 1), annotation 1, result 1, span 5-16: offsets 5-16 (UTF-16 code units) "
        "cut 'simple text' but its text says 'ple tex'; give --prefer offsets to store what "
        "the offsets cut, or --prefer text to place the text at its first occurrence"
    )
    assert gold_import(path, "labelstudio", db, "--prefer", "offsets") == 0
    assert "1 span(s) stored at their offsets, their differing text ignored" in (
        capsys.readouterr().err
    )
    assert exported(db, tmp_path) == {"q1": [("simple.txt", 5, 16, "simple text")]}
    assert gold_import(path, "labelstudio", db, "--prefer", "text", "--replace", "--force") == 0
    assert "1 span(s) placed by their text at its first occurrence" in capsys.readouterr().err
    assert exported(db, tmp_path) == {"q1": [("simple.txt", 8, 15, "ple tex")]}


@pytest.mark.parametrize(
    ("fmt", "span", "extra", "stored"),
    [
        # no text: the unit decides, not what the offsets cut
        ("doccano", (8, 9, None), (), (7, 8, "a")),
        ("doccano", (7, 8, None), ("--offset-unit", "codepoint"), (7, 8, "a")),
        ("doccano", (7, 8, None), (), (6, 7, " ")),  # UTF-16 7..8 is the space before "a"
        ("doccano", (4, 6, None), (), (3, 5, " a")),  # before: a word-edge guess chose "am"
        ("labelstudio", (8, 9, None), (), (7, 8, "a")),
        ("labelstudio", (7, 8, None), ("--offset-unit", "codepoint"), (7, 8, "a")),
        # with text, each unit where it fits
        ("labelstudio", (8, 9, "a"), (), (7, 8, "a")),
        ("labelstudio", (7, 8, "a"), ("--offset-unit", "codepoint"), (7, 8, "a")),
        ("labelstudio", (5, 7, "am"), (), (4, 6, "am")),
    ],
)
def test_offsets_read_in_the_unit(
    db: str,
    tmp_path: Path,
    fmt: str,
    span: tuple[int, int, str | None],
    extra: tuple[str, ...],
    stored: tuple[int, int, str],
) -> None:
    start, end, text = span
    if fmt == "doccano":
        path = write(tmp_path, "f.jsonl", [{"doc": "cat.txt", "label": [[start, end, "q1"]]}])
    else:
        path = write(tmp_path, "f.json", [ls_task("cat.txt", start, end, text)])
    assert gold_import(path, fmt, db, *extra) == 0
    assert exported(db, tmp_path) == {"q1": [("cat.txt", *stored)]}


def test_text_in_the_other_unit_is_refused_naming_the_unit(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "ls.json", [ls_task("cat.txt", 7, 8, "a")])
    assert refused(capsys, db, path, "labelstudio") == (
        ": task 1 (id 1), annotation 1, result 1, span 7-8: offsets 7-8 (UTF-16 code units) "
        "cut ' ' but its text says 'a' (read as code points they cut exactly its text: if the "
        "file counts code points, give --offset-unit codepoint); give --prefer offsets to "
        "store what the offsets cut, or --prefer text to place the text at its first occurrence"
    )
    path = write(tmp_path, "ls2.json", [ls_task("cat.txt", 8, 9, "a")])
    assert "offsets 8-9 (code points) cut ' ' but its text says 'a' (read as UTF-16 code " in (
        refused(capsys, db, path, "labelstudio", "--offset-unit", "codepoint")
    )


def test_cuts_inside_a_character_or_combining_sequence_are_refused(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "cut.jsonl", [{"doc": "cat.txt", "label": [[1, 4, "q1"]]}])
    assert refused(capsys, db, path, "doccano") == (
        ":1: line 1, label[0]: offsets 1-4 (UTF-16 code units): start 1 falls between the two "
        "UTF-16 units of U+1F642 '🙂' (units 0-2): it would cut the character in two"
    )
    path = write(tmp_path, "cafe.jsonl", [{"doc": "cafe.txt", "label": [[0, 4, "q1"]]}])
    assert refused(capsys, db, path, "doccano") == (
        ":1: line 1, label[0]: span 0-4 (code points) 'Cafe': it ends just before the "
        "combining mark U+0301 '\u0301', cutting it from its base character 'e'"
    )
    path = write(tmp_path, "cafe.json", [ls_task("cafe.txt", 4, 8, "\u0301 au")])
    assert refused(capsys, db, path, "labelstudio") == (
        ": task 1 (id 1), annotation 1, result 1, span 4-8: span 4-8 (code points) "
        "'\u0301 au': it starts at the combining mark U+0301 '\u0301', cutting it from its "
        "base character 'e'"
    )
    # the whole sequence is fine: "Café" is 0..5
    path = write(tmp_path, "whole.json", [ls_task("cafe.txt", 0, 5, "Cafe\u0301")])
    assert gold_import(path, "labelstudio", db) == 0
    assert exported(db, tmp_path) == {"q1": [("cafe.txt", 0, 5, "Cafe\u0301")]}


def test_task_text_other_than_its_page_is_placed_only_by_prefer_text(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = ls_task("simple.txt", 0, 6, "simple")
    task["data"] = {"doc": "simple.txt", "text": "simple text"}  # not the stored page's text
    path = write(tmp_path, "ls.json", [task])
    assert "the task's text is not the text of stored page 'simple.txt'" in refused(
        capsys, db, path, "labelstudio"
    )
    assert gold_import(path, "labelstudio", db, "--prefer", "text") == 0
    assert exported(db, tmp_path) == {"q1": [("simple.txt", 5, 11, "simple")]}


@pytest.mark.parametrize(
    ("fmt", "content", "message"),
    [
        (
            "labelstudio",
            [{"id": 3, "data": {"doc": "simple.txt"}, "annotations": [
                {"result": [{"type": "choices", "value": {"choices": ["yes"]}}]},
                {"was_cancelled": True, "result": []}]}],
            ": nothing to import: 1 task(s), no result of type 'labels' with a label; read and "
            "skipped: 1 cancelled annotation, 1 result of type 'choices' (--allow-empty "
            "imports an empty gold set)",
        ),
        (
            "doccano",
            [{"text": LAMB, "spans": [[0, 2, "ORG"]]}, {"text": LAMB, "label": []}],
            ": nothing to import: 2 line(s), no span under 'label', 'labels', 'entities' or "
            "'annotations'; read and skipped: 1 line without a span field (--allow-empty "
            "imports an empty gold set)",
        ),
    ],
)  # fmt: skip
def test_span_file_storing_nothing_is_refused_unless_allow_empty(
    db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fmt: str,
    content: list[object],
    message: str,
) -> None:
    path = write(tmp_path, "f.jsonl" if fmt == "doccano" else "f.json", content)
    assert refused(capsys, db, path, fmt) == message
    assert gold_import(path, fmt, db, "--allow-empty") == 0
    assert exported(db, tmp_path) == {}


def test_layer_file_storing_nothing_is_refused_unless_allow_empty(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every line is another annotator's question (an ``--layer all`` export)."""
    line = {"query_id": "q1", "query": "?", "done_by": ["bob"], "elements": [
        {"doc": "lamb.txt", "text": "EU", "layer": "annotator", "annotator": "bob"}]}  # fmt: skip
    path = write(tmp_path, "all.jsonl", [line])
    args = ("--layer", "--annotator", "ana")
    assert refused(capsys, db, path, "jsonl", *args) == (
        ": nothing to import: 1 line(s), none with ana's labels or done mark (each has a "
        "'done_by' list without ana and no element of their layer); check --annotator "
        "(--allow-empty accepts the file anyway)"
    )
    assert gold_import(path, "jsonl", db, *args, "--allow-empty") == 0


def test_run_storing_nothing_is_refused_unless_allow_empty(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "run.jsonl", [
        {"query_id": "q1", "results": []}, {"user_input": "?", "query_id": "q2",
                                             "retrieved_contexts": []}])  # fmt: skip
    before = dump(db)
    capsys.readouterr()
    assert main(["run", "import", "-q", str(path), "--name", "r", "--db", db]) == 1
    assert capsys.readouterr().err == (
        f"labeler: error: {path}:1: nothing to import: 2 question line(s), the first here, none "
        "with a result (every 'results' or 'retrieved_contexts' list is empty); --allow-empty "
        "imports it\n"
    )
    assert dump(db) == before
    assert main(["run", "import", "-q", str(path), "--name", "r", "--db", db, "--allow-empty"]) == 0


def test_ragas_export_with_a_run_adds_retrieved_contexts(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = write(tmp_path, "g.jsonl", [
        {"query_id": "q1", "query": "Who rejects?", "elements": [{"doc": "lamb.txt", "text": "EU"}]},
        {"query_id": "q2", "query": "Which lamb?", "elements": [
            {"doc": "lamb.txt", "text": "British lamb"}]},
        {"query_id": "q3", "query": "Unlabelled?", "elements": []},
    ])  # fmt: skip
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db]) == 0
    run = write(tmp_path, "run.jsonl", [
        {"query_id": "q1", "results": [{"text": "EU rejects", "rank": 2},
                                       {"text": "German call", "rank": 1}]},
        {"query_id": "q9", "results": [{"text": "elsewhere"}]},
    ])  # fmt: skip
    assert main(["run", "import", "-q", str(run), "--name", "bm25", "--db", db]) == 0
    base = ["gold", "export", "--gold-set", "g", "--format", "ragas", "--db", db]
    capsys.readouterr()
    assert main([*base, "--run", "bm25"]) == 0
    out, err = capsys.readouterr()
    # Ragas's single-turn sample fields; q1's chunks in rank order, q2 absent from the run
    assert [json.loads(x) for x in out.splitlines()] == [
        {"user_input": "Who rejects?", "reference_contexts": ["EU"],
         "retrieved_contexts": ["German call", "EU rejects"]},
        {"user_input": "Which lamb?", "reference_contexts": ["British lamb"],
         "retrieved_contexts": []},
    ]  # fmt: skip
    assert "1 question(s) not in run 'bm25' written with \"retrieved_contexts\": [] (q2)" in err
    assert main([*base, "--run", "nope"]) == 1
    assert "no run 'nope' in the database (runs: bm25)" in capsys.readouterr().err
    assert main([*base[:5], "jsonl", "--run", "bm25", "--db", db]) == 2
    assert "--run is for --format ragas, not jsonl" in capsys.readouterr().err
