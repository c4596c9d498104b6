"""A run file imported in two processes (the second half staged by a forked one) stores
exactly what a single process stores, and reports exactly the same first bad line.

The size from which a file is split (``MIN_SPLIT_BYTES``) is lowered to one byte here, so
that these small files are split; each test checks the file really is cut (it would
otherwise compare the single-process import with itself). The expected lines of errors are
counted by hand from the files written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from labeler.cli import main
from labeler.errors import InputError
from labeler.runs import _split
from labeler.runs._import import import_run_file
from labeler.store import Store
from labeler.store.runstage import RunStage
from labeler.workers import may_fork

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGES = 4
SENTENCES = 30
QUESTIONS = 240


def sentence(d: int, s: int) -> str:
    return f"Page {d} sentence {s} reads {'xyz'[s % 3] * (s % 5 + 1)}."


def page(d: int) -> str:
    return " ".join(sentence(d, s) for s in range(SENTENCES))


def _label(folder: Path, db: str) -> None:
    """Pages, and a gold set whose question q{i} has one element on page i % PAGES."""
    docs = folder / "docs"
    docs.mkdir()
    for d in range(PAGES):
        (docs / f"p{d}.txt").write_text(page(d), encoding="utf-8")
    assert main(["ingest", str(docs), "--db", db, "-q"]) == 0
    gold = folder / "gold.jsonl"
    with gold.open("w", encoding="utf-8") as out:
        for q in range(QUESTIONS):
            d, s = q % PAGES, q % SENTENCES
            element = {"doc": f"p{d}.txt", "text": sentence(d, s)}
            line = {"query_id": f"q{q}", "query": f"Ask {q}?", "elements": [element]}
            out.write(json.dumps(line) + "\n")
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db, "-q"]) == 0


@pytest.fixture()
def db_url(seeded_db: Callable[[str, Callable[[Path, str], object]], str]) -> str:
    """A copy of the database :func:`_label` filled once per test process and backend."""
    return seeded_db("run-import-split", _label)


@pytest.fixture()
def labelled(store: Store) -> Store:
    """The store on :func:`_label`'s pages and gold set (``db_url``)."""
    return store


def run_line(q: int) -> dict[str, Any]:
    """Question q's line: chunks of its page (some with offsets, one of them wrong), one of
    another page, one on no page; every fifth line a Ragas line matched by its text."""
    d = q % PAGES
    text = page(d)
    results: list[dict[str, Any] | str] = []
    for r in range(6):
        chunk = sentence(d, (q + r) % SENTENCES)
        result: dict[str, Any] = {"text": chunk, "doc": f"p{d}.txt", "score": 1 / (r + 1)}
        if (q + r) % 2:
            start = text.index(chunk) + (1 if r == 3 else 0)  # rank 4: offsets that miss
            result |= {"start": start, "end": start + len(chunk)}
        results.append(result)
    results.append({"text": sentence((d + 1) % PAGES, 0), "doc": f"p{(d + 1) % PAGES}.txt"})
    results.append("no page holds this")
    if q % 5 == 0:
        return {"user_input": f"Ask {q}?", "retrieved_contexts": [sentence(d, q % SENTENCES)]}
    return {"query_id": f"q{q}", "results": results}


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def good_lines() -> list[str]:
    return [json.dumps(run_line(q)) for q in range(QUESTIONS)]


def split(monkeypatch: pytest.MonkeyPatch, path: Path) -> int:
    """Have ``path`` split, and the line number the forked process starts at."""
    monkeypatch.setattr(_split, "MIN_SPLIT_BYTES", 1)
    cut = _split.split_point(path, path.stat().st_size)
    assert cut is not None, "this system does not split run files: the test would prove nothing"
    assert 1 < cut[1] < QUESTIONS
    return cut[1]


