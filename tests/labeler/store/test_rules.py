"""Each rule of a trustworthy gold set, through every path that can reach it, on both backends.

One table: a row is (rule, path, check). The check drives one path (the CLI's ``main``,
the store verb the front ends call, the Python API ``labeler.open``, the TUI under Pilot,
undo/redo, each importer) against the same seeded database and fails when that path lets
the rule through. The rules (docs/architecture.md, "Rules and where they live", says where each is enforced):

* ``scope``: what an annotator sees of a page belongs to the gold set being labelled;
* ``visibility``: in a team gold set, an annotator sees only their own labels until the
  question is adjudicated;
* ``lock``: an adjudicated question's evidence (elements of both layers, keys, grades, done
  marks) does not change, by any verb, undo, redo or import;
* ``replace``: ``gold import --replace`` replaces what the file holds and removes nothing
  else unasked (elements of either layer, questions, notes, done marks, assignments,
  adjudication marks); ``--force`` removes, lists and audits each;
* ``undo``: undo reverses exactly one change, refusing (and naming it) where others' later
  work depends on it; redo restores everything undo removed;
* ``stale``: an action on state changed underneath (by another store: another process) is
  refused naming what changed and who changed it (an element removed, a question settled, a
  done mark flipped), and writes nothing;
* ``pending``: a pending question is reported once, as pending;
* ``key``: a key clause lies inside its element (``start <= key_start < key_end <= end``),
  by the page view's and the adjudication screen's ``K``, adjudication's accept with a key,
  every gold JSONL import (plain, ``--replace``, ``--layer``; a key that re-anchoring moves
  out is refused too, naming the line) and raw SQL (the schema's ``ck_element_key``);
* ``duplicate``: the same span twice for one question (per layer and annotator) is refused
  by attach, accept, gold JSONL import (naming the line; two stale copies too), undo and
  redo (of a removal, an add, an adjusted span) and raw SQL (the unique index); Label
  Studio and doccano files keep a repeated span once (docs/formats.md); an overlap asks
  first in the TUI and ``n`` stores nothing;
* ``guess``: an import guesses nothing: a span whose offsets and text disagree is refused
  (naming both readings), a number where an id string belongs is refused, and a file that
  holds something but would store nothing is refused (Label Studio, doccano, ``--layer``,
  run import by the CLI and the Python API), each with the database unchanged;
* ``role``: a registered annotator (role ``annotator``, or a revoked lead) may not assign,
  adjudicate (any adjudication verb, ``adjudicate --auto``), delete a question, import a
  layer or mark done for someone else, nor undo lead work (a settlement) of their own; the
  refusal names the role needed, changes nothing, and the TUI does not offer what is
  refused (footer, palette); a lead and the owner (a name not registered) may; every audit
  entry records its actor's role.

The seed (actors as named; page offsets counted by hand on :data:`PAGE`):

* team gold set ``T``: q1 assigned to ana and bob, both labelled A (0–15) in their own layer
  and marked q1 done, then lead accepted A into the final layer (``adjudicated``) and marked
  q1 adjudicated; q2 (notes "look twice") assigned to ana only: pending, no label;
* gold set ``other`` (no team work): its own q1 with the final element C (31–48) by demo, and
  q2 "Spare?" with notes "keep me" and no element.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pg_support import create_database, drop_database, new_database_name
from sqlalchemy import Engine
from sqlalchemy import text as sql_text
from sqlalchemy.engine import make_url
from textual.pilot import Pilot

import labeler
from labeler.cli import main
from labeler.errors import InputError, IntegrityError, NotFoundError, RemovedError, RoleError
from labeler.evaluation import compare_many
from labeler.store import (
    Store,
    accept_all_unanimous,
    accept_group,
    add_query,
    adjudicate_auto,
    adjust_span,
    attach_span,
    create_annotator,
    create_gold_set,
    delete_query,
    delete_question,
    flip_done,
    get_gold_set,
    grade_final,
    grade_span,
    key_final,
    key_span,
    mark_not_relevant,
    open_store,
    question_judgements,
    redo,
    redo_change,
    reject_final,
    remove_span,
    reopen_questions,
    revoke_annotator,
    set_key,
    settle_question,
    undo,
    undo_change,
    upsert_document,
    withdraw_not_relevant,
)
from labeler.store.blind import (
    visible_page_counts,
    visible_page_elements,
    visible_question_elements,
)
from labeler.store.history import UndoConflict
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR, LAYER_FINAL
from labeler.store.team import accept_span, add_assignment, mark_done, set_adjudicated
from labeler.tui.app import LabelerApp
from labeler.tui.commands import LabelerCommands
from labeler.tui.scoredata import score_stored_run
from labeler.tui.screens.adjudicate import AdjudicationScreen
from labeler.tui.screens.documents import DocumentsScreen
from labeler.tui.screens.forms import ConfirmDialog
from labeler.tui.screens.page import PageScreen

pytestmark = pytest.mark.backends("sqlite", "postgresql")

#       0         1         2         3         4
#       012345678901234567890123456789012345678901234567
PAGE = "Alpha rule one. Beta rule two. Gamma rule three."
A, B, C = (0, 15), (16, 30), (31, 48)
DOC = "rules.txt"


@dataclass
class World:
    """The seeded database, its ids and a scratch folder."""

    store: Store
    db: str
    tmp: Path
    q1: int
    q2: int
    o1: int
    o2: int
    t_id: int

    def cli(self, *args: str) -> int:
        return main([*args, "--db", self.db])

    def file(self, name: str, lines: list[dict[str, Any]]) -> str:
        path = self.tmp / name
        path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
        return str(path)


def seed(store: Store, db: str, tmp: Path) -> World:
    with store.write() as s:
        upsert_document(s, doc_id=DOC, source_path=DOC, sha256="x", profile="text", text=PAGE)
        t = create_gold_set(s, "T")
        q1 = add_query(s, t, "q1", "Which rule comes first?", actor="lead")
        q2 = add_query(s, t, "q2", "Which rule comes second?", actor="lead", notes="look twice")
        assert q1.id is not None and q2.id is not None and t.id is not None
        add_assignment(s, q1.id, "ana", actor="lead")
        add_assignment(s, q1.id, "bob", actor="lead")
        add_assignment(s, q2.id, "ana", actor="lead")
        for who in ("ana", "bob"):
            add_element(s, q1.id, DOC, *A, annotator=who, layer=LAYER_ANNOTATOR)
            mark_done(s, q1.id, who)
        accept_span(s, q1.id, DOC, *A, provenance="adjudicated", actor="lead")
        set_adjudicated(s, q1.id, by="lead")
        other = create_gold_set(s, "other")
        o1 = add_query(s, other, "q1", "Which rule comes first?", actor="demo")
        o2 = add_query(s, other, "q2", "Spare?", actor="demo", notes="keep me")
        assert o1.id is not None and o2.id is not None
        add_element(s, o1.id, DOC, *C, annotator="demo")
        return World(store, db, tmp, q1.id, q2.id, o1.id, o2.id, t.id)


#: ids of the seeded rows (q1, q2, o1, o2, T), the same in every copy of a seeded database
Ids = tuple[int, int, int, int, int]


def _seeded_ids(w: World) -> Ids:
    return (w.q1, w.q2, w.o1, w.o2, w.t_id)


@pytest.fixture(scope="session")
def seeded_sqlite(
    sqlite_schema_template: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Ids]:
    """A SQLite file seeded once per test process (:func:`seed`), closed (no WAL beside it):
    each test gets a copy. Seeding is about a tenth of a second, a copy a few milliseconds."""
    path = tmp_path_factory.mktemp("rules") / "seeded.db"
    shutil.copyfile(sqlite_schema_template, path)
    with open_store(str(path)) as store:
        ids = _seeded_ids(seed(store, str(path), path.parent))
    return path, ids


@pytest.fixture(scope="session")
def seeded_pg(pg_admin: Engine, pg_schema_template: str) -> Iterator[tuple[str, Ids]]:
    """A PostgreSQL database seeded once per test process (:func:`seed`), no connection left
    on it: each test's database is a copy (``CREATE DATABASE ... TEMPLATE``)."""
    name = new_database_name()
    create_database(pg_admin, name, template=pg_schema_template)
    try:
        base = make_url(os.environ["LABELER_TEST_PG_URL"].strip())  # pg_admin checked it
        url = base.set(database=name).render_as_string(hide_password=False)
        with open_store(url) as store:
            ids = _seeded_ids(seed(store, url, Path(".")))
        yield name, ids
    finally:
        drop_database(pg_admin, name)


@pytest.fixture
def db_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """This test's database: a copy of the seeded one (``seeded_sqlite``, ``seeded_pg``)."""
    if backend == "postgresql":
        factory: Callable[..., str] = request.getfixturevalue("pg_databases")
        return factory(template=request.getfixturevalue("seeded_pg")[0])
    shutil.copyfile(request.getfixturevalue("seeded_sqlite")[0], db_path)
    return str(db_path)


@pytest.fixture
def world(
    store: Store, db_url: str, tmp_path: Path, backend: str, request: pytest.FixtureRequest
) -> World:
    _, ids = request.getfixturevalue("seeded_pg" if backend == "postgresql" else "seeded_sqlite")
    w = World(store, db_url, tmp_path, *ids)
    # the seed read back: the hand-worked figures of the rows rest on it
    assert rows(
        store,
        'SELECT q.external_id, e.layer, e.annotator, e.start, e."end" FROM element e '
        "JOIN query q ON q.id = e.query_id ORDER BY e.id",
    ) == [
        ("q1", LAYER_ANNOTATOR, "ana", *A),
        ("q1", LAYER_ANNOTATOR, "bob", *A),
        ("q1", LAYER_FINAL, "lead", *A),
        ("q1", LAYER_FINAL, "demo", *C),
    ]
    assert PAGE[slice(*A)] == "Alpha rule one." and PAGE[slice(*C)] == "Gamma rule three."
    return w


