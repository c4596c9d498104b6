"""Several annotators, one database: no lost update, no phantom row, no "database is locked".

Four worker processes (this file run as a script) add, grade and remove elements and add and
remove questions in one shared gold set, each for a bounded number of operations and a
bounded time. A worker logs an operation only after ``Store.write()`` returned, i.e. after
the commit.

On SQLite each worker uses a short ``busy_timeout`` (50 ms instead of 10 s), so the lock
contention that a long import causes in real use happens constantly here and the store's
busy retry has to carry every write. On PostgreSQL the same workers run as they are: their
writes serialise through the advisory write lock. The tests of the busy retry itself hold
SQLite's write lock from another connection and are SQLite's.

Afterwards the database must hold exactly the union of what the workers logged as
committed, and the audit trail exactly one entry per committed operation.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

WORKERS = 4
OPS_PER_WORKER = 120
SECONDS_PER_WORKER = 4.0
PAGES = {
    "a.txt": "Alpha page. " * 40,
    "b.txt": "Bravo page holds other words. " * 30,
    "c.txt": "Charlie: the last page of the corpus. " * 25,
}


def worker(db: str, seed: int, log_path: str, backend: str) -> None:
    """Run random operations on ``db``, logging each committed one as a JSON line."""
    from sqlalchemy import event

    from labeler.errors import StoreError
    from labeler.store import (
        add_query,
        attach_element,
        delete_query,
        get_gold_set,
        open_store,
        remove_element,
        set_grade,
    )
    from labeler.store.session import BusyRetry

    rng = random.Random(seed)
    actor = f"w{seed}"
    busy: list[int] = []
    policy = BusyRetry(
        attempts=60, first_delay=0.005, max_delay=0.1, on_busy=lambda n, _p: busy.append(n)
    )
    store = open_store(db, retry=policy)
    if backend == "sqlite":

        @event.listens_for(store.engine, "connect")
        def _short_wait(dbapi: Any, _record: Any) -> None:
            dbapi.execute("PRAGMA busy_timeout = 50")

        store.engine.dispose()  # new connections get the short wait
    with store.session() as s:
        gold = get_gold_set(s, "shared")
    questions: dict[int, list[int]] = {}  # own question id -> own element ids
    grades: dict[int, int] = {}
    deadline = time.monotonic() + SECONDS_PER_WORKER
    with open(log_path, "w", encoding="utf-8") as log:

        def committed(**entry: Any) -> None:
            log.write(json.dumps(entry) + "\n")
            log.flush()

        for i in range(OPS_PER_WORKER):
            if time.monotonic() > deadline:
                break
            elements = [e for ids in questions.values() for e in ids]
            op = rng.choice(["add_q", "add_e", "add_e", "grade", "rm_e", "rm_q"])
            if not questions:
                op = "add_q"
            try:
                if op == "add_q":
                    with store.write() as s:
                        q = add_query(s, gold, f"{actor}-q{i}", f"question {i}?", actor=actor)
                    assert q.id is not None
                    questions[q.id] = []
                    committed(op=op, id=q.id, external_id=q.external_id)
                elif op == "add_e" or (op in ("grade", "rm_e") and not elements):
                    qid = rng.choice(sorted(questions))
                    doc = rng.choice(sorted(PAGES))
                    start = rng.randrange(len(PAGES[doc]) - 20)
                    end = start + rng.randint(1, 20)
                    with store.write() as s:
                        row = attach_element(s, qid, doc, start, end, annotator=actor)
                    questions[qid].append(row.id)
                    grades[row.id] = 1
                    committed(op="add_e", id=row.id, query=qid, doc=doc, start=start, end=end)
                elif op == "grade":
                    eid = rng.choice(elements)
                    grade = rng.choice([g for g in (1, 2, 3) if g != grades[eid]])
                    with store.write() as s:
                        set_grade(s, eid, grade, actor=actor)
                    grades[eid] = grade
                    committed(op=op, id=eid, grade=grade)
                elif op == "rm_e":
                    eid = rng.choice(elements)
                    with store.write() as s:
                        remove_element(s, eid, actor=actor)
                    for ids in questions.values():
                        if eid in ids:
                            ids.remove(eid)
                    committed(op=op, id=eid)
                else:
                    qid = rng.choice(sorted(questions))
                    with store.write() as s:
                        delete_query(s, qid, actor=actor)
                    del questions[qid]
                    committed(op=op, id=qid)
            except StoreError as err:
                committed(op="failed", error=str(err))
        committed(op="done", busy_retries=len(busy))
    store.close()


def _setup(tmp_path: Path, db: str | None = None) -> str:
    """Ingest the pages and create the shared gold set in ``db`` (default: a SQLite file in
    ``tmp_path``); return ``db``."""
    from labeler.pages import ingest_paths
    from labeler.store import create_gold_set, open_store

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name, text in PAGES.items():
        (corpus / name).write_text(text, encoding="utf-8")
    db = db or str(tmp_path / "labels.db")
    with open_store(db) as store:
        ingest_paths(store, [corpus])
        with store.write() as s:
            create_gold_set(s, "shared")
    return db


def _expected(
    logs: list[list[dict[str, Any]]],
) -> tuple[
    dict[tuple[str, int], str],
    dict[tuple[str, int], tuple[Any, ...]],
    Counter[tuple[str, str, str, int]],
]:
    """Replay each worker's log. Rows are keyed by (worker, id): SQLite hands the id of a
    deleted last row to the next insert, so one id can name rows of two workers in turn,
    and the logs of different workers have no common order. A worker only touches its own
    rows, so within one key the log order is the commit order."""
    queries: dict[tuple[str, int], str] = {}
    elements: dict[tuple[str, int], tuple[Any, ...]] = {}
    audit: Counter[tuple[str, str, str, int]] = Counter()
    for seed, entries in enumerate(logs):
        actor = f"w{seed}"
        for e in entries:
            op = e["op"]
            key = (actor, e.get("id", -1))
            if op == "add_q":
                queries[key] = e["external_id"]
                audit[(actor, "add", "query", e["id"])] += 1
            elif op == "add_e":
                text = PAGES[e["doc"]][e["start"] : e["end"]]
                elements[key] = (e["query"], e["doc"], e["start"], e["end"], text, 1, actor)
                audit[(actor, "add", "element", e["id"])] += 1
            elif op == "grade":
                elements[key] = (*elements[key][:5], e["grade"], actor)
                audit[(actor, "change", "element", e["id"])] += 1
            elif op == "rm_e":
                del elements[key]
                audit[(actor, "remove", "element", e["id"])] += 1
            elif op == "rm_q":
                del queries[key]
                for k in [k for k, v in elements.items() if k[0] == actor and v[0] == e["id"]]:
                    del elements[k]
                audit[(actor, "remove", "query", e["id"])] += 1
    return queries, elements, audit


@pytest.mark.backends("sqlite", "postgresql")
def test_concurrent_annotators_lose_nothing_and_invent_nothing(
    backend: str, db_url: str, tmp_path: Path
) -> None:
    from labeler.store.engine import create_store_engine

    db = _setup(tmp_path, db_url)
    procs = []
    for seed in range(WORKERS):
        log = tmp_path / f"worker{seed}.jsonl"
        cmd = [sys.executable, __file__, db, str(seed), str(log), backend]
        procs.append((subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True), log))
    for proc, _ in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    logs = [
        [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        for _, log in procs
    ]
    failures = [e for entries in logs for e in entries if e["op"] == "failed"]
    assert failures == []  # in particular no "database is locked"
    assert all(entries[-1]["op"] == "done" for entries in logs)
    committed = sum(len(entries) - 1 for entries in logs)
    assert committed >= WORKERS * 10  # the workers really ran

    queries, elements, audit = _expected(logs)
    engine = create_store_engine(db)  # reads: one snapshot on either backend
    with engine.connect() as conn, conn.begin():
        if backend == "sqlite":
            assert conn.exec_driver_sql("PRAGMA integrity_check").one() == ("ok",)
        stored_queries = {
            (external_id.split("-")[0], qid): external_id
            for qid, external_id in conn.exec_driver_sql('SELECT id, external_id FROM "query"')
        }
        stored_elements = {
            (row[7], row[0]): tuple(row[1:])
            for row in conn.exec_driver_sql(
                'SELECT id, query_id, document_id, start, "end", text, grade, annotator '
                "FROM element"
            )
        }
        stored_audit = Counter(
            tuple(row)
            for row in conn.exec_driver_sql(
                "SELECT actor, action, entity, entity_id FROM audit_entry"
            )
        )
    engine.dispose()
    assert stored_queries == queries
    assert {k: v[:6] for k, v in stored_elements.items()} == {k: v[:6] for k, v in elements.items()}
    assert stored_audit == audit


def _short_busy_timeout(store: Any) -> None:
    from sqlalchemy import event

    event.listen(
        store.engine, "connect", lambda dbapi, _r: dbapi.execute("PRAGMA busy_timeout = 20")
    )
    store.engine.dispose()


def test_write_retries_while_another_process_holds_the_lock(tmp_path: Path) -> None:
    from labeler.store import create_gold_set, get_gold_set, open_store
    from labeler.store.session import BusyRetry

    db = _setup(tmp_path)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another writer holds the write lock
    attempts: list[int] = []

    def release_after_two(attempt: int, _pause: float) -> None:
        attempts.append(attempt)
        if attempt == 2:
            holder.execute("ROLLBACK")

    policy = BusyRetry(attempts=5, first_delay=0.001, on_busy=release_after_two)
    with open_store(str(db), retry=policy) as store:
        _short_busy_timeout(store)
        with store.write() as s:
            create_gold_set(s, "after the wait")
        with store.session() as s:
            assert get_gold_set(s, "after the wait").id is not None
    assert attempts == [1, 2]
    holder.close()


def test_write_that_stays_busy_fails_cleanly_and_runs_nothing(tmp_path: Path) -> None:
    from labeler.errors import StoreError
    from labeler.store import open_store
    from labeler.store.session import BusyRetry

    db = _setup(tmp_path)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    ran = False
    with open_store(str(db), retry=BusyRetry(attempts=3, first_delay=0.001)) as store:
        _short_busy_timeout(store)
        with pytest.raises(StoreError) as caught, store.write():
            ran = True
    holder.execute("ROLLBACK")
    holder.close()
    assert not ran
    assert "stayed busy" in str(caught.value)
    assert "database is locked" not in str(caught.value)


if __name__ == "__main__":
    worker(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4])
