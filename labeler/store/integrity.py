"""Guards of a SQLite store file against damage done from outside: before writing into it,
and when committing.

**A damaged file is reported before more is written into it.** The first write transaction
of a :class:`~labeler.store.session.Store` runs ``PRAGMA quick_check`` (about 5 ms for the
bundled corpus's 7.7 MB database, linear in the file's size) unless the file is exactly as
it was after the last check that passed: a sidecar ``<file>-checked`` holds the file's
size, modification time and inode from then. A check that finds damage refuses the write
with :class:`~labeler.errors.StoreError` naming the file and pointing at ``labeler doctor``.
When the store closes (SQLite has then copied the WAL into the file), the sidecar is
updated, so a file only this labeller wrote is not checked again; a file changed by anything
else is. The sidecar is a hint: unreadable, stale or missing means one more check, and a
directory that refuses it means a check per command.

**A removed WAL never yields a false "done".** Each connection notes the identity (device,
inode) of the ``-wal`` file it opened. Should that file be deleted or replaced while the
connection is open (SQLite only ever deletes it once the last connection closes), the
connection keeps appending to a file no other connection will read, and a commit would be
lost. :meth:`Store.write` compares the identities just before committing (then rolls back:
nothing written) and just after (then the write may be lost); either way the command fails
with a :class:`~labeler.errors.StoreError` instead of reporting success.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from labeler.errors import StoreError

#: the key under which a pooled connection's record keeps its WAL file's identity
WAL_KEY = "labeler_wal"
SIDECAR_SUFFIX = "-checked"

Identity = tuple[int, int]


def file_identity(path: str) -> Identity | None:
    """``(device, inode)`` of ``path``; None when it does not exist."""
    try:
        stat = os.stat(path)
    except FileNotFoundError:
        return None
    return (stat.st_dev, stat.st_ino)


def store_file(engine: Engine) -> Path | None:
    """The file of a SQLite engine; None for an in-memory or ``file:`` URI database."""
    name = engine.url.database
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    return Path(name)


def main_file(dbapi_connection: Any) -> str | None:
    """The file of a sqlite3 connection's main database; None for an in-memory one."""
    for _seq, name, path in dbapi_connection.execute("PRAGMA database_list"):
        if name == "main":
            return str(path) or None
    return None  # pragma: no cover  (SQLite always lists main)


#: the identity noted for a WAL that was gone as soon as the connection had opened it
MISSING: Identity = (-1, -1)


def note_wal(dbapi_connection: Any, info: dict[str, Any]) -> None:
    """Record in ``info`` (the pool record's) the main file and the identity of the WAL the
    connection (in WAL mode) opened. A read makes the connection open it first (a database
    just switched to WAL mode has none until then); should the file still be missing, it
    was deleted at once (:data:`MISSING`: every write fails). An empty new database has no
    WAL until its first write: None, adopted by :func:`confirm_wal`."""
    path = main_file(dbapi_connection)
    if path is None:
        return
    identity = file_identity(path + "-wal")
    if identity is None and os.path.getsize(path) > 0:
        dbapi_connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
        identity = file_identity(path + "-wal") or MISSING
    info[WAL_KEY] = (path, identity)


def _held_deleted(wal: str) -> bool:
    """True when this process holds ``wal`` open although the file was deleted (Linux
    names such a descriptor's target "PATH (deleted)"; elsewhere: always False).

    This catches what identities cannot: the file deleted and made anew by another program
    between the moment a connection opened it and the moment its identity was noted.
    """
    targets = {f"{wal} (deleted)", f"{os.path.realpath(wal)} (deleted)"}
    try:
        fds = os.listdir("/proc/self/fd")
    except OSError:
        return False
    for fd in fds:
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/self/fd/{fd}") in targets:
                return True
    return False