TABLES = (
    "gold_set",
    "query",
    "element",
    "assignment",
    "question_done",
    "not_relevant",
    "audit_entry",
)


def dump(store: Store) -> list[tuple[object, ...]]:
    """Every row of the label tables, in id order (to show a refusal changed nothing)."""
    with store.session() as s:
        return [
            (table, *row)
            for table in TABLES
            for row in s.execute(sql_text(f"SELECT * FROM {table} ORDER BY id")).all()
        ]


def rows(store: Store, sql: str, **params: object) -> list[tuple[Any, ...]]:
    with store.session() as s:
        return [tuple(r) for r in s.execute(sql_text(sql), params).all()]


# -- the TUI under Pilot -----------------------------------------------------------------


def pilot(
    w: World, annotator: str, body: Callable[[LabelerApp, Pilot[int], list[str]], Awaitable[None]]
) -> None:
    """Run ``body`` against the TUI on gold set T as ``annotator``, with every message the
    app posts (a toast can expire before the test reads it)."""
    app = LabelerApp(w.store, annotator=annotator, gold_set="T", resume=False)
    said: list[str] = []
    notify = app.notify

    def recording(message: str, *args: Any, **kwargs: Any) -> None:
        said.append(message)
        notify(message, *args, **kwargs)

    app.notify = recording  # type: ignore[method-assign]

    async def run() -> None:
        async with app.run_test(size=(120, 36), notifications=False) as p:
            await settle(app, p)
            await body(app, p, said)

    asyncio.run(run())


async def settle(app: LabelerApp, p: Pilot[int]) -> None:
    for _ in range(5):
        await app.workers.wait_for_complete()
        await p.pause()
    await app.screen.wait_for_refresh()
    await p.pause()


async def press(app: LabelerApp, p: Pilot[int], *keys: str) -> None:
    await p.press(*keys)
    await settle(app, p)


async def open_page(app: LabelerApp, p: Pilot[int], query_id: int) -> PageScreen:
    app.current_query_id = query_id
    screen = PageScreen(DOC)
    await app.push_screen(screen)
    await settle(app, p)
    return screen


# -- replace: removes nothing unasked ----------------------------------------------------

#: what replacing T by its own export would remove (hand-listed from the seed)
T_LOSSES = (
    "would remove 2 annotator-layer element(s), 2 done mark(s), 3 assignment(s), "
    "1 adjudication mark(s) the new content does not hold; nothing was changed"
)
T_LISTED = (
    "  q1 rules.txt [0:15] 'Alpha rule one.' (ana's own label)\n",
    "  q1 rules.txt [0:15] 'Alpha rule one.' (bob's own label)\n",
    "  done mark q1 by ana\n",
    "  done mark q1 by bob\n",
    "  assignment q1 to ana\n",
    "  assignment q1 to bob\n",
    "  adjudication mark q1 by lead\n",
    "  assignment q2 to ana\n",
)


def refused_unchanged(w: World, cap: pytest.CaptureFixture[str], *args: str) -> str:
    before = dump(w.store)
    cap.readouterr()
    assert w.cli(*args) == 1, "the replace went through"
    err = cap.readouterr().err
    assert dump(w.store) == before, "a refused replace changed the database"
    return err


def replace_own_export(w: World, cap: pytest.CaptureFixture[str], layer: str) -> None:
    out = str(w.tmp / f"T-{layer}.jsonl")
    assert w.cli("gold", "export", "--gold-set", "T", "--layer", layer, "-o", out) == 0
    err = refused_unchanged(w, cap, "gold", "import", out, "--gold-set", "T", "--replace")
    assert T_LOSSES in err
    for line in T_LISTED:
        assert line in err
    assert "--force" in err


def replace_final_export(w: World, cap: pytest.CaptureFixture[str]) -> None:
    replace_own_export(w, cap, "final")


def replace_all_export(w: World, cap: pytest.CaptureFixture[str]) -> None:
    replace_own_export(w, cap, "all")


def replace_doccano(w: World, cap: pytest.CaptureFixture[str]) -> None:
    path = w.tmp / "T.doccano.jsonl"
    path.write_text(json.dumps({"doc": DOC, "label": [[0, 15, "q1"]]}) + "\n", encoding="utf-8")
    err = refused_unchanged(
        w, cap, "gold", "import", str(path), "--format", "doccano", "--gold-set", "T", "--replace"
    )
    assert "question q2 'Which rule comes second?' (notes 'look twice')" in err
    for line in T_LISTED:
        assert line in err


def replace_labelstudio(w: World, cap: pytest.CaptureFixture[str]) -> None:
    value = {"start": 0, "end": 15, "text": "Alpha rule one.", "labels": ["q1"]}
    task = {
        "id": 1,
        "data": {"doc": DOC},
        "annotations": [{"result": [{"type": "labels", "value": value}]}],
    }
    path = w.tmp / "T.ls.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    err = refused_unchanged(
        w, cap, "gold", "import", str(path), "--format", "labelstudio", "--gold-set", "T",
        "--replace",
    )  # fmt: skip
    assert "question q2 'Which rule comes second?' (notes 'look twice')" in err
    assert "  adjudication mark q1 by lead\n" in err


def replace_missing_question(w: World, cap: pytest.CaptureFixture[str]) -> None:
    only_q1 = w.file("o.jsonl", [{"query_id": "q1", "query": "Which rule comes first?",
                                  "elements": [{"doc": DOC, "text": "Gamma rule three."}]}])  # fmt: skip
    err = refused_unchanged(w, cap, "gold", "import", only_q1, "--gold-set", "other", "--replace")
    assert "would remove 1 question(s) the new content does not hold; nothing" in err
    assert "  question q2 'Spare?' (notes 'keep me')\n" in err
    # its own export holds everything: replaced without a word, nothing lost
    whole = str(w.tmp / "other.jsonl")
    assert w.cli("gold", "export", "--gold-set", "other", "-o", whole) == 0
    assert w.cli("gold", "import", whole, "--gold-set", "other", "--replace") == 0
    assert rows(
        w.store,
        "SELECT q.external_id, q.notes, e.start FROM query q JOIN gold_set g ON g.id = "
        "q.gold_set_id LEFT JOIN element e ON e.query_id = q.id WHERE g.name = 'other' "
        "ORDER BY q.external_id",
    ) == [("q1", "", C[0]), ("q2", "keep me", None)]


def replace_drops_notes(w: World, cap: pytest.CaptureFixture[str]) -> None:
    no_notes = w.file("n.jsonl", [
        {"query_id": "q1", "query": "Which rule comes first?",
         "elements": [{"doc": DOC, "text": "Gamma rule three."}]},
        {"query_id": "q2", "query": "Spare?", "elements": []},
    ])  # fmt: skip
    err = refused_unchanged(w, cap, "gold", "import", no_notes, "--gold-set", "other", "--replace")
    assert "would remove 1 note(s)" in err and "  note q2: 'keep me'\n" in err


def replace_force_lists_and_audits(w: World, cap: pytest.CaptureFixture[str]) -> None:
    out = str(w.tmp / "T.jsonl")
    assert w.cli("gold", "export", "--gold-set", "T", "-o", out) == 0
    cap.readouterr()
    args = ("gold", "import", out, "--gold-set", "T", "--replace", "--force", "--annotator", "imp")
    assert w.cli(*args) == 0
    err = cap.readouterr().err
    assert "--force: removed 2 annotator-layer element(s), 2 done mark(s), 3 assignment(s), " \
        "1 adjudication mark(s) of gold set 'T'" in err  # fmt: skip
    for line in T_LISTED:
        assert f"labeler: {line}" in err
    assert "audit log" in err and "assignments: gold assign" in err
    removed = rows(
        w.store,
        "SELECT entity, count(*) FROM audit_entry WHERE actor = 'imp' AND action = 'remove' "
        "GROUP BY entity ORDER BY entity",
    )
    # the final A and the two own A's; both done marks; three assignments; q1 and q2
    assert removed == [("assignment", 3), ("element", 3), ("query", 2), ("question_done", 2)]
    assert rows(w.store, "SELECT count(*) FROM assignment") == [(0,)]


# -- undo: exactly one change ------------------------------------------------------------


def add_q3_worked_on_by_others(w: World) -> int:
    """carl adds q3 to T; lead assigns it to ana; ana marks it done with no answer."""
    with w.store.write() as s:
        q3 = add_query(s, get_gold_set(s, "T"), "q3", "Third?", actor="carl")
        assert q3.id is not None
        add_assignment(s, q3.id, "ana", actor="lead")
        mark_done(s, q3.id, "ana")
        return q3.id


UNDO_NAMES = ("done mark by ana", "assignment to ana")


def undo_add_question_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    add_q3_worked_on_by_others(w)
    before = dump(w.store)
    with pytest.raises(UndoConflict) as refused, w.store.write() as s:
        undo(s, actor="carl")
    for name in UNDO_NAMES:
        assert name in str(refused.value)
    assert "later work" in str(refused.value)
    assert dump(w.store) == before


def undo_add_question_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    add_q3_worked_on_by_others(w)
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await press(app, p, "ctrl+z")
        assert any(all(n in m for n in UNDO_NAMES) for m in said), said

    pilot(w, "carl", body)
    assert dump(w.store) == before


def team_rows_of_q2(w: World) -> list[tuple[Any, ...]]:
    return rows(
        w.store,
        "SELECT 'a', annotator, query_id FROM assignment WHERE query_id = :q UNION ALL "
        "SELECT 'd', annotator, query_id FROM question_done WHERE query_id = :q ORDER BY 1, 2",
        q=w.q2,
    )


