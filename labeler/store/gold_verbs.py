"""Service verbs that read gold sets as a whole: the list ``labeler gold list`` prints, the
progress the Python API returns, and the existence check of a gold set's name.

Each verb takes the :class:`~labeler.store.Store` and reads in its own read-only session
(:meth:`Store.session`), through the session-level functions of
:mod:`labeler.store.annotate`, :mod:`labeler.store.audit` and :mod:`labeler.store.labels`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from labeler.store.annotate import GoldSetProgress, gold_set_progress
from labeler.store.audit import gold_set_last_changes
from labeler.store.labels import get_gold_set
from labeler.store.session import Store


@dataclass(frozen=True)
class GoldSetListing:
    """Every gold set with its counts, ordered by name (``sets``), and per gold set id the
    time of its last change (``last_changes``, UTC; its creation when nothing changed since)."""

    sets: list[GoldSetProgress]
    last_changes: dict[int, datetime]


def read_gold_set_listing(store: Store) -> GoldSetListing:
    """What ``labeler gold list`` shows: each gold set's questions, elements, annotators and
    last change, read in one session (so the counts and times agree)."""
    with store.session() as s:
        return GoldSetListing(gold_set_progress(s), gold_set_last_changes(s))


def read_gold_set_progress(store: Store) -> list[GoldSetProgress]:
    """Every gold set, ordered by name: description, questions, questions without elements,
    elements, elements per annotator (the stored elements' own counts)."""
    with store.session() as s:
        return gold_set_progress(s)


def check_gold_set(store: Store, name: str) -> None:
    """Nothing when gold set ``name`` exists; else :class:`~labeler.errors.NotFoundError`
    naming the gold sets there are (:func:`labeler.store.labels.get_gold_set`)."""
    with store.session() as s:
        get_gold_set(s, name)
