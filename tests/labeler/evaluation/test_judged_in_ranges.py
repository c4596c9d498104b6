"""judged@k counted alongside scoring (``RangeJudging``, from the chunks and placements each
range of a stored run is scored with) equals judged@k read afresh (``judged_of``, which
places every result itself and is held to hand-worked figures in tests/labeler/runs/
test_pool.py), on random runs over pages chosen to reach every path of the placement rule:

- ``p.txt`` is cited by every question and holds the text ``R`` twice; ``a.txt`` (sorted
  first) is judged by not-relevant judgements only, so scoring has no placement there, and
  also holds ``R``; ``b.txt`` is cited by some questions;
- chunks name their page with offsets that hold (on the second copy of ``R`` too), offsets
  that miss, no offsets, name no page (found on ``a.txt`` first, on ``p.txt`` only, or
  nowhere), name ``a.txt`` (a chunk read without its text at scoring, whose text is then
  read), or name a page not stored;
- one run is imported before the gold set (no stored placements: every row is placed by
  looking) and one after (placements stored: rows are taken from them);
- scored in one process and in two, so counts come back from another process.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.errors import LabelerError
from labeler.evaluation import ScoreRequest, _entry, judged_of, score
from labeler.evaluation._entry import answered
from labeler.store import (
    add_query,
    attach_element,
    create_gold_set,
    mark_not_relevant,
    open_store,
    upsert_document,
)
from labeler.store.fastread import SqliteReader

pytestmark = pytest.mark.backends("sqlite")


def distinct(start: int, n: int) -> str:
    return "".join(chr(start + i) for i in range(n))


R = distinct(0x3000, 20)
P = distinct(0x100, 100) + R + distinct(0x200, 50) + R
A = R + distinct(0x400, 80)
B = distinct(0x500, 80)
PAGES = {"p.txt": P, "a.txt": A, "b.txt": B}
QUESTIONS = 60


def piece(rng: random.Random, text: str) -> tuple[int, int]:
    a = rng.randrange(len(text) - 5)
    return a, rng.randrange(a + 3, min(len(text), a + 40) + 1)


def result(rng: random.Random) -> dict[str, object]:
    kind = rng.randrange(9)
    if kind == 0:  # offsets that hold
        a, b = piece(rng, P)
        return {"text": P[a:b], "doc": "p.txt", "start": a, "end": b}
    if kind == 1:  # the second copy of R, pinned there
        return {"text": R, "doc": "p.txt", "start": len(P) - len(R), "end": len(P)}
    if kind == 2:  # offsets that miss: placed by its text
        a, b = piece(rng, P)
        return {"text": P[a:b], "doc": "p.txt", "start": 0, "end": b - a}
    if kind == 3:
        page = P if rng.random() < 0.7 else B
        a, b = piece(rng, page)
        return {"text": page[a:b], "doc": "p.txt" if page is P else "b.txt"}
    if kind == 4:  # no page: on a.txt and p.txt, p.txt only, or nowhere
        text = rng.choice((R[2:15], P[10:30], B[5:25], "nowhere at all"))
        return {"text": text}
    if kind == 5:  # names the judged page scoring has no placement on
        a, b = piece(rng, A)
        return {"text": A[a:b], "doc": "a.txt"}
    if kind == 6:
        return {"text": P[40:60], "doc": "gone.txt"}
    if kind == 7:
        return {"text": "not on any page", "doc": "p.txt"}
    return {"text": R, "doc": "a.txt"}


def run_lines(seed: int) -> str:
    rng = random.Random(seed)
    lines = []
    for i in range(QUESTIONS):
        if rng.random() < 0.1:
            continue  # a question the run does not answer
        results = [result(rng) for _ in range(rng.randrange(1, 8))]
        lines.append(json.dumps({"query_id": f"q{i:02d}", "results": results}))
    lines.append(json.dumps({"query_id": "not-in-gold", "results": [{"text": P[:9]}]}))
    return "\n".join(lines) + "\n"


def import_run(db: Path, tmp_path: Path, name: str, seed: int) -> None:
    path = tmp_path / f"{name}.jsonl"
    path.write_text(run_lines(seed), "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "labeler", "run", "import", str(path), "--name", name],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "LABELER_DB": str(db)},
    )
    assert done.returncode == 0, done.stderr


def gold(db: Path, seed: int) -> None:
    rng = random.Random(seed + 1)
    store = open_store(str(db))
    try:
        with store.write() as s:
            gs = create_gold_set(s, "g", "")
            ids = []
            for i in range(QUESTIONS):
                q = add_query(s, gs, f"q{i:02d}", f"question {i}", actor="t")
                assert q.id is not None
                ids.append(q.id)
                a, b = piece(rng, P)
                attach_element(s, q.id, "p.txt", a, b, annotator="t")
                if i % 3 == 0:
                    a, b = piece(rng, B)
                    attach_element(s, q.id, "b.txt", a, b, annotator="t")
        for qid in ids:
            for _ in range(rng.randrange(3)):
                page = rng.choice(("a.txt", "p.txt", "b.txt"))
                a, b = piece(rng, PAGES[page])
                # one that overlaps a judgement of the same question is refused
                with contextlib.suppress(LabelerError):
                    mark_not_relevant(store, qid, page, a, b, annotator="ana")
    finally:
        store.close()


def reread(*_: object) -> object:
    raise AssertionError("judged@k read the run afresh")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_judged_at_k_counted_in_ranges_is_judged_at_k_read_afresh(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "j.db"
    store = open_store(str(db))
    try:
        with store.write() as s:
            for doc, text in PAGES.items():
                upsert_document(s, doc_id=doc, source_path=doc, sha256=doc, profile="t", text=text)
    finally:
        store.close()
    import_run(db, tmp_path, "early", seed)
    gold(db, seed)
    import_run(db, tmp_path, "late", seed)
    ks = (1, 2, 5)
    reader = SqliteReader(db)
    try:
        for run in ("early", "late"):
            base = score(str(db), ScoreRequest("g", run, ks=ks, processes=1)).evaluation
            afresh = judged_of(reader, "g", run, ks, answered(base.result))
            assert len(afresh.ids) > QUESTIONS // 2
            assert afresh.totals()[5].judged > 0
            with monkeypatch.context() as m:  # scoring must not read the run again for it
                m.setattr(_entry, "judged_of", reread)
                for processes in (1, 2):
                    request = ScoreRequest("g", run, ks=ks, processes=processes)
                    counted = score(str(db), request).evaluation.judged
                    assert counted is not None
                    assert counted.ids == afresh.ids, (run, processes)
                    assert list(counted.judged) == list(afresh.judged), (run, processes)
                    assert list(counted.chars) == list(afresh.chars), (run, processes)
    finally:
        reader.close()
