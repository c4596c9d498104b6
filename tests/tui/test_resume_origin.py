"""Resume is per person and per front end (issue 22): the TUI reopens where that annotator
last changed something *in the TUI*; work done under the same name through the CLI (team
assignments, imports, automatic adjudication) does not move the resume point.

Pilot tests on a real file (SQLite and PostgreSQL), the CLI as a real subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from textual.pilot import Pilot
from tui_support import run_app, seed, settle

from labeler.store import list_audit, open_store
from labeler.tui.app import LabelerApp
from labeler.tui.screens.page import PageScreen


def _labeler(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "LABELER_DB"}
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def _label_q2_on_wal(app: LabelerApp, pilot: Pilot[int]) -> None:
    await pilot.press("down")  # q2
    await pilot.press("f3")
    await settle(app, pilot)
    await pilot.press(*"readers", "enter")
    await settle(app, pilot)
    screen = app.screen
    assert isinstance(screen, PageScreen) and screen.document_id == "wal.html"
    screen.view.select_offsets(41, 72)
    await pilot.press("a")
    await settle(app, pilot)


async def _resumed_on_wal(app: LabelerApp, pilot: Pilot[int]) -> None:
    screen = app.screen
    assert isinstance(screen, PageScreen), type(screen).__name__
    assert screen.document_id == "wal.html"
    assert screen.view.cursor_offset == 41
    assert app.current_question is not None and app.current_question.external_id == "q2"


def test_cli_work_under_the_same_name_does_not_move_the_tui_resume_point(
    any_db: str, tmp_path: Path
) -> None:
    """ana labels q2 on wal.html in the TUI, then, in a shell under the same name, assigns
    the questions to a team and imports another gold set labelled on policy.html; the TUI
    reopened with resume is back on q2 of "demo", on wal.html at the element."""
    with open_store(any_db) as store:
        seed(store)
        run_app(store, _label_q2_on_wal, resume=True)
    gold = tmp_path / "other.jsonl"
    line = {
        "query_id": "o1",
        "query": "Who names the data owner?",
        "elements": [{"doc": "policy.html", "text": "The data owner is named in the register."}],
    }
    gold.write_text(json.dumps(line) + "\n", encoding="utf-8")
    for command in (
        ["gold", "assign", "--gold-set", "demo", "--annotators", "ana,bob", "--actor", "ana"],
        ["gold", "import", str(gold), "--gold-set", "other", "--annotator", "ana"],
    ):
        proc = _labeler(*command, "--db", any_db)
        assert proc.returncode == 0, proc.stderr
    with open_store(any_db) as again:
        run_app(again, _resumed_on_wal, resume=True)
        with again.session() as s:
            imported = next(e for e in list_audit(s, entity="element") if e.actor == "ana")
        assert imported.after is not None and imported.after["_origin"] == "cli"


def test_tui_changes_are_marked_and_undo_ignores_the_mark(any_db: str) -> None:
    """The audit entries of the TUI's changes carry the TUI's mark in their snapshots (the
    CLI's carry the CLI's), and undo through the TUI still reverses them exactly."""
    with open_store(any_db) as store:
        seed(store)
        run_app(store, _label_q2_on_wal)

        async def undo(app: LabelerApp, pilot: Pilot[int]) -> None:
            await pilot.press("ctrl+z")
            await settle(app, pilot)

        run_app(store, undo)
        with store.session() as s:
            entries = sorted(list_audit(s), key=lambda e: e.id or 0)
    element = [e for e in entries if e.entity == "element"]
    assert [(e.action, e.kind) for e in element] == [("add", "do"), ("remove", "undo")]
    assert element[0].after is not None and element[0].after["_origin"] == "tui"
    assert element[1].before is not None and element[1].before["_origin"] == "tui"
    seeded = [e for e in entries if e.entity == "query"]
    assert seeded and all("_origin" not in (e.after or {}) for e in seeded)  # no front end