def stored(store: Store, name: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    with store.session() as session:
        run = {"name": name}
        results = session.execute(
            text(
                "SELECT query_external_id, rank, chunk_text, doc_id, score, located, chunk_start, "
                "chunk_end FROM run_result JOIN run ON run.id = run_id WHERE run.name = :name "
                "ORDER BY run_result.id"
            ),
            run,
        ).all()
        placements = session.execute(
            text(
                "SELECT query_external_id, page_sha256, starts, repeated, occurrences, lengths "
                "FROM run_placement JOIN run ON run.id = run_id WHERE run.name = :name "
                "ORDER BY query_external_id, page_sha256"
            ),
            run,
        ).all()
    return [tuple(r) for r in results], [tuple(r) for r in placements]


def test_a_split_import_stores_what_one_process_stores(
    labelled: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "run.jsonl", good_lines())
    whole = import_run_file(labelled, path, "whole")
    seen: list[int] = []
    split(monkeypatch, path)
    parts = import_run_file(labelled, path, "parts", progress=lambda done, *_: seen.append(done))
    assert (parts.questions, parts.results, parts.offset_mismatch) == (
        whole.questions,
        whole.results,
        whole.offset_mismatch,
    )
    assert whole.questions == QUESTIONS and whole.offset_mismatch > 0
    results, placements = stored(labelled, "parts")
    assert (results, placements) == stored(labelled, "whole")
    assert len(results) == whole.results and placements
    # the rows are numbered in the order of their key, whichever process staged them
    # (q1, q10, q100, ... interleave the halves' questions; a line's ranks come in order)
    keys = [(qid, rank) for qid, rank, *_ in results]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert seen[-1] == path.stat().st_size and seen == sorted(seen)
    assert not list(Path(_stage_dir()).glob(f"labeler-run-stage-*-{os.getpid()}-*"))


def _stage_dir() -> str:
    import tempfile

    return tempfile.gettempdir()


def error_of(store: Store, path: Path, name: str) -> InputError:
    with pytest.raises(InputError) as caught:
        import_run_file(store, path, name)
    return caught.value


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("repeat across the halves", "query_id 'q3' appears twice"),
        ("repeat in the second half", "query_id 'q201' appears twice"),
        ("broken line before a repeat", "broken JSON"),
        ("unmatched user_input before a repeat", "no question has this line's user_input"),
        ("repeat before an unmatched user_input", "query_id 'q3' appears twice"),
    ],
)
def test_a_split_import_reports_the_first_bad_line(
    labelled: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, expected: str
) -> None:
    lines = good_lines()
    # lines are numbered from 1: list index i is line i + 1
    if case == "repeat across the halves":
        lines[199] = json.dumps(run_line(3))  # line 200 repeats line 4's q3
        lines[219] = json.dumps(run_line(7))  # and line 220 repeats q7: line 200 is reported
        bad = 200
    elif case == "repeat in the second half":
        lines[229] = json.dumps(run_line(201))  # line 230 repeats line 202's q201
        bad = 230
    elif case == "broken line before a repeat":
        lines[189] = '{"query_id": "q189", "results": ['  # line 190
        lines[199] = json.dumps(run_line(3))
        bad = 190
    elif case == "unmatched user_input before a repeat":
        lines[189] = json.dumps({"user_input": "Nobody asks", "retrieved_contexts": ["x"]})
        lines[199] = json.dumps(run_line(3))
        bad = 190
    else:  # the repeat comes first, the unmatched line in the same batch of lines later
        lines[189] = json.dumps(run_line(3))
        lines[199] = json.dumps({"user_input": "Nobody asks", "retrieved_contexts": ["x"]})
        bad = 190
    path = write(tmp_path / "run.jsonl", lines)
    whole = error_of(labelled, path, "whole")
    assert split(monkeypatch, path) < bad
    parts = error_of(labelled, path, "parts")
    assert (parts.line, parts.reason) == (whole.line, whole.reason)
    assert parts.line == bad and expected in parts.reason
    with labelled.session() as session:  # all or nothing: no run stored
        assert session.execute(text("SELECT name FROM run")).all() == []
    assert not list(Path(_stage_dir()).glob(f"labeler-run-stage-*-{os.getpid()}-*"))


def test_a_forked_part_hands_its_staging_file_over_or_leaves_nothing(store: Store) -> None:
    """The forked process's staged rows reach the parent's stage through its file; one that
    fails leaves no file, and the parent learns it failed (it then stages that part)."""

    def job(stage: RunStage, alive: Callable[[], None]) -> _split.Staged:
        alive()
        stage.add_questions([("qa", 7), ("qb", 8)])
        stage.add_results([("qa", 1, "text", None, 0.5, False, None, None)])
        return 2, 1, 7

    def failing(stage: RunStage, alive: Callable[[], None]) -> _split.Staged:
        raise ValueError("a bad line")

    if not may_fork():
        pytest.fail("this system does not fork: the test would prove nothing")
    part = _split.fork_part(store, job)
    assert part is not None
    staged, path = part.collect(), part.path
    assert staged == (2, 1, 7) and path.exists()
    mine = RunStage()
    other = RunStage()
    try:
        mine.add_questions([("qb", 3)])
        assert mine.merge(path) == ("qb", 8)  # qb came first here: its later line is the error
        assert mine.results == 0
        assert other.merge(path) is None
        assert (other.results, other.lines_of(["qa", "qb", "qc"])) == (1, {"qa": 7, "qb": 8})
    finally:
        mine.close()
        other.close()
        part.discard()
    assert not path.exists()
    failed = _split.fork_part(store, failing)
    assert failed is not None
    assert failed.collect() is None
    assert not failed.path.exists()
    failed.discard()
