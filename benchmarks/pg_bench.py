"""A throwaway PostgreSQL database for the benchmarks that run on both backends."""

from __future__ import annotations

import uuid

from sqlalchemy.engine import Engine


def pg_database(url: str) -> tuple[str, Engine, str]:
    """A new UTF-8, C-collated database on ``url``'s server: (its URL, the admin engine
    that created it, its name), for the caller to drop."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    from labeler.store.postgres import with_driver

    base = make_url(url)
    admin = create_engine(with_driver(base), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    name = f"labeler_bench_{uuid.uuid4().hex[:12]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(
            f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8' "
            "LC_COLLATE 'C' LC_CTYPE 'C'"
        )
    return base.set(database=name).render_as_string(hide_password=False), admin, name
