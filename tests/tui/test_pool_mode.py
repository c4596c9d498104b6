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


def seed_two(store: Store, tmp_path: Path) -> tuple[int, int]:
    """q1 and q2 on the page of :data:`P`, run "A" answering both (no element yet on q2).

    By hand, depth 10: q1's element is [20, 28); A gives q1 [10, 30) and [50, 60): regions
    [10, 20), [28, 30) (rank 1) then [50, 60). q2 has no element; A gives it [80, 90): one
    region."""
    with store.write() as s:
        upsert_document(s, doc_id="p.txt", source_path="p.txt", sha256="x", profile="t", text=P)
        gs = create_gold_set(s, "demo", "")
        q1 = add_query(s, gs, "q1", "Which part?", actor="t")
        q2 = add_query(s, gs, "q2", "Which other part?", actor="t")
        assert q1.id is not None and q2.id is not None
        attach_element(s, q1.id, "p.txt", 20, 28, annotator="t")
        ids = (q1.id, q2.id)
    lines = [
        {
            "query_id": "q1",
            "results": [{"text": P[10:30], "doc": "p.txt"}, {"text": P[50:60], "doc": "p.txt"}],
        },
        {"query_id": "q2", "results": [{"text": P[80:90], "doc": "p.txt"}]},
    ]
    path = tmp_path / "A.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    import_run_file(store, path, "A")
    return ids


def test_pool_mode_labels_in_the_page_and_walks_questions(tmp_path: Path) -> None:
    """``enter`` opens the region's page with the region selected; ``a`` there attaches it
    to the question on screen; back in pool mode the question is pooled again (the region is
    gone). ``u`` moves to the next question with unjudged regions and makes it current."""
    from labeler.store import question_elements
    from labeler.tui.screens.page import PageScreen

    with open_store(str(tmp_path / "labels.db")) as store:
        q1, q2 = seed_two(store, tmp_path)
        app = make_app(store, "ana")

        async def main() -> None:
            async with app.run_test(size=(120, 36), notifications=False) as pilot:
                await settle(app, pilot)
                app.goto_question(q1)
                await settle(app, pilot)
                open_pool(app)
                await settle(app, pilot)
                assert head(app).startswith("q1: region 1 of 3 · p.txt 10–20 · retrieved by A")
                await pilot.press("enter")
                await settle(app, pilot)
                assert isinstance(app.screen, PageScreen)
                assert app.screen.document_id == "p.txt"
                assert app.screen.view.offsets == (10, 20)
                await pilot.press("a")
                await settle(app, pilot)
                await pilot.press("escape")
                await settle(app, pilot)
                assert isinstance(app.screen, PoolScreen)
                # [10, 20) is now an element of q1: pooled again, two regions are left
                assert head(app).startswith("q1: region 1 of 2 · p.txt 28–30")
                await pilot.press("u")
                await settle(app, pilot)
                assert app.current_query_id == q2
                assert head(app).startswith("q2: region 1 of 1 · p.txt 80–90")
                await pilot.press("u")  # q1 is the only other one, and it has regions left
                await settle(app, pilot)
                assert app.current_query_id == q1
                assert head(app).startswith("q1: region 1 of 2 · p.txt 28–30")

        asyncio.run(main())
        with store.session() as s:
            spans = [(e.start, e.end) for e in question_elements(s, q1)]
            assert sorted(spans) == [(10, 20), (20, 28)]
            assert question_elements(s, q2) == []
