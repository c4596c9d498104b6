"""Scoring speed: the whole ``labeler score`` process against pytrec_eval (trec_eval's C code)
loading the same questions from TREC files, in the same run, plus run-import throughput.

    python benchmarks/bench_score.py [--questions 4000] [--chunks 20] [--big-run 0]

Data: questions whose expected elements are real sentences of the bundled SQLite pages,
and runs of 20 chunks per question cut from those pages (some hold an element whole, some
cut it, some come from other pages). The TREC side gets the same ranking as ids: a chunk is
relevant when it holds an element whole (the projection an id-based tool can see).
The gold set is imported before the run, as a user would, so the run import stores where
the chunks sit on the labelled pages and scoring uses that (the import's time, reported
below, includes it).
Both sides are timed as whole processes (interpreter start included), best and median of
``--repeat`` runs; ``labeler score`` with one process (``--jobs 1``) and with its default
(one process per CPU for runs of 1,000+ questions), with table and JSON output, and
with ``--ci 0`` (no bootstrap intervals) to show what the intervals cost.
``--big-run N`` also imports an N-line run and reports its rows/second and peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpora" / "sqlite-docs"
KS = (1, 3, 5, 10, 20)


def labeler(*args: str, db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args, "--db", str(db)],
        check=True,
        capture_output=True,
        text=True,
    )


def make_data(work: Path, n_questions: int, n_chunks: int, seed: int) -> tuple[Path, Path, Path]:
    """Gold JSONL, run JSONL, and the TREC qrels/run pair, from the ingested pages."""
    from labeler.extract import page_text

    rng = random.Random(seed)
    pages = {}
    for path in sorted(CORPUS.glob("*.html"))[:200]:
        text = page_text(path.read_bytes())
        if len(text) > 3000:
            pages[path.name] = text
    names = sorted(pages)
    sentence = re.compile(r"[A-Z][^.]{40,220}\.")
    gold, run, qrels, trec_run = [], [], [], []
    for i in range(n_questions):
        qid = f"q{i}"
        doc = rng.choice(names)
        page = pages[doc]
        found = [m for m in sentence.finditer(page)]
        picks = rng.sample(found, k=min(len(found), rng.choice((1, 1, 2, 3))))
        elements = [
            {"doc": doc, "start": m.start(), "end": m.end(), "text": m.group()} for m in picks
        ]
        gold.append({"query_id": qid, "query": f"question {i}", "elements": elements})
        chunks = []
        for _ in range(n_chunks):
            src = page if rng.random() < 0.6 else pages[rng.choice(names)]
            if picks and rng.random() < 0.15:
                m = rng.choice(picks)
                start = max(0, m.start() - rng.randint(0, 400) + (rng.random() < 0.3) * 60)
            else:
                start = rng.randint(0, max(0, len(src) - 800))
            chunks.append(src[start : start + 800])
        run.append({"query_id": qid, "results": [{"text": c} for c in chunks]})
        for e in elements:
            holders = [r for r, c in enumerate(chunks) if e["text"] in c]
            for r in holders:
                qrels.append(f"{qid} 0 {qid}_c{r} 1")
        if not any(line.startswith(f"{qid} ") for line in qrels[-3:]):
            qrels.append(f"{qid} 0 {qid}_none 1")
        trec_run += [f"{qid} Q0 {qid}_c{r} {r + 1} {n_chunks - r} bench" for r in range(n_chunks)]
    g, rn = work / "gold.jsonl", work / "run.jsonl"
    g.write_text("".join(json.dumps(x) + "\n" for x in gold), encoding="utf-8")
    rn.write_text("".join(json.dumps(x) + "\n" for x in run), encoding="utf-8")
    (work / "qrels.txt").write_text("\n".join(qrels) + "\n", encoding="utf-8")
    (work / "run.trec").write_text("\n".join(trec_run) + "\n", encoding="utf-8")
    return g, rn, work


PYTREC = """
import sys, pytrec_eval
qrels, run = {}, {}
with open(sys.argv[1]) as f:
    for line in f:
        q, _, d, rel = line.split()
        qrels.setdefault(q, {})[d] = int(rel)
with open(sys.argv[2]) as f:
    for line in f:
        q, _, d, rank, score, _ = line.split()
        run.setdefault(q, {})[d] = float(score)
