"""Creating and dropping the PostgreSQL test databases (shared by the test conftests).

``tests/support`` is on the test path (``pythonpath`` in pyproject's pytest settings), so
``from pg_support import ...`` works from every test folder.
"""

from __future__ import annotations

import time
import uuid

import sqlalchemy.exc
from sqlalchemy import Engine

INSUFFICIENT_PRIVILEGE = "42501"
"""SQLSTATE of FORCE's refusal to terminate another role's process (PostgreSQL 13-15 say
"must be a member of the role whose process is being terminated", 16+ "permission denied
to terminate process")."""


def new_database_name() -> str:
    """A fresh test database name: ``labeler_t_`` and 16 random hex digits."""
    return f"labeler_t_{uuid.uuid4().hex[:16]}"


def create_database(admin: Engine, name: str, template: str = "template0") -> None:
    """``CREATE DATABASE name`` from ``template``, UTF-8 with the C collation and ctype (so
    ordering and ``lower()`` match SQLite's). ``admin`` is an autocommit engine."""
    with admin.connect() as conn:
        conn.exec_driver_sql(
            f'CREATE DATABASE "{name}" TEMPLATE "{template}" '
            "ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'"
        )


def drop_database(admin: Engine, name: str, attempts: int = 50, pause: float = 0.1) -> None:
    """``DROP DATABASE IF EXISTS name WITH (FORCE)``, retried while refused.

    FORCE terminates the clients still connected (a killed CLI's server process may
    linger), but may not terminate an autovacuum worker that happens to be on the database:
    it runs as the superuser, which our role may not signal (SQLSTATE 42501). That refusal
    passes once the worker is done, so it is retried up to ``attempts`` times ``pause``
    seconds apart (5 s by default); any other error, or the last refusal, is raised.
    """
    for attempt in range(attempts):
        try:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            return
        except sqlalchemy.exc.DBAPIError as exc:
            refused = getattr(exc.orig, "sqlstate", None) == INSUFFICIENT_PRIVILEGE
            if not refused or attempt == attempts - 1:
                raise
            time.sleep(pause)
