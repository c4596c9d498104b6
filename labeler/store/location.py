"""Which database a command uses (standard library only, so cheap to import)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import unquote, unquote_plus

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
    """``db`` (a ``--db`` value) as every message shows it, every password replaced by
    ``***``. The one place a database location is rendered for people.

    Works on the text alone, so a value that does not parse (a malformed port, an unknown
    scheme, a refused keyword string) is masked too, and the user's spelling is kept
    otherwise. Three places hold a password:

    * a URL's credentials: ``user:password`` before the **last** ``@`` of what follows
      ``://``. The password runs from the first ``:`` to that ``@`` and may hold
      unencoded ``?``, ``:``, ``/`` and ``@`` (SQLAlchemy reads ``u:Pa?ss@h/db`` as
      password ``Pa?ss``). An ``@`` in the database name or query must be written ``%40``
      (else everything up to it is masked: too much, never too little). Text before that
      ``@`` with no ``:`` is a user name and stays, unless it holds ``/`` or ``?`` (a user
      name cannot): then there are no credentials and the ``@`` is part of the path or
      query.
    * a URL's query parameters whose name holds "password" (``?password=``,
      ``&sslpassword=``; names percent-decoded, any case).
    * libpq keyword/value pairs (``host=h password=secret dbname=d``, spaces around
      ``=`` allowed, values quoted ``'a b'`` with ``\\'`` escapes): the value of every
      keyword holding "password". Applied to any value without ``://``, where it leaves a
      plain path unchanged.

    SQLite URLs carry no credentials and are returned unchanged.
    """
    scheme, sep, rest = db.partition("://")
    if not sep:
        return _mask_keywords(db)
    if scheme.split("+")[0].lower() == "sqlite":
        return db
    creds, at, host = rest.rpartition("@")
    user, colon, _password = creds.partition(":")
    if at and (colon or not ("/" in user or "?" in user)):
        main = f"{user}{colon}{MASK if colon else ''}@"
    else:
        main, host = "", rest
    path, qmark, query = host.partition("?")
    if qmark:
        params = []
        for param in query.split("&"):
            name, eq, _value = param.partition("=")
            hide = eq and "password" in unquote_plus(name).lower()
            params.append(f"{name}={MASK}" if hide else param)
        query = "&".join(params)
    return f"{scheme}{sep}{main}{path}{qmark}{query}"


#: a libpq keyword holding "password", ``=`` and its value: quoted (backslash escapes,
#: running to the end when the quote is never closed) or up to the next white space
_KEYWORD_PASSWORD = re.compile(
    r"(?<![\w.-])(?P<key>\w*password\w*\s*=\s*)(?P<value>'(?:[^'\\]|\\.)*(?:'|\\?$)|(?:[^\s\\]|\\.)*\\?)",
    re.IGNORECASE,
)
#: one libpq keyword/value pair (see :func:`is_keyword_string`)
_KEYWORD_PAIR = r"\s*[A-Za-z_]\w*\s*=\s*(?:'(?:[^'\\]|\\.)*'|(?:[^\s'\\]|\\.)*)"
_KEYWORD_STRING = re.compile(rf"(?:{_KEYWORD_PAIR})+\s*")
#: the keywords of libpq connection strings most often written (enough to recognise one)
LIBPQ_KEYWORDS = frozenset(
    {"host", "hostaddr", "port", "dbname", "user", "password", "sslmode", "service"}
)


def _mask_keywords(text: str) -> str:
    return _KEYWORD_PASSWORD.sub(lambda m: f"{m.group('key')}{MASK}", text)


def is_keyword_string(db: str) -> bool:
    """True when ``db`` is a libpq keyword/value connection string (``host=h dbname=d``):
    nothing but ``keyword=value`` pairs, at least one keyword among
    :data:`LIBPQ_KEYWORDS`."""
    if "://" in db or _KEYWORD_STRING.fullmatch(db) is None:
        return False
    keys = re.findall(r"([A-Za-z_]\w*)\s*=", re.sub(r"'(?:[^'\\]|\\.)*'", "''", db))
    return any(key.lower() in LIBPQ_KEYWORDS for key in keys)


def sqlite_file(db: str) -> Path | None:
    """The file of a SQLite ``--db`` value (a path, or a ``sqlite:///`` URL); None for other
    URLs and for in-memory databases."""
    if "://" not in db:
        return Path(db).expanduser() if db.strip() else None
    scheme, _, rest = db.partition("://")
    if scheme.split("+")[0] != "sqlite" or not rest.startswith("/") or rest in ("/", "/:memory:"):
        return None
    return Path(unquote(rest[1:].split("?")[0])).expanduser()
