"""Assist mode switches of the app: on/off, which stored run it shows, the runs known.

Assist mode shows a stored run's chunks beside the page (:mod:`labeler.tui.assist`);
elements added meanwhile are recorded as assisted, so turning it on warns. It cannot be
turned on without a stored run. After the runs are re-read, the run shown stays unless
it is gone (then the first run, or none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.store import RunSummary, Store, stored_runs

if TYPE_CHECKING:
    from labeler.tui.context import AppContext


def toggle_assist(app: AppContext) -> None:
    """Turn assist mode (retrieval results beside the page) on or off."""
    if not app.assist and app.assist_run is None:
        app.notify(
            "no run stored: import a run first to use assist mode",
            severity="warning",
            timeout=5,
        )
        return
    app.assist = not app.assist
    if app.assist:
        run = app.assist_run.name if app.assist_run else "?"
        app.notify(
            f"assist ON (run {run}): elements you add are recorded as assisted",
            severity="warning",
            timeout=4,
        )
    else:
        app.notify("assist OFF: blind labelling", timeout=3)


def choose_assist_run(app: AppContext, run_id: int) -> None:
    """Make the stored run ``run_id`` the one assist mode shows (unknown ids: nothing)."""
    run = next((r for r in app.runs if r.id == run_id), None)
    if run is not None:
        app.assist_run = run
        app.notify(f"assist run: {run.name}", timeout=3)


def refresh_runs(app: AppContext) -> None:
    """Re-read the stored runs (after an import in another process)."""

    def load(store: Store) -> list[RunSummary]:
        return stored_runs(store)

    def loaded(runs: list[RunSummary]) -> None:
        app.runs = runs
        if app.assist_run is None or app.assist_run.id not in {r.id for r in runs}:
            app.assist_run = runs[0] if runs else None

    app.db(load, loaded, what="load runs")
