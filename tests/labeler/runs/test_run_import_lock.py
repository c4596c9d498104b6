"""A run import holds the write lock only for its short write; a waiting writer says so.

Real CLI subprocesses on real databases (SQLite file in WAL, PostgreSQL). A run file given
as a FIFO whose writer (this test) keeps it open makes "the import is still reading"
an event the test controls, with no timing: while the FIFO is open another process must be
able to write and commit, and the import must still end with every line the FIFO gave it.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from labeler.cli import main
from labeler.errors import InputError
from labeler.runs import import_run_file
from labeler.store import create_gold_set, get_gold_set, open_store
from labeler.store.run_table import run_listings
from labeler.store.runstage import sweep_orphans

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Alpha page. The answer is forty-two. Bravo sentence follows here."
ANSWER = "The answer is forty-two."


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args], capture_output=True, text=True, check=False
    )


def _start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "labeler", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _line(qid: str, *chunks: str) -> str:
    return json.dumps({"query_id": qid, "results": [{"text": c} for c in chunks]}) + "\n"


@pytest.fixture
def db(db_url: str, tmp_path: Path) -> str:
    """A database with one page and a gold set "g" of one question labelled on it."""
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "a.txt").write_text(PAGE, encoding="utf-8")
    gold = tmp_path / "gold.jsonl"
    row = {"query_id": "q1", "query": "What is the answer?"}
    gold.write_text(json.dumps(row | {"elements": [{"doc": "a.txt", "text": ANSWER}]}) + "\n")
    for args in (("ingest", "-q", str(pages)), ("gold", "import", str(gold), "--gold-set", "g")):
        assert main([*args, "--db", db_url]) == 0
    return db_url


def _runs(db: str) -> dict[str, tuple[int, int]]:
    with open_store(db) as store, store.session() as s:
        return {r.name: (r.queries, r.results) for r in run_listings(s)}


def test_import_reading_an_open_fifo_holds_no_lock(db: str, tmp_path: Path) -> None:
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    gold = tmp_path / "more.jsonl"
    gold.write_text(json.dumps({"query_id": "q9", "query": "Another?", "elements": []}) + "\n")
    importer = _start("run", "import", str(fifo), "--name", "live", "-q", "--db", db)
    with fifo.open("w", encoding="utf-8") as feed:  # returns once the import opened it
        feed.write(_line("q1", ANSWER, "Bravo sentence"))
        feed.flush()
        # the import is reading the FIFO, which stays open: another writer commits now
        other = _cli("gold", "import", str(gold), "--gold-set", "other", "--db", db)
        assert other.returncode == 0, other.stderr
        assert "waiting" not in other.stderr  # it never waited for the lock
        assert importer.poll() is None  # the import is still reading
        for n in range(2, 6):
            feed.write(_line(f"q{n}", f"chunk {n}", "Alpha page."))
    _, err = importer.communicate()
    assert importer.returncode == 0, err
    assert _runs(db) == {"live": (5, 10)}
    with open_store(db) as store, store.session() as s:
        assert get_gold_set(s, "other").name == "other"


@pytest.mark.parametrize("replace", [False, True])
def test_run_name_is_checked_again_under_the_lock(db: str, tmp_path: Path, replace: bool) -> None:
    """Another import creates the run while this one reads: without --replace this one
    fails and leaves the other's run; with --replace it replaces the other's run."""
    fifo = tmp_path / "run.fifo"
    os.mkfifo(fifo)
    flags = ["--replace"] if replace else []
    first = _start("run", "import", str(fifo), "--name", "r", "-q", *flags, "--db", db)
    other = tmp_path / "other.jsonl"
    other.write_text(_line("q1", "x") + _line("q2", "y"), encoding="utf-8")
    with fifo.open("w", encoding="utf-8") as feed:
        feed.write(_line("q1", ANSWER, "Alpha page.", "z"))
        feed.flush()
        done = _cli("run", "import", str(other), "--name", "r", "-q", "--db", db)
        assert done.returncode == 0, done.stderr
    _, err = first.communicate()
    if replace:
        assert first.returncode == 0, err
        assert _runs(db) == {"r": (1, 3)}
    else:
        assert first.returncode == 1
        assert "run 'r' already exists" in err
        assert _runs(db) == {"r": (2, 2)}


def test_waiting_writer_says_so_then_writes(db: str, tmp_path: Path, backend: str) -> None:
    run = tmp_path / "run.jsonl"
    run.write_text(_line("q1", ANSWER), encoding="utf-8")
    with open_store(db) as store, store.write() as s:  # this process holds the write lock
        create_gold_set(s, "held")
        pid = (
            s.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar()
            if (backend == "postgresql")
            else None
        )
        importer = _start("run", "import", str(run), "--name", "r", "-q", "--db", db)
        assert importer.stderr is not None
        said = importer.stderr.readline()  # the first thing it says, while the lock is held
        assert said.startswith(f"labeler: waiting for the database {db}")
        assert "holds the write lock" in said
        if pid is not None:  # PostgreSQL names the holder
            assert f"server process {pid} (" in said
    _, rest = importer.communicate()
    assert importer.returncode == 0, rest
    assert "the database is free again" in rest
    assert _runs(db) == {"r": (1, 1)}


@pytest.mark.backends("sqlite")
def test_successive_imports_in_one_process_leave_no_staging(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The staging file is attached to a pooled connection for the write: it is detached
    again (a second import on the same connection can attach its own) and removed, also
    after a rejected file."""
    staging = tmp_path / "tmp"
    staging.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(staging))
    first, second, bad = tmp_path / "1.jsonl", tmp_path / "2.jsonl", tmp_path / "bad.jsonl"
    first.write_text(_line("q1", ANSWER), encoding="utf-8")
    second.write_text(_line("q1", "a", "b") + _line("q2", "c"), encoding="utf-8")
    bad.write_text(_line("q1", "a") + "{not json\n", encoding="utf-8")
    with open_store(db) as store:
        import_run_file(store, first, "one")
        import_run_file(store, second, "two")
        with pytest.raises(InputError, match=r"bad\.jsonl:2"):
            import_run_file(store, bad, "three")
        import_run_file(store, first, "one", replace=True)
    assert _runs(db) == {"one": (1, 1), "two": (2, 3)}
    assert list(staging.iterdir()) == []


