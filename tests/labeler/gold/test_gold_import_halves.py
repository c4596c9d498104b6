"""A gold file imported in two processes (its later lines staged by a forked one) stores
exactly what a single process stores, returns the same report, and refuses a bad file on
the same first bad line.

The size from which a file is split (``MIN_SPLIT_BYTES``) is lowered to one byte here, so
that these small files are split; each test checks that the file really is cut and (for a
good file) that the forked process's part was merged rather than read again here (either
way alone would compare the single-process import with itself). The expected lines of
errors are counted by hand from the files written.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from labeler.cli import main
from labeler.errors import InputError
from labeler.gold import SnapOptions, _halves, import_gold_file
from labeler.gold._transfer import ResolvedQuestion, ResolveSummary
from labeler.store import Store
from labeler.store.goldrows import NewElement, NewQuestion
from labeler.store.goldstage import GoldStage
from labeler.workers import may_fork

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGES = 4
SENTENCES = 30
QUESTIONS = 240
ECHO = "Echo line here."  # twice on page 0: an element of that text is repeated there


def sentence(d: int, s: int) -> str:
    return f"Page {d} sentence {s} reads {'xyz'[s % 3] * (s % 5 + 1)}."


def page(d: int) -> str:
    text = " ".join(sentence(d, s) for s in range(SENTENCES))
    return f"{text} {ECHO} {ECHO}" if d == 0 else text


@pytest.fixture()
def pages(store: Store, db_url: str, tmp_path: Path) -> Store:
    docs = tmp_path / "docs"
    docs.mkdir()
    for d in range(PAGES):
        (docs / f"p{d}.txt").write_text(page(d), encoding="utf-8")
    assert main(["ingest", str(docs), "--db", db_url, "-q"]) == 0
    return store


def gold_line(q: int) -> dict[str, Any]:
    """Question q's line: an element on page q % PAGES, with offsets on even lines (wrong
    ones on every seventh: re-anchored), and now and then a key, a repeated text, a stale
    element, an annotator-layer one, notes, a not-relevant judgement, an element to snap
    and one too far from its page to snap (left for review)."""
    d, s = q % PAGES, q % SENTENCES
    chunk = sentence(d, s)
    element: dict[str, Any] = {"doc": f"p{d}.txt", "text": chunk, "grade": 1 + q % 3}
    if q % 2 == 0:
        start = page(d).index(chunk) + (1 if q % 7 == 0 else 0)
        element |= {"start": start, "end": start + len(chunk)}
        if q % 13 == 0 and q % 7:
            element["key"] = {"start": start, "end": start + 4}
    elements: list[dict[str, Any]] = [element]
    if q % 11 == 0:
        elements.append({"doc": "p0.txt", "text": ECHO})
    if q % 17 == 0:
        elements.append(
            {"doc": "p1.txt", "start": 0, "end": 9, "text": "Old words", "status": "stale"}
        )
    if q % 19 == 0:
        elements.append(
            {"doc": f"p{d}.txt", "text": sentence(d, (s + 1) % SENTENCES), "layer": "annotator",
             "annotator": "ann", "provenance": "own"}
        )  # fmt: skip
    if q % 29 == 0:  # one letter off: snapped
        elements.append({"doc": "p3.txt", "text": sentence(3, 5).replace("sentence", "sentense")})
    if q % 31 == 0:  # nowhere near the page: left for review
        elements.append({"doc": "p2.txt", "text": "Nothing like this is written anywhere."})
    line: dict[str, Any] = {"query_id": f"q{q}", "query": f"Ask {q}?", "elements": elements}
    if q % 9 == 0:
        line["notes"] = f"note {q}"
    if q % 23 == 0:
        line["adjudicated"] = False
    if q % 5 == 0:
        line["judged_not_relevant"] = [{"doc": "p2.txt", "start": 0, "end": 10}]
    return line


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def good_lines() -> list[str]:
    return [json.dumps(gold_line(q)) for q in range(QUESTIONS)]


def split(monkeypatch: pytest.MonkeyPatch, path: Path) -> int:
    """Have ``path`` split, and the line number the forked process starts at."""
    monkeypatch.setattr(_halves, "MIN_SPLIT_BYTES", 1)
    cut = _halves.split_point(path, path.stat().st_size)
    assert cut is not None, "this system does not split gold files: the test would prove nothing"
    assert 1 < cut[1] < QUESTIONS
    return cut[1]


def merges(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The part files merged from now on (the real merge, recorded)."""
    merged: list[Path] = []
    real = GoldStage.merge

    def merge(self: GoldStage, part: Path) -> None:
        merged.append(part)
        real(self, part)

    monkeypatch.setattr(GoldStage, "merge", merge)
    return merged