def q2_done_by_ana(w: World) -> list[tuple[Any, ...]]:
    with w.store.write() as s:
        mark_done(s, w.q2, "ana")
    kept = team_rows_of_q2(w)
    assert kept == [("a", "ana", w.q2), ("d", "ana", w.q2)]
    return kept


def redo_restores_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    kept = q2_done_by_ana(w)
    with w.store.write() as s:
        delete_query(s, w.q2, actor="lead")
    for step in (undo, redo, undo):
        with w.store.write() as s:
            assert step(s, actor="lead") is not None
    assert team_rows_of_q2(w) == kept


def redo_restores_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    kept = q2_done_by_ana(w)
    with w.store.write() as s:
        delete_query(s, w.q2, actor="lead")

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        for key in ("ctrl+z", "ctrl+y", "ctrl+z"):
            await press(app, p, key)
        assert [m.split(":")[0] for m in said[-3:]] == ["undone", "redone", "undone"], said

    pilot(w, "lead", body)
    assert team_rows_of_q2(w) == kept


# -- lock: an adjudicated question's evidence is settled ---------------------------------


def final_a(w: World) -> int:
    (found,) = rows(
        w.store, "SELECT id FROM element WHERE layer = 'final' AND query_id = :q", q=w.q1
    )
    return int(found[0])


def lock_key_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    before = dump(w.store)
    with (
        pytest.raises(IntegrityError, match=r"^q1 is adjudicated \(settled by lead\): set key"),
        w.store.write() as s,
    ):
        set_key(s, final_a(w), 0, 5, actor="ana")
    assert dump(w.store) == before


def lock_key_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        screen = await open_page(app, p, w.q1)
        assert [(e.start, e.end) for e in screen.mine()] == [A]  # the settled final A
        screen.view.select_offsets(0, 5)
        await press(app, p, "K")
        assert any(m.startswith("q1 is adjudicated") for m in said), said

    pilot(w, "ana", body)
    assert dump(w.store) == before


def lock_undo_done_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    before = dump(w.store)
    with (
        pytest.raises(IntegrityError, match=r"^q1 is adjudicated .*undo of add done mark"),
        w.store.write() as s,
    ):
        undo(s, actor="ana")  # ana's latest: her done mark on q1
    assert dump(w.store) == before


def lock_undo_done_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await press(app, p, "ctrl+z")
        assert any("q1 is adjudicated" in m and "undo" in m for m in said), said

    pilot(w, "bob", body)
    assert dump(w.store) == before


def carl_labelled_q1_before_it_was_settled(w: World) -> None:
    with w.store.write() as s:
        set_adjudicated(s, w.q1, by="lead", adjudicated=False)
        add_element(s, w.q1, DOC, *B, annotator="carl", layer=LAYER_ANNOTATOR)
        set_adjudicated(s, w.q1, by="lead")


def lock_undo_label_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    carl_labelled_q1_before_it_was_settled(w)
    before = dump(w.store)
    with (
        pytest.raises(IntegrityError, match=r"^q1 is adjudicated .*undo of add element"),
        w.store.write() as s,
    ):
        undo(s, actor="carl")
    assert dump(w.store) == before


def lock_undo_label_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    carl_labelled_q1_before_it_was_settled(w)
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await press(app, p, "ctrl+z")
        assert any("q1 is adjudicated" in m and "element" in m for m in said), said

    pilot(w, "carl", body)
    assert dump(w.store) == before


def lock_done_undo_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    before = dump(w.store)
    cap.readouterr()
    args = ("gold", "done", "--gold-set", "T", "--query", "q1", "--annotator", "ana", "--undo")
    assert w.cli(*args) == 1
    assert "q1 is adjudicated (settled by lead)" in cap.readouterr().err
    assert dump(w.store) == before


def lock_layer_import_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    changed = w.file("ana.jsonl", [
        {"query_id": "q1", "query": "Which rule comes first?",
         "elements": [{"doc": DOC, "text": "Beta rule two."}]},
        {"query_id": "q2", "query": "Which rule comes second?", "elements": []},
    ])  # fmt: skip
    before = dump(w.store)
    cap.readouterr()
    args = ("gold", "import", changed, "--gold-set", "T", "--layer", "--annotator", "ana")
    assert w.cli(*args) == 1
    err = cap.readouterr().err
    assert "refused: 1 question(s) of the file are adjudicated" in err and "q1 (line 1)" in err
    assert dump(w.store) == before
    # the refusal names where the lock is lifted; following it, the same import goes through
    assert "s lists settled questions and r reopens one" in err
    assert w.cli(*reopen_command(err), "--actor", "lead") == 0
    assert w.cli(*args) == 0


def lock_layer_import_same_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """The same labels and done mark again change nothing, so the lock lets them pass."""
    same = w.file("ana.jsonl", [{"query_id": "q1", "query": "Which rule comes first?",
                                 "elements": [{"doc": DOC, "text": "Alpha rule one."}]}])  # fmt: skip
    before = dump(w.store)
    args = ("gold", "import", same, "--gold-set", "T", "--layer", "--annotator", "ana")
    assert w.cli(*args) == 0
    assert dump(w.store) == before


def reopen_command(err: str) -> list[str]:
    """The ``labeler adjudicate ... --reopen ...`` a refusal names, as argv."""
    found = re.search(r"labeler (adjudicate --gold-set \S+ --reopen [^,;)]+)", err)
    assert found is not None, err
    return found.group(1).split()


def lock_message_leads_to_reopen_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """The refusal says where the lock is lifted; following it word for word (the command
    it names) reopens q1, and the refused change then goes through."""
    args = ("gold", "done", "--gold-set", "T", "--query", "q1", "--annotator", "ana", "--undo")
    cap.readouterr()
    assert w.cli(*args) == 1
    err = cap.readouterr().err
    assert "to change it, a lead reopens q1 first: on the adjudication screen (F5) s lists " in err
    assert w.cli(*reopen_command(err), "--actor", "lead") == 0
    assert w.cli(*args) == 0
    assert rows(w.store, "SELECT annotator FROM question_done WHERE query_id = :q", q=w.q1) == [
        ("bob",)
    ]


def lock_reopen_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Reopened, q1's final A takes a key; undo (the key, then the reopen) settles q1 again
    as it was, and the lock holds again."""
    settled = rows(
        w.store, "SELECT adjudicated_by, adjudicated_at FROM query WHERE id = :q", q=w.q1
    )
    reopen_questions(w.store, "T", ["q1"], actor="lead")
    key_final(w.store, final_a(w), 0, 5, actor="lead")
    assert rows(w.store, "SELECT key_start, key_end FROM element WHERE id = :e", e=final_a(w)) == [
        (0, 5)
    ]
    assert undo_change(w.store, actor="lead") is not None  # the key
    assert (
        undo_change(w.store, actor="lead") == "undone: change question q1, open → settled by lead"
    )
    assert (
        rows(w.store, "SELECT adjudicated_by, adjudicated_at FROM query WHERE id = :q", q=w.q1)
        == settled
    )
    lock_key_store(w, cap)


def undo_reopen_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Undo of a reopen settles again with the same by and at; redo reopens; the reopen is
    one audit entry, under the one who reopened."""
    mark = "SELECT adjudicated_by, adjudicated_at FROM query WHERE id = :q"
    settled = rows(w.store, mark, q=w.q1)
    assert settled[0][0] == "lead" and settled[0][1] is not None
    last = "SELECT max(id) FROM audit_entry"
    (start,) = rows(w.store, last)
    done = reopen_questions(w.store, "T", ["q1"], actor="cleo")
    assert [(r.external_id, r.settled_by) for r in done] == [("q1", "lead")]
    assert rows(w.store, mark, q=w.q1) == [(None, None)]
    assert rows(
        w.store,
        "SELECT actor, action, entity, entity_id, kind FROM audit_entry WHERE id > :i",
        i=start[0],
    ) == [("cleo", "change", "query", w.q1, "do")]
    assert (
        undo_change(w.store, actor="cleo") == "undone: change question q1, open → settled by lead"
    )
    assert rows(w.store, mark, q=w.q1) == settled
    assert (
        redo_change(w.store, actor="cleo") == "redone: change question q1, settled by lead → open"
    )
    assert rows(w.store, mark, q=w.q1) == [(None, None)]
    assert undo_change(w.store, actor="cleo") is not None
    assert rows(w.store, mark, q=w.q1) == settled


