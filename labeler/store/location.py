"""Which database a command uses (standard library only, so cheap to import)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote

DB_ENV = "LABELER_DB"
DEFAULT_DB = "labels.db"


def resolve_db(cli_value: str | None) -> str:
    """The database to use: the ``--db`` flag, else ``$LABELER_DB``, else ``./labels.db``.

    An empty ``$LABELER_DB`` counts as unset; an empty flag is passed on (and rejected when
    the store is opened).
    """
    if cli_value is not None:
        return cli_value
    env = os.environ.get(DB_ENV, "")
    return env if env else DEFAULT_DB


def sqlite_file(db: str) -> Path | None:
    """The file of a SQLite ``--db`` value (a path, or a ``sqlite:///`` URL); None for other
    URLs and for in-memory databases."""
    if "://" not in db:
        return Path(db).expanduser() if db.strip() else None
    scheme, _, rest = db.partition("://")
    if scheme.split("+")[0] != "sqlite" or not rest.startswith("/") or rest in ("/", "/:memory:"):
        return None
    return Path(unquote(rest[1:].split("?")[0])).expanduser()