def confirm_wal(info: dict[str, Any], where: str, *, committed: bool) -> None:
    """Raise :class:`StoreError` when the WAL the connection of ``info`` writes into is no
    longer the database's ``-wal`` file (deleted or replaced).

    ``committed`` says whether the transaction was already committed (the write may then be
    lost) or not (the caller rolls back: nothing was written). A connection that noted no
    WAL yet (new file) adopts the current one.
    """
    noted = info.get(WAL_KEY)
    if noted is None:
        return
    path, identity = noted
    current = file_identity(path + "-wal")
    if identity is None and not _held_deleted(path + "-wal"):
        info[WAL_KEY] = (path, current)
        return
    if current == identity and not _held_deleted(path + "-wal"):
        return
    what = "removed" if current is None else "replaced"
    if committed:
        raise StoreError(
            f"{where}: the write was not persisted: the database's -wal file was {what} "
            "while this command wrote to it; close every program using the database, check "
            "it with `labeler doctor` and run the command again"
        )
    raise StoreError(
        f"{where}: the database's -wal file was {what} while this command was using the "
        "database; nothing was written. Close every program using the database and run "
        "the command again"
    )


def _stamp(path: Path) -> str | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return f"{stat.st_size} {stat.st_mtime_ns} {stat.st_dev} {stat.st_ino}"


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + SIDECAR_SUFFIX)


def needs_check(path: Path) -> bool:
    """True unless ``path`` is exactly as when its last check passed (the sidecar)."""
    try:
        return _sidecar(path).read_text(encoding="ascii").strip() != _stamp(path)
    except (OSError, UnicodeDecodeError):
        return True


def remember_checked(path: Path) -> None:
    """Record ``path`` as checked, as it is now (best effort: an unwritable directory only
    means the next writer checks again)."""
    stamp = _stamp(path)
    if stamp is None:
        return
    with contextlib.suppress(OSError):
        _sidecar(path).write_text(stamp + "\n", encoding="ascii")


def check_early(path: Path | None, where: str) -> threading.Thread | None:
    """Start checking SQLite file ``path`` for damage in a (daemon) thread, as a store's
    first write would (:func:`quick_check`, on a read-only connection of its own), while
    the caller has other work: the write then finds the file checked and skips its own check
    (a file changed meanwhile is checked again there); the caller joins the thread before
    it writes. None (no thread) for no file (PostgreSQL, a store that wrote already:
    ``Store.file_to_check``) or one checked already as it is. Damage found here is left for
    the write to report: it checks again, this check having recorded nothing. SQLite
    releases the interpreter's lock while it reads. The check of the import benchmark's
    databases took 0.08 s (33 MB) and 0.8 s (254 MB)."""
    if path is None or not needs_check(path):
        return None
    thread = threading.Thread(target=_check_file, args=(path, where), daemon=True)
    thread.start()
    return thread


def _check_file(path: Path, where: str) -> None:
    """``quick_check`` of SQLite file ``path`` on a read-only connection of its own."""
    import sqlite3

    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return
    try:
        conn.execute("PRAGMA cache_size = -256")  # it reads each page once: memory stays put
        quick_check(conn, path, where)
    except Exception:  # the write checks again, and reports what it finds
        pass
    finally:
        conn.close()


_CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB (low byte of extended codes)


def is_damage(exc: BaseException) -> bool:
    """True when ``exc`` (a SQLAlchemy or sqlite3 error) says the file is damaged."""
    import sqlite3

    orig = getattr(exc, "orig", exc)
    code = getattr(orig, "sqlite_errorcode", None)
    return (
        isinstance(orig, sqlite3.DatabaseError)
        and isinstance(code, int)
        and (code & 0xFF in _CORRUPT_CODES)
    )


def damaged_message(where: str, problem: str) -> str:
    """What the user reads about a damaged file, whichever statement met the damage."""
    return (
        f"{where}: the database file is damaged ({problem}); nothing more is written into "
        f"it. Run `labeler doctor --db {where}` for details and restore it from a backup"
    )


def quick_check(dbapi_connection: Any, path: Path, where: str) -> None:
    """Run ``PRAGMA quick_check`` on the connection (inside the caller's write transaction,
    so it sees the WAL too) unless the file is unchanged since its last check (sidecar);
    raise :class:`StoreError` naming the file when it reports damage or cannot read it."""
    if not needs_check(path):
        return
    stamp = _stamp(path)
    import sqlite3

    try:
        rows = [str(r[0]) for r in dbapi_connection.execute("PRAGMA quick_check(5)")]
    except sqlite3.DatabaseError as err:
        rows = [str(err)]
    if rows != ["ok"]:
        raise StoreError(damaged_message(where, rows[0]))
    if stamp is not None and stamp == _stamp(path):
        with contextlib.suppress(OSError):
            _sidecar(path).write_text(stamp + "\n", encoding="ascii")
