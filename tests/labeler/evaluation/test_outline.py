"""Scoring a stored run from a SQLite file reads the gold layer in outline and each range of
questions whole as it is scored (``OutlinedLoad``), never the whole layer at once; the
score is the one scored on the layer read whole (the store's path), to the byte, with
what the outline must carry: questions without elements, pending questions (a team gold
set's done marks), stale elements and key clauses, in one process and in three (whose
ranges are bounded on both sides)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from _scoring_db import build
from sqlmodel import select

from labeler.evaluation import ScoreRequest, StoreSource, _entry, score
from labeler.store import Element, Query, add_element, mark_done, open_store, set_key
from labeler.store.fastread import SqliteReader

pytestmark = pytest.mark.backends("sqlite")


def whole(*_: object) -> object:
    raise AssertionError("the layer was read whole")


def test_the_layer_in_outline_scores_as_the_layer_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = build(tmp_path)
    store = open_store(db)
    try:
        with store.write() as s:
            elements = s.exec(select(Element).order_by(Element.id)).all()
            for e in elements[::5]:  # a key clause on every fifth element
                assert e.id is not None
                set_key(s, e.id, e.start, e.start + 5, actor="t")
            queries = {q.external_id: q.id for q in s.exec(select(Query)).all()}
            for qid in ("q004", "q041", "q088"):
                query = queries[qid]
                assert query is not None
                mark_done(s, query, "ana")  # team work: pending until adjudicated
        stale_ids = [e.id for e in elements[3::11]]
    finally:
        store.close()
    with sqlite3.connect(db) as conn:  # as re-ingesting a changed page leaves them
        conn.executemany(
            "UPDATE element SET status = 'stale' WHERE id = ?", [(i,) for i in stale_ids]
        )
    store = open_store(db)
    try:
        for run in ("a", "b"):
            request = ScoreRequest("g", run, ks=(1, 3, 10), processes=1)
            reference = score(StoreSource(store), request).evaluation.to_dict()
            assert reference["stale_excluded"] == len(stale_ids)
            assert reference["pending"]["count"] == 3
            assert reference["keys"] > 0 and reference["without_elements"]
            with monkeypatch.context() as m:
                m.setattr(_entry, "load_gold_layer", whole)
                for processes in (1, 3):
                    request = ScoreRequest("g", run, ks=(1, 3, 10), processes=processes)
                    outlined = score(db, request).evaluation.to_dict()
                    assert json.dumps(outlined) == json.dumps(reference), (run, processes)
    finally:
        store.close()


def test_annotator_layers_in_outline_score_as_the_layers_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--layer annotator:NAME`` and ``--layer each`` read each annotator's layer in outline
    too: the same score as each layer read whole, with what that layer must carry: questions
    marked done with no label of theirs, labels on questions they did not mark done (not
    theirs to score), their stale labels and their key clauses."""
    db = build(tmp_path)
    store = open_store(db)
    try:
        with store.write() as s:
            finals = s.exec(select(Element).order_by(Element.id)).all()
            by_query: dict[int, list[Element]] = {}
            for e in finals:
                by_query.setdefault(e.query_id, []).append(e)
            queries = sorted(s.exec(select(Query)).all(), key=lambda q: q.external_id)
            for a, name in enumerate(("ana", "bob")):
                for i, query in enumerate(queries):
                    assert query.id is not None
                    if i % 3 == a:  # neither labels nor marks this one
                        continue
                    for j, e in enumerate(by_query.get(query.id, [])):
                        if (i + j) % 4 == 0:
                            continue  # an element this annotator missed
                        key = (e.start, e.start + 4) if (i + j) % 5 == 0 else None
                        add_element(
                            s,
                            query.id,
                            e.document_id,
                            e.start,
                            e.end,
                            annotator=name,
                            layer="annotator",
                            key=key,
                        )
                    if i % 7 != 0:  # labelled but not marked done: not in the layer
                        mark_done(s, query.id, name)
        with store.write() as s:
            own = s.exec(
                select(Element).where(Element.layer == "annotator").order_by(Element.id)
            ).all()
            stale_ids = [e.id for e in own[2::9]]
    finally:
        store.close()
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "UPDATE element SET status = 'stale' WHERE id = ?", [(i,) for i in stale_ids]
        )
    bounds: list[tuple[str | None, str | None]] = []
    read = SqliteReader.layer_questions

    def bounded(self: SqliteReader, gold_set: str, annotator: str, **kw: str | None) -> object:
        bounds.append((kw.get("since"), kw.get("until")))
        return read(self, gold_set, annotator, **kw)

    store = open_store(db)
    try:
        for layer in ("annotator:ana", "annotator:bob", "each"):
            request = ScoreRequest("g", "a", ks=(1, 3, 10), processes=1, layer=layer)
            reference = score(StoreSource(store), request).evaluation.to_dict()
            if layer != "each":
                assert reference["stale_excluded"] > 0 and reference["keys"] > 0
            else:
                assert [x["layer"] for x in reference["layers"]] == [
                    "final",
                    "annotator:ana",
                    "annotator:bob",
                ]
            bounds.clear()
            with monkeypatch.context() as m:
                m.setattr(_entry, "load_gold_layer", whole)
                m.setattr(SqliteReader, "layer_questions", bounded)
                for processes in (1, 3):
                    request = ScoreRequest(
                        "g", "a", ks=(1, 3, 10), processes=processes, layer=layer
                    )
                    outlined = score(db, request).evaluation.to_dict()
                    assert json.dumps(outlined) == json.dumps(reference), (layer, processes)
            # this process's share of three is the first range of ids: read up to a bound
            assert (None, None) in bounds and any(u is not None for _, u in bounds)
    finally:
        store.close()
