"""What the store's damage check costs before a command's first write (labeler.store.integrity).

Ingests the bundled corpus (corpora/sqlite-docs, 766 pages) into a temporary database, then
times, best of ``--repeat``: ``PRAGMA quick_check`` (what a write pays when the file changed
since its last check), the sidecar comparison (what it pays otherwise), and a whole
one-row write transaction through ``Store.write()`` with and without the check.

    python benchmarks/bench_integrity.py [--db EXISTING.db] [--repeat 20]
"""

from __future__ import annotations

import argparse
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def best_ms(action: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    from labeler.store import open_store
    from labeler.store.integrity import needs_check, remember_checked

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "corpus.db"
        if args.db is None:
            corpus = ROOT / "corpora" / "sqlite-docs"
            subprocess.run(
                [sys.executable, "-m", "labeler", "ingest", "-q", str(corpus), "--db", str(db)],
                check=True,
                capture_output=True,
            )
        conn = sqlite3.connect(db)
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        size = db.stat().st_size
        quick = best_ms(lambda: conn.execute("PRAGMA quick_check(5)").fetchall(), args.repeat)
        conn.close()
        remember_checked(db)
        sidecar = best_ms(lambda: needs_check(db), args.repeat)

        def first_write(checked: bool) -> None:
            if not checked:
                Path(f"{db}-checked").unlink(missing_ok=True)
            store = open_store(str(db))
            try:
                with store.write() as session:
                    session.connection().exec_driver_sql("SELECT 1")
            finally:
                store.close()

        unchecked = best_ms(lambda: first_write(False), args.repeat)
        skipped = best_ms(lambda: first_write(True), args.repeat)
    print(f"database: {pages} pages, {size / 1e6:.1f} MB")
    print(f"PRAGMA quick_check:                  {quick:7.2f} ms")
    print(f"sidecar comparison (file unchanged): {sidecar:7.3f} ms")
    print(f"open + first write + close, checked: {unchecked:7.2f} ms")
    print(f"open + first write + close, skipped: {skipped:7.2f} ms")


if __name__ == "__main__":
    main()
