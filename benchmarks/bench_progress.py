"""What progress costs: ``labeler score`` (one process, so every question passes the
reporter) with progress on a pipe (plain lines), on a pseudo-terminal (the rich bar) and
with ``-q``, interleaved in the same run; pytrec_eval on the same data as the peer.

    python benchmarks/bench_progress.py [--questions 32000] [--chunks 20] [--repeat 5]

Data and timing as in ``bench_score.py`` (whole processes, best and median wall time).
"""

from __future__ import annotations

import argparse
import os
import pty
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench_score import CORPUS, PYTREC, labeler, make_data


def on_terminal(cmd: list[str]) -> None:
    """Run ``cmd`` with stderr on a pseudo-terminal (drained as it is written)."""
    master, slave = pty.openpty()

    def drain() -> None:
        while True:
            try:
                if not os.read(master, 65536):
                    return
            except OSError:
                return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    env = {**os.environ, "TERM": "xterm-256color"}
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=slave, env=env, check=False)
    os.close(slave)
    reader.join(5)
    os.close(master)
    assert proc.returncode == 0, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=32_000)
    parser.add_argument("--chunks", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-progress-") as tmp:
        work = Path(tmp)
        db = work / "bench.db"
        gold, run, trec = make_data(work, args.questions, args.chunks, args.seed)
        labeler("ingest", str(CORPUS), "-q", db=db)
        labeler("gold", "import", str(gold), "--gold-set", "bench", "-q", db=db)
        labeler("run", "import", str(run), "--name", "bench", "-q", db=db)
        score = [sys.executable, "-m", "labeler", "score", "--gold-set", "bench", "--run"]
        score += ["bench", "--jobs", "1", "--ci", "0", "-o", os.devnull, "--db", str(db)]
        script = work / "pytrec.py"
        script.write_text(PYTREC, encoding="utf-8")
        peer = [sys.executable, str(script), str(trec / "qrels.txt"), str(trec / "run.trec")]

        def piped(cmd: list[str]) -> None:
            subprocess.run(cmd, check=True, capture_output=True)

        variants = {
            "pytrec_eval": (piped, peer),
            "score -q": (piped, [*score, "-q"]),
            "score, lines (pipe)": (piped, score),
            "score, bar (terminal)": (on_terminal, score),
        }
        walls: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(args.repeat):  # interleaved: drift hits every variant alike
            for name, (runner, cmd) in variants.items():
                t0 = time.perf_counter()
                runner(cmd)
                walls[name].append(time.perf_counter() - t0)
    quiet = walls["score -q"]
    print(f"data: {args.questions} questions x {args.chunks} chunks; {args.repeat} rounds")
    print("best / median wall time; ratio to score -q and to pytrec_eval (best / median)")
    for name, times in walls.items():
        best, median = min(times), statistics.median(times)
        print(
            f"  {name:22s} {best:7.3f} / {median:7.3f} s"
            f"   vs -q {best / min(quiet):.3f} / {median / statistics.median(quiet):.3f}"
            f"   vs pytrec_eval {best / min(walls['pytrec_eval']):.2f}"
        )


if __name__ == "__main__":
    main()
