"""Empty states name the commands that fill them (issue 22): the scores screen with no run
(chunk file, then a stored run: evaluate or run import), the questions list of a gold set
with no questions, the documents list with no pages; each names the database.

Pilot tests on a real SQLite file; the scores screen's commands are run as printed (split as a
shell splits them, through the CLI's ``main``), and then fill the screen.
"""

from __future__ import annotations

import asyncio
import json
import shlex
from pathlib import Path

from _cli_in_process import labeler_in_process
from textual.pilot import Pilot
from textual.widgets import Static
from tui_support import OTHER_PAGE, PAGE, run_app, settle

from labeler.store import Store, open_store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.documents import DocumentsScreen
from labeler.tui.screens.questions import QuestionsScreen
from labeler.tui.screens.scores import ScoresScreen


def _text(screen: object, selector: str) -> str:
    assert hasattr(screen, "query_one")
    return str(screen.query_one(selector, Static).content)


def _labeler(args: list[str], cwd: Path) -> None:
    proc = labeler_in_process(*args, cwd=cwd, env={"LABELER_DB": None})
    assert proc.returncode == 0, (args, proc.stderr)


def test_scores_screen_names_the_commands_that_store_a_run(tmp_path: Path) -> None:
    """A database made as a user makes one (ingest, gold import), no run: the scores screen
    names the database and the commands; run as printed, they fill it."""
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "policy.txt").write_text(PAGE, encoding="utf-8")
    (pages / "wal.txt").write_text(OTHER_PAGE, encoding="utf-8")
    db = tmp_path / "labels.db"
    line = {
        "query_id": "q1",
        "query": "Who approves exceptions?",
        "elements": [{"doc": "policy.txt", "text": "Exceptions are approved by the data owner."}],
    }
    (tmp_path / "gold.jsonl").write_text(json.dumps(line) + "\n", encoding="utf-8")
    _labeler(["ingest", "pages", "-q", "--db", str(db)], tmp_path)
    _labeler(["gold", "import", "gold.jsonl", "--gold-set", "demo", "--db", str(db)], tmp_path)
    shown: list[str] = []

    async def empty(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f4")
        await settle(app, pilot)
        assert isinstance(app.screen, ScoresScreen)
        shown.append(_text(app.screen, "#score-summary"))

    with open_store(str(db)) as store:
        run_app(store, empty)
    text = shown[0]
    assert text.startswith(f"no runs stored yet in {db}; to score gold set 'demo':\n")
    assert "labeler chunks make --chunker structure -o chunks.jsonl\n" in text
    assert "labeler run import RUN.jsonl --name NAME" in text
    assert text.endswith("then press r")
    # the two numbered commands, run as printed (on this database), store run "bm25"
    commands = [
        line.split(". ", 1)[1] for line in text.splitlines() if line.strip()[:2] in ("1.", "2.")
    ]
    assert [c.split()[:2] for c in commands] == [["labeler", "chunks"], ["labeler", "evaluate"]]
    assert "--store-run bm25" in commands[1]
    for command in commands:
        _labeler([*shlex.split(command)[1:], "--db", str(db)], tmp_path)

    async def filled(app: LabelerApp, pilot: Pilot[int]) -> None:
        await pilot.press("f4")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, ScoresScreen)
        assert [r.name for r in screen.runs] == ["bm25"]
        assert screen.scored is not None

    with open_store(str(db)) as again:
        run_app(again, filled)


def test_questions_list_of_an_empty_gold_set_names_how_to_fill_it(store: Store) -> None:
    """Gold set "empty" (created by the TUI as asked for) has no questions yet."""
    app = LabelerApp(store, annotator="ana", gold_set="empty", resume=False)

    async def main() -> None:
        async with app.run_test(size=(120, 36), notifications=False) as pilot:
            await settle(app, pilot)
            assert isinstance(app.screen, QuestionsScreen)
            text = _text(app.screen, "#progress")
            assert text.endswith(
                "no questions yet: a adds one, or labeler gold import FILE --gold-set empty"
            )

    asyncio.run(main())


def test_documents_list_with_no_pages_names_ingest(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    with open_store(str(db)) as store:

        async def body(app: LabelerApp, pilot: Pilot[int]) -> None:
            await pilot.press("f3")
            await settle(app, pilot)
            assert isinstance(app.screen, DocumentsScreen)
            assert _text(app.screen, "#doc-count") == (
                f"no pages in {db} yet: labeler ingest PATH... stores them"
            )

        run_app(store, body)
