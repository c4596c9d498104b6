"""Shared fixtures for store and ingest tests: real databases, no mocks.

SQLite tests use a file in ``tmp_path``; PostgreSQL tests get a fresh database per test
(``CREATE DATABASE``, UTF-8 with the C collation and ctype so that ordering and ``lower()``
match SQLite's) on the server ``$LABELER_TEST_PG_URL`` names, dropped afterwards: empty, or
a copy of a database :func:`open_store` created the schema in (``pg_schema_template``) when
the test uses ``store``, which would create that schema before the test starts anyway (the
SQLite file of such a test is likewise a copy of ``sqlite_schema_template``).

A test (or module, via ``pytestmark``) marked ``@pytest.mark.backends("sqlite",
"postgresql")`` runs once per backend: the ``backend`` fixture names it and ``db_url`` and
``store`` follow it. The closest mark wins, so one test of a both-backends module can say
``@pytest.mark.backends("sqlite")``. Unmarked tests run on SQLite only.

``LABELER_TEST_BACKENDS`` (comma-separated, default ``sqlite,postgresql``) chooses the
backends. Without ``LABELER_TEST_PG_URL`` every PostgreSQL test fails (never skips), saying
how to start a server; ``LABELER_TEST_BACKENDS=sqlite`` is the explicit escape hatch for
machines without PostgreSQL (CI never sets it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from pg_support import create_database, drop_database, new_database_name
from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from labeler.store import Store, open_store
from labeler.store.postgres import with_driver

BACKENDS = ("sqlite", "postgresql")
PG_URL_ENV = "LABELER_TEST_PG_URL"
BACKENDS_ENV = "LABELER_TEST_BACKENDS"
NO_SERVER = (
    f"${PG_URL_ENV} is not set, so the PostgreSQL variant of this test cannot run. Start a "
    "throwaway server and export its URL:\n\n"
    f'    export {PG_URL_ENV}="$(scripts/test-postgres)"    # stop: scripts/test-postgres stop\n\n'
    f"or run `make test`, which does both. Only on a machine without PostgreSQL: "
    f"{BACKENDS_ENV}=sqlite runs the SQLite variants alone."
)


def selected_backends() -> tuple[str, ...]:
    """The backends ``$LABELER_TEST_BACKENDS`` asks for (all of :data:`BACKENDS` by default)."""
    raw = os.environ.get(BACKENDS_ENV, "").strip()
    if not raw:
        return BACKENDS
    names = tuple(name.strip() for name in raw.split(",") if name.strip())
    unknown = sorted(set(names) - set(BACKENDS))
    if unknown or not names:
        raise pytest.UsageError(
            f"{BACKENDS_ENV}={raw!r}: unknown backend(s) {unknown}; choose from {BACKENDS}"
        )
    return tuple(name for name in BACKENDS if name in names)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "backends(*names): run the test once per named database backend "
        "(fixtures backend, db_url, store)",
    )


def pytest_report_header(config: pytest.Config) -> str:
    url = os.environ.get(PG_URL_ENV)
    where = make_url(url).render_as_string(hide_password=True) if url else "not set"
    return f"labeler backends: {', '.join(selected_backends())}; {PG_URL_ENV}: {where}"


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("backends")
    if marker is None:
        return  # the backend fixture's default: SQLite
    wanted = tuple(marker.args) or BACKENDS
    for name in wanted:
        if name not in BACKENDS:
            raise pytest.UsageError(f"{metafunc.definition.nodeid}: unknown backend {name!r}")
    chosen: list[Any] = [name for name in wanted if name in selected_backends()]
    if not chosen:  # e.g. a PostgreSQL-only test under LABELER_TEST_BACKENDS=sqlite
        reason = f"{BACKENDS_ENV}={os.environ.get(BACKENDS_ENV)} leaves out {', '.join(wanted)}"
        chosen = [pytest.param(name, marks=pytest.mark.skip(reason=reason)) for name in wanted]
    metafunc.parametrize("backend", chosen, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The database backend this test runs on: ``sqlite`` unless marked ``backends``."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[Engine]:
    """An autocommit engine on ``$LABELER_TEST_PG_URL``'s database (creates the test ones)."""
    url = os.environ.get(PG_URL_ENV, "").strip()
    if not url:
        pytest.fail(NO_SERVER, pytrace=False)
    engine = create_engine(
        with_driver(make_url(url)), isolation_level="AUTOCOMMIT", poolclass=NullPool
    )
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("SELECT 1")
    except Exception as exc:
        engine.dispose()
        pytest.fail(f"{PG_URL_ENV}={url}: cannot connect: {exc}\n\n{NO_SERVER}", pytrace=False)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def pg_schema_template(pg_admin: Engine) -> Iterator[str]:
    """The name of a PostgreSQL database holding the labeller's schema and nothing else,
    created by :func:`open_store` itself once per test process (each xdist worker has its
    own). The ``store`` fixture's PostgreSQL databases are copies of it (``CREATE DATABASE
    ... TEMPLATE``): that fixture creates the schema before its test starts anyway, and
    copying the result takes about a tenth of a second where creating it (every migration
    in turn) took about half a second per test. Tests of creating the schema get empty
    databases (``db_url`` without ``store``, ``pg_databases``)."""
    name = new_database_name()
    create_database(pg_admin, name)
    try:
        base = make_url(os.environ[PG_URL_ENV].strip())
        open_store(base.set(database=name).render_as_string(hide_password=False)).close()
        yield name
    finally:
        drop_database(pg_admin, name)


