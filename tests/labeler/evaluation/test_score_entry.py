"""One scoring entry point: ``labeler score``, the Python API and the TUI's scores screen
score through :func:`labeler.evaluation.score` and agree to the value, on both backends;
the reader (the fast SQLite reader or the store) is chosen in one place."""

from __future__ import annotations

import ast
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _scoring_db import build

import labeler
from labeler.cli import main
from labeler.evaluation import _entry, runs_to_score
from labeler.store import open_store
from labeler.tui.scoredata import score_stored_run

pytestmark = pytest.mark.backends("sqlite", "postgresql")

LABELER = Path(labeler.__file__).resolve().parent


@pytest.fixture
def built(tmp_path: Path, db_url: str) -> str:
    open_store(db_url).close()
    return build(tmp_path, db=db_url)


def test_cli_api_and_tui_score_alike_through_the_one_function(
    built: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The three front ends score run "a" with their defaults (the CLI without intervals,
    which the others do not add) through ``score``: the same metrics and per-question rows,
    from the same request."""
    requests: list[_entry.ScoreRequest] = []
    real: Callable[..., Any] = _entry._one

    def one(source: Any, request: _entry.ScoreRequest, *rest: Any) -> Any:
        requests.append(request)
        return real(source, request, *rest)

    monkeypatch.setattr(_entry, "_one", one)
    out = tmp_path / "cli.json"
    argv = ["score", "--gold-set", "g", "--run", "a", "--db", built, "--ci", "0"]
    assert main([*argv, "--format", "json", "-o", str(out)]) == 0
    cli = json.loads(out.read_text())
    with labeler.open(built) as db:
        api = db.gold_set("g").score("a")
    store = open_store(built)
    try:
        (run,) = [r for r in runs_to_score(store) if r.name == "a"]
        tui = score_stored_run(store, "g", run)
    finally:
        store.close()
    assert [(r.gold_set, r.run, r.layer, r.ks, r.threshold) for r in requests] == [
        ("g", "a", "final", (1, 3, 5, 10), 0.5)
    ] * 3
    assert api.to_dict() == cli
    assert tui.result.to_dict() == api.result.to_dict()
    assert tui.stale_excluded == cli["stale_excluded"]
    assert cli["queries"] > 0 and cli["metrics"]["hit@5"] > 0
    # the drill-down's inputs: the gold set's 90 questions (those without elements too),
    # with the run's chunk texts
    assert sorted(tui.questions) == [f"q{i:03d}" for i in range(90)]
    assert {q["query_id"] for q in cli["per_query"]} <= set(tui.questions)
    assert all(c.text for chunks in tui.chunks.values() for c in chunks)


def test_every_reader_gives_the_same_score(built: str) -> None:
    """A ``--db`` value, an open store and the store read through SQLAlchemy (on SQLite the
    first two read through the fast reader) score to the same bytes."""
    from labeler.evaluation import ScoreRequest, StoreSource, reading, score
    from labeler.store.fastread import SqliteReader

    request = ScoreRequest("g", "b", ks=(1, 4), fail_under=(("hit@4", 0.0),))
    store = open_store(built)
    try:
        with reading(store) as chosen:
            fast = isinstance(chosen, SqliteReader)
        assert fast == ("://" not in built)  # the SQLite file, not the PostgreSQL server
        results = [
            score(where, request).evaluation.to_dict()
            for where in (built, store, StoreSource(store))
        ]
    finally:
        store.close()
    assert results[0]["queries"] > 0
    assert [json.dumps(r) for r in results] == [json.dumps(results[0])] * 3


def test_the_json_written_a_question_at_a_time_is_the_whole_trees(built: str) -> None:
    """``Evaluation.write_json`` (``labeler score --format json``) writes the per-question
    parts one question at a time: the bytes are those of ``json.dumps`` of the whole tree,
    judged@k's per-question shares included."""
    from labeler.evaluation import ScoreRequest, score

    ev = score(built, ScoreRequest("g", "a", ks=(1, 4))).evaluation
    assert ev.judged is not None and len(ev.judged.ids) > 1 and len(ev.result.queries) > 1
    out = io.StringIO()
    ev.write_json(out)
    assert out.getvalue() == json.dumps(ev.to_dict(), ensure_ascii=False)


def _calls(tree: ast.AST, names: set[str]) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in names:
                found.append((name, node.lineno))
    return found


@pytest.mark.backends("sqlite")
def test_the_reader_is_chosen_in_one_place() -> None:
    """Only ``labeler.evaluation._entry`` decides between the fast reader and the store
    (calls ``open_source``/``open_reader``), and no front end calls a scoring stage
    itself: each goes through ``score``."""
    choosing = {"open_source", "open_reader"}
    stages = {
        "score_questions",
        "aggregate",
        "score_run",
        "load_gold",
        "load_gold_layer",
        "load_run",
        "with_intervals",
        "compare_runs",
        "compare_to_baseline",
        "StoreSource",
        "SqliteReader",
    }
    chooser = LABELER / "evaluation" / "_entry.py"
    fastread = LABELER / "store" / "fastread.py"  # open_reader's own home
    front = ("cli", "tui", "serve", "api.py", "demo.py")
    choosers, staged = [], []
    for path in sorted(LABELER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(LABELER).as_posix()
        if path not in (chooser, fastread):
            choosers += [(where, *call) for call in _calls(tree, choosing)]
        if where.startswith(front):
            staged += [(where, *call) for call in _calls(tree, stages)]
    assert choosers == []
    assert staged == []
    # and the entry point does call them: the scan would see a call
    assert {name for name, _ in _calls(ast.parse(chooser.read_text()), choosing)} == choosing


@pytest.mark.backends("sqlite")
def test_scoring_a_sqlite_file_loads_no_sqlalchemy(built: str) -> None:
    """The reader chosen for a ``--db`` value naming a current SQLite file is the fast one,
    and choosing it loads no SQLAlchemy (``labeler score`` is timed against pytrec_eval)."""
    code = (
        "import sys\n"
        "from labeler.cli import main\n"
        f"code = main(['score', '--gold-set', 'g', '--run', 'a', '--db', {built!r}, "
        "'-o', '-', '--format', 'json'])\n"
        "print(code, sorted(m for m in ('sqlalchemy', 'sqlmodel') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == "0 []"
