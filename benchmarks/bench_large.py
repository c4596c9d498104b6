"""Very large inputs in bounded memory: time and peak RSS of three commands, run by hand.

Generates, in a temporary directory (removed at the end unless ``--keep``):

* one 50 MB HTML page (``labeler ingest``),
* a gold set of 100,000 questions, one element each, on 100 small pages, half of the
  elements with offsets and half anchored by text (``labeler gold import``),
* a run of 1,000,000 lines with 3 results each (``labeler run import``).

Each command runs as the real CLI in its own subprocess; its wall time and its peak resident
set size (``ru_maxrss`` from ``os.wait4``) are printed as one table row. Usage::

    .venv/bin/python benchmarks/bench_large.py [--page-mb 50] [--questions 100000]
        [--run-lines 1000000] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"]


def big_page(path: Path, megabytes: int) -> None:
    """An HTML page of about ``megabytes`` MB: paragraphs of words with numbered sentences."""
    rng = random.Random(1)
    target = megabytes * 1024 * 1024
    with path.open("w", encoding="utf-8") as out:
        out.write("<html><head><title>big</title></head><body>\n")
        written, n = 0, 0
        while written < target:
            words = " ".join(rng.choice(WORDS) for _ in range(60))
            para = f"<p>{words} <b>sentence {n}</b>.</p>\n"
            out.write(para)
            written += len(para)
            n += 1
        out.write("</body></html>\n")


def gold_corpus(folder: Path, pages: int) -> list[str]:
    """``pages`` small text pages; returns their texts in order."""
    folder.mkdir()
    texts = []
    for d in range(pages):
        text = " ".join(f"Page {d} sentence {s} says {WORDS[s % len(WORDS)]}." for s in range(200))
        (folder / f"p{d:03}.txt").write_text(text, encoding="utf-8")
        texts.append(text)
    return texts


def gold_file(path: Path, texts: list[str], questions: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for q in range(questions):
            d, s = q % len(texts), (q // len(texts)) % 200
            sentence = f"Page {d} sentence {s} says {WORDS[s % len(WORDS)]}."
            element: dict[str, object] = {"doc": f"p{d:03}.txt", "text": sentence}
            if q % 2 == 0:
                start = texts[d].index(sentence)
                element |= {"start": start, "end": start + len(sentence)}
            line = {"query_id": f"q{q}", "query": f"Question {q}?", "elements": [element]}
            out.write(json.dumps(line) + "\n")


def run_file(path: Path, lines: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for q in range(lines):
            results = [
                {"text": f"chunk {q}-{r} {WORDS[(q + r) % len(WORDS)]} " * 4, "score": 1 / (r + 1)}
                for r in range(3)
            ]
            out.write(json.dumps({"query_id": f"q{q}", "results": results}) + "\n")


def measure(label: str, *args: str) -> tuple[float, float]:
    """Run ``labeler ARGS`` in a subprocess; print and return (seconds, peak RSS in MB)."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "labeler", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    out = proc.stdout.read().decode() if proc.stdout else ""
    err = proc.stderr.read().decode() if proc.stderr else ""
    code = os.waitstatus_to_exitcode(status)
    peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    print(f"{label:<34} {seconds:8.1f} s {peak_mb:9.0f} MB   exit {code}", flush=True)
    if code != 0:
        print(out + err, file=sys.stderr)
    return seconds, peak_mb


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page-mb", type=int, default=50)
    parser.add_argument("--questions", type=int, default=100_000)
    parser.add_argument("--run-lines", type=int, default=1_000_000)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-large-"))
    try:
        db = str(root / "labels.db")
        print(f"generating data in {root} ...", flush=True)
        big_page(root / "big.html", args.page_mb)
        texts = gold_corpus(root / "pages", 100)
        gold_file(root / "gold.jsonl", texts, args.questions)
        run_file(root / "run.jsonl", args.run_lines)
        for name in ("big.html", "gold.jsonl", "run.jsonl"):
            print(f"  {name}: {(root / name).stat().st_size / 1e6:,.1f} MB")
        print(f"{'command':<34} {'time':>10} {'peak RSS':>12}")
        measure("startup (labeler --version)", "--version")
        measure(
            f"ingest {args.page_mb} MB page", "ingest", "-q", str(root / "big.html"), "--db", db
        )
        measure("ingest 100 small pages", "ingest", "-q", str(root / "pages"), "--db", db)
        measure(
            f"gold import {args.questions:,} questions",
            "gold", "import", str(root / "gold.jsonl"), "--gold-set", "big", "--db", db,
        )  # fmt: skip
        measure(
            f"run import {args.run_lines:,} lines",
            "run", "import", "-q", str(root / "run.jsonl"), "--name", "big", "--db", db,
        )  # fmt: skip
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
