"""Scoring speed and memory: the whole ``labeler score`` process against pytrec_eval
(trec_eval's C code) loading the same questions from TREC files, in the same run, at several
sizes, plus run-import throughput.

    python benchmarks/bench_score.py [--sizes 4000,32000,256000] [--chunks 20]
        [--chunk-chars 800] [--repeat 3] [--big-run 0] [--layers 0]

Data: questions whose expected elements are real sentences of the bundled SQLite pages,
and runs of 20 chunks per question cut from those pages (some hold an element whole, some
cut it, some come from other pages). The TREC side gets the same ranking as ids: a chunk is
relevant when it holds an element whole (the projection an id-based tool can see).
The gold set is imported before the run, as a user would, so the run import stores where
the chunks sit on the labelled pages and scoring uses that (the import's time, reported
below, includes it).
Both sides are timed as whole processes (interpreter start included), best and median of
``--repeat`` rounds, interleaved (each round runs every command once, so drift on a busy
machine hits all alike); each process's peak resident set (``ru_maxrss``) is reported too.
``labeler score`` runs with its defaults (one process per CPU for runs of 1,000+ questions,
bootstrap intervals on; the compiled scoring path where it is built, as the header says),
from its sources (``LABELER_PURE_PYTHON``), with ``--jobs 1``, with JSON output, with ``--ci 0`` (no
intervals) and with ``--budget 500,1000``; with ``--layers N`` also ``--layer each`` on a
copy of the database where N annotators each labelled and marked done every question.
``--big-run N`` also imports an N-line run and reports its rows/second and peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
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


def make_data(
    work: Path, n_questions: int, n_chunks: int, seed: int, chars: int = 800
) -> tuple[Path, Path, Path]:
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
    sentences = {doc: list(sentence.finditer(pages[doc])) for doc in names}
    g, rn = work / "gold.jsonl", work / "run.jsonl"
    qrels_path, trec_path = work / "qrels.txt", work / "run.trec"
    with (
        g.open("w", encoding="utf-8") as gold,
        rn.open("w", encoding="utf-8") as run,
        qrels_path.open("w", encoding="utf-8") as qrels,
        trec_path.open("w", encoding="utf-8") as trec_run,
    ):
        for i in range(n_questions):
            qid = f"q{i}"
            doc = rng.choice(names)
            page = pages[doc]
            found = sentences[doc]
            picks = rng.sample(found, k=min(len(found), rng.choice((1, 1, 2, 3))))
            elements = [
                {"doc": doc, "start": m.start(), "end": m.end(), "text": m.group()} for m in picks
            ]
            line = {"query_id": qid, "query": f"question {i}", "elements": elements}
            gold.write(json.dumps(line) + "\n")
            chunks = []
            for _ in range(n_chunks):
                src = page if rng.random() < 0.6 else pages[rng.choice(names)]
                if picks and rng.random() < 0.15:
                    m = rng.choice(picks)
                    start = max(0, m.start() - rng.randint(0, 400) + (rng.random() < 0.3) * 60)
                else:
                    start = rng.randint(0, max(0, len(src) - chars))
                chunks.append(src[start : start + chars])
            run.write(json.dumps({"query_id": qid, "results": [{"text": c} for c in chunks]}))
            run.write("\n")
            relevant = 0
            for m in picks:
                for r, c in enumerate(chunks):
                    if m.group() in c:
                        qrels.write(f"{qid} 0 {qid}_c{r} 1\n")
                        relevant += 1
            if not relevant:
                qrels.write(f"{qid} 0 {qid}_none 1\n")
            trec_run.write(
                "".join(
                    f"{qid} Q0 {qid}_c{r} {r + 1} {n_chunks - r} bench\n" for r in range(n_chunks)
                )
            )
    g, rn = work / "gold.jsonl", work / "run.jsonl"
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


Timing = tuple[float, float, float, float, float]
"""Best and median wall time, best and median CPU time (user + system of the process and
the processes it waited for), in seconds, and the largest peak RSS in MB."""


def timings(commands: dict[str, list[str]], times: int) -> dict[str, Timing]:
    """Wall and CPU times and peak RSS of each command as a whole process over ``times``
    rounds; each round runs every command once, so drift on the machine hits all of them
    alike. On a busy machine the CPU time moves much less than the wall time."""
    walls: dict[str, list[float]] = {label: [] for label in commands}
    cpus: dict[str, list[float]] = {label: [] for label in commands}
    peaks: dict[str, float] = dict.fromkeys(commands, 0.0)
    for _ in range(times):
        for label, cmd in commands.items():
            t0 = time.perf_counter()
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(proc.pid, 0)
            walls[label].append(time.perf_counter() - t0)
            err = proc.stderr.read().decode() if proc.stderr else ""
            if proc.stderr:
                proc.stderr.close()
            if os.waitstatus_to_exitcode(status) not in (0, 3):
                raise SystemExit(f"{label} failed: {err}")
            # ru_maxrss of wait4: the process itself (its forked scorers report their own
            # peak, and share its pages; the largest of them is at most the parent's)
            cpus[label].append(usage.ru_utime + usage.ru_stime)
            peaks[label] = max(peaks[label], usage.ru_maxrss / 1024)
    return {
        label: (
            min(walls[label]),
            statistics.median(walls[label]),
            min(cpus[label]),
            statistics.median(cpus[label]),
            peaks[label],
        )
        for label in commands
    }


def bench_size(
    questions: int, args: argparse.Namespace, work: Path
) -> tuple[float, float, float, float]:
    """Build, import and time one size; print its table and return (pytrec best wall,
    labeler default best wall, ratio, labeler default peak MB)."""
    db = work / "bench.db"
    t0 = time.perf_counter()
    gold, run, trec = make_data(work, questions, args.chunks, args.seed, args.chunk_chars)
    made_s = time.perf_counter() - t0
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
    peer_cmd = [sys.executable, str(script), str(trec / "qrels.txt"), str(trec / "run.trec")]
    commands = {
        "pytrec_eval": peer_cmd,
        "labeler score (defaults)": score,
        "labeler score --jobs 1": [*score, "--jobs", "1"],
        # the same from the sources, the compiled modules set aside (scoring._native)
        "labeler score (from source)": ["env", "LABELER_PURE_PYTHON=1", *score],
        "labeler score --ci 0": [*score, "--ci", "0"],
        "labeler score --format json": [*score, "--format", "json"],
        "labeler score --budget 500,1000": [*score, "--budget", "500,1000"],
    }
    if args.layers:
        # a copy whose every question is marked done by each of N annotators, with their own
        # labels (the gold file as their layer): the final layer is then all pending and
        # --layer each scores the N layers
        team = work / "team.db"
        shutil.copyfile(db, team)
        for a in range(args.layers):
            name = f"annotator{a + 1}"
            own = ("gold", "import", str(gold), "--gold-set", "bench", "--layer")
            labeler(*own, "--annotator", name, "--actor", name, "-q", db=team)
        each = [*score[: score.index("--db")], "--db", str(team), "--layer", "each"]
        commands[f"labeler score --layer each ({args.layers})"] = each
    timed = timings(commands, args.repeat)
    peer = timed.pop("pytrec_eval")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    native = subprocess.run(
        [sys.executable, "-c", "from scoring import _native; print(_native.state().reason)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    print(
        f"\n== {questions:,} questions x {args.chunks} chunks of {args.chunk_chars} chars, "
        f"k = {ks}; {cpus} CPUs, load {os.getloadavg()[0]:.1f}; data made in {made_s:.0f} s"
    )
    print(f"scoring path: {native}")
    print(f"whole processes, {args.repeat} interleaved rounds: best / median wall time, ratio")
    print("to pytrec_eval's best / median; CPU time (best); peak RSS (largest of the rounds)")
    print(f"  {'command':33s} {'wall best / median':>20s} {'ratio':>13s} {'CPU':>8s} {'peak':>9s}")
    print(
        f"  {'pytrec_eval':33s} {peer[0]:9.2f} / {peer[1]:7.2f} s {'':13s} {peer[2]:7.2f}s "
        f"{peer[4]:6.0f} MB"
    )
    for label, (best, median, cpu, _, peak) in timed.items():
        print(
            f"  {label:33s} {best:9.2f} / {median:7.2f} s {best / peer[0]:6.2f} / "
            f"{median / peer[1]:4.2f} {cpu:7.2f}s {peak:6.0f} MB   (memory {peak / peer[4]:.1f}x)"
        )
    print(
        f"run import: {questions:,} lines in {import_s:.1f} s = {questions / import_s:,.0f} "
        f"lines/s (whole process)"
    )
    ours = timed["labeler score (defaults)"]
    return peer[0], ours[0], ours[0] / peer[0], ours[4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--sizes",
        default="4000,32000,256000",
        help="numbers of questions, comma-separated (default 4000,32000,256000)",
    )
    parser.add_argument("--chunks", type=int, default=20)
    parser.add_argument(
        "--chunk-chars", type=int, default=800, help="characters per chunk (default 800)"
    )
    parser.add_argument("--big-run", type=int, default=0, metavar="LINES")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3, help="rounds per size (default 3)")
    parser.add_argument(
        "--layers",
        type=int,
        default=0,
        metavar="N",
        help="also time score --layer each over N annotators' layers of every question",
    )
    args = parser.parse_args()
    sizes = [int(part) for part in args.sizes.split(",") if part.strip()]
    # Both sides run from compiled bytecode, as an installed package does (pytrec_eval's
    # Python side is compiled by pip; PYTHONDONTWRITEBYTECODE would leave ours uncompiled).
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "labeler"), str(ROOT / "scoring")],
        check=True,
    )
    summary = []
    for questions in sizes:
        with tempfile.TemporaryDirectory(prefix="bench-score-") as tmp:
            summary.append((questions, *bench_size(questions, args, Path(tmp))))
    print("\nsummary (labeler score with its defaults against pytrec_eval, best wall times)")
    for questions, peer_s, ours_s, ratio, peak in summary:
        print(
            f"  {questions:>9,} questions: pytrec_eval {peer_s:7.2f} s, labeler {ours_s:7.2f} s, "
            f"ratio {ratio:.2f}, peak {peak:.0f} MB"
        )
    with tempfile.TemporaryDirectory(prefix="bench-score-") as tmp:
        work = Path(tmp)
        db = work / "bench.db"
        if args.big_run:
            labeler("ingest", str(CORPUS), "-q", db=db)
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
