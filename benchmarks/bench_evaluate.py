"""Benchmark: what calling a retriever through ``GoldSet.evaluate`` costs over calling it
in a plain loop and scoring the answers in memory.

Usage: ``python benchmarks/bench_evaluate.py [--db PATH] [--repeat N]``

Builds the demo database in a temporary folder (or uses ``--db``, a built demo database
with ``structure-chunks.jsonl`` beside it), then, per repetition, on the 56 demo questions
with the bundled BM25 retriever (top 10): (a) a plain loop calling the retriever, then
``gold.score(answers)``; (b) ``gold.evaluate(retriever)`` with one call at a time; (c) the
same with an ``async def`` wrapper and ``concurrency=8``. Prints the best wall-clock
seconds of each and the ratios b/a and c/a (the loop's overhead: threads, the event loop,
timing, reading the result shapes).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import labeler  # noqa: E402
from labeler.evaluation import bm25_retriever  # noqa: E402


def best(repeat: int, work: Callable[[], Any]) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", default=None)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.db is None:
            from labeler.demo import run_demo
            from labeler.store import open_store

            db = str(Path(tmp) / "demo.db")
            with open_store(db) as store:
                run_demo(store, Path(tmp))
            chunks = Path(tmp) / "structure-chunks.jsonl"
        else:
            db = args.db
            chunks = Path(db).parent / "structure-chunks.jsonl"
        bm25 = bm25_retriever(chunks, k=10)

        async def async_bm25(text: str) -> list[dict[str, object]]:
            return bm25(text)

        with labeler.open(db) as database:
            gold = database.gold_set("demo")
            questions = gold.questions()

            def plain() -> None:
                gold.score({q.query_id: bm25(q.text) for q in questions})

            a = best(args.repeat, plain)
            b = best(args.repeat, lambda: gold.evaluate(bm25))
            c = best(args.repeat, lambda: gold.evaluate(async_bm25, concurrency=8))
    print(f"{len(questions)} questions, best of {args.repeat}")
    print(f"(a) plain loop + score in memory   {a:8.4f} s")
    print(f"(b) evaluate, sync, 1 at a time    {b:8.4f} s   b/a = {b / a:.2f}")
    print(f"(c) evaluate, async, 8 at a time   {c:8.4f} s   c/a = {c / a:.2f}")


if __name__ == "__main__":
    main()
