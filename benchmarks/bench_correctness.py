"""Benchmark: ``labeler correctness`` on long texts, plain definition against the fast path.

Usage: ``python benchmarks/bench_correctness.py [--before-timeout SECONDS] [--only NAME]``

Each row has one reference and one chunk (sizes in code points). "before" is the plain
two-stage definition (``fuzz.ratio``, then ``fuzz.partial_ratio_alignment`` on the whole
texts), run in a child process stopped after ``--before-timeout`` seconds (default 20; a
20 KB pair needs minutes). "after" is ``retrieval_correctness`` on the row. Both print
wall-clock seconds per row, the decision (stage, score, coverage) and, for "after", whether
stage 2 was truncated. Texts are built from a fixed seed, so runs are comparable.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring import CorrectnessConfig, CorrectnessRow, retrieval_correctness  # noqa: E402


def words(rng: random.Random, size: int) -> str:
    """English-like text: words of 2-9 letters from a 3,000-word vocabulary."""
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    weights = [len(letters) - i for i in range(len(letters))]
    vocab = ["".join(rng.choices(letters, weights, k=rng.randint(2, 9))) for _ in range(3000)]
    out: list[str] = []
    length = 0
    while length < size:
        word = rng.choice(vocab)
        out.append(word)
        length += len(word) + 1
    return " ".join(out)[:size]


def edited(rng: random.Random, text: str, share: float) -> str:
    """``text`` with about ``share`` of its words replaced."""
    tokens = text.split(" ")
    for i in range(len(tokens)):
        if rng.random() < share:
            tokens[i] = "".join(rng.choices("abcdefghijklmnop", k=len(tokens[i])))
    return " ".join(tokens)


def repeated(sentence: str, size: int) -> str:
    return (sentence * (size // len(sentence) + 1))[:size]


def rows() -> dict[str, Callable[[], tuple[str, str]]]:
    """name -> builder of (reference, chunk)."""

    def rng(name: str) -> random.Random:
        return random.Random(name)

    def near_duplicate(size: int, name: str) -> tuple[str, str]:
        r = rng(name)
        reference = words(r, size)
        return reference, edited(r, reference, 0.05)

    def inside(name: str) -> tuple[str, str]:
        r = rng(name)
        reference = words(r, 20_000)
        return reference, words(r, 40_000) + edited(r, reference, 0.05) + words(r, 40_000)

    def half(name: str) -> tuple[str, str]:
        return half_of(20_000, name)

    def half_of(size: int, name: str) -> tuple[str, str]:
        r = rng(name)
        reference = words(r, size)
        return reference, reference[size // 2 :] + words(r, size // 2)

    def periodic(name: str) -> tuple[str, str]:
        # every shift by the period scores alike: the window bisection's worst case
        r = rng(name)
        chars = [c if r.random() > 0.02 else "x" for c in repeated("the cat sat. ", 110_000)]
        return "".join(chars[:10_000]), "".join(chars[10_000:])

    def repetitive_inside(name: str) -> tuple[str, str]:
        r = rng(name)
        reference = repeated("Backups run nightly at two. ", 10_000)
        return reference, words(r, 45_000) + edited(r, reference, 0.05) + words(r, 45_000)

    return {
        "20KB random": lambda: (words(rng("a"), 20_000), words(rng("b"), 20_000)),
        "20KB near-duplicate": lambda: near_duplicate(20_000, "c"),
        "30KB repetitive, one word changed": lambda: (
            repeated("The quick brown fox jumps over the lazy dog. ", 30_000),
            repeated("The quick brown cat jumps over the lazy dog. ", 30_000),
        ),
        "30KB repetitive, different sentences": lambda: (
            repeated("Backups run nightly at two. ", 30_000),
            repeated("Passwords rotate every ninety days. ", 30_000),
        ),
        "30KB repetitive, shifted": lambda: (
            repeated("Backups run nightly at two. ", 30_000),
            repeated("Backups run nightly at two. ", 30_013)[13:],
        ),
        "100KB random": lambda: (words(rng("d"), 100_000), words(rng("e"), 100_000)),
        "100KB near-duplicate": lambda: near_duplicate(100_000, "f"),
        "20KB edited inside 100KB": lambda: inside("g"),
        "20KB half overlapping 20KB": lambda: half("h"),
        "100KB half overlapping 100KB": lambda: half_of(100_000, "i"),
        "20KB repetitive, half of it": lambda: (
            repeated("Backups run nightly at two. ", 20_000),
            repeated("Backups run nightly at two. ", 10_000)
            + repeated("Passwords rotate every ninety days. ", 10_000),
        ),
        "10KB repetitive edited inside 100KB": lambda: repetitive_inside("j"),
        "10KB repetitive in 100KB repetitive": lambda: periodic("k"),
    }


def plain(chunk: str, reference: str, cfg: CorrectnessConfig) -> tuple[int, float, float] | None:
    """The definition, rapidfuzz on the whole texts (as before the fast path)."""
    from rapidfuzz import fuzz

    ratio = fuzz.ratio(chunk, reference)
    if ratio >= 100 * cfg.t1:
        return 1, ratio, 1.0
    a = fuzz.partial_ratio_alignment(reference, chunk)
    share = min(a.src_end - a.src_start, a.dest_end - a.dest_start) / len(reference)
    if a.score >= 100 * cfg.t2 and share >= cfg.coverage:
        return 2, a.score, share
    return None


def show(found: tuple[int, float, float] | None) -> str:
    return "no match" if found is None else f"stage {found[0]} {found[1]:.2f} cov {found[2]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before-timeout", type=float, default=20.0)
    parser.add_argument("--only", default=None, help="run the rows whose name contains this")
    parser.add_argument("--plain-row", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    cfg = CorrectnessConfig()
    table = rows()
    if args.plain_row is not None:  # child: time the plain definition on one row
        reference, chunk = table[args.plain_row]()
        start = time.perf_counter()
        found = plain(chunk, reference, cfg)
        print(f"{time.perf_counter() - start:.3f}\t{show(found)}")
        return
    print(f"{'row':40} {'before s':>10} {'after s':>8}  after decision (before)")
    for name, build in table.items():
        if args.only and args.only not in name:
            continue
        reference, chunk = build()
        row = CorrectnessRow("1", "p", (reference,), "a", (chunk,))
        start = time.perf_counter()
        result = retrieval_correctness(row, cfg)
        after = time.perf_counter() - start
        found = (
            None
            if not result.matches
            else (result.matches[0].stage, result.matches[0].score, result.matches[0].coverage)
        )
        try:
            child = subprocess.run(
                [sys.executable, __file__, "--plain-row", name],
                capture_output=True,
                text=True,
                timeout=args.before_timeout,
                check=True,
            )
            seconds, decision = child.stdout.strip().split("\t")
            before, before_found = f"{float(seconds):.2f}", decision
        except subprocess.TimeoutExpired:
            before, before_found = f">{args.before_timeout:.0f}", "stopped"
        flag = " truncated" if result.truncated else ""
        print(f"{name:40} {before:>10} {after:8.3f}  {show(found)}{flag} ({before_found})")


if __name__ == "__main__":
    main()
