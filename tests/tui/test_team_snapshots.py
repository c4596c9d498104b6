"""Snapshot of the adjudication screen (pytest-textual-snapshot; update with
``--snapshot-update`` and review the SVG under ``__snapshots__/``).

q1 as in ``test_adjudicate``: ana and bob both chose FR (accepted here with ``U``, so it is
underlined), ana 63-105 and bob 63-86 (each in their colour); the queue lists q1, then q2.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_adjudicate import seed_labels
from test_snapshots import SIZE, SnapCompare, prepare
from textual.pilot import Pilot
from tui_support import make_app, make_team, settle

from labeler.store import open_store
from labeler.tui.app import LabelerApp


def test_adjudication_screen(snap_compare: SnapCompare, db: Path) -> None:
    store = open_store(str(db))
    make_team(store)
    seed_labels(store)

    async def accept_unanimous(app: LabelerApp, pilot: Pilot[Any]) -> None:
        await pilot.press("f5")
        await settle(app, pilot)
        await pilot.press("U")

    assert snap_compare(
        make_app(store, "lead"), terminal_size=SIZE, run_before=prepare(accept_unanimous)
    )
