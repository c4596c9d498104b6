"""``gold import --layer`` staged and written set-based: a file read by two processes stores
and reports exactly what one process does, and refuses a bad file on the same line as
reading it whole did (a line that cannot be read before an earlier element that cannot be
placed: the file was read whole before any element was placed); the rows get the ids, and
the audit log the entries in the order, that labelling the questions one at a time gives.

The split size (``MIN_SPLIT_BYTES``) is lowered to one byte so that these small files are
split; each split test checks that the file is cut and that the forked process's part was
merged (not read again here). Expected lines and ids are counted by hand from the files.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import select

from labeler.cli import main
from labeler.errors import InputError
from labeler.gold import LayerImport, _halves, import_layer_file
from labeler.store import Store, integrity
from labeler.store.goldstage import BATCH, GoldStage

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGES = 3
SENTENCES = 20
QUESTIONS = 240


def sentence(d: int, s: int) -> str:
    return f"Page {d} line {s} holds {'pqr'[s % 3] * (s % 4 + 1)}."


def page(d: int) -> str:
    return " ".join(sentence(d, s) for s in range(SENTENCES))


@pytest.fixture()
def pages(store: Store, db_url: str, tmp_path: Path) -> Store:
    docs = tmp_path / "docs"
    docs.mkdir()
    for d in range(PAGES):
        (docs / f"p{d}.txt").write_text(page(d), encoding="utf-8")
    assert main(["ingest", str(docs), "--db", db_url, "-q"]) == 0
    return store


def layer_line(q: int) -> dict[str, Any]:
    """Question q in an ``--layer all`` export's shape: ana's element (offsets on even
    lines, wrong ones on every seventh: re-anchored; a key now and then) and bob's; done by
    both, by bob only (every fifth: not ana's unless she has an element), or ``"done":
    false`` (every ninth); every eleventh line holds bob's work only (skipped for ana)."""
    d, s = q % PAGES, q % SENTENCES
    chunk = sentence(d, s)
    mine: dict[str, Any] = {"doc": f"p{d}.txt", "text": chunk, "grade": 1 + q % 3,
                            "layer": "annotator", "annotator": "ana"}  # fmt: skip
    if q % 2 == 0:
        start = page(d).index(chunk) + (1 if q % 7 == 0 else 0)
        mine |= {"start": start, "end": start + len(chunk)}
        if q % 6 == 0 and q % 7:
            mine["key"] = {"start": start, "end": start + 4}
    theirs = {"doc": f"p{d}.txt", "text": sentence(d, (s + 1) % SENTENCES),
              "layer": "annotator", "annotator": "bob"}  # fmt: skip
    elements = [theirs] if q % 11 == 0 else [mine, theirs]
    line: dict[str, Any] = {"query_id": f"q{q}", "query": f"Ask {q}?", "elements": elements}
    line["done_by"] = ["bob"] if q % 5 == 0 or q % 11 == 0 else ["ana", "bob"]
    if q % 9 == 0:
        line["done"] = False
    if q % 4 == 0:
        line["notes"] = f"note {q}"
    return line


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def split(monkeypatch: pytest.MonkeyPatch, path: Path) -> int:
    """Have ``path`` split; the line the forked process starts at."""
    monkeypatch.setattr(_halves, "MIN_SPLIT_BYTES", 1)
    cut = _halves.split_point(path, path.stat().st_size)
    assert cut is not None, "this system does not split gold files: the test would prove nothing"
    assert 1 < cut[1] < QUESTIONS
    return cut[1]


def merges(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    merged: list[Path] = []
    real = GoldStage.merge

    def merge(self: GoldStage, part: Path) -> None:
        merged.append(part)
        real(self, part)

    monkeypatch.setattr(GoldStage, "merge", merge)
    return merged


def stored(store: Store, name: str) -> dict[str, list[tuple[Any, ...]]]:
    """Gold set ``name``'s questions, elements and done marks in id order, ids left out."""
    where = "JOIN gold_set AS g ON g.id = q.gold_set_id WHERE g.name = :name"
    queries = {
        "query": f"SELECT q.external_id, q.text, q.notes FROM query AS q {where} ORDER BY q.id",
        "element": 'SELECT q.external_id, e.document_id, e.start, e."end", e.text, e.grade, '
        "e.annotator, e.layer, e.provenance, e.key_start, e.key_end, e.assisted "
        f"FROM element AS e JOIN query AS q ON q.id = e.query_id {where} ORDER BY e.id",
        "done": "SELECT q.external_id, d.annotator, d.no_answer FROM question_done AS d "
        f"JOIN query AS q ON q.id = d.query_id {where} ORDER BY d.id",
    }
    with store.session() as session:
        return {
            table: [tuple(r) for r in session.execute(text(query), {"name": name})]
            for table, query in queries.items()
        }


def layer(store: Store, path: Path, name: str) -> LayerImport:
    return import_layer_file(store, path, name, annotator="ana")


def test_a_split_layer_import_stores_and_reports_what_one_process_does(
    pages: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "all.jsonl", [json.dumps(layer_line(q)) for q in range(QUESTIONS)])
    whole = layer(pages, path, "whole")
    before = stored(pages, "whole")
    split(monkeypatch, path)
    merged = merges(monkeypatch)
    parts = layer(pages, path, "parts")
    assert len(merged) == 1  # the forked process's part was merged, not read again here
    assert parts == LayerImport(**{**whole.__dict__, "gold_set": "parts"})
    # hand-worked: 22 lines (q % 11 == 0) are bob's only; of the other 218, those with
    # "done": false (q % 9 == 0: 24 of them, 5 of which q % 5 == 0 too) or a done_by list
    # without ana (q % 5 == 0: 43) are not marked: 218 - 24 - 43 + 5 = 156 marked
    assert (whole.questions, whole.skipped, whole.added, whole.done) == (218, 22, 218, 156)
    # re-anchored: wrong offsets on lines q % 14 == 0, but for q154 (bob's only)
    reanchored = [q + 1 for q in range(14, QUESTIONS, 14) if q != 154]
    assert [q.line for q in whole.resolved] == reanchored
    after = stored(pages, "parts")
    assert after == before and after["element"]


@pytest.mark.backends("sqlite")
def test_the_write_finds_the_file_checked_while_it_was_staged(
    pages: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The damage check a store's first write begins with ran while the file was staged
    (in a thread): the write finds the file as that check left it, and checks it no more."""
    path = write(tmp_path / "all.jsonl", [json.dumps(layer_line(q)) for q in range(QUESTIONS)])
    split(monkeypatch, path)
    db = pages.file_to_check
    assert db is not None, "the store wrote already: the test would prove nothing"
    Path(f"{db}{integrity.SIDECAR_SUFFIX}").unlink(missing_ok=True)  # as after a copy
    assert integrity.needs_check(db)
    found: list[bool] = []  # whether the file was to be checked when the write began

    def quick_check(connection: Any, checked: Path, where: str) -> None:
        found.append(integrity.needs_check(checked))
        real(connection, checked, where)

    real = integrity.quick_check  # the one the store's write calls, imported there
    monkeypatch.setattr("labeler.store.session.quick_check", quick_check)
    layer(pages, path, "checked")
    assert found == [False]


@pytest.mark.parametrize(
    ("case", "bad", "expected"),
    [
        # a line that cannot be read goes before an earlier element that cannot be placed
        ("unknown page, then broken JSON later", 200, "broken JSON"),
        ("unknown page, then a repeat across the halves", 200, "query_id 'q3' appears twice"),
        # on SQLite the earlier part is written while the later one is staged, its query
        # ids set aside meanwhile: they are taken back to find the repeat
        ("a repeat across the halves", 200, "query_id 'q3' appears twice"),
        ("unknown page in the later half", 220, "unknown document 'p9.txt'"),
        ("stale element of ana's", 230, "elements[0] is stale"),
    ],
)
def test_a_split_layer_import_refuses_on_the_line_reading_it_whole_did(
    pages: Store,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    bad: int,
    expected: str,
) -> None:
    lines = [json.dumps(layer_line(q)) for q in range(QUESTIONS)]
    unknown = json.dumps({"query_id": "q189", "elements": [{"doc": "p9.txt", "text": "x"}]})
    if case == "unknown page, then broken JSON later":
        lines[9] = unknown.replace("q189", "q9")  # line 10
        lines[199] = '{"query_id": "q199", "elements": ['  # line 200
    elif case == "unknown page, then a repeat across the halves":
        lines[9] = unknown.replace("q189", "q9")
        lines[199] = json.dumps(layer_line(3))  # line 200 repeats line 4's q3
    elif case == "a repeat across the halves":
        lines[199] = json.dumps(layer_line(3))
    elif case == "unknown page in the later half":
        lines[219] = unknown.replace("q189", "q219")
    else:
        stale = {"doc": "p1.txt", "start": 0, "end": 4, "text": "Page", "status": "stale"}
        lines[229] = json.dumps({"query_id": "q229", "elements": [stale]})
        lines[9] = unknown.replace("q189", "q9")
    path = write(tmp_path / "bad.jsonl", lines)
    with pytest.raises(InputError) as whole:
        layer(pages, path, "whole")
    assert split(monkeypatch, path) < 200
    with pytest.raises(InputError) as parts:
        layer(pages, path, "parts")
    assert (parts.value.line, parts.value.reason) == (whole.value.line, whole.value.reason)
    assert parts.value.line == bad and expected in parts.value.reason
    with pages.session() as session:  # all or nothing: no gold set stored
        assert session.execute(text("SELECT name FROM gold_set")).all() == []


def test_rows_get_the_ids_labelling_one_question_at_a_time_gives(
    pages: Store, tmp_path: Path, backend: str
) -> None:
    """Ana's labels replaced: on SQLite a new row takes the largest id + 1, so the ids her
    removed labels and done marks held at the top are given again; PostgreSQL's sequences
    go on. The audit log lists each question's changes in turn."""
    one, two, three = (sentence(0, s) for s in range(3))
    first = [
        {"query_id": "q1", "elements": [{"doc": "p0.txt", "text": one}]},
        {"query_id": "q2", "elements": [{"doc": "p0.txt", "text": two}]},
    ]
    again = [
        {"query_id": "q2", "elements": [], "done": False},
        {"query_id": "q1", "elements": [{"doc": "p0.txt", "text": three}]},
    ]
    layer(pages, write(tmp_path / "a.jsonl", [json.dumps(x) for x in first]), "team")
    done = layer(pages, write(tmp_path / "b.jsonl", [json.dumps(x) for x in again]), "team")
    assert (done.created, done.removed, done.added, done.done) == (0, 2, 1, 1)
    with pages.session() as session:
        elements = session.execute(text("SELECT id, text FROM element ORDER BY id")).all()
        marks = session.execute(text("SELECT id, query_id FROM question_done")).all()
        entries = session.execute(
            text("SELECT action, entity, entity_id FROM audit_entry WHERE id > 6 ORDER BY id")
        ).all()
    # first import: q1 (query 1, element 1, done mark 1), then q2 (2, 2, 2): 6 entries.
    # again, SQLite: q2's element 2 and done mark 2 removed (largest id now 1 in both);
    # q1's element 1 removed (none left), its new one takes id 1; its done mark 1 removed
    # and added again as 1. PostgreSQL: the new element is 3, the new done mark 3.
    new = 1 if backend == "sqlite" else 3
    assert [tuple(r) for r in elements] == [(new, three)]
    assert [tuple(r) for r in marks] == [(new, 1)]
    assert [tuple(r) for r in entries] == [
        ("remove", "element", 2),
        ("remove", "question_done", 2),
        ("remove", "element", 1),
        ("add", "element", new),
        ("remove", "question_done", 1),
        ("add", "question_done", new),
    ]


def test_a_refusal_after_the_first_batch_leaves_the_database_as_it_was(
    pages: Store, tmp_path: Path, db_url: str
) -> None:
    """The settled question is the last of a file longer than a batch: the earlier batches
    are written, then the refusal rolls all of them back."""
    from _db_dump import dump

    from labeler.store.models import Query
    from labeler.store.team import set_adjudicated

    count = BATCH + 1
    first = [{"query_id": f"q{q}", "elements": [{"doc": "p0.txt", "text": sentence(0, q % 5)}]}
             for q in range(count)]  # fmt: skip
    layer(pages, write(tmp_path / "a.jsonl", [json.dumps(x) for x in first]), "team")
    with pages.write() as session:
        last = session.exec(select(Query).where(Query.external_id == f"q{count - 1}")).one()
        assert last.id is not None
        set_adjudicated(session, last.id, by="lead")

    def marks() -> list[tuple[Any, ...]]:
        with pages.session() as session:
            found = session.execute(text("SELECT * FROM question_done ORDER BY id")).all()
        return [tuple(r) for r in found]

    before = (dump(db_url), marks())
    changed = [x | {"elements": [{"doc": "p1.txt", "text": sentence(1, 7)}]} for x in first]
    path = write(tmp_path / "b.jsonl", [json.dumps(x) for x in changed])
    with pytest.raises(InputError) as refused:
        layer(pages, path, "team")
    assert "refused: 1 question(s)" in refused.value.reason
    assert f"q{count - 1} (line {count})" in refused.value.reason
    assert (dump(db_url), marks()) == before


def test_a_split_layer_import_its_actor_may_not_make_reports_a_bad_later_line_first(
    pages: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: str
) -> None:
    """bob, an annotator, may not import ana's layer, and a line of the forked process's part
    cannot be read: that line is reported, as reading the file whole reports it (the file is
    read before the actor's right is checked). On SQLite the write begins while that part is
    staged, and is refused there: that refusal waits for the whole file to be read."""
    from labeler.errors import RoleError
    from labeler.gold import _layer_import
    from labeler.store.annotators import add_annotator

    with pages.write() as session:
        add_annotator(session, "bob", "annotator", actor="lead")
    lines = [json.dumps(layer_line(q)) for q in range(QUESTIONS)]
    good = write(tmp_path / "good.jsonl", lines)
    lines[219] = '{"query_id": "q219", "elements": ['  # line 220
    path = write(tmp_path / "bad.jsonl", lines)

    def by_bob(file: Path) -> LayerImport:
        return import_layer_file(pages, file, "team", annotator="ana", actor="bob")

    with pytest.raises(InputError) as whole:
        by_bob(path)
    split(monkeypatch, path)
    began: list[GoldStage] = []
    early = _layer_import._Writing.early

    def spied(self: _layer_import._Writing, stage: GoldStage) -> None:
        began.append(stage)
        early(self, stage)

    monkeypatch.setattr(_layer_import._Writing, "early", spied)
    with pytest.raises(InputError) as parts:
        by_bob(path)
    assert len(began) == (backend == "sqlite")  # the early write was tried (SQLite only)
    assert (parts.value.line, parts.value.reason) == (whole.value.line, whole.value.reason)
    assert parts.value.line == 220 and "broken JSON" in parts.value.reason
    with pytest.raises(RoleError):  # the file reads well: bob's right is what refuses it
        by_bob(good)
    with pages.session() as session:
        assert session.execute(text("SELECT name FROM gold_set")).all() == []