# trec_eval's standard cut-offs (P/recall/ndcg_cut at 5..1000, success at 1, 5, 10)
ev = pytrec_eval.RelevanceEvaluator(qrels, {"P", "recall", "ndcg_cut", "success", "recip_rank"})
res = ev.evaluate(run)
print(len(res))
"""


Timing = tuple[float, float, float, float]
"""Best and median wall time, best and median CPU time (user + system, the process and
the processes it waited for), in seconds."""


def timings(commands: dict[str, list[str]], times: int) -> dict[str, Timing]:
    """Wall and CPU times of each command as a whole process over ``times`` rounds; each
    round runs every command once, so drift on the machine hits all of them alike. On a
    busy machine the CPU time moves much less than the wall time."""
    walls: dict[str, list[float]] = {label: [] for label in commands}
    cpus: dict[str, list[float]] = {label: [] for label in commands}
    for _ in range(times):
        for label, cmd in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            walls[label].append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[label].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {
        label: (
            min(walls[label]),
            statistics.median(walls[label]),
            min(cpus[label]),
            statistics.median(cpus[label]),
        )
        for label in commands
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=4000)
    parser.add_argument("--chunks", type=int, default=20)
    parser.add_argument("--big-run", type=int, default=0, metavar="LINES")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=7, help="runs per timing (default 7)")
    args = parser.parse_args()
    # Both sides run from compiled bytecode, as an installed package does (pytrec_eval's
    # Python side is compiled by pip; PYTHONDONTWRITEBYTECODE would leave ours uncompiled).
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "labeler"), str(ROOT / "scoring")],
        check=True,
    )
    with tempfile.TemporaryDirectory(prefix="bench-score-") as tmp:
        work = Path(tmp)
        db = work / "bench.db"
        gold, run, trec = make_data(work, args.questions, args.chunks, args.seed)
        labeler("ingest", str(CORPUS), "-q", db=db)
        labeler("gold", "import", str(gold), "--gold-set", "bench", db=db)
        t0 = time.perf_counter()
        labeler("run", "import", str(run), "--name", "bench", "-q", db=db)
        import_s = time.perf_counter() - t0
        ks = ",".join(str(k) for k in KS)
        score = [sys.executable, "-m", "labeler", "score", "--gold-set", "bench"]
        score += ["--run", "bench", "--k", ks, "-o", os.devnull, "--db", str(db)]
        script = work / "pytrec.py"
        script.write_text(PYTREC, encoding="utf-8")
        commands = {
            "pytrec_eval": [
                sys.executable,
                str(script),
                str(trec / "qrels.txt"),
                str(trec / "run.trec"),
            ]
        }
        for jobs, flag in (("1 process", ["--jobs", "1"]), ("default", [])):
            for fmt in ("table", "json"):
                commands[f"labeler score {jobs:9s} {fmt:5s}"] = [*score, "--format", fmt, *flag]
        # the bootstrap intervals (on by default: 2,000 resamples) against none
        commands["labeler score default   table --ci 0"] = [
            *score,
            "--format",
            "table",
            "--ci",
            "0",
        ]
        timed = timings(commands, args.repeat)
        peer = timed.pop("pytrec_eval")
        lines = args.questions
        cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        print(f"data: {args.questions} questions x {args.chunks} chunks, k = {ks}; {cpus} CPUs")
        print(f"whole processes, {args.repeat} runs each: best / median wall time, ratio to")
        print("pytrec_eval's best / median; then the same for CPU time (user + system)")
        print(f"  {'pytrec_eval':31s}  {peer[0]:.3f} / {peer[1]:.3f} s")
        for label, (best, median, _, _) in timed.items():
            print(
                f"  {label:31s}  {best:.3f} / {median:.3f} s"
                f"   ratio {best / peer[0]:.2f} / {median / peer[1]:.2f}"
            )
        print("CPU time")
        print(f"  {'pytrec_eval':31s}  {peer[2]:.3f} / {peer[3]:.3f} s")
        for label, (_, _, best, median) in timed.items():
            print(
                f"  {label:31s}  {best:.3f} / {median:.3f} s"
                f"   ratio {best / peer[2]:.2f} / {median / peer[3]:.2f}"
            )
        print(
            f"run import: {lines} lines in {import_s:.2f} s = {lines / import_s:,.0f} lines/s "
            f"({lines * args.chunks / import_s:,.0f} results/s, whole process)"
        )
        if args.big_run:
            big = work / "big.jsonl"
            with big.open("w", encoding="utf-8") as out:
                for i in range(args.big_run):
                    out.write(
                        json.dumps(
                            {
                                "query_id": f"b{i}",
                                "results": [
                                    {"text": f"chunk {i} {r} " * 8, "score": 1.0 / (r + 1)}
                                    for r in range(5)
                                ],
                            }
                        )
                        + "\n"
                    )
            t0 = time.perf_counter()
            proc = subprocess.run(
                [
                    sys.executable,
                    "-c",
                    "import resource, sys; from labeler.cli import main; rc = main(sys.argv[1:]); "
                    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); "
                    "raise SystemExit(rc)",
                    "run",
                    "import",
                    str(big),
                    "--name",
                    "big",
                    "-q",
                    "--db",
                    str(db),
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            secs = time.perf_counter() - t0
            peak_mib = int(proc.stderr.strip().splitlines()[-1]) / 1024
            print(
                f"big run import: {args.big_run:,} lines ({big.stat().st_size / 2**20:.0f} MiB) "
                f"in {secs:.1f} s = {args.big_run / secs:,.0f} lines/s, peak RSS {peak_mib:.0f} MiB"
            )


if __name__ == "__main__":
    main()