@pytest.fixture
def pg_databases(pg_admin: Engine) -> Iterator[Callable[..., str]]:
    """A factory of fresh PostgreSQL databases (their URLs), dropped after the test: empty,
    or copies of ``template`` (a database name) when one is given."""
    created: list[str] = []
    base = make_url(os.environ[PG_URL_ENV].strip())

    def new_database(template: str = "template0") -> str:
        name = new_database_name()
        create_database(pg_admin, name, template=template)
        created.append(name)
        return base.set(database=name).render_as_string(hide_password=False)

    yield new_database
    for name in created:
        drop_database(pg_admin, name)


@pytest.fixture(scope="session")
def sqlite_schema_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file holding the labeller's schema and nothing else, created by
    :func:`open_store` once per test process: the SQLite twin of ``pg_schema_template``
    (a copy takes a few milliseconds, creating the schema about 60)."""
    path = tmp_path_factory.mktemp("schema") / "template.db"
    open_store(str(path)).close()  # closed: checkpointed, no WAL left beside it
    return path


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "labels.db"


@pytest.fixture
def db_url(backend: str, db_path: Path, request: pytest.FixtureRequest) -> str:
    """The ``--db`` value of this test's database: the SQLite file (none yet), or a fresh
    PostgreSQL database's URL (empty). When the test also uses ``store``, which would create
    the schema before the test starts, it is a copy of ``sqlite_schema_template`` or
    ``pg_schema_template`` instead."""
    if backend == "postgresql":
        factory: Callable[..., str] = request.getfixturevalue("pg_databases")
        if "store" in request.fixturenames:
            return factory(template=request.getfixturevalue("pg_schema_template"))
        return factory()
    if "store" in request.fixturenames:
        template: Path = request.getfixturevalue("sqlite_schema_template")
        shutil.copyfile(template, db_path)
    return str(db_path)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    opened = open_store(db_url)
    try:
        yield opened
    finally:
        opened.close()


#: fills an empty database: called with a scratch folder and the database's ``--db`` value
Seed = Callable[[Path, str], object]


@pytest.fixture(scope="session")
def seeded_templates() -> Iterator[dict[tuple[str, str], str]]:
    """The databases ``seeded_db`` filled in this test process, by (key, backend): a SQLite
    file's path or a PostgreSQL database's name; the PostgreSQL ones are dropped at the end."""
    made: dict[tuple[str, str], str] = {}
    yield made
    names = [name for (_, backend), name in made.items() if backend == "postgresql"]
    if names:
        admin = create_engine(
            with_driver(make_url(os.environ[PG_URL_ENV].strip())),
            isolation_level="AUTOCOMMIT",
            poolclass=NullPool,
        )
        try:
            for name in names:
                drop_database(admin, name)
        finally:
            admin.dispose()


@pytest.fixture
def seeded_db(
    backend: str,
    db_path: Path,
    request: pytest.FixtureRequest,
    seeded_templates: dict[tuple[str, str], str],
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[str, Seed], str]:
    """A factory: ``seeded_db(key, seed)`` is this test's database (its ``--db`` value), a
    copy of the one ``seed`` filled, from empty, once per test process and backend (``key``
    names that database). For tests that all start from the same seeded state: the seed
    (the schema's migrations, then what ``seed`` writes) is paid once, a copy costs a few
    milliseconds (SQLite) or a ``CREATE DATABASE ... TEMPLATE`` (PostgreSQL). ``seed`` must
    leave no connection open (a PostgreSQL template takes none; a SQLite file is copied
    alone, so it must hold everything, no WAL beside it): the CLI's ``main`` closes its own."""

    def make(key: str, seed: Seed) -> str:
        made = seeded_templates.get((key, backend))
        if backend == "postgresql":
            admin: Engine = request.getfixturevalue("pg_admin")
            if made is None:
                name = new_database_name()
                create_database(admin, name)
                try:
                    base = make_url(os.environ[PG_URL_ENV].strip())
                    seed(
                        tmp_path_factory.mktemp("seed"),
                        base.set(database=name).render_as_string(hide_password=False),
                    )
                except BaseException:
                    drop_database(admin, name)
                    raise
                made = seeded_templates[(key, backend)] = name
            factory: Callable[..., str] = request.getfixturevalue("pg_databases")
            return factory(template=made)
        if made is None:
            folder = tmp_path_factory.mktemp("seed")
            seed(folder, str(folder / "labels.db"))
            assert not (folder / "labels.db-wal").exists(), f"{key}: a connection is open"
            made = seeded_templates[(key, backend)] = str(folder / "labels.db")
        shutil.copyfile(made, db_path)
        return str(db_path)

    return make
