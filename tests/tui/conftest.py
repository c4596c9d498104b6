"""Fixtures for the TUI tests: a real SQLite store with two pages and one gold set."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from tui_support import seed_store

from labeler.store import Store, open_store


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """:func:`tui_support.seed_store`'s database, made once per test process (the schema's
    migrations and the seed: about 60 ms a test otherwise); each test gets a copy."""
    path = tmp_path_factory.mktemp("seeded") / "labels.db"
    seed_store(path)
    assert not path.with_name(path.name + "-wal").exists()  # closed: the file holds it all
    return path


@pytest.fixture
def db(tmp_path: Path, seeded_db: Path) -> Path:
    path = tmp_path / "labels.db"
    shutil.copyfile(seeded_db, path)
    return path


@pytest.fixture
def store(db: Path) -> Iterator[Store]:
    opened = open_store(str(db))
    try:
        yield opened
    finally:
        opened.close()


BACKENDS = ("sqlite", "postgresql")
PG_URL_ENV = "LABELER_TEST_PG_URL"


@pytest.fixture(params=BACKENDS)
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database on each backend: a SQLite file, or a fresh PostgreSQL database on
    ``$LABELER_TEST_PG_URL``'s server (dropped afterwards; the test fails without it, as
    the store tests do). ``LABELER_TEST_BACKENDS`` chooses backends like there."""
    import os

    from pg_support import create_database, drop_database, new_database_name
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.pool import NullPool

    from labeler.store.postgres import with_driver

    chosen = os.environ.get("LABELER_TEST_BACKENDS", "").strip()
    if chosen and request.param not in [b.strip() for b in chosen.split(",")]:
        pytest.skip(f"LABELER_TEST_BACKENDS={chosen} leaves out {request.param}")
    if request.param == "sqlite":
        yield str(tmp_path / "team.db")
        return
    url = os.environ.get(PG_URL_ENV, "").strip()
    if not url:
        pytest.fail(f"${PG_URL_ENV} is not set: the PostgreSQL variant cannot run", pytrace=False)
    base = make_url(url)
    admin = create_engine(with_driver(base), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    name = new_database_name()
    create_database(admin, name)
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        drop_database(admin, name)
        admin.dispose()


@pytest.fixture
def team_store(any_db: str) -> Iterator[Store]:
    """:func:`tui_support.seed_team` on each backend."""
    from tui_support import seed_team

    opened = open_store(any_db)
    try:
        seed_team(opened)
        yield opened
    finally:
        opened.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Iterator[None] | pytest.TestReport:
    """A failed snapshot test says in its own output how the picture differs (a report file
    left on the machine that ran it is no use when that machine is CI's)."""
    report: pytest.TestReport = yield
    if (
        report.when == "call"
        and report.failed
        and "snap_compare" in getattr(item, "fixturenames", ())
    ):
        import pickle

        from pytest_textual_snapshot import node_to_report_path
        from snapshot_diff import describe

        path = node_to_report_path(item)
        if path.exists():
            data = pickle.loads(path.read_bytes())
            difference = describe(data[1], data[2])
            report.sections.append(("how the picture differs", difference))
            item.warn(pytest.PytestWarning(f"snapshot differs:\n{difference}"))
    return report
