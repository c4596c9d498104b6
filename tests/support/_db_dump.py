"""Every stored row of a test database, to compare before and after a command."""

from __future__ import annotations

from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from labeler.store.postgres import with_driver

TABLES = (
    "document",
    "gold_set",
    "query",
    "element",
    "run",
    "run_result",
    "run_placement",
    "audit_entry",
)


def dump(db: str) -> list[tuple[object, ...]]:
    """Every document, label and run row, through a plain connection (none of the store's
    setup), tagged with its table and sorted (row order is no part of the comparison)."""
    engine = create_engine(with_driver(make_url(db)) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            rows = [
                (table, *row)
                for table in TABLES
                for row in conn.exec_driver_sql(f'SELECT * FROM "{table}"')
            ]
    finally:
        engine.dispose()
    return sorted(rows, key=repr)
