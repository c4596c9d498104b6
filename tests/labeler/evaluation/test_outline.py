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
from labeler.store import Element, Query, mark_done, open_store, set_key

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
