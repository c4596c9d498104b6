"""Gold and run imports at scale: lines per second and peak memory against parsing the JSON
alone, run by hand.

Generates (in ``--dir``, reused by later runs of the same sizes) 200 text pages of 200
sentences, and for each size N a gold file of N questions (one element each, a sentence of
a page; half with offsets, half anchored by text) and a run file of N lines of R results
(sentences of the question's page, with ``doc``, ``score`` and, on every other line,
offsets; the first holds the question's element), so every run question is covered by the
gold set and the import places every chunk on the page its label cites.

Sizes (``--sizes``, default ``32000x20,256000x20,100000x100``). For each size, each round
runs, interleaved, as real processes:

* the peer: a Python process that reads the file and parses every line with ``json.loads``
  (and nothing else), for the gold file and for the run file;
* ``labeler gold import`` of the gold file into a copy of a database holding the pages;
* ``labeler run import`` of the run file into a copy of a database holding the pages and
  that gold set (left out with ``--no-run``);
* with ``--layer``: ``labeler gold import --layer --annotator ana`` of the gold file (as
  ``gold export --layer annotator:ana`` writes one annotator's labels) into a copy of the
  database holding the pages (a new team gold set), and again into a copy holding that
  layer already (every question's earlier labels and done mark replaced); each also as a
  ratio to the plain ``gold import`` of the same round (``/gold``).

With ``--pg URL``, each round also times, on a new database of that PostgreSQL server
holding the pages (created and dropped by the benchmark), ``gold import`` and then ``run
import`` (covered by that gold set), from each tree.

With ``--before TREE`` the imports are also timed from that source tree (an export of an
earlier commit), right after the current ones. Printed per command: wall time, lines per
second, peak resident set size (``ru_maxrss`` from ``os.wait4``), the ratio of its time to
the peer's of the same round, and its CPU time (its own, not a forked half's); per round,
the load average. The machine may be shared: the ratios of interleaved runs are the figures
to read. Usage::

    .venv/bin/python benchmarks/bench_import.py [--dir /tmp/bench-import]
        [--sizes 32000x20,256000x20,100000x100] [--rounds 1] [--layer] [--no-run]
        [--pg postgresql://...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from pg_bench import pg_database

PAGES = 200
SENTENCES = 200
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"]

#: ``gold import`` of the gold file as one annotator's own labels
LAYER = ("--layer", "--annotator", "ana", "--actor", "ana")

PEER = r"""
import json, sys
n = 0
with open(sys.argv[1], "rb") as f:
    for line in f:
        json.loads(line)
        n += 1
print(n)
"""


def sentence(d: int, s: int) -> str:
    return f"Page {d} sentence {s} says {WORDS[s % len(WORDS)]} {WORDS[(d + s) % len(WORDS)]}."


def pages(folder: Path) -> list[str]:
    """The pages (written once); their texts in order."""
    texts = [" ".join(sentence(d, s) for s in range(SENTENCES)) for d in range(PAGES)]
    if not folder.exists():
        folder.mkdir(parents=True)
        for d, text in enumerate(texts):
            (folder / f"p{d:03}.txt").write_text(text, encoding="utf-8")
    return texts


def gold_file(path: Path, texts: list[str], questions: int) -> None:
    if path.exists():
        return
    with path.open("w", encoding="utf-8") as out:
        for q in range(questions):
            d, s = q % PAGES, (q // PAGES) % SENTENCES
            text = sentence(d, s)
            element: dict[str, object] = {"doc": f"p{d:03}.txt", "text": text}
            if q % 2 == 0:
                start = texts[d].index(text)
                element |= {"start": start, "end": start + len(text)}
            line = {"query_id": f"q{q}", "query": f"Question {q}?", "elements": [element]}
            out.write(json.dumps(line) + "\n")


def run_file(path: Path, texts: list[str], questions: int, results: int) -> None:
    if path.exists():
        return
    # where each sentence starts on its page (offsets for every other line)
    starts = [[texts[d].index(sentence(d, s)) for s in range(SENTENCES)] for d in range(PAGES)]
    with path.open("w", encoding="utf-8") as out:
        for q in range(questions):
            d, s = q % PAGES, (q // PAGES) % SENTENCES
            ranked = []
            for r in range(results):
                t = (s + r) % SENTENCES
                chunk: dict[str, object] = {
                    "text": sentence(d, t),
                    "doc": f"p{d:03}.txt",
                    "score": round(1 / (r + 1), 6),
                }
                if q % 2 == 0:
                    chunk |= {"start": starts[d][t], "end": starts[d][t] + len(sentence(d, t))}
                ranked.append(chunk)
            out.write(json.dumps({"query_id": f"q{q}", "results": ranked}) + "\n")


@dataclass(frozen=True)
class Measure:
    seconds: float
    peak_mb: float
    #: CPU time (user + system) of the process itself, not of a process it forked: on a
    #: shared machine less noisy than the wall time
    cpu: float = 0.0


def measure(*argv: str) -> Measure:
    """Run ``argv`` in a subprocess: its wall time and peak RSS (exits on failure)."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        out = (proc.stdout.read() if proc.stdout else b"") + (
            proc.stderr.read() if proc.stderr else b""
        )
        sys.exit(f"{' '.join(argv)}: exit {code}\n{out.decode(errors='replace')}")
    cpu = usage.ru_utime + usage.ru_stime
    return Measure(seconds, usage.ru_maxrss / 1024, cpu)  # kilobytes on Linux


def labeler(*args: str) -> Measure:
    return measure(sys.executable, "-m", "labeler", *args)


