"""How long another process's change takes to reach an open TUI screen, run by hand.

On each backend (a SQLite file in a temporary directory; with ``--pg URL`` or
``$LABELER_TEST_PG_URL``, a throwaway PostgreSQL database on that server, dropped after):
ana's TUI runs headless (Textual's Pilot) on a page of a team gold set, and a second process
with a store of its own flips ana's done mark on q1 (as her other window would), ``--changes``
times, one change at a time. The child prints the wall-clock time right after each commit;
the TUI side polls its question bar every 10 ms, without a key press, until it shows the new
state, and takes the time. The delay is the difference: the change signal (``PRAGMA
data_version`` read every 0.25 s on SQLite, LISTEN/NOTIFY on PostgreSQL), the re-read of what
the screen shows and the redraw. Printed per backend: median and maximum. Usage::

    .venv/bin/python benchmarks/bench_live.py [--changes 20] [--pg postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pg_bench import pg_database
from textual.widgets import Static

from labeler.store import Store, flip_done, open_store
from labeler.store.document_table import upsert_document
from labeler.store.labels import add_query, create_gold_set
from labeler.store.team import add_assignment

PAGE = "FR-001: The index is never the source of record. Exceptions are approved by the owner."


def seed(store: Store) -> None:
    """One page, gold set "demo" with q1 and q2 assigned to ana and bob."""
    with store.write() as s:
        upsert_document(
            s, doc_id="policy.html", source_path="policy.html", sha256="a", profile="text",
            text=PAGE,
        )  # fmt: skip
        gs = create_gold_set(s, "demo", "demo set")
        add_query(s, gs, "q1", "Is the index the source of record?", actor="seed")
        add_query(s, gs, "q2", "Who approves exceptions?", actor="seed")
    with store.write() as s:
        for qid in (1, 2):
            for name in ("ana", "bob"):
                add_assignment(s, qid, name, actor="lead")


def child(db: str) -> None:
    """The other process: one flip of ana's done mark on q1 per line read; prints the time
    right after each commit."""
    with open_store(db) as store:
        print("ready", flush=True)
        for _ in sys.stdin:
            flip_done(store, 1, "ana")
            print(f"{time.time():.6f}", flush=True)


async def measure(db: str, changes: int) -> list[float]:
    from labeler.tui.app import LabelerApp
    from labeler.tui.screens.page import PageScreen

    store = open_store(db)
    app = LabelerApp(store, annotator="ana", gold_set="demo", resume=False)
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", db],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(Path(__file__).parent.parent)),
    )
    assert proc.stdin is not None and proc.stdout is not None
    delays: list[float] = []
    try:
        async with app.run_test(size=(120, 36), notifications=False) as pilot:
            for _ in range(50):
                await pilot.pause(0.05)
                if app.questions:
                    break
            page = PageScreen("policy.html")
            await app.push_screen(page)
            await pilot.pause(0.5)
            assert proc.stdout.readline().strip() == "ready"

            def shown() -> str:
                return str(page.query_one("#question-bar", Static).render())

            for n in range(changes):
                want = "assigned · done" if n % 2 == 0 else "assigned · to do"
                proc.stdin.write("go\n")
                proc.stdin.flush()
                committed = float(await asyncio.to_thread(proc.stdout.readline))
                while want not in shown():
                    if time.time() - committed > 30:
                        raise TimeoutError(f"change {n} not shown after 30 s")
                    await pilot.pause(0.01)
                delays.append(time.time() - committed)
                await pilot.pause(0.3)  # let the screen settle before the next change
    finally:
        proc.stdin.close()
        proc.wait(30)
        store.close()
    return delays


def report(name: str, delays: list[float]) -> None:
    ms = [d * 1000 for d in delays]
    print(
        f"{name:<11} {len(ms):>3} changes   median {statistics.median(ms):6.0f} ms   "
        f"max {max(ms):6.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=20)
    parser.add_argument("--pg", default=os.environ.get("LABELER_TEST_PG_URL", ""))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "live.db")
        with open_store(db) as store:
            seed(store)
        report("SQLite", asyncio.run(measure(db, args.changes)))
    if args.pg:
        url, admin, name = pg_database(args.pg)
        try:
            with open_store(url) as store:
                seed(store)
            report("PostgreSQL", asyncio.run(measure(url, args.changes)))
        finally:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        print("PostgreSQL: skipped (no --pg URL and no $LABELER_TEST_PG_URL)")


if __name__ == "__main__":
    main()
