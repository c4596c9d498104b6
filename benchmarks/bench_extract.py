"""Benchmark: our jsoup-1.15.3 extraction against the real jsoup jar, same files, same run.

Usage: ``python benchmarks/bench_extract.py [DIR] [--engines lexbor,jsoup] [--repeat N]
[--profile ENGINE]`` (default DIR: corpora/sqlite-docs, every ``*.html``/``*.htm``/``*.xhtml``
below it; default engines: all of ``ENGINES``).

What is timed (wall clock, best of ``--repeat`` runs):

* jsoup: one JVM over all files, JVM start and the harness's compilation included, via
  ``tests/support/jsoup_ref/JsoupText.java --quiet`` (texts are computed, not printed).
* ours, per engine, in-process: read every file and extract its text. Python start-up and
  imports are reported separately ("cold" = a fresh interpreter doing the same work).

The ratio is ours / jsoup: below 1.0 we are faster. ``--profile ENGINE`` then runs that
engine once more over the files under cProfile and prints the 15 functions with the most
own time (the hot spots; cProfile slows the run, so only the shares mean anything).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "labeler"))

from jsoup_ref import runner  # noqa: E402

from labeler.extract.jsoup import ENGINES, jsoup_body_text  # noqa: E402

SUFFIXES = {".html", ".htm", ".xhtml"}


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())


def time_jsoup(paths: list[Path]) -> float:
    listing = "\n".join(str(p.resolve()) for p in paths).encode()
    start = time.perf_counter()
    subprocess.run(runner.command(quiet=True), input=listing, check=True, capture_output=True)
    return time.perf_counter() - start


def time_ours(paths: list[Path], engine: str) -> tuple[float, int]:
    start = time.perf_counter()
    chars = 0
    for path in paths:
        chars += len(jsoup_body_text(path.read_bytes(), engine))
    return time.perf_counter() - start, chars


def time_cold(folder: Path, engine: str) -> float:
    """A fresh interpreter: imports + reading + extraction (the whole-process figure)."""
    code = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]);"
        "from labeler.extract.jsoup import jsoup_body_text;"
        "[jsoup_body_text(Path(p).read_bytes(), sys.argv[2]) for p in sys.argv[3:]]"
    )
    paths = [str(p) for p in files_under(folder)]
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, str(ROOT), engine, *paths], check=True)
    return time.perf_counter() - start


def profile(paths: list[Path], engine: str, top: int = 15) -> None:
    """cProfile of one extraction pass; the ``top`` functions by own time."""
    datas = [p.read_bytes() for p in paths]
    profiler = cProfile.Profile()
    profiler.enable()
    for data in datas:
        jsoup_body_text(data, engine)
    profiler.disable()
    print(f"\ncProfile of engine {engine}, top {top} by own time:")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT / "corpora" / "sqlite-docs"))
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--profile", metavar="ENGINE", help="cProfile this engine afterwards")
    args = parser.parse_args()
    folder = Path(args.folder)
    paths = files_under(folder)
    size = sum(p.stat().st_size for p in paths)
    print(f"{len(paths)} files, {size / 1e6:.1f} MB, from {folder}")

    jsoup_s = min(time_jsoup(paths) for _ in range(args.repeat))
    print(f"{'jsoup 1.15.3 (1 JVM)':<28}{jsoup_s:8.2f} s")
    for engine in args.engines.split(","):
        ours_s, chars = min(time_ours(paths, engine) for _ in range(args.repeat))
        cold_s = time_cold(folder, engine)
        print(
            f"{'ours ' + engine + ' (in-process)':<28}{ours_s:8.2f} s   "
            f"ratio {ours_s / jsoup_s:5.2f}   whole process {cold_s:6.2f} s "
            f"(ratio {cold_s / jsoup_s:5.2f})   {chars} chars"
        )
    if args.profile:
        profile(paths, args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