def labeler_in(tree: str | None, *args: str) -> Measure:
    """``labeler ARGS`` from ``tree`` (its package first on the path), else the installed."""
    if tree is None:
        return labeler(*args)
    env = {**os.environ, "PYTHONPATH": tree}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "labeler", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd="/",  # -m puts the working directory first on the path
    )
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(
            f"{tree}: labeler {' '.join(args)} failed:\n{proc.stderr.read().decode() if proc.stderr else ''}"
        )
    return Measure(seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime)


def peer(path: Path) -> Measure:
    return measure(sys.executable, "-c", PEER, str(path))


def row(
    label: str, lines: int, m: Measure, base: Measure | None = None, gold: Measure | None = None
) -> None:
    ratio = f"{m.seconds / base.seconds:7.1f}x" if base is not None else " " * 8
    to_gold = f" {m.seconds / gold.seconds:7.2f}x" if gold is not None else " " * 9
    cpu = f" {m.cpu:7.1f} s" + (f" {m.cpu / gold.cpu:5.2f}x" if gold is not None else "")
    print(
        f"  {label:<34} {m.seconds:8.1f} s {lines / m.seconds:10,.0f}/s {m.peak_mb:8.0f} MB "
        f"{ratio}{to_gold}{cpu}",
        flush=True,
    )


def on_postgres(
    server: str,
    tree: str | None,
    label: str,
    root: Path,
    gold: Path,
    run: Path,
    questions: int,
    peer_gold: Measure,
    peer_run: Measure,
) -> None:
    """``gold import`` then ``run import`` (covered by that gold set) from ``tree``, timed
    on a new database of ``server`` holding the pages (ingested untimed), dropped after."""
    url, admin, name = pg_database(server)
    try:
        labeler_in(tree, "ingest", "-q", str(root / "pages"), "--db", url)
        m = labeler_in(tree, "gold", "import", "-q", str(gold), "--gold-set", "g", "--db", url)
        row(f"{label}PostgreSQL gold import", questions, m, peer_gold)
        if run.exists():
            m = labeler_in(tree, "run", "import", "-q", str(run), "--name", "r", "--db", url)
            row(f"{label}PostgreSQL run import", questions, m, peer_run)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bench-import"))
    parser.add_argument("--sizes", default="32000x20,256000x20,100000x100")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--before",
        default=None,
        metavar="TREE",
        help="also time the labeller of source tree TREE (e.g. an export of main), interleaved",
    )
    parser.add_argument(
        "--layer",
        action="store_true",
        help="also time gold import --layer (a new team gold set, and replacing that layer)",
    )
    parser.add_argument("--no-run", action="store_true", help="leave out run import")
    parser.add_argument(
        "--pg",
        default="",
        metavar="URL",
        help="also time gold and run import on a new database of this PostgreSQL server "
        "(not with --no-run)",
    )
    args = parser.parse_args()
    root: Path = args.dir
    root.mkdir(parents=True, exist_ok=True)
    texts = pages(root / "pages")
    base = root / "pages.db"
    if not base.exists():
        labeler("ingest", "-q", str(root / "pages"), "--db", str(base))
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    print(
        f"{'':36} {'time':>10} {'rate':>12} {'peak RSS':>11} {'/peer':>8} {'/gold':>8} "
        f"{'CPU':>9} {'/gold':>6}"
    )
    for questions, results in sizes:
        gold = root / f"gold-{questions}.jsonl"
        run = root / f"run-{questions}x{results}.jsonl"
        gold_file(gold, texts, questions)
        if not args.no_run:
            run_file(run, texts, questions, results)
        covered = root / f"gold-{questions}.db"
        if not args.no_run and not covered.exists():
            shutil.copy(base, covered)
            labeler("gold", "import", str(gold), "--gold-set", "g", "--db", str(covered))
        layered = root / f"layer-{questions}.db"
        if args.layer and not layered.exists():
            shutil.copy(base, layered)
            labeler(
                "gold", "import", "-q", str(gold), "--gold-set", "t", *LAYER, "--db", str(layered)
            )
        mb = run.stat().st_size / 1e6 if run.exists() else 0
        print(f"{questions:,} questions x {results} results (run file {mb:,.0f} MB)")
        for _ in range(args.rounds):
            target = root / "target.db"
            print(f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
            peer_gold = peer(gold)
            row("peer: parse gold JSON", questions, peer_gold)
            trees = [(None, "")] + ([(args.before, "before: ")] if args.before else [])
            plain: dict[str | None, Measure] = {}
            for tree, label in trees:
                shutil.copy(base, target)
                m = labeler_in(
                    tree, "gold", "import", str(gold), "--gold-set", "g", "--db", str(target)
                )
                plain[tree] = m
                row(f"{label}gold import (questions/s)", questions, m, peer_gold)
            for tree, label in trees if args.layer else []:
                for start, what in ((base, "new set"), (layered, "replacing")):
                    shutil.copy(start, target)
                    m = labeler_in(
                        tree, "gold", "import", str(gold), "--gold-set", "t", *LAYER,
                        "--db", str(target),
                    )  # fmt: skip
                    row(f"{label}gold import --layer, {what}", questions, m, peer_gold, plain[tree])
            if args.no_run:
                target.unlink()
                continue
            peer_run = peer(run)
            row("peer: parse run JSON", questions, peer_run)
            for tree, label in trees:
                shutil.copy(covered, target)
                m = labeler_in(
                    tree, "run", "import", "-q", str(run), "--name", "r", "--db", str(target)
                )
                row(f"{label}run import (lines/s)", questions, m, peer_run)
            target.unlink()
            for tree, label in trees if args.pg else []:
                on_postgres(args.pg, tree, label, root, gold, run, questions, peer_gold, peer_run)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
