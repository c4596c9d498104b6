"""Service verbs that read the stored runs: the lines of ``labeler run list`` and the
summaries the Python API returns.

Each verb takes the :class:`~labeler.store.Store` and reads in its own read-only session
(:meth:`Store.session`).
"""

from __future__ import annotations

from labeler.store.browse import RunSummary, list_runs
from labeler.store.run_table import RunListing, run_listings
from labeler.store.session import Store


def read_run_listings(store: Store) -> list[RunListing]:
    """Every run as ``labeler run list`` prints it (name, import time, source file, question
    and result counts), by name (:func:`labeler.store.run_table.run_listings`)."""
    with store.session() as s:
        return run_listings(s)


def read_run_summaries(store: Store) -> list[RunSummary]:
    """Every run as the Python API's ``Database.runs()`` returns it
    (:func:`labeler.store.browse.list_runs`)."""
    with store.session() as s:
        return list_runs(s)