@pytest.mark.backends("postgresql")
def test_writer_giving_up_names_the_holder(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """PostgreSQL knows who holds the advisory write lock: the waiting writer's notice
    and, when it gives up, its error name that server process."""
    from labeler.errors import NotFoundError, StoreError
    from labeler.store import postgres

    monkeypatch.setattr(postgres, "WRITE_LOCK_TIMEOUT_MS", 3_000)  # give up after 3 s
    notices: list[str] = []
    with open_store(db) as holder, holder.write() as held:
        pid = held.connection().exec_driver_sql("SELECT pg_backend_pid()").scalar()
        with (
            open_store(db, on_wait=notices.append) as waiter,
            pytest.raises(StoreError) as caught,
            waiter.write() as s,
        ):
            create_gold_set(s, "never")
    assert "stayed busy" in str(caught.value)
    assert f"held by server process {pid} (labeler, in a transaction for" in str(caught.value)
    assert len(notices) == 1 and f"server process {pid} (labeler" in notices[0]
    with open_store(db) as store, store.session() as s, pytest.raises(NotFoundError):
        get_gold_set(s, "never")


def _stage_files(directory: Path) -> list[Path]:
    return sorted(directory.glob("labeler-run-stage-*"))


def _wait_for_stage(directory: Path, importer: subprocess.Popen[str], known: list[Path]) -> Path:
    """The staging file ``importer`` creates once it reads: the first one in ``directory``
    not in ``known`` (polled: it appears when the import gets there)."""
    for _ in range(6000):
        if new := [p for p in _stage_files(directory) if p not in known]:
            return new[0]
        assert importer.poll() is None, importer.communicate()
        time.sleep(0.01)
    raise AssertionError("the import never created its staging file")


def test_next_import_removes_the_staging_file_of_a_killed_one(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A killed import cannot remove its staging file; the next import on this host does,
    and says so, while the file of an import still running is left alone."""
    staging = tmp_path / "tmp"
    staging.mkdir()
    monkeypatch.setenv("TMPDIR", str(staging))  # the CLI subprocesses stage there
    run = tmp_path / "run.jsonl"
    run.write_text(_line("q1", ANSWER), encoding="utf-8")
    fifo, live_fifo = tmp_path / "run.fifo", tmp_path / "live.fifo"
    os.mkfifo(fifo)
    os.mkfifo(live_fifo)

    live = _start("run", "import", str(live_fifo), "--name", "live", "-q", "--db", db)
    with live_fifo.open("w", encoding="utf-8") as live_feed:
        live_feed.write(_line("q1", ANSWER))
        live_feed.flush()
        running = _wait_for_stage(staging, live, [])

        killed = _start("run", "import", str(fifo), "--name", "killed", "-q", "--db", db)
        with fifo.open("w", encoding="utf-8") as feed:
            feed.write(_line("q1", ANSWER))
            feed.flush()
            orphan = _wait_for_stage(staging, killed, [running])
            killed.send_signal(signal.SIGKILL)
            killed.communicate()
        assert orphan.exists()  # nothing removed it: the process was killed outright

        done = _cli("run", "import", str(run), "--name", "next", "--db", db)
        assert done.returncode == 0, done.stderr
        assert f"removed 1 staging file(s) left by killed imports: {orphan}" in done.stderr
        assert not orphan.exists()
        assert running.exists()  # that import is still reading: its file stays
    _, err = live.communicate()
    assert live.returncode == 0, err
    assert _stage_files(staging) == []  # each import removed its own file
    assert set(_runs(db)) == {"live", "next"}


def test_sweep_keeps_other_hosts_running_processes_and_old_names(tmp_path: Path) -> None:
    """Only this host's files whose process is gone are orphans."""
    host = socket.gethostname()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # reaped: no process has this id now (ids are not reused this soon)
    names = {
        f"labeler-run-stage-{host}-{gone.pid}-abc.sqlite": False,  # orphan: removed
        f"labeler-run-stage-{host}-{os.getpid()}-abc.sqlite": True,  # this process runs
        f"labeler-run-stage-elsewhere-{gone.pid}-abc.sqlite": True,  # another host's
        "labeler-run-stage-abc123.sqlite": True,  # an older version's name
        "unrelated.sqlite": True,
    }
    for name in names:
        (tmp_path / name).write_bytes(b"")
    removed = sweep_orphans(tmp_path)
    assert removed == [tmp_path / f"labeler-run-stage-{host}-{gone.pid}-abc.sqlite"]
    assert {p.name for p in tmp_path.iterdir()} == {n for n, kept in names.items() if kept}
