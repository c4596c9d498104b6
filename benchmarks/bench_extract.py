"""Benchmark: our jsoup-1.15.3 extraction against the real jsoup jar, same files, same run.

Usage: ``python benchmarks/bench_extract.py [DIR] [--engines jsoup,lexbor] [--repeat N]
[--passes N] [--profile ENGINE]`` (default DIR: corpora/sqlite-docs, every
``*.html``/``*.htm``/``*.xhtml`` below it; default engines: all of ``ENGINES``).

The jar runs ``tests/support/jsoup_ref/JsoupText.java`` compiled once (cached, see ``runner.compiled``) before
any timing (a JVM launching the source file would compile it every time, which costs the jar
about 1.4x CPU and flatters us). Two figures, each ours / jar (below 1.0 we are faster):

* cold: one fresh process over all files, start included: the JVM (start, class loading,
  JIT warm-up) against a fresh Python interpreter (imports, reading, extracting). Wall and
  CPU (user + system, all threads: the JVM compiles and collects on other threads) and peak
  RSS, each process measured on its own (``os.wait4``). Best of ``--repeat`` rounds; in each
  round the jar and every engine run one after the other (interleaved), so load on the
  machine weighs on all alike.
* cold, parallel: the same, the fresh interpreter running
  :func:`labeler.extract.extract_many` over all files with its default process count (one
  per usable CPU): what ``labeler extract`` and ``labeler ingest`` do with many pages. Its
  CPU is that of the whole process tree (``wait4`` counts the workers it forked and
  reaped: Linux adds a reaped child's time to its parent's children's time); its peak is
  the parent's plus each worker's (``RUSAGE_CHILDREN`` gives the largest worker's, counted
  once per worker: an upper bound, and pages the fork shares are counted in each). Run in
  the same interleaved rounds, against the same jar runs.
* warm: per page, in one process that has already run over the files once: the jar's
  harness runs ``--passes`` passes in one JVM and the best later pass counts (wall, and the
  main thread's CPU: the JIT and the collector run on others); ours, the best of
  ``--passes`` in-process passes after one untimed pass.

``--profile ENGINE`` then runs that engine once more over the files under cProfile and
prints the 15 functions with the most own time (cProfile slows the run, so only the shares
mean anything).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from jsoup_ref import runner  # noqa: E402

from labeler.extract.batch import plan_processes  # noqa: E402
from labeler.extract.charset import decode_html  # noqa: E402
from labeler.extract.fastpath import lexbor_text  # noqa: E402
from labeler.extract.jsoup import ENGINES, jsoup_body_text, port_meta_charset  # noqa: E402
from labeler.workers import usable_cpus  # noqa: E402

SUFFIXES = {".html", ".htm", ".xhtml"}

# A fresh interpreter doing the whole job: paths on stdin, the total length on stdout.
_COLD = (
    "import sys; sys.path.insert(0, sys.argv[1]);"
    "from pathlib import Path; from labeler.extract.jsoup import jsoup_body_text;"
    "print(sum(len(jsoup_body_text(Path(p).read_bytes(), sys.argv[2]))"
    " for p in sys.stdin.read().splitlines()))"
)

# The same through extract_many in its default processes: the total length, then the peak
# RSS (KiB) of this process and of its largest worker, the number of workers, and the CPU
# seconds of this process and the workers it reaped.
_COLD_MANY = (
    "import sys, resource; sys.path.insert(0, sys.argv[1]);"
    "from labeler.extract import extract_many; from labeler.extract.batch import plan_processes;"
    "import os; paths = sys.stdin.read().splitlines();"
    "workers = plan_processes([os.path.getsize(p) for p in paths], None) - 1;"
    "chars = sum(len(r.text) for r in extract_many(paths, engine=sys.argv[2]));"
    "me = resource.getrusage(resource.RUSAGE_SELF); kids = resource.getrusage(resource.RUSAGE_CHILDREN);"
    "cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime;"
    "print(chars, me.ru_maxrss, kids.ru_maxrss, workers, cpu)"
)


@dataclass(frozen=True)
class Run:
    """One process's figures: wall and CPU seconds, peak RSS in MB, its stdout."""

    wall: float
    cpu: float
    peak_mb: float
    out: str


def files_under(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix.lower() in SUFFIXES and p.is_file())


