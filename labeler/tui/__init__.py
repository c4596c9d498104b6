"""The annotator's Textual workplace (``labeler tui``).

Importing this package does not load Textual; :func:`run_tui` does.
"""

from __future__ import annotations

from pathlib import Path


def run_tui(
    db: str,
    *,
    gold_set: str | None = None,
    annotator: str | None = None,
    corpus: Path | None = None,
) -> int:
    """Open the store ``db`` and run the TUI until the user quits; returns an exit code."""
    from labeler.store import open_store, resolve_annotator
    from labeler.tui.app import LabelerApp

    store = open_store(db)
    try:
        app = LabelerApp(
            store, annotator=resolve_annotator(annotator), gold_set=gold_set, corpus=corpus
        )
        app.run()
        return app.return_code or 0
    finally:
        store.close()
