"""Which front end wrote an audit entry, without a column of its own.

A store whose :attr:`~labeler.store.session.Store.origin` is set (:data:`ORIGIN_TUI` for the
TUI, in a terminal or served; :data:`ORIGIN_CLI` for commands; :data:`ORIGIN_API` for
:func:`labeler.open`) adds ``"_origin": ORIGIN`` (:data:`ORIGIN_KEY`) to each snapshot of
the audit entries it writes (:func:`labeler.store.audit.mark_origin`). Undo, redo and every
comparison of snapshots ignore that key; entries written before front ends were told apart
have none. :func:`labeler.store.audit.last_place` reads it, so the TUI resumes from its own
changes only.

This module imports no ORM: the CLI sets its process default (:func:`set_default_origin`)
before any command loads SQLAlchemy.
"""

from __future__ import annotations

#: the snapshot key naming the front end that wrote an audit entry
ORIGIN_KEY = "_origin"
ORIGIN_TUI = "tui"
ORIGIN_CLI = "cli"
ORIGIN_API = "api"
#: the ``Session.info`` key under which a write transaction carries its store's origin
SESSION_ORIGIN = "origin"

_default: str | None = None


def set_default_origin(origin: str | None) -> str | None:
    """Make ``origin`` the origin of stores opened from now on in this process without one
    (the CLI sets :data:`ORIGIN_CLI` for the length of a command); returns the one before,
    to put back. ``None``: no origin."""
    global _default
    before, _default = _default, origin
    return before


def default_origin() -> str | None:
    """The origin set by :func:`set_default_origin` (None: none)."""
    return _default
