"""How fast the documents search answers on a large database, run by hand.

On each backend (a SQLite file in a temporary directory; with ``--pg URL`` or
``$LABELER_TEST_PG_URL``, a throwaway PostgreSQL database on that server, dropped after)
the benchmark stores ``--pages`` synthetic pages (100,000 by default) through the store's
own page write (``upsert_document``, so the search index is kept by the same path as
ingest's), each ``--words`` words drawn from the bundled corpus's words at their corpus
frequencies, plus a few pages holding the test phrases. It then times the search the
Documents screen (F3) runs (``find_documents``, its first page of 100 results) for each
query of :data:`QUERIES` and for every prefix typed on the way to ``journal_mode`` (what the
screen asks while someone types), ``--repeats`` times each, and prints per backend the
time to build, the median, the 95th percentile and the maximum of each query (with the
total it reports, ``≥`` where PostgreSQL's count stopped at its cap), the same for the
typed prefixes together, and the peak of the Python memory one search allocates
(tracemalloc) and of the process (its peak resident size). With ``--corpus`` the pages are
the bundled corpus's 766 instead, stored by ``labeler ingest``; ``--sqlite FILE`` and
``--pg-db URL`` measure a database already built (no build, nothing dropped). Usage::

    .venv/bin/python benchmarks/bench_search.py [--pages 100000] [--words 200] [--pg URL]
    .venv/bin/python benchmarks/bench_search.py --corpus [--pg URL]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path

from pg_bench import pg_database
from sqlalchemy import Engine

from labeler.store import Store, find_documents, open_store
from labeler.store.document_table import upsert_document

CORPUS = Path(__file__).resolve().parents[1] / "corpora" / "sqlite-docs"
QUERIES = (
    "journal_mode",
    "pragma page_size",
    '"the default page size"',
    "checkpoint",
    "the",
    "n00042.txt",
    "wal.html",
    "zzzunknownword",
)
#: pages stored in one write transaction while building
BATCH = 2000


def corpus_words() -> Counter[str]:
    """The words of the corpus's pages (tags and entities stripped, lower case)."""
    counts: Counter[str] = Counter()
    for path in CORPUS.rglob("*.html"):
        raw = path.read_text(encoding="utf-8", errors="replace")
        plain = re.sub(r"<[^>]*>|&\w+;", " ", raw)
        counts.update(w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9_]+", plain))
    return counts


def build(store: Store, pages: int, words: int, seed: int = 22) -> float:
    """Store ``pages`` synthetic pages; returns the seconds it took."""
    counts = corpus_words()
    vocabulary, weights = list(counts), list(counts.values())
    rng = random.Random(seed)
    started = time.perf_counter()
    for first in range(0, pages, BATCH):
        with store.write() as s:
            for i in range(first, min(pages, first + BATCH)):
                text = " ".join(rng.choices(vocabulary, weights, k=words))
                if i % 997 == 0:
                    text += " Set the journal_mode pragma; the default page size is 4096."
                doc_id = f"n{i:05d}.txt"
                upsert_document(
                    s, doc_id=doc_id, source_path=doc_id, sha256=str(i), profile="t", text=text
                )
    return time.perf_counter() - started


#: what the screen searches for while journal_mode is typed, key by key
TYPED = tuple(f"typed {'journal_mode'[:n]}" for n in range(1, len("journal_mode") + 1))


#: (query, median s, 95th percentile s, max s, total results, total exact)
Row = tuple[str, float, float, float, int, bool]


def p95(times: list[float]) -> float:
    """The 95th percentile (nearest rank: the ceil(0.95 n)-th fastest of n)."""
    ordered = sorted(times)
    return ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


def measure(store: Store, repeats: int) -> tuple[list[Row], int]:
    """Each query's and typed prefix's figures, and the most Python memory (bytes) one
    search allocated at its peak."""
    out: list[Row] = []
    peak = 0
    for label in (*QUERIES, *TYPED):
        query = label.removeprefix("typed ")
        times = []
        found = None
        for _ in range(repeats):
            started = time.perf_counter()
            found = find_documents(store, query, "bench", None, limit=100)
            times.append(time.perf_counter() - started)
        assert found is not None
        # once more, untimed, for its memory (tracing allocations slows them down)
        tracemalloc.start()
        find_documents(store, query, "bench", None, limit=100)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        out.append(
            (label, statistics.median(times), p95(times), max(times), found.total, found.exact)
        )
    return out, peak


