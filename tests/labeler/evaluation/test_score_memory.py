"""Scoring keeps memory bounded: beyond a fixed working set, only the figures per question.

Two generated stores (one page, questions of one element each, 20 results per question)
are scored in a fresh interpreter each, under ``tracemalloc`` (numpy's arrays included),
through :func:`labeler.evaluation.score` with intervals, with token budgets, and as
``labeler score`` would. The peak grows with the number of questions by at most
``PER_QUESTION`` bytes a question plus 8 per metric value (44 values by default, 72 with
two budgets). Measured here: 870 plus the values (the gold layer's outline, the packed
judgements, the ids and the rest of the table); 1,190 plus the values while the gold layer
was read whole and judgements kept in full, which this bound refuses. Scoring the run whole
(as before ranges) costs several kilobytes a question: chunks, placements and a
``QueryScore`` per question.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.cli import main

PER_QUESTION = 1_000  # bytes a question besides its metric values (8 bytes each)
SMALL, LARGE = 1_500, 5_000
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]

PROBE = """
import sys, tracemalloc
from labeler.evaluation import Intervals, ScoreRequest, score
from scoring.budget import Tokenizer
db, variant = sys.argv[1], sys.argv[2]
extra = {}
if variant == "budgets":
    extra = dict(budgets=(40, 120), tokenizer=Tokenizer("words", lambda t: len(t.split())))
if variant == "each":
    extra = dict(layer="each")
request = ScoreRequest("g", "r", intervals=Intervals(0.95, 200), processes=1, **extra)
tracemalloc.start()
ev = score(db, request).evaluation
peak = tracemalloc.get_traced_memory()[1]
if variant == "each":  # every question is pending: only the annotators' layers score
    lines = [line for name, line in ev.layers if name != "final"]
    print(peak, min(line.questions for line in lines), len(lines[0].metrics))
else:
    print(peak, len(ev.result.queries), len(ev.result.metric_keys()))
"""


def make_store(folder: Path, questions: int, layers: bool = False) -> str:
    """One page of numbered sentences, a gold set "g" of ``questions`` one-element
    questions and a run "r" of 20 results each (every fifth holding the element whole);
    with ``layers``, the same labels imported as the own layers of two annotators, who
    mark every question done (so that each is pending in the final layer)."""
    folder.mkdir()
    sentences = [f"Sentence {s} says {WORDS[s % len(WORDS)]} {s * 7 % 13}." for s in range(400)]
    page = " ".join(sentences)
    (folder / "docs").mkdir()
    (folder / "docs" / "p.txt").write_text(page, encoding="utf-8")
    db = str(folder / "labels.db")
    assert main(["ingest", str(folder / "docs"), "--db", db, "-q"]) == 0
    gold, run = [], []
    for q in range(questions):
        target = sentences[q % len(sentences)]
        element = {"doc": "p.txt", "text": target}
        gold.append({"query_id": f"q{q:06d}", "query": f"question {q}", "elements": [element]})
        at = page.index(target)
        results = []
        for r in range(20):
            start = max(0, at - 10) if r % 5 == 0 else (q * 31 + r * 97) % (len(page) - 80)
            results.append({"text": page[start : start + 80]})
        run.append({"query_id": f"q{q:06d}", "results": results})
    (folder / "gold.jsonl").write_text("".join(json.dumps(g) + "\n" for g in gold))
    (folder / "run.jsonl").write_text("".join(json.dumps(r) + "\n" for r in run))
    assert main(["gold", "import", str(folder / "gold.jsonl"), "--gold-set", "g", "--db", db]) == 0
    assert main(["run", "import", str(folder / "run.jsonl"), "--name", "r", "--db", db, "-q"]) == 0
    for name in ("ana", "bob") if layers else ():
        own = ["gold", "import", str(folder / "gold.jsonl"), "--gold-set", "g", "--db", db]
        assert main([*own, "--layer", "--annotator", name, "--actor", name, "-q"]) == 0
    return db


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[int, str]:
    root = tmp_path_factory.mktemp("memory")
    return {n: make_store(root / str(n), n) for n in (SMALL, LARGE)}


@pytest.fixture(scope="module")
def team_stores(tmp_path_factory: pytest.TempPathFactory) -> dict[int, str]:
    root = tmp_path_factory.mktemp("memory-team")
    return {n: make_store(root / str(n), n, layers=True) for n in (SMALL, LARGE)}


def peak(db: str, variant: str, questions: int) -> tuple[int, int]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, db, variant], capture_output=True, text=True, check=True
    )
    traced, scored, keys = map(int, done.stdout.split())
    assert scored == questions
    return traced, keys


@pytest.mark.parametrize("variant", ["intervals", "budgets"])
def test_peak_grows_by_the_figures_per_question_only(stores: dict[int, str], variant: str) -> None:
    small, keys = peak(stores[SMALL], variant, SMALL)
    large, _ = peak(stores[LARGE], variant, LARGE)
    per_question = (large - small) / (LARGE - SMALL)
    assert per_question < PER_QUESTION + 8 * keys, (small, large, per_question, keys)


def test_each_annotator_layer_is_read_in_outline_and_kept_as_one_line(
    team_stores: dict[int, str],
) -> None:
    """``--layer each`` over two annotators' layers of every question: the same bound, so
    no layer is read whole and no layer's rows outlive its line of the table (keeping both
    layers' rows measured about 2,300 bytes a question besides the values)."""
    small, keys = peak(team_stores[SMALL], "each", SMALL)
    large, _ = peak(team_stores[LARGE], "each", LARGE)
    per_question = (large - small) / (LARGE - SMALL)
    assert per_question < PER_QUESTION + 8 * keys, (small, large, per_question, keys)