def run_measured(cmd: list[str], stdin: bytes) -> Run:
    """Run ``cmd`` with ``stdin``: its own wall time, CPU time and peak RSS (the child is
    reaped with ``wait4``, so the figures are that process's alone)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(stdin)
    proc.stdin.close()
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed (exit {proc.returncode})")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out.decode())


def jar_cold(listing: bytes) -> Run:
    return run_measured(runner.harness_command("--quiet"), listing)


def ours_cold(engine: str, listing: bytes) -> Run:
    return run_measured([sys.executable, "-c", _COLD, str(ROOT), engine], listing)


def ours_cold_many(engine: str, listing: bytes) -> Run:
    """:func:`ours_cold` through ``extract_many`` in its default processes; the peak is
    the parent's plus each worker's (see the module's text), the output the text length."""
    run = run_measured([sys.executable, "-c", _COLD_MANY, str(ROOT), engine], listing)
    chars, me, kids, workers, cpu = run.out.split()
    peak = (int(me) + int(kids) * int(workers)) / 1024
    # wait4 already counts the reaped workers on Linux; the tree's own count where it does not
    return Run(run.wall, max(run.cpu, float(cpu)), peak, f"{chars}\n")


def jar_warm(listing: bytes, passes: int) -> tuple[float, float]:
    """Wall and main-thread CPU seconds of the jar's best pass after the first, one JVM."""
    run = run_measured(runner.harness_command("--passes", str(passes)), listing)
    rows = [dict(part.split("=") for part in line.split()) for line in run.out.splitlines()]
    later = rows[1:] or rows
    return min(int(r["ns"]) / 1e9 for r in later), min(int(r["cpu"]) / 1e9 for r in later)


def ours_warm(datas: list[bytes], engine: str, passes: int) -> tuple[float, float, int]:
    """Wall and CPU seconds of our best in-process pass after one untimed pass, and the
    text length."""
    chars = sum(len(jsoup_body_text(d, engine)) for d in datas)
    wall = cpu = float("inf")
    for _ in range(passes):
        start, start_cpu = time.perf_counter(), time.process_time()
        for data in datas:
            jsoup_body_text(data, engine)
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu, chars


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


def _best(runs: list[Run]) -> Run:
    return min(runs, key=lambda r: r.wall)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT / "corpora" / "sqlite-docs"))
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--repeat", type=int, default=3, help="cold rounds (best counts)")
    parser.add_argument("--passes", type=int, default=4, help="warm passes (best counts)")
    parser.add_argument("--profile", metavar="ENGINE", help="cProfile this engine afterwards")
    args = parser.parse_args()
    folder = Path(args.folder)
    paths = files_under(folder)
    engines = args.engines.split(",")
    size = sum(p.stat().st_size for p in paths)
    listing = "\n".join(str(p.resolve()) for p in paths).encode()
    load = os.getloadavg()[0]
    print(f"{len(paths)} files, {size / 1e6:.1f} MB, from {folder}; load average {load:.1f}")

    runner.harness_command()  # compiles the harness once, before anything is timed
    cold: dict[str, list[Run]] = {"jar": [], **{e: [] for e in engines}}
    many: dict[str, list[Run]] = {e: [] for e in engines}
    for _ in range(args.repeat):  # interleaved rounds
        cold["jar"].append(jar_cold(listing))
        for engine in engines:
            cold[engine].append(ours_cold(engine, listing))
            many[engine].append(ours_cold_many(engine, listing))
            if many[engine][-1].out != cold[engine][-1].out:
                raise RuntimeError(f"{engine}: extract_many gave another text length")
    datas = [p.read_bytes() for p in paths]
    warm_jar = jar_warm(listing, args.passes)
    warm = {e: ours_warm(datas, e, args.passes) for e in engines}

    jar = _best(cold["jar"])
    print(f"\ncold: one fresh process over all files, start included (best of {args.repeat})")
    print(
        f"  {'jsoup 1.15.3 jar':<18}{jar.wall:7.2f} s wall {jar.cpu:7.2f} s CPU "
        f"{jar.peak_mb:7.0f} MB peak"
    )
    for engine in engines:
        r = _best(cold[engine])
        print(
            f"  {'ours ' + engine:<18}{r.wall:7.2f} s wall {r.cpu:7.2f} s CPU "
            f"{r.peak_mb:7.0f} MB peak   ratio wall {r.wall / jar.wall:5.2f}  "
            f"CPU {r.cpu / jar.cpu:5.2f}  peak {r.peak_mb / jar.peak_mb:5.2f}"
        )
    workers = plan_processes([p.stat().st_size for p in paths], None) - 1
    print(
        f"\ncold, parallel: extract_many, {workers + 1} process(es) ({usable_cpus()} usable "
        f"CPUs; CPU and peak over all of them; best of {args.repeat})"
    )
    for engine in engines:
        r = _best(many[engine])
        print(
            f"  {'ours ' + engine:<18}{r.wall:7.2f} s wall {r.cpu:7.2f} s CPU "
            f"{r.peak_mb:7.0f} MB peak   ratio wall {r.wall / jar.wall:5.2f}  "
            f"CPU {r.cpu / jar.cpu:5.2f}  peak {r.peak_mb / jar.peak_mb:5.2f}"
        )
    n = len(paths)
    print(f"\nwarm: per page, in one process (best of {args.passes} passes after a first)")
    jar_wall, jar_cpu = warm_jar
    print(
        f"  {'jsoup 1.15.3 jar':<18}{jar_wall / n * 1e3:7.2f} ms/page wall "
        f"{jar_cpu / n * 1e3:7.2f} ms/page CPU (main thread)"
    )
    for engine in engines:
        wall, cpu, chars = warm[engine]
        print(
            f"  {'ours ' + engine:<18}{wall / n * 1e3:7.2f} ms/page wall {cpu / n * 1e3:7.2f} "
            f"ms/page CPU   ratio wall {wall / jar_wall:5.2f}  CPU {cpu / jar_cpu:5.2f}   "
            f"{chars} chars"
        )
    if "jsoup" in engines:
        taken = sum(lexbor_text(decode_html(d, port_meta_charset)) is not None for d in datas)
        print(f"  (the jsoup engine's fast path, lexbor, took {taken} of {n} pages)")
    fastest = min(engines, key=lambda e: _best(cold[e]).wall)
    print(f"\nfastest engine here (cold wall): {fastest}")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    if args.profile:
        profile(paths, args.profile)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
