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
time to build, the median and the maximum of each query. Usage::

    .venv/bin/python benchmarks/bench_search.py [--pages 100000] [--words 200] [--pg URL]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import tempfile
import time
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


def measure(store: Store, repeats: int) -> list[tuple[str, float, float, int]]:
    """(query, median s, max s, total results) of each query and typed prefix."""
    out = []
    for label in (*QUERIES, *TYPED):
        query = label.removeprefix("typed ")
        times = []
        total = 0
        for _ in range(repeats):
            started = time.perf_counter()
            found = find_documents(store, query, "bench", None, limit=100)
            times.append(time.perf_counter() - started)
            total = found.total
        out.append((label, statistics.median(times), max(times), total))
    return out


def report(
    backend: str, built: float, pages: int, rows: list[tuple[str, float, float, int]]
) -> None:
    print(f"{backend}: {pages:,} pages stored in {built:.1f} s")
    print(f"  {'query':<26} {'median ms':>10} {'max ms':>9} {'results':>9}")
    for query, median, worst, total in rows:
        print(f"  {query:<26} {median * 1000:>10.1f} {worst * 1000:>9.1f} {total:>9,}")
    typed = [r for r in rows if r[0] in TYPED]
    print(
        f"  typing journal_mode key by key: median {statistics.median(r[1] for r in typed) * 1000:.1f}"
        f" ms, worst {max(r[2] for r in typed) * 1000:.1f} ms per search"
    )


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
    parser.add_argument("--pg", default=os.environ.get("LABELER_TEST_PG_URL", ""))
    parser.add_argument("--skip-sqlite", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.skip_sqlite:
        with tempfile.TemporaryDirectory() as tmp, open_store(str(Path(tmp) / "s.db")) as store:
            built = build(store, args.pages, args.words)
            report("SQLite", built, args.pages, measure(store, args.repeats))
    if args.pg:
        url, admin, name = pg_database(args.pg)
        try:
            with open_store(url) as store:
                built = build(store, args.pages, args.words)
                with store.write() as s:  # fresh statistics, as autovacuum would gather
                    s.connection().exec_driver_sql("ANALYZE document")
                report("PostgreSQL", built, args.pages, measure(store, args.repeats))
        finally:
            drop(admin, name)
    else:
        print("PostgreSQL: skipped (no --pg URL and no $LABELER_TEST_PG_URL)")


if __name__ == "__main__":
    main()