def pending_reopened_cli_score(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """A reopened question is pending: reported once, as pending, never as unknown."""
    import_run(w, "r1")
    assert w.cli("adjudicate", "--gold-set", "T", "--reopen", "q1", "--actor", "lead") == 0
    cap.readouterr()
    assert w.cli("score", "--gold-set", "T", "--run", "r1", "--format", "json") == 0
    data = json.loads(cap.readouterr().out)
    assert (data["queries"], data["pending"]) == (0, {"count": 2, "query_ids": ["q1", "q2"]})
    assert data["unknown_in_run"] == {"count": 0, "query_ids": []}


# -- scope and visibility ----------------------------------------------------------------


def scope_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    with w.store.session() as s:
        seen = visible_page_elements(s, DOC, "ana", w.t_id)
        counts = visible_page_counts(s, [DOC], "ana", w.t_id)
    # T as ana: q1 settled, its final A; q2 pending, nothing of hers; never other's C
    assert [(e.query_id, e.start, e.end) for e in seen] == [(w.q1, *A)]
    assert counts == {DOC: 1}


def scope_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        screen = await open_page(app, p, w.q2)
        assert [(e.query_id, e.start, e.end) for e in screen.elements] == [(w.q1, *A)]
        await press(app, p, "f3")
        docs = app.screen
        assert isinstance(docs, DocumentsScreen)
        assert {h.id: h.elements for h in docs.hits} == {DOC: 1}

    pilot(w, "ana", body)


def visibility_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    with w.store.write() as s:
        add_element(s, w.q2, DOC, *B, annotator="ana", layer=LAYER_ANNOTATOR)
    with w.store.session() as s:
        assert [e.annotator for e in visible_question_elements(s, w.q2, "ana")] == ["ana"]
        assert visible_question_elements(s, w.q2, "bob") == []
        assert [(e.start, e.annotator) for e in visible_page_elements(s, DOC, "bob", w.t_id)] == [
            (0, "lead")
        ]


def visibility_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    with w.store.write() as s:
        add_element(s, w.q2, DOC, *B, annotator="ana", layer=LAYER_ANNOTATOR)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        screen = await open_page(app, p, w.q2)
        assert [(e.start, e.annotator) for e in screen.elements] == [(0, "lead")]

    pilot(w, "bob", body)


# -- pending: reported once --------------------------------------------------------------


def import_run(w: World, name: str) -> None:
    run = w.file(f"{name}.jsonl", [
        {"query_id": "q1", "results": [{"text": "Alpha rule one.", "doc": DOC}]},
        {"query_id": "q2", "results": [{"text": "Beta rule two.", "doc": DOC}]},
    ])  # fmt: skip
    assert w.cli("run", "import", "-q", run, "--name", name) == 0


def pending_cli_score(w: World, cap: pytest.CaptureFixture[str]) -> None:
    import_run(w, "r1")
    cap.readouterr()
    assert w.cli("score", "--gold-set", "T", "--run", "r1", "--format", "json") == 0
    out, err = cap.readouterr()
    data = json.loads(out)
    assert data["pending"] == {"count": 1, "query_ids": ["q2"]}
    assert data["unknown_in_run"] == {"count": 0, "query_ids": []}
    assert "not in the gold set" not in err


def pending_compare(w: World, cap: pytest.CaptureFixture[str]) -> None:
    import_run(w, "r1")
    import_run(w, "r2")
    _, scored = compare_many(w.store, "T", ["r1", "r2"], permutations=10)
    assert [(ev.pending, ev.result.unknown_in_run) for ev in scored] == [(("q2",), ())] * 2


def pending_api(w: World, cap: pytest.CaptureFixture[str]) -> None:
    import_run(w, "r1")
    with labeler.open(w.db) as db:
        gold = db.gold_set("T")
        stored = gold.score("r1")
        memory = gold.score({"q1": ["Alpha rule one."], "q2": ["Beta rule two."]})
        called = gold.evaluate(lambda text: ["Alpha rule one."]).evaluation
    for ev in (stored, memory, called):
        assert (ev.pending, ev.result.unknown_in_run) == (("q2",), ())
        assert [q.query_id for q in ev.per_query] == ["q1"]


def pending_tui_scores(w: World, cap: pytest.CaptureFixture[str]) -> None:
    import_run(w, "r1")
    with w.store.session() as s:
        from labeler.store import list_runs

        (run,) = list_runs(s)
    scored = score_stored_run(w.store, "T", run)
    assert scored.result.unknown_in_run == ()
    assert [q.query_id for q in scored.result.queries] == ["q1"]


# -- key: a key clause lies inside its element -------------------------------------------

#: what key_problem says of a key outside C (hand-worked: C is [31, 48))
KEY_OUTSIDE_C = r"key span \[16, 20\) is not inside the element \[31, 48\)"


def element_c(w: World) -> int:
    (found,) = rows(
        w.store, "SELECT id FROM element WHERE query_id = :q AND start = :s", q=w.o1, s=C[0]
    )
    return int(found[0])


def key_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    before = dump(w.store)
    for verb in (key_span, key_final):  # the page view's K, the adjudication screen's K
        for key in ((16, 20), (31, 49), (30, 40)):  # before, past the end, across the start
            with pytest.raises(IntegrityError, match="is not inside the element"):
                verb(w.store, element_c(w), *key, actor="demo")
        with pytest.raises(IntegrityError, match=KEY_OUTSIDE_C):
            verb(w.store, element_c(w), 16, 20, actor="demo")
    assert dump(w.store) == before


def key_schema(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """A writer that skips the ORM (raw SQL) still meets the schema's ``ck_element_key``."""
    before = dump(w.store)
    with pytest.raises(IntegrityError, match="ck_element_key"), w.store.write() as s:
        s.execute(
            sql_text("UPDATE element SET key_start = 16, key_end = 20 WHERE id = :id"),
            {"id": element_c(w)},
        )
    assert dump(w.store) == before


def key_accept_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Adjudication's accept carries a key clause: one outside B ([16, 30)) is refused."""
    before = dump(w.store)
    with pytest.raises(IntegrityError, match=r"key span \[0, 5\) is not inside .*\[16, 30\)"):
        accept_group(w.store, w.q2, DOC, *B, actor="lead", key=(0, 5))
    assert dump(w.store) == before


def ana_labelled_b_on_q2(w: World) -> None:
    with w.store.write() as s:
        add_element(s, w.q2, DOC, *B, annotator="ana", layer=LAYER_ANNOTATOR)


def key_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    ana_labelled_b_on_q2(w)
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        screen = await open_page(app, p, w.q2)
        assert [(e.start, e.end) for e in screen.mine()] == [B]
        screen.view.select_offsets(10, 20)  # across B's start
        await press(app, p, "K")
        assert any(m.startswith("a key clause lies inside one of") for m in said), said

    pilot(w, "ana", body)
    assert dump(w.store) == before


def key_tui_adjudication(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """The adjudication screen's K on the accepted B, with a selection outside it."""
    ana_labelled_b_on_q2(w)
    with w.store.write() as s:  # it waits for adjudication once two annotators are done
        add_assignment(s, w.q2, "bob", actor="lead")
        add_element(s, w.q2, DOC, *B, annotator="bob", layer=LAYER_ANNOTATOR)
        mark_done(s, w.q2, "ana")
        mark_done(s, w.q2, "bob")
    accept_group(w.store, w.q2, DOC, *B, actor="lead")
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await press(app, p, "f5")
        screen = app.screen
        assert isinstance(screen, AdjudicationScreen) and screen.query_id == w.q2, screen
        screen.view.select_offsets(0, 20)  # across B's start
        await press(app, p, "K")
        assert any("key span [0, 20) is not inside the element [16, 30)" in m for m in said), said

    pilot(w, "lead", body)
    assert dump(w.store) == before


def refused_import(w: World, cap: pytest.CaptureFixture[str], *args: str) -> str:
    before = dump(w.store)
    cap.readouterr()
    assert w.cli("gold", "import", *args) != 0, "the import went through"
    err = cap.readouterr().err
    assert dump(w.store) == before, "a refused import changed the database"
    return err


def beta(**extra: object) -> dict[str, object]:
    return {"doc": DOC, "text": "Beta rule two.", **extra}


def key_import_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    bad = w.file("key.jsonl", [
        {"query_id": "k1", "query": "Fine?", "elements": [beta(start=16, end=30)]},
        {"query_id": "k2", "query": "Key?", "elements": [beta(start=16, end=30,
                                                              key={"start": 10, "end": 20})]},
    ])  # fmt: skip
    for extra in ((), ("--replace", "--force"), ("--layer", "--annotator", "ana")):
        gold_set = "T" if "--layer" in extra else "K"
        err = refused_import(w, cap, bad, "--gold-set", gold_set, *extra)
        assert f"{bad}:2: elements[0]: key 10-20 is not inside the element 16-30" in err, err


def key_import_reanchored_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """The file's offsets [0, 30) do not hold its text, so the element moves to B [16, 30)
    and its key [20, 28) with it, by 16: [36, 44), outside B."""
    moved = w.file("moved.jsonl", [
        {"query_id": "k1", "query": "Fine?", "elements": [beta()]},
        {"query_id": "k2", "query": "Key?", "elements": [beta(start=0, end=30,
                                                              key={"start": 20, "end": 28})]},
    ])  # fmt: skip
    for extra in ((), ("--layer", "--annotator", "ana")):
        gold_set = "T" if "--layer" in extra else "K"
        err = refused_import(w, cap, moved, "--gold-set", gold_set, *extra)
        assert f"{moved}:2: elements[0] in 'rules.txt': re-anchored by its text to 16-30, " \
            "its key moves to 36-44, outside the element" in err, err  # fmt: skip


# -- duplicates and overlaps -------------------------------------------------------------


def duplicate_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    ana_labelled_b_on_q2(w)
    before = dump(w.store)
    with pytest.raises(IntegrityError, match=r"^q1 already has rules.txt 31–48$"):
        attach_span(w.store, w.o1, DOC, *C, annotator="demo")  # the final layer
    with pytest.raises(IntegrityError, match=r"^q2 already has rules.txt 16–30$"):
        attach_span(w.store, w.q2, DOC, *B, annotator="ana")  # ana's own layer
    assert dump(w.store) == before
    # per annotator: bob's own B on q2 is no duplicate of ana's
    attach_span(w.store, w.q2, DOC, *B, annotator="bob")
    assert rows(
        w.store, "SELECT annotator FROM element WHERE query_id = :q ORDER BY id", q=w.q2
    ) == [("ana",), ("bob",)]


def duplicate_schema(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """A raw SQL copy of C meets the unique index ``uq_element_final_span``."""
    before = dump(w.store)
    columns = 'query_id, document_id, start, "end", text, grade, created_at, status, layer, ' \
        "provenance, assisted"  # fmt: skip
    with (
        pytest.raises(IntegrityError, match=r"uq_element_final_span|UNIQUE constraint failed"),
        w.store.write() as s,
    ):
        s.execute(
            sql_text(
                f"INSERT INTO element ({columns}, annotator) SELECT {columns}, 'carl' "
                "FROM element WHERE id = :id"
            ),
            {"id": element_c(w)},
        )
    assert dump(w.store) == before


def duplicate_accept_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    ana_labelled_b_on_q2(w)
    accept_group(w.store, w.q2, DOC, *B, actor="lead")
    before = dump(w.store)
    with pytest.raises(IntegrityError, match=r"q2 already has rules.txt 16–30"):
        accept_group(w.store, w.q2, DOC, *B, actor="carl")
    assert dump(w.store) == before


def duplicate_adjust_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Moving C onto B, which other's q1 holds already, is refused."""
    attach_span(w.store, w.o1, DOC, *B, annotator="demo")
    before = dump(w.store)
    with pytest.raises(IntegrityError, match=r"^q1 already has rules.txt 16–30$"):
        adjust_span(w.store, element_c(w), *B, actor="demo")
    assert dump(w.store) == before


def duplicate_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    ana_labelled_b_on_q2(w)
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await open_page(app, p, w.q2)
        app.screen.view.select_offsets(*B)  # type: ignore[attr-defined]
        await press(app, p, "a")
        assert "q2 already has rules.txt 16–30: not stored again" in said, said

    pilot(w, "ana", body)
    assert dump(w.store) == before


def overlap_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    ana_labelled_b_on_q2(w)
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await open_page(app, p, w.q2)
        app.screen.view.select_offsets(20, 35)  # across B's end
        await press(app, p, "a")
        assert isinstance(app.screen, ConfirmDialog), app.screen
        await press(app, p, "n")
        assert "not attached to q2" in said, said

    pilot(w, "ana", body)
    assert dump(w.store) == before


def duplicate_import_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    # by offsets, by text (re-anchored onto the same span) and as two stale copies
    for second in (beta(start=16, end=30), beta(), beta(start=16, end=30, status="stale")):
        first = beta(start=16, end=30, status="stale") if "status" in second else beta()
        twice = w.file("twice.jsonl", [
            {"query_id": "k1", "query": "Fine?", "elements": [beta()]},
            {"query_id": "k2", "query": "Twice?", "elements": [first, second]},
        ])  # fmt: skip
        # an annotator's own labels are never stale: --layer refuses those first
        layer = () if "status" in second else (("--layer", "--annotator", "ana"),)
        for extra in ((), *layer):
            gold_set = "T" if "--layer" in extra else "K"
            err = refused_import(w, cap, twice, "--gold-set", gold_set, *extra)
            assert f"{twice}:2: elements[1] repeats elements[0]: rules.txt 16–30" in err, err


def span_file_twice_kept_once(w: World, cap: pytest.CaptureFixture[str], fmt: str) -> None:
    """docs/formats.md: in Label Studio and doccano files "repeated spans are kept once"."""
    if fmt == "doccano":
        path = w.tmp / "twice.doccano.jsonl"
        line = {"doc": DOC, "label": [[16, 30, "q1"], [16, 30, "q1"], [16, 30, "q2"]]}
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    else:
        value = {"start": 16, "end": 30, "text": "Beta rule two."}
        results = [{"type": "labels", "value": {**value, "labels": [q]}} for q in ("q1", "q1")]
        results.append({"type": "labels", "value": {**value, "labels": ["q2"]}})
        task = {"id": 1, "data": {"doc": DOC}, "annotations": [{"result": results}]}
        path = w.tmp / "twice.ls.json"
        path.write_text(json.dumps([task]), encoding="utf-8")
    assert w.cli("gold", "import", str(path), "--format", fmt, "--gold-set", "S") == 0
    assert rows(
        w.store,
        'SELECT q.external_id, e.start, e."end" FROM element e JOIN query q ON q.id = '
        "e.query_id JOIN gold_set g ON g.id = q.gold_set_id WHERE g.name = 'S' "
        "ORDER BY q.external_id",
    ) == [("q1", *B), ("q2", *B)]


def duplicate_labelstudio(w: World, cap: pytest.CaptureFixture[str]) -> None:
    span_file_twice_kept_once(w, cap, "labelstudio")


def duplicate_doccano(w: World, cap: pytest.CaptureFixture[str]) -> None:
    span_file_twice_kept_once(w, cap, "doccano")


def c_removed_then_labelled_again(w: World) -> None:
    """demo labels B on other's q2 and removes C from its q1; carl labels C again. (B comes
    first so that C is not the last row: SQLite would give carl's copy C's old id.)"""
    attach_span(w.store, w.o2, DOC, *B, annotator="demo")
    remove_span(w.store, element_c(w), actor="demo")
    attach_span(w.store, w.o1, DOC, *C, annotator="carl")


AGAIN = "rules.txt 31–48 was labelled again since; cannot bring back a second copy"


def duplicate_undo_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    c_removed_then_labelled_again(w)
    before = dump(w.store)
    with pytest.raises(UndoConflict, match=re.escape(AGAIN)):
        undo_change(w.store, actor="demo")
    assert dump(w.store) == before


def duplicate_undo_tui(w: World, cap: pytest.CaptureFixture[str]) -> None:
    c_removed_then_labelled_again(w)
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await press(app, p, "ctrl+z")
        assert any(AGAIN in m for m in said), said

    pilot(w, "demo", body)
    assert dump(w.store) == before


def duplicate_redo_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    attach_span(w.store, w.o2, DOC, *B, annotator="demo")
    attach_span(w.store, w.o2, DOC, *A, annotator="carl")  # not the last row: see above
    assert undo_change(w.store, actor="demo") is not None
    attach_span(w.store, w.o2, DOC, *B, annotator="carl")
    before = dump(w.store)
    with pytest.raises(UndoConflict, match=re.escape("rules.txt 16–30 was labelled again since")):
        redo_change(w.store, actor="demo")
    assert dump(w.store) == before


def duplicate_undo_adjust_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """demo moves C onto B; carl labels C's old span; undoing the move would store it twice."""
    adjust_span(w.store, element_c(w), *B, actor="demo")
    attach_span(w.store, w.o1, DOC, *C, annotator="carl")
    before = dump(w.store)
    with pytest.raises(UndoConflict, match=re.escape(AGAIN)):
        undo_change(w.store, actor="demo")
    assert dump(w.store) == before


def lock_settle_twice(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Settling a question another lead settled meanwhile is refused naming who settled it:
    it would replace their name and time; nothing changes."""
    settle_question(w.store, w.q2, by="lena")
    before = dump(w.store)
    with pytest.raises(IntegrityError, match=r"^q2 is settled already \(settled by lena "):
        settle_question(w.store, w.q2, by="lead")
    assert dump(w.store) == before


# -- role: what an annotator may not do, on every path -------------------------------------


def registered(w: World, **roles: str) -> None:
    """Register each name with its role (by the owner: a name that is not registered)."""
    for name, role in roles.items():
        create_annotator(w.store, name, role, actor="owner")


def refusal(who: str, doing: str) -> str:
    """The refusal's words, written out by hand from the issue's example."""
    return (
        f"{doing} refused: {who} is an annotator; {doing} needs the lead role "
        f"(labeler annotators role {who} lead)"
    )


def role_store_adjudication(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Every adjudication verb refuses annotator ana (q2 waits; A is q1's final element);
    the same calls by a registered lead get past the role check."""
    registered(w, ana="annotator", lena="lead")
    before = dump(w.store)
    calls: list[tuple[str, Callable[[str], object]]] = [
        ("accepting a span into the final layer", lambda a: accept_group(w.store, w.q2, DOC, *B, actor=a)),
        ("accepting the unanimous spans", lambda a: accept_all_unanimous(w.store, w.q2, actor=a)),
        ("rejecting a final span", lambda a: reject_final(w.store, final_a(w), actor=a)),
        ("grading a final span", lambda a: grade_final(w.store, final_a(w), 2, actor=a)),
        ("setting a final span's key clause", lambda a: key_final(w.store, final_a(w), 0, 5, actor=a)),
        ("adjusting a final span", lambda a: adjust_span(w.store, final_a(w), 0, 5, actor=a)),
        ("settling a question", lambda a: settle_question(w.store, w.q2, by=a)),
        ("adjudicating", lambda a: adjudicate_auto(w.store, "T", "unanimous", actor=a)),
    ]  # fmt: skip
    for doing, call in calls:
        with pytest.raises(RoleError) as refused:
            call("ana")
        assert str(refused.value) == refusal("ana", doing)
    assert dump(w.store) == before
    settle_question(w.store, w.q2, by="lena")
    assert rows(w.store, "SELECT adjudicated_by FROM query WHERE id = :q", q=w.q2) == [("lena",)]


def role_revoked_lead(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """A revoked lead acts as an annotator: revoking never leaves more powers."""
    registered(w, lena="lead")
    revoke_annotator(w.store, "lena")
    before = dump(w.store)
    with pytest.raises(RoleError, match=re.escape(refusal("lena", "settling a question"))):
        settle_question(w.store, w.q2, by="lena")
    assert dump(w.store) == before


def role_cli_adjudicate_assign(w: World, cap: pytest.CaptureFixture[str]) -> None:
    registered(w, ana="annotator")
    before = dump(w.store)
    cap.readouterr()
    assert w.cli("adjudicate", "--gold-set", "T", "--auto", "unanimous", "--actor", "ana") == 1
    assert refusal("ana", "adjudicating") in cap.readouterr().err
    args = ("gold", "assign", "--gold-set", "T", "--annotators", "ana,bob", "--actor", "ana")
    assert w.cli(*args) == 1
    err = cap.readouterr().err
    assert refusal("ana", "assigning questions") in err and "Traceback" not in err
    assert dump(w.store) == before


def role_reopen(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Reopening a settled question needs the lead role, in the store and from the CLI; a
    registered lead reopens it."""
    registered(w, ana="annotator", lena="lead")
    settle_question(w.store, w.q2, by="lena")
    before = dump(w.store)
    doing = "reopening a settled question"
    with pytest.raises(RoleError, match=re.escape(refusal("ana", doing))):
        reopen_questions(w.store, "T", ["q2"], actor="ana")
    cap.readouterr()
    assert w.cli("adjudicate", "--gold-set", "T", "--reopen", "q2", "--actor", "ana") == 1
    err = cap.readouterr().err
    assert refusal("ana", doing) in err and "Traceback" not in err
    assert dump(w.store) == before
    assert w.cli("adjudicate", "--gold-set", "T", "--reopen", "q2", "--actor", "lena") == 0
    assert rows(w.store, "SELECT adjudicated_by FROM query WHERE id = :q", q=w.q2) == [(None,)]


def role_store_delete(w: World, cap: pytest.CaptureFixture[str]) -> None:
    registered(w, ana="annotator", lena="lead")
    before = dump(w.store)
    with pytest.raises(RoleError, match=re.escape(refusal("ana", "deleting a question"))):
        delete_question(w.store, w.q2, actor="ana")
    assert dump(w.store) == before
    delete_question(w.store, w.q2, actor="lena")
    assert rows(w.store, "SELECT count(*) FROM query WHERE id = :q", q=w.q2) == [(0,)]


def role_tui_delete(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """The questions screen's x (Delete) is not in an annotator's footer and does nothing;
    a lead's footer has it."""
    registered(w, ana="annotator", lena="lead")
    before = dump(w.store)

    def footer(app: LabelerApp) -> set[str]:
        return {b.binding.action for b in app.screen.active_bindings.values()}

    async def annotator(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        assert app.role == "annotator" and "delete" not in footer(app)
        await press(app, p, "x")
        assert not isinstance(app.screen, ConfirmDialog)
        assert refusal("ana", "deleting a question") in said, said

    async def lead(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        assert app.role == "lead" and "delete" in footer(app)

    pilot(w, "ana", annotator)
    assert dump(w.store) == before
    pilot(w, "lena", lead)


def role_tui_adjudication_entry(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """An annotator's footer and palette lack the adjudication screen, F5 opens nothing and
    reaching the action anyway says the core's refusal; a lead's footer and palette have it."""
    registered(w, ana="annotator", lena="lead")

    def offered(app: LabelerApp) -> tuple[set[str], set[str]]:
        footer = {b.binding.action for b in app.screen.active_bindings.values()}
        palette = {name for name, _, _ in LabelerCommands(app.screen)._commands()}
        return footer, palette

    async def annotator(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        footer, palette = offered(app)
        assert "toggle_done" in footer and "adjudicate" not in footer
        assert "Mark question done / not done" in palette and "Adjudicate" not in palette
        await press(app, p, "f5")
        assert not isinstance(app.screen, AdjudicationScreen)
        assert refusal("ana", "adjudicating") in said, said  # the key says why
        said.clear()
        app.action_adjudicate()
        await settle(app, p)
        assert not isinstance(app.screen, AdjudicationScreen)
        assert refusal("ana", "adjudicating") in said, said

    async def lead(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        footer, palette = offered(app)
        assert "adjudicate" in footer and "Adjudicate" in palette
        await press(app, p, "f5")
        assert isinstance(app.screen, AdjudicationScreen)

    pilot(w, "ana", annotator)
    pilot(w, "lena", lead)


def role_tui_adjudication_edit(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """An annotator who reaches the adjudication screen anyway is refused by the core, as a
    notification (no traceback), with the database unchanged."""
    registered(w, ana="annotator")
    with w.store.write() as s:  # q2 waits for adjudication: ana and bob both labelled B
        add_assignment(s, w.q2, "bob", actor="lead")
        for who in ("ana", "bob"):
            add_element(s, w.q2, DOC, *B, annotator=who, layer=LAYER_ANNOTATOR)
            mark_done(s, w.q2, who)
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await app.push_screen(AdjudicationScreen())
        await settle(app, p)
        await press(app, p, "m")  # mark adjudicated: nothing accepted, so it asks first
        assert isinstance(app.screen, ConfirmDialog)
        await press(app, p, "y")
        assert any(refusal("ana", "settling a question") in m for m in said), said

    pilot(w, "ana", body)
    assert dump(w.store) == before


def role_cli_import_layer(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """ana may import her own layer, not bob's; a lead imports bob's."""
    registered(w, ana="annotator", lena="lead")
    line = {"query_id": "q2", "query": "Which rule comes second?",
            "elements": [{"doc": DOC, "text": "Beta rule two."}]}  # fmt: skip
    path = w.file("layer.jsonl", [line])
    before = dump(w.store)
    cap.readouterr()
    args = ("gold", "import", path, "--gold-set", "T", "--layer", "--annotator", "bob")
    assert w.cli(*args, "--actor", "ana") == 1
    assert refusal("ana", "importing a layer for bob") in cap.readouterr().err
    assert dump(w.store) == before
    own = ("gold", "import", path, "--gold-set", "T", "--layer", "--annotator", "ana")
    assert w.cli(*own, "--actor", "ana") == 0
    assert w.cli(*args, "--actor", "lena") == 0
    assert rows(
        w.store,
        "SELECT annotator, start FROM element WHERE query_id = :q ORDER BY annotator",
        q=w.q2,
    ) == [("ana", B[0]), ("bob", B[0])]


def role_cli_done_for_other(w: World, cap: pytest.CaptureFixture[str]) -> None:
    registered(w, ana="annotator", bob="annotator")
    before = dump(w.store)
    cap.readouterr()
    args = ("gold", "done", "--gold-set", "T", "--query", "q2")
    assert w.cli(*args, "--annotator", "bob", "--actor", "ana") == 1
    assert refusal("ana", "marking questions done for bob") in cap.readouterr().err
    assert dump(w.store) == before
    assert w.cli(*args, "--annotator", "ana") == 0  # her own (the actor defaults to her)
    assert w.cli(*args, "--annotator", "bob") == 0  # the owner (no --actor: you) for bob
    assert rows(
        w.store, "SELECT annotator FROM question_done WHERE query_id = :q ORDER BY 1", q=w.q2
    ) == [("ana",), ("bob",)]


def role_store_undo_lead_work(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """lead settled q1 (its latest change); demoted to annotator, lead cannot undo it."""
    registered(w, lead="annotator")
    before = dump(w.store)
    with pytest.raises(RoleError) as refused, w.store.write() as s:
        undo(s, actor="lead")
    assert str(refused.value) == refusal("lead", "undo of a settlement")
    assert dump(w.store) == before


def role_store_undo_own_labelling(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """An annotator undoes (and redoes) their own labelling: only lead work needs the role."""
    registered(w, ana="annotator")
    attach_span(w.store, w.q2, DOC, *B, annotator="ana")
    mine = "SELECT start FROM element WHERE query_id = :q AND annotator = 'ana'"
    assert rows(w.store, mine, q=w.q2) == [(B[0],)]
    assert undo_change(w.store, actor="ana") is not None
    assert rows(w.store, mine, q=w.q2) == []
    assert redo_change(w.store, actor="ana") is not None
    assert rows(w.store, mine, q=w.q2) == [(B[0],)]


def role_cli_replace_team_set(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Replacing a team gold set rewrites everyone's work: the lead role's."""
    registered(w, ana="annotator")
    out = str(w.tmp / "T.jsonl")
    assert w.cli("gold", "export", "--gold-set", "T", "--layer", "all", "-o", out) == 0
    before = dump(w.store)
    cap.readouterr()
    args = ("gold", "import", out, "--gold-set", "T", "--replace", "--force")
    assert w.cli(*args, "--annotator", "ana") == 1
    assert refusal("ana", "replacing team gold set 'T'") in cap.readouterr().err
    assert dump(w.store) == before


def role_tui_undo_lead_work(w: World, cap: pytest.CaptureFixture[str]) -> None:
    registered(w, lead="annotator")
    before = dump(w.store)

    async def body(app: LabelerApp, p: Pilot[int], said: list[str]) -> None:
        await press(app, p, "ctrl+z")
        assert refusal("lead", "undo of a settlement") in said, said

    pilot(w, "lead", body)
    assert dump(w.store) == before


def role_audit_records_the_role(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Each entry carries its actor's role then: the owner (a name not registered, the CLI's
    default), an annotator, a lead."""
    registered(w, ana="annotator", lena="lead")
    assert w.cli("gold", "done", "--gold-set", "T", "--query", "q2", "--annotator", "ana") == 0
    # q2 gets bob as its second annotator, by a name not registered
    args = ("gold", "assign", "--gold-set", "T", "--annotators", "ana,bob", "--actor", "boss")
    assert w.cli(*args) == 0
    settle_question(w.store, w.q2, by="lena")
    newest = rows(
        w.store,
        "SELECT actor, actor_role, entity FROM audit_entry WHERE id > (SELECT max(id) FROM "
        "audit_entry WHERE entity = 'annotator') ORDER BY id",
    )
    assert newest == [
        ("ana", "annotator", "question_done"),
        ("boss", "owner", "assignment"),
        ("lena", "lead", "query"),
    ]
    # the seed's entries were made by names not registered: owners
    assert rows(w.store, "SELECT DISTINCT actor_role FROM audit_entry WHERE actor = 'demo'") == [
        ("owner",)
    ]


# -- stale: an action on state changed underneath names what changed and who ----------


def removed_by_another_store(w: World) -> int:
    """demo removes C from another store (another process's connection); C's id."""
    c = element_c(w)
    with open_store(w.db) as other:
        remove_span(other, c, actor="demo")
    return c


def stale_removed_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """grade, key, adjust and remove of C, removed meanwhile by demo: each names C, its
    question and place, and demo; nothing is written."""
    c = removed_by_another_store(w)
    before = dump(w.store)
    said = f"element {c} (q1, rules.txt 31–48) was removed by demo"
    for attempt in (
        lambda: grade_span(w.store, c, 2, actor="carl"),
        lambda: key_span(w.store, c, 31, 36, actor="carl"),
        lambda: adjust_span(w.store, c, *B, actor="carl"),
        lambda: remove_span(w.store, c, actor="carl"),
    ):
        with pytest.raises(RemovedError, match=re.escape(said)) as caught:
            attempt()
        assert caught.value.removed_by == "demo"
    assert dump(w.store) == before


def stale_settled_grade_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """ana grades her own label of q1, settled by lead (her layer hidden since): refused
    naming lead, not "no element"."""
    (found,) = rows(
        w.store,
        "SELECT id FROM element WHERE query_id = :q AND annotator = 'ana'",
        q=w.q1,
    )
    before = dump(w.store)
    with pytest.raises(IntegrityError, match=re.escape("q1 is adjudicated (settled by lead)")):
        grade_span(w.store, int(found[0]), 2, actor="ana")
    assert dump(w.store) == before


def stale_settle_final_changed(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """m on a screen that showed q2 with nothing accepted, while B was accepted meanwhile:
    not settled as "no answer" (and not on spans the lead did not see); nothing written."""
    accept_group(w.store, w.q2, DOC, *B, actor="lead")
    before = dump(w.store)
    said = "q2 not settled: its final layer holds 1 accepted span(s) now, 0 when you pressed m"
    with pytest.raises(IntegrityError, match=re.escape(said)):
        settle_question(w.store, w.q2, by="lead", expect_final=0)
    assert dump(w.store) == before
    settle_question(w.store, w.q2, by="lead", expect_final=1)
    assert rows(w.store, "SELECT adjudicated_by FROM query WHERE id = :q", q=w.q2) == [("lead",)]


def stale_done_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """ana's other window marks q2 done; a flip from the screen that showed it to do is
    refused naming who, and leaves the mark."""
    with open_store(w.db) as other:
        flip_done(other, w.q2, "ana")
    before = dump(w.store)
    with pytest.raises(IntegrityError, match=re.escape("q2 was marked done by ana meanwhile")):
        flip_done(w.store, w.q2, "ana", expect_done=False)
    assert dump(w.store) == before


def guess_labelstudio_disagreeing_text(w: World, cap: pytest.CaptureFixture[str]) -> None:
    value = {"start": A[0], "end": A[1], "text": "Beta rule two.", "labels": ["q1"]}
    task = {"id": 4, "data": {"doc": DOC}, "annotations": [{"result": [
        {"type": "labels", "value": value}]}]}  # fmt: skip
    path = w.tmp / "shifted.ls.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    err = refused_unchanged(
        w, cap, "gold", "import", str(path), "--format", "labelstudio", "--gold-set", "N"
    )
    assert "offsets 0-15 (UTF-16 code units) cut 'Alpha rule one.' but its text says " in err
    assert "'Beta rule two.'; give --prefer offsets" in err


def guess_doccano_nothing(w: World, cap: pytest.CaptureFixture[str]) -> None:
    path = w.file("spans.doccano.jsonl", [{"doc": DOC, "spans": [[0, 15, "q1"]]}])
    err = refused_unchanged(
        w, cap, "gold", "import", path, "--format", "doccano", "--gold-set", "N"
    )
    assert f"{path}: nothing to import: 1 line(s), no span under 'label'" in err


def guess_jsonl_number_id(w: World, cap: pytest.CaptureFixture[str]) -> None:
    path = w.file(
        "n.jsonl", [{"query_id": 3, "elements": [{"doc": DOC, "text": "Beta rule two."}]}]
    )
    err = refused_unchanged(w, cap, "gold", "import", path, "--gold-set", "N")
    assert f"{path}:1: field 'query_id' must be a string, got the integer 3" in err


def guess_snap_below_minimum(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """``gold import --snap``: a text that aligns below ``--snap-min`` is not placed
    anywhere: the file is refused naming its line, the database unchanged (one that aligns
    would have been stored: all or nothing); ``--snap-review`` stores its question without
    it, the text in the notes, and the aligned one at its span, provenance snapped."""
    path = w.file("snap.jsonl", [
        {"query_id": "s1", "query": "?", "elements": [{"doc": DOC, "text": "BETA  rule\ntwo."}]},
        {"query_id": "s2", "query": "?", "elements": [{"doc": DOC, "text": "Nothing like it."}]},
    ])  # fmt: skip
    err = refused_unchanged(w, cap, "gold", "import", path, "--gold-set", "N", "--snap")
    assert f"{path}:2: 1 element text(s) not on their page and below the snap minimum" in err
    assert w.cli("gold", "import", path, "--gold-set", "N", "--snap", "--snap-review") == 0
    found = rows(
        w.store,
        'SELECT q.external_id, e.start, e."end", e.text, e.provenance FROM element e '
        "JOIN query q ON q.id = e.query_id JOIN gold_set g ON g.id = q.gold_set_id "
        "WHERE g.name = 'N'",
    )
    assert found == [("s1", 16, 30, "Beta rule two.", "snapped")]  # "Beta rule two." is 16-30
    (notes,) = rows(
        w.store,
        "SELECT q.notes FROM query q JOIN gold_set g ON g.id = q.gold_set_id "
        "WHERE g.name = 'N' AND q.external_id = 's2'",
    )
    assert notes == (f"to label (not found on {DOC}): Nothing like it.",)


def guess_ragas_not_on_page(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """A Ragas reference that is not an exact slice of its page is refused without
    ``--snap``, naming the line, the database unchanged."""
    path = w.file("r.jsonl", [
        {"user_input": "?", "reference_contexts": ["beta RULE two."], "doc": DOC},
    ])  # fmt: skip
    err = refused_unchanged(w, cap, "gold", "import", path, "--format", "ragas", "--gold-set", "N")
    assert f"{path}:1: elements[0] in {DOC!r}" in err


def duplicate_snapped_import(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Two texts of one question snapped onto the same span are refused naming the line."""
    path = w.file("twice.jsonl", [
        {"query_id": "k2", "query": "Twice?",
         "elements": [beta(), {"doc": DOC, "text": "beta  RULE two."}]},
    ])  # fmt: skip
    err = refused_import(w, cap, path, "--gold-set", "K", "--snap")
    assert f"{path}:1: elements[1] repeats elements[0]: rules.txt 16–30" in err, err


def guess_layer_nothing(w: World, cap: pytest.CaptureFixture[str]) -> None:
    path = w.file("bob.jsonl", [{"query_id": "q1", "done_by": ["bob"], "elements": []}])
    err = refused_unchanged(
        w, cap, "gold", "import", path, "--gold-set", "T", "--layer", "--annotator", "ana"
    )
    assert f"{path}: nothing to import: 1 line(s), none with ana's labels" in err


def guess_run_nothing_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    path = w.file("empty-run.jsonl", [{"query_id": "q1", "results": []}])
    err = refused_unchanged(w, cap, "run", "import", "-q", path, "--name", "e")
    assert f"{path}:1: nothing to import: 1 question line(s), the first here, none with" in err


def guess_run_nothing_api(w: World, cap: pytest.CaptureFixture[str]) -> None:
    before = dump(w.store)
    with (
        labeler.open(w.db) as db,
        pytest.raises(InputError, match="rows:1: nothing to import: 2 question line"),
    ):
        db.import_run("e", {"q1": [], "q2": []})
    assert dump(w.store) == before


# -- not-relevant judgements (schema version 13): the rules of elements -----------------


def judged_lock_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """q1 of T is settled: nobody judges a region of it, and withdrawing is refused too."""
    before = dump(w.store)
    with pytest.raises(
        IntegrityError, match=r"^q1 is adjudicated \(settled by lead\): a not-relevant judgement"
    ):
        mark_not_relevant(w.store, w.q1, DOC, *B, annotator="ana")
    assert dump(w.store) == before
    # judged while open, then settled: the judgement, its withdrawal and its undo are locked
    with w.store.write() as s:
        set_adjudicated(s, w.q1, by="lead", adjudicated=False)
    judged = mark_not_relevant(w.store, w.q1, DOC, *B, annotator="ana")
    with w.store.write() as s:
        set_adjudicated(s, w.q1, by="lead")
    before = dump(w.store)
    with pytest.raises(IntegrityError, match=r"^q1 is adjudicated .*removing a not-relevant"):
        withdraw_not_relevant(w.store, judged.id, annotator="ana")
    with pytest.raises(IntegrityError, match=r"^q1 is adjudicated .*undo of add not-relevant"):
        undo_change(w.store, actor="ana")
    assert dump(w.store) == before


def judged_visibility_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """q2 of T is pending: ana's judgement is in her own layer, blind to bob, and bob cannot
    withdraw it (as if it were not there)."""
    judged = mark_not_relevant(w.store, w.q2, DOC, *C, annotator="ana")
    assert judged.layer == LAYER_ANNOTATOR
    assert [j.id for j in question_judgements(w.store, w.q2, "ana")] == [judged.id]
    assert question_judgements(w.store, w.q2, "bob") == []
    before = dump(w.store)
    with pytest.raises(NotFoundError, match="no not-relevant judgement with id"):
        withdraw_not_relevant(w.store, judged.id, annotator="bob")
    assert dump(w.store) == before
    # bob's own judgement of the same region is his, beside ana's
    mark_not_relevant(w.store, w.q2, DOC, *C, annotator="bob")
    assert [j.annotator for j in question_judgements(w.store, w.q2, "bob")] == ["bob"]


def judged_duplicate_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    mark_not_relevant(w.store, w.o2, DOC, *B, annotator="demo")
    before = dump(w.store)
    with pytest.raises(IntegrityError, match="judged not relevant by demo already"):
        mark_not_relevant(w.store, w.o2, DOC, *B, annotator="demo")
    assert dump(w.store) == before


def judged_undo_question_store(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """carl adds q3; ana judges a region of it: carl's undo of the question is refused
    naming her judgement; lead's deletion of q3 and its undo bring the judgement back."""
    with w.store.write() as s:
        q3 = add_query(s, get_gold_set(s, "other"), "q3", "Third?", actor="carl")
        assert q3.id is not None
        q3_id = q3.id
    mark_not_relevant(w.store, q3_id, DOC, *A, annotator="ana")
    before = dump(w.store)
    with pytest.raises(
        UndoConflict, match=re.escape("ana's not-relevant judgement (rules.txt 0–15)")
    ):
        undo_change(w.store, actor="carl")
    assert dump(w.store) == before
    delete_question(w.store, q3_id, actor="lead")
    assert rows(w.store, "SELECT count(*) FROM not_relevant") == [(0,)]
    assert undo_change(w.store, actor="lead") is not None
    assert rows(w.store, 'SELECT annotator, start, "end" FROM not_relevant') == [("ana", *A)]


def judged_replace_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """A replacing file without a judgement of the set is refused naming it; its own export
    holds it and replaces without a loss."""
    mark_not_relevant(w.store, w.o2, DOC, *B, annotator="demo")
    whole = str(w.tmp / "other.jsonl")
    assert w.cli("gold", "export", "--gold-set", "other", "-o", whole) == 0
    lines = [json.loads(x) for x in Path(whole).read_text("utf-8").splitlines()]
    assert lines[1]["judged_not_relevant"] == [
        {"doc": DOC, "start": B[0], "end": B[1], "annotator": "demo"}
    ]
    lines[1].pop("judged_not_relevant")
    without = w.file("without.jsonl", lines)
    err = refused_unchanged(w, cap, "gold", "import", without, "--gold-set", "other", "--replace")
    assert f"  not-relevant judgement q2: {DOC} 16–30 by demo" in err
    assert w.cli("gold", "import", whole, "--gold-set", "other", "--replace") == 0
    assert rows(w.store, "SELECT annotator, start FROM not_relevant") == [("demo", B[0])]


def judged_import_cli(w: World, cap: pytest.CaptureFixture[str]) -> None:
    """Imports type-check judgements and refuse a region off its page, naming the line."""
    path = w.file("j.jsonl", [
        {"query_id": "q1", "elements": [],
         "judged_not_relevant": [{"doc": DOC, "start": 40, "end": 49}]},
    ])  # fmt: skip
    err = refused_unchanged(w, cap, "gold", "import", path, "--gold-set", "N")
    assert f"{path}:1: judged_not_relevant[0]: {DOC} 40-49 ends past the page's text" in err
    path = w.file("k.jsonl", [
        {"query_id": "q1", "elements": [],
         "judged_not_relevant": [{"doc": DOC, "start": 4.0, "end": 9}]},
    ])  # fmt: skip
    err = refused_unchanged(w, cap, "gold", "import", path, "--gold-set", "N")
    assert f"{path}:1: " in err and "judged_not_relevant[0].'start'" in err


Check = Callable[[World, pytest.CaptureFixture[str]], None]

ROWS: list[tuple[str, str, Check]] = [
    ("replace", "cli-jsonl-own-export", replace_final_export),
    ("replace", "cli-jsonl-layer-all-export", replace_all_export),
    ("replace", "cli-doccano", replace_doccano),
    ("replace", "cli-labelstudio", replace_labelstudio),
    ("replace", "cli-question-missing", replace_missing_question),
    ("replace", "cli-notes-missing", replace_drops_notes),
    ("replace", "cli-force", replace_force_lists_and_audits),
    ("undo", "store-undo-add-question", undo_add_question_store),
    ("undo", "tui-ctrl+z-add-question", undo_add_question_tui),
    ("undo", "store-undo-redo-undo", redo_restores_store),
    ("undo", "tui-ctrl+z-ctrl+y-ctrl+z", redo_restores_tui),
    ("lock", "store-set-key", lock_key_store),
    ("lock", "tui-K", lock_key_tui),
    ("lock", "store-undo-done", lock_undo_done_store),
    ("lock", "tui-ctrl+z-done", lock_undo_done_tui),
    ("lock", "store-undo-label", lock_undo_label_store),
    ("lock", "tui-ctrl+z-label", lock_undo_label_tui),
    ("lock", "cli-gold-done-undo", lock_done_undo_cli),
    ("lock", "cli-import-layer", lock_layer_import_cli),
    ("lock", "cli-import-layer-unchanged", lock_layer_import_same_cli),
    ("lock", "cli-refusal-names-reopen", lock_message_leads_to_reopen_cli),
    ("lock", "store-settle-twice", lock_settle_twice),
    ("lock", "store-reopen-key-undo", lock_reopen_store),
    ("undo", "store-reopen-undo-redo-undo", undo_reopen_store),
    ("pending", "cli-score-reopened", pending_reopened_cli_score),
    ("scope", "store", scope_store),
    ("scope", "tui", scope_tui),
    ("visibility", "store", visibility_store),
    ("visibility", "tui", visibility_tui),
    ("stale", "store-removed-element", stale_removed_store),
    ("stale", "store-grade-settled", stale_settled_grade_store),
    ("stale", "store-flip_done", stale_done_store),
    ("stale", "store-settle-final-changed", stale_settle_final_changed),
    ("pending", "cli-score", pending_cli_score),
    ("pending", "compare", pending_compare),
    ("pending", "api", pending_api),
    ("pending", "tui-scores", pending_tui_scores),
    ("key", "store-key_span-key_final", key_store),
    ("key", "schema-ck_element_key", key_schema),
    ("key", "store-accept_group", key_accept_store),
    ("key", "tui-K", key_tui),
    ("key", "tui-adjudication-K", key_tui_adjudication),
    ("key", "cli-import-jsonl", key_import_cli),
    ("key", "cli-import-jsonl-reanchored", key_import_reanchored_cli),
    ("duplicate", "store-attach_span", duplicate_store),
    ("duplicate", "schema-unique-index", duplicate_schema),
    ("duplicate", "store-accept_group", duplicate_accept_store),
    ("duplicate", "store-adjust_span", duplicate_adjust_store),
    ("duplicate", "tui-a", duplicate_tui),
    ("duplicate", "tui-a-overlap-n", overlap_tui),
    ("duplicate", "cli-import-jsonl", duplicate_import_cli),
    ("duplicate", "cli-import-jsonl-snapped", duplicate_snapped_import),
    ("duplicate", "cli-labelstudio", duplicate_labelstudio),
    ("duplicate", "cli-doccano", duplicate_doccano),
    ("duplicate", "store-undo-remove", duplicate_undo_store),
    ("duplicate", "tui-ctrl+z-remove", duplicate_undo_tui),
    ("duplicate", "store-redo-add", duplicate_redo_store),
    ("duplicate", "store-undo-adjust", duplicate_undo_adjust_store),
    ("guess", "cli-labelstudio-offsets-vs-text", guess_labelstudio_disagreeing_text),
    ("guess", "cli-doccano-nothing-stored", guess_doccano_nothing),
    ("guess", "cli-jsonl-number-id", guess_jsonl_number_id),
    ("guess", "cli-import-layer-nothing-stored", guess_layer_nothing),
    ("guess", "cli-import-snap-below-minimum", guess_snap_below_minimum),
    ("guess", "cli-import-ragas-not-on-page", guess_ragas_not_on_page),
    ("guess", "cli-run-nothing-stored", guess_run_nothing_cli),
    ("guess", "api-import_run-nothing-stored", guess_run_nothing_api),
    ("role", "store-adjudication-verbs", role_store_adjudication),
    ("role", "store-revoked-lead", role_revoked_lead),
    ("role", "cli-adjudicate-and-assign", role_cli_adjudicate_assign),
    ("role", "store-delete_question", role_store_delete),
    ("role", "store-cli-reopen", role_reopen),
    ("role", "tui-x-delete", role_tui_delete),
    ("role", "tui-f5-palette", role_tui_adjudication_entry),
    ("role", "tui-adjudication-m", role_tui_adjudication_edit),
    ("role", "cli-import-layer-for-other", role_cli_import_layer),
    ("role", "cli-gold-done-for-other", role_cli_done_for_other),
    ("role", "store-undo-lead-work", role_store_undo_lead_work),
    ("role", "tui-ctrl+z-lead-work", role_tui_undo_lead_work),
    ("role", "store-undo-own-labelling", role_store_undo_own_labelling),
    ("role", "cli-import-replace-team-set", role_cli_replace_team_set),
    ("role", "audit-actor-role", role_audit_records_the_role),
    ("lock", "store-mark_not_relevant-withdraw-undo", judged_lock_store),
    ("visibility", "store-not-relevant-judgements", judged_visibility_store),
    ("duplicate", "store-mark_not_relevant", judged_duplicate_store),
    ("undo", "store-question-with-judgements", judged_undo_question_store),
    ("replace", "cli-judgement-missing", judged_replace_cli),
    ("guess", "cli-import-jsonl-judgements", judged_import_cli),
]


@pytest.mark.parametrize(("rule", "path", "check"), ROWS, ids=[f"{r}:{p}" for r, p, _ in ROWS])
def test_rule_holds_on_path(
    rule: str, path: str, check: Check, world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    check(world, capsys)