def report(backend: str, built: float, pages: int, rows: list[Row], peak: int) -> None:
    print(f"{backend}: {pages:,} pages stored in {built:.1f} s")
    print(f"  {'query':<26} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'results':>10}")
    for query, median, high, worst, total, exact in rows:
        counted = f"{total:,}" if exact else f">={total:,}"
        print(
            f"  {query:<26} {median * 1000:>10.1f} {high * 1000:>8.1f} {worst * 1000:>8.1f}"
            f" {counted:>10}"
        )
    typed = [r for r in rows if r[0] in TYPED]
    every = [r[1] for r in typed]
    print(
        f"  typing journal_mode key by key: median {statistics.median(every) * 1000:.1f} ms,"
        f" p95 {p95([r[2] for r in typed]) * 1000:.1f} ms,"
        f" worst {max(r[3] for r in typed) * 1000:.1f} ms per search"
    )
    # ru_maxrss is in KiB on Linux
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  peak memory: {peak / 2**20:.1f} MiB allocated by one search, process {rss:.0f} MiB")


def ingest_corpus(db: str) -> float:
    """Store the bundled corpus in ``db`` with ``labeler ingest``; the seconds it took."""
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "labeler", "ingest", "--quiet", "--db", db, str(CORPUS)],
        check=True,
    )
    return time.perf_counter() - started


def fill(db: str, args: argparse.Namespace) -> tuple[float, int]:
    """Store the benchmark's pages in ``db``: (seconds, pages)."""
    if args.corpus:
        return ingest_corpus(db), count_pages(db)
    with open_store(db) as store:
        return build(store, args.pages, args.words), args.pages


def count_pages(db: str) -> int:
    with open_store(db, create=False) as store, store.session() as s:
        return int(s.connection().exec_driver_sql("SELECT count(*) FROM document").scalar_one())


def drop(admin: Engine, name: str) -> None:
    """Drop the benchmark's database, retrying while an autovacuum worker (which FORCE may
    not terminate) is still on it after the large build."""
    from sqlalchemy.exc import DBAPIError

    for attempt in range(100):
        try:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except DBAPIError:
            if attempt == 99:
                raise
            time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pages", type=int, default=100_000)
    parser.add_argument("--words", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--corpus", action="store_true", help="the bundled corpus's pages")
    parser.add_argument("--pg", default=os.environ.get("LABELER_TEST_PG_URL", ""))
    parser.add_argument("--sqlite", default="", help="measure this SQLite file as it is")
    parser.add_argument("--pg-db", default="", help="measure this PostgreSQL database as it is")
    parser.add_argument("--skip-sqlite", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.sqlite:
        with open_store(args.sqlite, create=False) as store:
            report("SQLite", 0.0, count_pages(args.sqlite), *measure(store, args.repeats))
    elif not args.skip_sqlite:
        with tempfile.TemporaryDirectory() as tmp:
            db = str(Path(tmp) / "s.db")
            built, pages = fill(db, args)
            with open_store(db) as store:
                report("SQLite", built, pages, *measure(store, args.repeats))
    if args.pg_db:
        with open_store(args.pg_db, create=False) as store:
            report("PostgreSQL", 0.0, count_pages(args.pg_db), *measure(store, args.repeats))
    elif args.pg:
        url, admin, name = pg_database(args.pg)
        try:
            built, pages = fill(url, args)
            with open_store(url) as store:
                with store.write() as s:  # fresh statistics, as autovacuum would gather
                    s.connection().exec_driver_sql("ANALYZE document")
                report("PostgreSQL", built, pages, *measure(store, args.repeats))
        finally:
            drop(admin, name)
    else:
        print("PostgreSQL: skipped (no --pg URL and no $LABELER_TEST_PG_URL)")


if __name__ == "__main__":
    main()
