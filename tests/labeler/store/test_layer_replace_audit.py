"""``gold import --layer`` over an annotator's earlier labels: each label and done mark it
removes is audited with the snapshot the ORM gives that row (:func:`labeler.store.audit.snapshot`,
marked with the front end as :func:`~labeler.store.audit.mark_origin` marks it), stored as
the text the JSON column stores for it, whatever the label's text (quotes, a backslash,
non-ASCII and astral characters, a tab), key, grade and ``assisted`` flag; and undoing the
import's entries one by one brings back exactly the earlier layer, ids and timestamps
included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlmodel import select

from labeler.cli import main
from labeler.gold import import_layer_file
from labeler.store import Store
from labeler.store.audit import mark_origin, snapshot
from labeler.store.labelling_verbs import undo_change
from labeler.store.models import Element, QuestionDone

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PARTS = [
    "Plain start.",
    "Caf\u00e9 \u201ccurly\u201d quotes.",
    'A "straight" quote.',
    "Back\\slash here.",
    "Emoji \U0001f600 astral.",
    "Tab\there.",
    "50% sign.",
]
PAGE = " ".join(PARTS)


def element(part: int, **extra: Any) -> dict[str, Any]:
    start = PAGE.index(PARTS[part])
    found = {"doc": "p.txt", "text": PARTS[part], "start": start, "end": start + len(PARTS[part])}
    return found | extra


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def rows(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every element and done mark, all columns, in id order."""
    with store.session() as session:
        return {
            table: [tuple(r) for r in session.execute(text(f"SELECT * FROM {table} ORDER BY id"))]
            for table in ("element", "question_done")
        }


def test_replacing_a_layer_audits_each_removed_row_as_the_orm_and_undo_restores_it(
    store: Store, db_url: str, tmp_path: Path, backend: str
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "p.txt").write_text(PAGE, encoding="utf-8")
    assert main(["ingest", str(docs), "--db", db_url, "-q"]) == 0
    start = PAGE.index(PARTS[1])
    first: list[dict[str, Any]] = [
        {
            "query_id": "q1",
            "query": "One?",
            "elements": [
                element(1, grade=2, assisted=True, key={"start": start, "end": start + 4}),
                element(3, grade=3),
            ],
        },
        {"query_id": "q2", "query": "Two?", "elements": [element(4), element(2)]},
        {"query_id": "q3", "query": "Three?", "elements": [element(5)], "done": False},
        {"query_id": "q4", "query": "Four?", "elements": []},
    ]
    # removed: q1's two labels, q2's two, q3's one; added: one on q1, two on q3, one on q4;
    # done: q1, q2 (no answer), q3; q4's mark removed
    again: list[dict[str, Any]] = [
        {"query_id": "q1", "elements": [element(0)]},
        {"query_id": "q2", "elements": []},
        {"query_id": "q3", "elements": [element(5), element(6)]},
        {"query_id": "q4", "elements": [element(6)], "done": False},
    ]
    import_layer_file(store, write(tmp_path / "a.jsonl", first), "t", annotator="ana")
    earlier = rows(store)
    expected: dict[tuple[str, int | None], dict[str, Any]] = {}
    with store.write() as session:  # (a write: the session the store marks with its front end)
        for row in [
            *session.exec(select(Element).where(Element.annotator == "ana")),
            *session.exec(select(QuestionDone).where(QuestionDone.annotator == "ana")),
        ]:
            marked = mark_origin(session, snapshot(row))
            assert marked is not None
            expected[(row.__tablename__, row.id)] = marked
        last = session.execute(text("SELECT max(id) FROM audit_entry")).scalar_one()
    assert len(expected) == 5 + 3  # ana's five labels and three done marks (not q3's)

    done = import_layer_file(store, write(tmp_path / "b.jsonl", again), "t", annotator="ana")
    assert (done.removed, done.added, done.done) == (5, 4, 3)
    with store.session() as session:
        entries = session.execute(
            text(
                "SELECT action, entity, entity_id, before FROM audit_entry WHERE id > :last "
                "ORDER BY id"
            ),
            {"last": last},
        ).all()
    removed = {
        (entity, row_id): before for action, entity, row_id, before in entries if action == "remove"
    }
    assert set(removed) == set(expected)
    fields = {
        "element": list(Element.model_fields),
        "question_done": list(QuestionDone.model_fields),
    }
    for key, before in removed.items():
        if backend == "sqlite":
            # the JSON column's own text, as json.dumps writes the snapshot: the columns in
            # the model's order (as writing the row gives them), the front end's mark last
            ordered = {name: expected[key][name] for name in fields[key[0]]} | expected[key]
            assert before == json.dumps(ordered), key
        else:
            assert before == expected[key], key

    for _ in entries:
        assert undo_change(store, actor="ana") is not None
    assert rows(store) == earlier
