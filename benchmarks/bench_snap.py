"""Snapping cost: scoring a run whose chunks are not on their pages as they are.

    python benchmarks/bench_snap.py [--questions 200] [--chunks 10] [--repeat 3]

Data (seeded): pages of the bundled corpus as jsoup extracts them; per question one page,
one element (a slice of 200 code points) and ``--chunks`` chunks (slices of 400 code
points, the first holding the element). Four runs of the same slices, scored interleaved
in one process (best of ``--repeat``):

1. ``exact``: the slices as they are, no snapping (today's path);
2. ``exact+snap``: the same with ``snap_min=0.9`` (nothing to snap: the cost of the check);
3. ``whitespace``: every space a line break, snapped by the normalised exact match;
4. ``deleted``: also every 50th character deleted, snapped by rapidfuzz alignment.

The peer is scoring the exact slices without snapping (1); the ratios are against it. Peak
memory (tracemalloc) of each run is printed. Runs 3 and 4 must score what run 1 scores on
hit@10 (the script checks it).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from labeler.extract import page_text
from scoring import Chunk, GoldElement, GoldQuestion, RunScore, score_run

CORPUS = Path(__file__).resolve().parents[1] / "corpora" / "sqlite-docs"


def make(
    n: int, chunks: int, seed: int
) -> tuple[list[GoldQuestion], dict[str, str], list[list[tuple[str, int]]]]:
    rng = random.Random(seed)
    files = sorted(CORPUS.glob("*.html"))
    pages: dict[str, str] = {}
    questions: list[GoldQuestion] = []
    slices: list[list[tuple[str, int]]] = []
    while len(questions) < n:
        path = rng.choice(files)
        text = pages.get(path.name) or page_text(path.read_bytes())
        if len(text) < 5000:
            continue
        pages[path.name] = text
        at = rng.randrange(0, len(text) - 1000)
        element = text[at + 100 : at + 300]
        starts = [at] + [rng.randrange(0, len(text) - 400) for _ in range(chunks - 1)]
        questions.append(
            GoldQuestion(f"q{len(questions)}", "?", (GoldElement(path.name, element),))
        )
        slices.append([(path.name, s) for s in starts])
    return questions, pages, slices


def run_of(
    pages: dict[str, str], slices: list[list[tuple[str, int]]], change: Callable[[str], str]
) -> dict[str, list[Chunk]]:
    return {
        f"q{i}": [Chunk(change(pages[doc][s : s + 400]), doc) for doc, s in row]
        for i, row in enumerate(slices)
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--chunks", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    questions, pages, slices = make(args.questions, args.chunks, args.seed)
    runs = {
        "exact": (run_of(pages, slices, lambda t: t), None),
        "exact+snap": (run_of(pages, slices, lambda t: t), 0.9),
        "whitespace": (run_of(pages, slices, lambda t: t.replace(" ", "\n")), 0.9),
        "deleted": (
            run_of(
                pages,
                slices,
                lambda t: "".join(c for i, c in enumerate(t.replace(" ", "\n")) if i % 50 != 49),
            ),
            0.9,
        ),
    }
    best: dict[str, float] = {}
    peak: dict[str, int] = {}
    results: dict[str, RunScore] = {}
    for _ in range(args.repeat):
        for name, (run, snap_min) in runs.items():  # interleaved
            tracemalloc.start()
            t0 = time.perf_counter()
            results[name] = score_run(questions, pages, run, snap_min=snap_min)
            took = time.perf_counter() - t0
            peak[name] = max(peak.get(name, 0), tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            best[name] = min(best.get(name, took), took)
    base = best["exact"]
    print(f"{args.questions} questions x {args.chunks} chunks, {len(pages)} pages")
    for name in runs:
        r = results[name]
        print(
            f"{name:12} {best[name] * 1000:9.1f} ms  x{best[name] / base:7.2f}  "
            f"peak {peak[name] / 1e6:7.1f} MB  hit@10 {r.value('hit', 10):.3f}  "
            f"snapped {r.flags.snapped}  fallback {r.flags.fallback}  "
            f"lowest {r.lowest_snap}"
        )
    for name in ("whitespace", "deleted"):
        assert results[name].value("hit", 10) == results["exact"].value("hit", 10), name


if __name__ == "__main__":
    main()
