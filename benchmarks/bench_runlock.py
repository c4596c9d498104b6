"""How long a large run import keeps other writers out of a SQLite database, run by hand.

Generates (once, in ``--dir``; reused by later runs) 100 small pages, a gold set of
``--questions`` questions on them and a run file of ``--run-lines`` lines with 3 results
each, and a base database holding the pages and the gold set. Each measurement copies the
base database, starts a probe process and then ``labeler run import`` as the real CLI.

Two measures of how long the import holds the write lock in one piece:

* from the inside: the CLI runs with SQLAlchemy event listeners timing each write
  transaction from the return of ``BEGIN IMMEDIATE`` to the end of its commit;
* from the outside: a probe in plain ``sqlite3``, independent of the labeler code, writes
  one row every 50 ms in a transaction of its own (``BEGIN IMMEDIATE`` ... ``COMMIT``, busy
  timeout 120 s) and records how long each took; its longest wait is what another writer
  (an annotator) suffered. SQLite's busy handler is not fair: an importer that asks for
  the lock while the probe keeps taking it may wait too, which the import time shows.

Printed per round: the import's wall time, its longest write transaction, the probe's
longest wait and the number of probe writes. To compare
with other code, point ``PYTHONPATH`` at its tree. Usage::

    .venv/bin/python benchmarks/bench_runlock.py --dir /tmp/bench-runlock \\
        [--run-lines 600000] [--questions 10000] [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_large import gold_corpus, gold_file, run_file

PROBE = r"""
import sqlite3, sys, time
db, stop = sys.argv[1], sys.argv[2]
conn = sqlite3.connect(db, isolation_level=None, timeout=120)
conn.execute("PRAGMA synchronous = NORMAL")  # as labeler's own writers: no fsync per commit
waits = []
import os
while not os.path.exists(stop):
    t = time.perf_counter()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO bench_probe VALUES (?)", (t,))
    conn.execute("COMMIT")
    waits.append(time.perf_counter() - t)
    if waits[-1] > 0.5:
        print(f"  probe: waited {waits[-1]:.2f} s", file=sys.stderr, flush=True)
    time.sleep(0.05)
print(f"{max(waits):.3f} {len(waits)}")
"""


# The import as the CLI runs it, timing its write transactions from the inside: from the
# moment BEGIN IMMEDIATE returned (the lock is held) to the end of the commit.
TIMED_CLI = r"""
import sys, time
from sqlalchemy import Engine, event
from sqlalchemy.orm import Session
spans, waits, held = [], [], {}

@event.listens_for(Engine, "before_cursor_execute")
def asks(conn, cursor, statement, *args):
    if statement.startswith("BEGIN IMMEDIATE"):
        held["asked"] = time.perf_counter()

@event.listens_for(Engine, "after_cursor_execute")
def began(conn, cursor, statement, *args):
    if statement.startswith("BEGIN IMMEDIATE"):
        held["t"] = time.perf_counter()
        waits.append(held["t"] - held.pop("asked"))

@event.listens_for(Session, "after_commit")
def committed(session):
    if "t" in held:
        spans.append(time.perf_counter() - held.pop("t"))

from labeler.cli import main
code = main(sys.argv[1:])
print(f"LOCKHELD {max(spans, default=0.0):.3f} {len(spans)} {sum(waits):.3f}", file=sys.stderr)
sys.exit(code)
"""


# Python puts the working directory first on sys.path for -m and -c: run the CLI from
# elsewhere, so that PYTHONPATH (not a checkout one happens to be in) chooses the code.
OUTSIDE = tempfile.gettempdir()


def labeler(*args: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=OUTSIDE,
    )
    if proc.returncode != 0:
        raise SystemExit(f"labeler {' '.join(args)} failed:\n{proc.stderr}")


def prepare(root: Path, questions: int, lines: int) -> Path:
    """The base database (pages + gold set) in ``root``, made with the run file if absent."""
    base = root / "base.db"
    if base.exists():
        return base
    root.mkdir(parents=True, exist_ok=True)
    print(f"generating data in {root} ...", flush=True)
    texts = gold_corpus(root / "pages", 100)
    gold_file(root / "gold.jsonl", texts, questions)
    run_file(root / "run.jsonl", lines)
    work = root / "making.db"
    labeler("ingest", "-q", str(root / "pages"), "--db", str(work))
    labeler("gold", "import", str(root / "gold.jsonl"), "--gold-set", "g", "--db", str(work))
    conn = sqlite3.connect(work)
    conn.execute("CREATE TABLE bench_probe (t REAL)")
    conn.commit()
    conn.close()
    work.rename(base)
    return base


def one_round(root: Path, base: Path) -> tuple[float, float, float, int]:
    """Import the run into a copy of ``base`` under the probe: (seconds, longest write
    transaction of the import, the probe's longest wait, probe writes)."""
    db = root / "round.db"
    for leftover in (db, root / "round.db-wal", root / "round.db-shm", root / "stop"):
        leftover.unlink(missing_ok=True)
    shutil.copy(base, db)
    probe = subprocess.Popen(
        [sys.executable, "-c", PROBE, str(db), str(root / "stop")],
        stdout=subprocess.PIPE,
        text=True,
    )
    time.sleep(0.3)  # the probe is writing before the import starts
    started = time.perf_counter()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            TIMED_CLI,
            "run",
            "import",
            "-q",
            str(root / "run.jsonl"),
            "--name",
            "big",
            "--db",
            str(db),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=OUTSIDE,
    )
    assert proc.stderr is not None
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - started
    (root / "stop").touch()
    out, _ = probe.communicate()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"run import failed:\n{stderr}")
    longest, writes = out.split()
    print(f"  the import's peak RSS: {usage.ru_maxrss / 1024:.0f} MB")
    for line in stderr.splitlines():
        if "waiting for the database" in line or "free again" in line:
            print(f"  the import said: {line}", flush=True)
    held = next(line for line in stderr.splitlines() if line.startswith("LOCKHELD"))
    _, hold, transactions, waited = held.split()
    print(f"  the import: {transactions} write transaction(s), {float(waited):.2f} s waiting for")
    print("  the lock (only successful BEGIN IMMEDIATE counted)")
    return seconds, float(hold), float(longest), int(writes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, type=Path, help="data directory (kept)")
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--run-lines", type=int, default=600_000)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    base = prepare(args.dir, args.questions, args.run_lines)
    code = os.environ.get("PYTHONPATH", "(installed labeler)")
    print(f"code: {code}; run: {args.run_lines:,} lines x 3 results")
    for n in range(args.rounds):
        seconds, held, longest, writes = one_round(args.dir, base)
        print(
            f"round {n + 1}: import {seconds:6.1f} s; its longest write transaction "
            f"{held:6.2f} s; the probe's longest wait for the lock {longest:6.2f} s "
            f"({writes} probe writes)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
