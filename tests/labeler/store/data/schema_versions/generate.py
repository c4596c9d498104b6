"""Make the stored database of one earlier schema version with that version's own code.

Not a test and not run by the tests: it was run once per version to make the ``vN`` files
of this folder (README.md says with which commit). With a checkout of that commit first on
the import path::

    PYTHONPATH=<checkout> python generate.py N DB

``DB`` is a new SQLite file or the URL of an empty PostgreSQL database. The labeller's own
commands and store functions of that commit write every row (nothing is written as SQL,
except the duplicate element of version 4, which that version's schema allowed and
version 5's upgrade removes). The code's step list is cut to its first ``N`` steps, so the
first commit (schema 2) can also make a version 1 database.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ALPHA = "Backups run nightly at 02:00. Restores need a ticket. The data owner approves exceptions."
BETA_HTML = (
    "<html><body><p>Passwords rotate every 90 days.</p>"
    "<p>Admins reset locked accounts.</p></body></html>"
)
GOLD = (
    '{"query_id": "q1", "query": "When do backups run?", "notes": "nightly only", "elements": '
    '[{"doc": "alpha.txt", "start": 0, "end": 29, "text": "Backups run nightly at 02:00.", '
    '"grade": 2}]}\n'
    '{"query_id": "q2", "query": "Who approves exceptions?", "elements": '
    '[{"doc": "alpha.txt", "start": 54, "end": 89, '
    '"text": "The data owner approves exceptions.", "grade": 1}, '
    '{"doc": "beta.html", "start": 32, "end": 61, "text": "Admins reset locked accounts.", '
    '"grade": 1}]}\n'
)
RUN = (
    '{"query_id": "q1", "results": [{"text": "Backups run nightly at 02:00.", '
    '"doc": "alpha.txt", "score": 3.5}, {"text": "Restores need a ticket.", '
    '"doc": "alpha.txt", "score": 1.25}]}\n'
    '{"query_id": "q2", "results": [{"text": "Admins reset locked accounts.", '
    '"doc": "beta.html", "score": 2.0}]}\n'
)


def cli(argv: list[str]) -> None:
    from labeler.cli import main

    code = main(argv)
    if code:
        raise SystemExit(f"labeler {' '.join(argv)}: exit {code}")


def make(version: int, db: str) -> None:
    db = db if "://" in db else os.path.abspath(db)  # the commands run in another folder
    os.environ["LABELER_DB"] = db
    from labeler.store import migrations, session

    steps = migrations.MIGRATIONS[:version]
    if len(steps) != version:
        raise SystemExit(f"this checkout knows {len(migrations.MIGRATIONS)} steps, not {version}")
    # every open_store of this process (the CLI's too) stops at the version asked for
    session.open_store.__kwdefaults__["migrations"] = steps

    # a fixed folder, so the stored source paths name no one's machine
    tmp = Path(tempfile.gettempdir(), "labeler-schema-fixture")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "pages").mkdir(parents=True)
    here = Path.cwd()
    os.chdir(tmp)
    try:
        Path("pages", "alpha.txt").write_text(ALPHA, encoding="utf-8")
        Path("pages", "beta.html").write_text(BETA_HTML, encoding="utf-8")
        Path("gold.jsonl").write_text(GOLD, encoding="utf-8")
        Path("run.jsonl").write_text(RUN, encoding="utf-8")
        cli(["ingest", "--quiet", "pages"])
        cli(["gold", "import", "--gold-set", "demo", "--annotator", "ana", "gold.jsonl"])
        cli(["run", "import", "--name", "bm25", "--param", "k1=0.9", "run.jsonl"])
    finally:
        os.chdir(here)
        shutil.rmtree(tmp, ignore_errors=True)

    from labeler.store import get_gold_set, get_query, open_store
    from labeler.store.labels import add_element, remove_element

    store = open_store(db)
    with store.write() as s:
        demo = get_gold_set(s, "demo")
        q1 = get_query(s, demo, "q1")
        q2 = get_query(s, demo, "q2")
        add_element(s, q1, "alpha.txt", 30, 53, annotator="bob")
        gone = add_element(s, q2, "beta.html", 0, 31, annotator="bob")
    with store.write() as s:
        remove_element(s, gone.id, actor="bob")
    if version >= 3:
        from labeler.store.history import undo

        with store.write() as s:
            undo(s, actor="bob")  # the removal: the element is back
    if version == 4:
        duplicate(store)
    if version >= 7:
        team(store, version)
    if version >= 9:
        annotators(store, version)
    store.close()
    assert store_version(db) == version


def duplicate(store: Any) -> None:
    """A second element on ana's q1 span, by carl: schema 4 had no unique index."""
    with store.write() as s:
        s.connection().exec_driver_sql(
            'INSERT INTO element (query_id, document_id, start, "end", text, grade, '
            "annotator, created_at, status, assisted) SELECT query_id, document_id, start, "
            "\"end\", text, 1, 'carl', created_at, status, assisted FROM element "
            "WHERE annotator = 'ana' AND start = 0 AND \"end\" = 29"
        )


def team(store: Any, version: int) -> None:
    """Team gold set ``team``: t1 labelled by ana and bob, done, accepted, adjudicated; t2
    assigned to ana, labelled in her layer, not done. From version 8 on, key spans on t1's
    final element and ana's t2 element (from version 9 on set before t1's adjudication)."""
    from labeler.store.labels import add_element, add_query, create_gold_set
    from labeler.store.team import accept_span, add_assignment, mark_done, set_adjudicated

    with store.write() as s:
        gs = create_gold_set(s, "team", "two annotators")
        t1 = add_query(s, gs, "t1", "How often do passwords rotate?", actor="lead")
        t2 = add_query(s, gs, "t2", "Who resets accounts?", actor="lead")
        for name in ("ana", "bob"):
            add_assignment(s, t1.id, name, actor="lead")
            add_element(s, t1, "beta.html", 0, 31, annotator=name, layer="annotator")
            mark_done(s, t1.id, name)
        add_assignment(s, t2.id, "ana", actor="lead")
        own = add_element(s, t2, "beta.html", 32, 61, annotator="ana", layer="annotator")
        final = accept_span(s, t1.id, "beta.html", 0, 31, provenance="unanimous", actor="lead")
        # from version 9 on the adjudicated lock refuses a key set after the adjudication
        if version < 9:
            set_adjudicated(s, t1.id, by="lead")
    if version >= 8:
        from labeler.store.annotate import set_key

        with store.write() as s:
            set_key(s, final.id, 10, 30, actor="lead")  # "rotate every 90 days"
            set_key(s, own.id, 39, 60, actor="ana")  # "reset locked accounts"
    if version >= 9:
        with store.write() as s:
            set_adjudicated(s, t1.id, by="lead")


def annotators(store: Any, version: int) -> None:
    """Annotators ana and bob registered for ``labeler serve``; bob's link revoked. From
    version 10 on registering is audited and needs a lead: the owner (lead, a name not
    registered) registers them."""
    from labeler.store.annotators import add_annotator, revoke

    by: dict[str, str] = {"actor": "lead"} if version >= 10 else {}
    with store.write() as s:
        add_annotator(s, "ana", **by)
        add_annotator(s, "bob", **by)
        revoke(s, "bob")


def store_version(db: str) -> int:
    from labeler.store import open_store

    with open_store(db) as store:
        return int(store.schema_version())


if __name__ == "__main__":
    make(int(sys.argv[1]), sys.argv[2])
