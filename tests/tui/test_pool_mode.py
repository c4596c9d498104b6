"""Pool mode under Pilot: the current question's unjudged regions, most retrieved first; ``n``
judges one not relevant (stored, undoable), ``right`` skips, the next region follows.

The example of tests/labeler/runs/test_pool.py (a page of 100 distinct characters, runs A and
B, q1's element at [20, 28), ana's judgement of [65, 70)); pool mode uses depth 10, where A's
third chunk adds [0, 5) last. By hand: [28, 40) (A, B; rank 1), [50, 65) (A, B; 2),
[10, 20) (A; 1), [0, 5) (A; 3).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from textual.widgets import Static
from tui_support import make_app, settle

from labeler.runs import import_run_file
from labeler.store import (
    Store,
    add_query,
    attach_element,
    create_gold_set,
    mark_not_relevant,
    open_store,
    question_judgements,
    undo_change,
    upsert_document,
)
from labeler.tui.commands import LabelerCommands
from labeler.tui.pool_mode import PoolScreen, open_pool

P = "".join(chr(0x100 + i) for i in range(100))


def seed(store: Store, tmp_path: Path) -> int:
    with store.write() as s:
        upsert_document(s, doc_id="p.txt", source_path="p.txt", sha256="x", profile="t", text=P)
        gs = create_gold_set(s, "demo", "")
        q = add_query(s, gs, "q1", "Which part?", actor="t")
        assert q.id is not None
        attach_element(s, q.id, "p.txt", 20, 28, annotator="t")
        qid = q.id
    runs = {
        "A": [
            {"text": P[10:30], "doc": "p.txt", "start": 10, "end": 30},
            {"text": P[50:60], "doc": "p.txt"},
            {"text": P[0:5], "doc": "p.txt"},
        ],
        "B": [{"text": P[25:40], "doc": "p.txt"}, {"text": P[60:70], "doc": "p.txt"}],
    }
    for name, results in runs.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps({"query_id": "q1", "results": results}) + "\n", "utf-8")
        import_run_file(store, path, name)
    mark_not_relevant(store, qid, "p.txt", 65, 70, annotator="ana")
    return qid


def head(app: object) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    return str(screen.query_one("#pool-head", Static).render())


def test_pool_mode_walks_and_judges(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "labels.db")) as store:
        qid = seed(store, tmp_path)
        app = make_app(store, "ana")

        async def main() -> None:
            async with app.run_test(size=(120, 36), notifications=False) as pilot:
                await settle(app, pilot)
                app.goto_question(qid)
                await settle(app, pilot)
                # the palette offers it
                names = [name for name, _, _ in LabelerCommands(app.screen)._commands()]
                assert "Pool the runs for this question" in names
                open_pool(app)
                await settle(app, pilot)
                assert isinstance(app.screen, PoolScreen)
                assert head(app).startswith("q1: region 1 of 4 · p.txt 28–40 · retrieved by A, B")
                await pilot.press("n")
                await settle(app, pilot)
                assert head(app).startswith("q1: region 2 of 4 · p.txt 50–65")
                await pilot.press("right")
                await settle(app, pilot)
                assert head(app).startswith("q1: region 3 of 4 · p.txt 10–20 · retrieved by A ")
                await pilot.press("n")
                await settle(app, pilot)
                assert head(app).startswith("q1: region 4 of 4 · p.txt 0–5")
                await pilot.press("right")
                await settle(app, pilot)
                assert "no unjudged region left" in str(
                    app.screen.query_one("#pool-region", Static).render()
                )

        asyncio.run(main())
        judged = [(j.start, j.end, j.annotator) for j in question_judgements(store, qid, "ana")]
        assert judged == [(10, 20, "ana"), (28, 40, "ana"), (65, 70, "ana")]
        # each is ana's change: undo takes the last one back
        assert undo_change(store, actor="ana") == (
            "undone: add not-relevant judgement of q1 by ana (p.txt 10–20)"
        )
