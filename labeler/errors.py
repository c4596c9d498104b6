"""The one exception tree of the labeller. Only the CLI turns these into exit codes."""

from __future__ import annotations

import errno
from collections.abc import Sequence
from pathlib import Path

#: errno values of a write the system refused for lack of room or a failing or read-only
#: disk: the user's to fix, never an internal error
WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS})

#: the file name that means standard input (the Unix convention), and how messages name it
STDIN = "-"
STDIN_NAME = "<stdin>"


def input_name(path: str | Path) -> str:
    """How messages name an input file: ``<stdin>`` for ``-``, else the path as given."""
    text = str(path)
    return STDIN_NAME if text == STDIN else text


class LabelerError(Exception):
    """Base of every error the labeller raises on purpose; its message is for the user."""

    exit_code = 1


class UsageError(LabelerError):
    """The command line asks for something that does not exist (profile, gold set, run...)."""

    exit_code = 2


class InputError(LabelerError):
    """A user-supplied file is unreadable or malformed.

    ``path`` and ``line`` (1-based, when the file is line-oriented) locate the problem; a
    ``path`` of ``-`` (standard input) is shown as ``<stdin>``.
    """

    def __init__(self, path: str | Path, message: str, line: int | None = None) -> None:
        self.path = input_name(path)
        self.line = line
        self.reason = message
        where = self.path if line is None else f"{self.path}:{line}"
        super().__init__(f"{where}: {message}")


class OutputError(LabelerError):
    """Output could not be written: disk full, quota, file too large, read-only file system,
    I/O error. The message is ``<reason>: <path>``, e.g. ``no space left on device: out.tsv``.
    """

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{reason}: {self.path}")


def write_failure(err: OSError, path: str | Path) -> OutputError | None:
    """``err`` as an :class:`OutputError` on ``path`` when its errno is one of
    :data:`WRITE_ERRNOS` (the reason is the system's text in lower case, ``no space left on
    device``); None for any other error."""
    if err.errno not in WRITE_ERRNOS:
        return None
    reason = (err.strerror or errno.errorcode.get(err.errno or 0, "write failed")).lower()
    return OutputError(path, reason)


class ExtractError(LabelerError):
    """Page text could not be extracted (unknown profile or engine, undecodable input)."""


class ServeError(LabelerError):
    """``labeler serve`` cannot start (the address is taken or not this machine's)."""


class StoreError(LabelerError):
    """The database is unusable: cannot be opened, wrong schema version, locked too long."""


class IntegrityError(StoreError):
    """A write would break an invariant (element text differs from the page slice, ...)."""


class NotFoundError(StoreError):
    """A named object (gold set, run, document, question) is not in the database."""


#: how many existing names a not-found message lists before it says how many more there are
NAMES_SHOWN = 20


def not_found(kind: str, name: str, known: Sequence[str], *, none_yet: str = "") -> NotFoundError:
    """The error for ``kind`` ``name`` missing from the database, listing the ``known`` names
    so the user sees what to type: ``no gold set 'x' in the database (gold sets: a, b)``;
    the first :data:`NAMES_SHOWN` only, then ``... and N more``. With no names at all,
    ``none_yet`` is said instead (default ``no gold sets yet``, from ``kind`` + ``s``)."""
    plural = f"{kind}s"
    if not known:
        listed = none_yet or f"no {plural} yet"
    else:
        listed = f"{plural}: " + ", ".join(known[:NAMES_SHOWN])
        if len(known) > NAMES_SHOWN:
            listed += f", ... and {len(known) - NAMES_SHOWN} more"
    return NotFoundError(f"no {kind} {name!r} in the database ({listed})")


class RoleError(LabelerError):
    """The person acting is a registered annotator whose role may not do this (an annotator
    settling a question, deleting one, assigning...). The message names the role needed and
    the command that gives it; nothing was written."""


class RemovedError(NotFoundError):
    """A row someone else removed meanwhile: the message names what and who removed it
    (``removed_by``, from the audit log), so a screen that still showed it can say so."""

    def __init__(self, message: str, removed_by: str) -> None:
        super().__init__(message)
        self.removed_by = removed_by
