"""Service verbs that read the stored runs: the lines of ``labeler run list`` (and of the
Python API's ``Database.runs()``), and whether a run name may be stored.

Each verb takes the :class:`~labeler.store.Store` and reads in its own read-only session
(:meth:`Store.session`).
"""

from __future__ import annotations

from labeler.store.run_table import RunListing, check_run_name, run_listings
from labeler.store.session import Store


def read_run_listings(store: Store) -> list[RunListing]:
    """Every run as ``labeler run list`` prints it (name, import time, source file, question
    and result counts), by name (:func:`labeler.store.run_table.run_listings`)."""
    with store.session() as s:
        return run_listings(s)


def check_new_run_name(store: Store, name: str, *, replace: bool = False) -> None:
    """Refuse, before any work is done, a run name that storing a run could not take: an
    empty name, or the name of a stored run unless ``replace``
    (:func:`labeler.store.run_table.check_run_name`; raises its
    :class:`~labeler.errors.IntegrityError`)."""
    with store.session() as s:
        check_run_name(s, name, replace=replace)
