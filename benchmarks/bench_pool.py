"""Judging the pool against reading pages in order: hidden elements recovered per character.

    python benchmarks/bench_pool.py [--hide 0.3] [--seed 7] [--depth 10] [--questions N]

On the bundled requirements gold set (one element per requirement), a seeded share
``--hide`` of the questions' elements is hidden: the gold set an annotator would start from
is the rest. The demo's two runs are built as the demo builds them (800-token windows and
structure chunks of the cited pages, BM25, top ``--depth``); the requirement ids say
nothing, so each question is asked with a seeded half of its requirement's words, in order
(a keyword query, noisier than the text itself, which bench_keys.py uses).

Two simulated annotators then spend the same characters on each question:

* **pool**: judges the pool (``scoring.pooling.pool_question`` over both runs at the
  depth, the visible elements counted as judged), regions of every question in pool order
  (most runs first, then best rank); a region that overlaps the hidden element recovers
  it, the rest of the region is judged not relevant;
* **pages**: opens the pages the runs retrieved from for the question (in order of best
  rank) and reads each from its top, with the same number of characters as that
  question's pool; reading any part of the hidden element recovers it.

The closing note gives, for both, hidden elements recovered per thousand characters read
(and for a reader of those pages whole), and, as the pool is judged (0, 25, 50, 75, 100 %
of its characters, in pool order), each run's judged@depth and span_recall@depth /
hit@depth against the gold set as it then stands, with the run ranking by span_recall, next
to the figures on the full gold set. Effectiveness, not speed: the wall time and peak memory
are printed for the record only.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from labeler.demo import CORPUS, chunk_pages, fixed_run_name  # noqa: E402
from labeler.evaluation import build_index  # noqa: E402
from labeler.evaluation._bm25 import retrieve  # noqa: E402
from labeler.extract import page_text  # noqa: E402
from labeler.formats.gold_jsonl import read_gold  # noqa: E402
from scoring import Chunk as RunChunk  # noqa: E402
from scoring import GoldElement, GoldQuestion, score_run  # noqa: E402
from scoring.pooling import (  # noqa: E402
    JudgedCount,
    PlacedChunk,
    PoolRegion,
    judged_at_k,
    judged_total,
    pool_question,
)

Span = tuple[str, int, int]  # page, start, end


def overlaps(a: Span, b: Span) -> bool:
    return a[0] == b[0] and a[1] < b[2] and b[1] < a[2]


def scores(
    gold: Mapping[str, Sequence[Span]],
    pages: Mapping[str, str],
    runs: Mapping[str, Mapping[str, list[PlacedChunk]]],
    judged: Mapping[str, Mapping[str, list[tuple[int, int]]]],
    depth: int,
) -> dict[str, tuple[float, float, float]]:
    """Per run: (judged@depth, span_recall@depth, hit@depth) against ``gold``."""
    questions = [
        GoldQuestion(q, q, tuple(GoldElement(d, pages[d][a:b], 1, a, b) for d, a, b in spans))
        for q, spans in gold.items()
        if spans
    ]
    out = {}
    for name, per_q in runs.items():
        run = {
            q: [RunChunk(pages[c.doc][c.start : c.end], c.doc, None, c.start, c.end) for c in cs]  # type: ignore[index]
            for q, cs in per_q.items()
        }
        result = score_run(questions, pages, run, ks=(depth,))
        counts: list[JudgedCount] = [
            judged_at_k(cs, judged.get(q, {}), depth) for q, cs in per_q.items()
        ]
        share = judged_total(counts).share or 0.0
        m = result.metrics
        out[name] = (share, m[f"span_recall@{depth}"], m[f"hit@{depth}"])
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hide", type=float, default=0.3, help="share of elements hidden")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--questions", type=int, default=0, help="a seeded sample (0: all)")
    args = parser.parse_args()
    started = time.perf_counter()
    tracemalloc.start()
    rng = random.Random(args.seed)
    lines = list(read_gold(CORPUS / "gold" / "requirements.jsonl"))
    if args.questions:
        lines = rng.sample(lines, args.questions)
    doc_ids = sorted({e.doc for line in lines for e in line.elements})
    pages = {d: page_text((CORPUS / d).read_bytes()) for d in doc_ids}
    gold: dict[str, list[Span]] = {}
    queries: dict[str, str] = {}
    for line in lines:
        spans = [(e.doc, e.start, e.end) for e in line.elements if e.start is not None]
        gold[line.query_id] = [s for s in spans if s[2] is not None]  # type: ignore[misc]
        words = line.elements[0].text.split()
        kept = sorted(rng.sample(range(len(words)), max(1, len(words) // 2)))
        queries[line.query_id] = " ".join(words[i] for i in kept)
    hidden = {q: spans for q, spans in gold.items() if rng.random() < args.hide}
    visible = {q: ([] if q in hidden else spans) for q, spans in gold.items()}
    fixed, structure = chunk_pages(pages, CORPUS, size=800)
    runs: dict[str, dict[str, list[PlacedChunk]]] = {}
    for name, chunks in ((fixed_run_name(800), fixed), ("structure", structure)):
        index = build_index(chunks)
        runs[name] = {
            q: [
                PlacedChunk(r, c.doc, c.start, c.end, c.end - c.start)
                for r, (c, _) in enumerate(retrieve(index, text, args.depth), start=1)
            ]
            for q, text in queries.items()
        }
    names = list(runs)
    judged0 = {q: _ranges(spans) for q, spans in visible.items()}
    pools: dict[str, list[PoolRegion]] = {}
    for q in gold:
        regions, _ = pool_question({n: runs[n].get(q, []) for n in names}, judged0[q], args.depth)
        pools[q] = regions
    order = sorted(
        ((q, g) for q, regions in pools.items() for g in regions),
        key=lambda x: (-x[1].n_runs, x[1].best_rank, x[0], x[1].doc, x[1].start),
    )
    total = sum(g.end - g.start for _, g in order)
    n_hidden = sum(len(s) for s in hidden.values())

    # the pool annotator, with checkpoints
    recovered: set[tuple[str, Span]] = set()
    judged = {q: {d: list(r) for d, r in ranges.items()} for q, ranges in judged0.items()}
    found = {q: list(spans) for q, spans in visible.items()}
    fractions = (0.0, 0.25, 0.5, 0.75, 1.0)
    marks = [round(total * f) for f in fractions]
    table = [(0, scores(found, pages, runs, judged, args.depth))]
    pool_at = [0]
    read = 0
    nxt = 1
    for q, g in order:
        read += g.end - g.start
        region = (g.doc, g.start, g.end)
        judged[q].setdefault(g.doc, []).append((g.start, g.end))
        for span in hidden.get(q, []):
            if overlaps(span, region) and (q, span) not in recovered:
                recovered.add((q, span))
                found[q].append(span)
                judged[q].setdefault(span[0], []).append((span[1], span[2]))
        while nxt < len(marks) and read >= marks[nxt]:
            table.append((read, scores(found, pages, runs, judged, args.depth)))
            pool_at.append(len(recovered))
            nxt += 1
    pool_recovered = len(recovered)

    # the page reader: the same characters per question, pages top-down in rank order
    page_recovered = whole_recovered = whole_read = 0
    page_at = [0] * len(fractions)
    for q, regions in pools.items():
        budget = sum(g.end - g.start for g in regions)
        opened: list[str] = []
        for c in sorted((c for n in names for c in runs[n].get(q, [])), key=lambda c: c.rank):
            if c.doc is not None and c.doc not in opened:
                opened.append(c.doc)
        left = budget
        seen: list[Span] = []
        for doc in opened:
            take = min(left, len(pages[doc]))
            if take > 0:
                seen.append((doc, 0, take))
            left -= take
            whole_read += len(pages[doc])
        for span in hidden.get(q, []):
            page_recovered += any(overlaps(span, s) for s in seen)
            whole_recovered += any(span[0] == d for d in opened)
            # the same reader stopped at each share of its budget (pages are read in order)
            for i, f in enumerate(fractions):
                start = 0
                for doc in opened:
                    take = min(round(budget * f) - start, len(pages[doc]))
                    if take <= 0:
                        break
                    if overlaps(span, (doc, 0, take)):
                        page_at[i] += 1
                        break
                    start += take

    _, peak = tracemalloc.get_traced_memory()
    seconds = time.perf_counter() - started
    print(
        f"{len(gold)} questions on {len(pages)} pages; {n_hidden} elements hidden (seed "
        f"{args.seed}, share {args.hide}); runs {', '.join(names)} at depth {args.depth}"
    )
    print(f"pool: {len(order)} regions, {total} characters")
    print(
        f"{'read (chars)':>14}  " + "  ".join(f"{n + ' judged/span_recall/hit':>44}" for n in names)
    )
    for at, row in table:
        cells = "  ".join(f"{row[n][0]:>14.3f}{row[n][1]:>15.3f}{row[n][2]:>15.3f}" for n in names)
        best = max(names, key=lambda n: row[n][1])
        print(f"{at:>14}  {cells}   first by span_recall: {best}")
    truth = scores(gold, pages, runs, {q: _ranges(s) for q, s in gold.items()}, args.depth)
    cells = "  ".join(f"{'-':>14}{truth[n][1]:>15.3f}{truth[n][2]:>15.3f}" for n in names)
    print(
        f"{'full gold':>14}  {cells}   first by span_recall: {max(names, key=lambda n: truth[n][1])}"
    )

    def per_k(found_n: int, chars: int) -> str:
        return f"{1000 * found_n / n_hidden / chars:.3e}" if chars and n_hidden else "-"

    print("\nhidden elements recovered as the characters are spent (same budget per question):")
    print(f"{'share read':>12}{'chars':>14}{'pool':>8}{'pages':>8}")
    for f, mark, a, b in zip(fractions, marks, pool_at, page_at, strict=True):
        print(f"{f:>12.0%}{mark:>14}{a:>8}{b:>8}")

    print(
        "\nNote: hidden elements recovered, per thousand characters read (share of the hidden "
        "elements):\n"
        f"  pool judged in order:        {pool_recovered}/{n_hidden} in {total} chars, "
        f"{per_k(pool_recovered, total)} per 1000 chars\n"
        f"  pages read in order:         {page_recovered}/{n_hidden} in {total} chars, "
        f"{per_k(page_recovered, total)} per 1000 chars\n"
        f"  the same pages read whole:   {whole_recovered}/{n_hidden} in {whole_read} chars, "
        f"{per_k(whole_recovered, whole_read)} per 1000 chars\n"
        f"(wall {seconds:.1f} s, peak traced memory {peak / 2**20:.1f} MiB; effectiveness "
        "figures, independent of the machine's load)"
    )
    return 0


def _ranges(spans: Sequence[Span]) -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = {}
    for d, a, b in spans:
        out.setdefault(d, []).append((a, b))
    return out


if __name__ == "__main__":
    raise SystemExit(main())
