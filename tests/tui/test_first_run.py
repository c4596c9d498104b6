"""First run on an empty database: the bundled-corpus path ingests the pages and loads the
corpus's demo gold set, then shows its questions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from tui_support import settle

from labeler.extract import page_text
from labeler.store import count_documents, gold_set_progress, open_store
from labeler.tui.app import LabelerApp

CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "sqlite-docs"
PAGES = ["wal.html", "foreignkeys.html"]


def make_corpus(root: Path, *, demo: bool) -> Path:
    corpus = root / "corpus"
    (corpus / "gold").mkdir(parents=True)
    for name in PAGES:
        (corpus / name).write_bytes((CORPUS / name).read_bytes())
    if demo:
        wal = page_text((CORPUS / "wal.html").read_bytes())
        sentence = "WAL is significantly faster in most scenarios."
        assert sentence in wal
        line = {"query_id": "d1", "query": "Is WAL faster?",
                "elements": [{"doc": "wal.html", "text": sentence}]}  # fmt: skip
        (corpus / "gold" / "demo.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    return corpus


def run_first(db: Path, corpus: Path, gold_set: str | None = None) -> LabelerApp:
    store = open_store(str(db))
    app = LabelerApp(store, annotator="ana", gold_set=gold_set, corpus=corpus)

    async def main() -> None:
        async with app.run_test(size=(120, 36), notifications=False) as pilot:
            for _ in range(4):
                await settle(app, pilot)

    asyncio.run(main())
    store.close()
    return app


def test_first_run_ingests_and_opens_the_demo_gold_set(tmp_path: Path) -> None:
    db = tmp_path / "labels.db"
    app = run_first(db, make_corpus(tmp_path, demo=True))
    assert app.gold_set_name == "demo"
    assert [q.external_id for q in app.questions] == ["d1"]
    with open_store(str(db)) as store, store.session() as s:
        assert count_documents(s) == len(PAGES)
        assert {g.name for g in gold_set_progress(s)} == {"gold", "demo"}


def test_a_named_gold_set_stays_selected_and_a_corpus_without_demo_is_fine(
    tmp_path: Path,
) -> None:
    db = tmp_path / "labels.db"
    app = run_first(db, make_corpus(tmp_path, demo=False), gold_set="mine")
    assert app.gold_set_name == "mine"
    with open_store(str(db)) as store, store.session() as s:
        assert count_documents(s) == len(PAGES)
        assert {g.name for g in gold_set_progress(s)} == {"mine"}
