"""A PostgreSQL server that freezes or stops in the middle of an import.

Each test starts its own throwaway server (``scripts/test-postgres`` on another port and
directory, never the shared test server), runs a real ``labeler run import`` against it in a
subprocess and, once the import is inserting results, freezes the server (SIGSTOP on the
postmaster and every backend: the kernel still acknowledges TCP, so only a client-side
deadline notices) or stops it (``pg_ctl stop -m fast``). The import must end with one line
on stderr and exit 1, and the database must hold nothing of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from labeler.store import open_store

pytestmark = pytest.mark.backends("postgresql")

ROOT = Path(__file__).resolve().parents[3]
RUN_LINES = 40_000
#: the statement timeout the frozen test sets
STATEMENT_TIMEOUT_S = 2
#: the reply grace it sets (``$LABELER_PG_REPLY_GRACE``; 10 s by default): the import must
#: give up this long after the statement timeout, not wait the default out
REPLY_GRACE_S = 2
#: far beyond STATEMENT_TIMEOUT_S + REPLY_GRACE_S: only a hang reaches it
HANG_S = 90


@dataclass(frozen=True)
class Server:
    directory: Path
    port: int
    url: str

    def pids(self) -> list[int]:
        """The postmaster and all its children (backends, checkpointer, ...)."""
        postmaster = int((self.directory / "data" / "postmaster.pid").read_text().split()[0])
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                children.append(int(stat.parent.name))
        return [postmaster, *children]

    def signal_all(self, sig: signal.Signals) -> None:
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError):  # a backend that ended meanwhile
                os.kill(pid, sig)

    def scalar(self, sql: str) -> object:
        engine = create_engine(
            self.url.replace("postgresql://", "postgresql+psycopg://"), poolclass=NullPool
        )
        try:
            with engine.connect() as conn:
                return conn.exec_driver_sql(sql).scalar()
        finally:
            engine.dispose()


def _free_port() -> int:
    """A loopback port nobody listens on now: each test's server gets its own, so parallel
    test workers (and other checkouts' suites) never start two servers on one port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _script(server_dir: Path, port: int, action: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LABELER_PG_PORT": str(port), "LABELER_PG_DIR": str(server_dir)}
    env.pop("LABELER_TEST_PG_URL", None)
    return subprocess.run(
        [str(ROOT / "scripts" / "test-postgres"), action],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )


@pytest.fixture
def server(backend: str) -> Iterator[Server]:
    assert backend == "postgresql"
    # not under tmp_path: the server runs as the `postgres` user, who cannot enter it
    directory = Path(f"/tmp/labeler-test-pg-frozen-{os.getpid()}")
    port = _free_port()
    url = _script(directory, port, "start").stdout.strip()
    server = Server(directory, port, url)
    try:
        yield server
    finally:
        if (directory / "data" / "postmaster.pid").exists():
            server.signal_all(signal.SIGCONT)
        _script(directory, port, "stop")


@pytest.fixture(scope="module")
def run_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("frozen") / "run.jsonl"
    with path.open("w", encoding="utf-8") as f:
        for q in range(RUN_LINES):
            results = [
                {"text": f"chunk {q}-{r} " + "x" * 40, "score": 1 / (r + 1)} for r in range(5)
            ]
            f.write(json.dumps({"query_id": f"q{q}", "results": results}) + "\n")
    return path


def _start_import(url: str, run_file: Path) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "LABELER_PG_STATEMENT_TIMEOUT": str(STATEMENT_TIMEOUT_S),
        "LABELER_PG_REPLY_GRACE": str(REPLY_GRACE_S),
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "labeler",
            "run",
            "import",
            str(run_file),
            "--name",
            "big",
            "--db",
            url,
            # no progress: on a slow machine its line every 10 s would come before the
            # error, and the error alone is what these tests read
            "-q",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _wait_for_inserts(server: Server, proc: subprocess.Popen[str]) -> None:
    """Poll until the import is inserting run results (its ``COPY ... FROM STDIN``)."""
    sql = (
        "SELECT count(*) FROM pg_stat_activity "
        "WHERE application_name = 'labeler' AND starts_with(query, 'COPY run_result')"
    )
    while server.scalar(sql) == 0:
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.01)


def _finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    try:
        _out, err = proc.communicate(timeout=HANG_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"the import still hung {HANG_S} s after the server froze")
    return proc.returncode, err


def _runs(server: Server) -> object:
    return server.scalar("SELECT count(*) FROM run")


def test_frozen_server_ends_the_import_with_one_line(server: Server, run_file: Path) -> None:
    # the schema first, so the import's transaction is the only writer (a read-only
    # command such as `run list` creates no database: labeler.store.open_store create=False)
    open_store(server.url).close()
    proc = _start_import(server.url, run_file)
    _wait_for_inserts(server, proc)
    server.signal_all(signal.SIGSTOP)
    code, err = _finish(proc)
    server.signal_all(signal.SIGCONT)
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "the server stopped answering" in lines[0]
    assert "internal error" not in err
    assert _runs(server) == 0


def test_server_stopped_mid_import_gives_one_line(server: Server, run_file: Path) -> None:
    # the schema first, so the import's transaction is the only writer (a read-only
    # command such as `run list` creates no database: labeler.store.open_store create=False)
    open_store(server.url).close()
    proc = _start_import(server.url, run_file)
    _wait_for_inserts(server, proc)
    postmaster = server.pids()[0]
    os.kill(postmaster, signal.SIGINT)  # fast shutdown: backends are terminated
    code, err = _finish(proc)
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("labeler: error: ")
    assert "Pipeline" not in err
    while (server.directory / "data" / "postmaster.pid").exists():
        time.sleep(0.05)  # the shutdown is complete
    _script(server.directory, server.port, "start")
    assert _runs(server) == 0
