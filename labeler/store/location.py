"""Which database a command uses (standard library only, so cheap to import)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote

#: what a password is replaced by in :func:`display_location`
MASK = "***"

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


def display_location(db: str) -> str:
    """``db`` (a ``--db`` value) as every message shows it: a URL's password replaced by
    ``***``. The one place a database location is rendered for people.

    Works on the text alone, so a URL that does not parse (a malformed port, an unknown
    scheme) is masked too, and the user's spelling is kept otherwise. The credentials are
    everything before the last ``@`` ahead of the query string (a password may itself hold
    ``@`` or ``/``); a ``user:password`` there keeps the user. Query parameters whose name
    contains "password" (``?password=...``, ``sslpassword``) are masked as well. A plain
    path is returned unchanged.
    """
    scheme, sep, rest = db.partition("://")
    if not sep or scheme.split("+")[0] == "sqlite":  # SQLite URLs carry no credentials
        return db
    main, qmark, query = rest.partition("?")
    creds, at, host = main.rpartition("@")
    if at:
        user, colon, _password = creds.partition(":")
        main = f"{user}{colon}{MASK if colon else ''}@{host}"
    if qmark:
        params = []
        for param in query.split("&"):
            name, eq, _value = param.partition("=")
            hide = eq and "password" in unquote(name).lower()
            params.append(f"{name}={MASK}" if hide else param)
        query = "&".join(params)
    return f"{scheme}{sep}{main}{qmark}{query}"


def sqlite_file(db: str) -> Path | None:
    """The file of a SQLite ``--db`` value (a path, or a ``sqlite:///`` URL); None for other
    URLs and for in-memory databases."""
    if "://" not in db:
        return Path(db).expanduser() if db.strip() else None
    scheme, _, rest = db.partition("://")
    if scheme.split("+")[0] != "sqlite" or not rest.startswith("/") or rest in ("/", "/:memory:"):
        return None
    return Path(unquote(rest[1:].split("?")[0])).expanduser()