def imported(store: Store, path: Path, name: str) -> tuple[list[ResolvedQuestion], ResolveSummary]:
    return import_gold_file(
        store, path, name, annotator="tester", keep=False, snap=SnapOptions(review=True)
    )


def stored(store: Store, name: str) -> dict[str, list[tuple[Any, ...]]]:
    """Gold set ``name``'s rows in id order, ids left out (both sets share a database)."""
    where = "JOIN gold_set AS g ON g.id = q.gold_set_id WHERE g.name = :name"
    queries = {
        "query": f"SELECT q.external_id, q.text, q.notes FROM query AS q {where} ORDER BY q.id",
        "element": 'SELECT q.external_id, e.document_id, e.start, e."end", e.text, e.grade, '
        "e.annotator, e.status, e.key_start, e.key_end, e.provenance, e.assisted "
        f"FROM element AS e JOIN query AS q ON q.id = e.query_id {where} ORDER BY e.id",
        "not_relevant": 'SELECT q.external_id, n.document_id, n.start, n."end", n.annotator, '
        f"n.layer FROM not_relevant AS n JOIN query AS q ON q.id = n.query_id {where} "
        "ORDER BY n.id",
    }
    out: dict[str, list[tuple[Any, ...]]] = {}
    with store.session() as session:
        for table, query in queries.items():
            out[table] = [tuple(r) for r in session.execute(text(query), {"name": name})]
        # the audit entries of the set's rows, in order: what each added, ids left out
        entries = session.execute(
            text(
                "SELECT entity, action, after FROM audit_entry "
                "WHERE entity IN ('query', 'element', 'not_relevant') ORDER BY id"
            )
        ).all()
    ids = ("id", "query_id", "gold_set_id", "created_at")
    out["audit"] = [
        (entity, action, {k: v for k, v in _json(after).items() if k not in ids})
        for entity, action, after in entries
    ]
    return out


def _json(value: Any) -> dict[str, Any]:
    found = json.loads(value) if isinstance(value, str) else value
    assert isinstance(found, dict)
    return found


def _parts_left() -> list[Path]:
    return list(Path(tempfile.gettempdir()).glob(f"labeler-gold-part-*-{os.getpid()}-*"))


def test_a_split_import_stores_and_reports_what_one_process_does(
    pages: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "gold.jsonl", good_lines())
    whole_kept, whole = imported(pages, path, "whole")
    before = stored(pages, "whole")
    split(monkeypatch, path)
    merged = merges(monkeypatch)
    parts_kept, parts = imported(pages, path, "parts")
    assert len(merged) == 1  # the forked process's part was merged, not read again here
    assert (parts_kept, parts) == (whole_kept, whole)
    # every kind of line the halves tally is there to add up (both halves hold some)
    assert whole.questions == QUESTIONS and whole.reanchored and whole.repeated
    assert whole.stale and whole.layer_left_out and whole.not_adjudicated and whole.snapped
    assert {m.line for m in whole.review} == {q + 1 for q in range(0, QUESTIONS, 31)}
    assert {q.line for q in whole_kept} > {15, 225}  # re-anchored (q14, q224): both halves
    after = stored(pages, "parts")
    for table in ("query", "element", "not_relevant"):
        assert after[table] == before[table] and after[table]
    # the audit log holds the whole import's entries, then the same for the split one
    assert len(after["audit"]) % 2 == 0
    half = len(after["audit"]) // 2
    assert after["audit"][half:] == after["audit"][:half] and half > QUESTIONS
    assert not _parts_left()


def error_of(store: Store, path: Path, name: str) -> InputError:
    with pytest.raises(InputError) as caught:
        import_gold_file(store, path, name, annotator="tester", snap=SnapOptions(review=False))
    return caught.value


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("repeat across the halves", "query_id 'q3' appears twice"),
        ("repeat in the second half", "query_id 'q201' appears twice"),
        ("broken line before a repeat", "broken JSON"),
        ("unknown page before a repeat", "unknown document 'p9.txt'"),
        ("repeat before an unknown page", "query_id 'q3' appears twice"),
        ("below the snap minimum in both halves", "2 element text(s) not on their page"),
    ],
)
def test_a_split_import_reports_the_first_bad_line(
    pages: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, expected: str
) -> None:
    lines = [json.dumps(_without_misses(gold_line(q))) for q in range(QUESTIONS)]
    # lines are numbered from 1: list index i is line i + 1
    if case == "repeat across the halves":
        lines[199] = json.dumps(gold_line(3))  # line 200 repeats line 4's q3
        lines[219] = json.dumps(gold_line(7))  # and line 220 repeats q7: line 200 is reported
        bad = 200
    elif case == "repeat in the second half":
        lines[229] = json.dumps(gold_line(201))  # line 230 repeats line 202's q201
        bad = 230
    elif case == "broken line before a repeat":
        lines[189] = '{"query_id": "q189", "elements": ['  # line 190
        lines[199] = json.dumps(gold_line(3))
        bad = 190
    elif case == "unknown page before a repeat":
        lines[189] = json.dumps({"query_id": "q189", "elements": [{"doc": "p9.txt", "text": "x"}]})
        lines[199] = json.dumps(gold_line(3))
        bad = 190
    elif case == "repeat before an unknown page":
        lines[189] = json.dumps(gold_line(3))
        lines[199] = json.dumps({"query_id": "q199", "elements": [{"doc": "p9.txt", "text": "x"}]})
        bad = 190
    else:  # misses are refused together after the last line: the first one is named
        lines[9] = json.dumps(gold_line(31) | {"query_id": "q9"})  # line 10
        lines[209] = json.dumps(gold_line(31) | {"query_id": "q209"})  # line 210
        bad = 10
    path = write(tmp_path / "gold.jsonl", lines)
    whole = error_of(pages, path, "whole")
    assert split(monkeypatch, path) < 190
    parts = error_of(pages, path, "parts")
    assert (parts.line, parts.reason) == (whole.line, whole.reason)
    assert parts.line == bad and expected in parts.reason
    with pages.session() as session:  # all or nothing: no gold set stored
        assert session.execute(text("SELECT name FROM gold_set")).all() == []
    assert not _parts_left()


def _without_misses(line: dict[str, Any]) -> dict[str, Any]:
    """``line`` without the element too far from its page to snap."""
    elements = [e for e in line["elements"] if "anywhere" not in e["text"]]
    return line | {"elements": elements}


def test_a_forked_part_hands_its_stage_over_or_leaves_nothing(store: Store) -> None:
    """The forked process's staged questions reach the parent's stage through its file,
    after the parent's own; one that fails leaves no file, and the parent learns it failed
    (it then stages those lines itself)."""

    def question(qid: str, doc: str) -> NewQuestion:
        return NewQuestion(qid, f"{qid}?", "", (NewElement(doc, 0, 4, "text", 1, "me"),))

    def job(stage: GoldStage, alive: Callable[[], None]) -> str:
        alive()
        stage.add([question("qb", "b"), question("qc", "c")])
        return "staged"

    def failing(stage: GoldStage, alive: Callable[[], None]) -> str:
        raise ValueError("a bad line")

    if not may_fork():
        pytest.fail("this system does not fork: the test would prove nothing")
    part = _halves.fork_part(store, job)
    assert part is not None
    assert part.collect() == "staged" and part.path.exists()
    assert sorted(GoldStage.external_ids(part.path)) == ["qb", "qc"]
    mine = GoldStage()
    try:
        mine.add([question("qa", "a")])
        mine.merge(part.path)
        assert (mine.questions, mine.elements) == (3, 3)
        got = [q for batch in _batches(mine) for q in batch]
        assert [(q.external_id, q.elements[0].doc) for q in got] == [
            ("qa", "a"),
            ("qb", "b"),
            ("qc", "c"),
        ]
    finally:
        mine.close()
        part.discard()
    assert not part.path.exists()
    failed = _halves.fork_part(store, failing)
    assert failed is not None
    assert failed.collect() is None
    assert not failed.path.exists()
    failed.discard()


def _batches(stage: GoldStage) -> Iterator[list[NewQuestion]]:
    return stage.batches(2)
