"""Many pages in several processes (labeler.extract.batch): the same results, in the same
order, as one process; a worker killed mid-way costs nothing but time. Real forks on the
bundled corpus, no mocks; nothing here is timed."""

from __future__ import annotations

import hashlib
import os
import resource
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from labeler.extract import Extracted, PageError, extract_many
from labeler.extract.batch import MIN_BYTES_PER_PROCESS, _Claims, plan_processes
from labeler.extract.jsoup import jsoup_body_text, jsoup_text_and_blocks
from labeler.workers import may_fork, usable_cpus

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
PAGES = sorted(CORPUS.rglob("*.html"))

needs_fork = pytest.mark.skipif(not may_fork(), reason="needs os.fork and two usable CPUs")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _live_children() -> list[int]:
    """Pids of this process's children that are running (not zombies), from /proc."""
    me = os.getpid()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path("/proc", entry, "stat").read_text()
        except OSError:
            continue
        state, ppid = stat.rsplit(")", 1)[1].split()[:2]
        if int(ppid) == me and state != "Z":
            found.append(int(entry))
    return found


def test_plan_processes_hand_worked() -> None:
    if not may_fork():
        assert plan_processes([1 << 20] * 4, 2) == 1
        return
    assert plan_processes([1, 1, 1, 1], 2) == 2  # as many as asked for
    assert plan_processes([1, 1, 1, 1], 8) == 4  # but one page each at least
    assert plan_processes([1, None, None], 2) == 1  # only one page a worker may read
    assert plan_processes([1, 1, 1, 1], 1) == 1
    # automatic: one per usable CPU, a quarter megabyte each at least
    assert plan_processes([MIN_BYTES_PER_PROCESS - 1] * 2, None) == 1
    assert plan_processes([MIN_BYTES_PER_PROCESS] * 2, None) == 2
    assert plan_processes([1 << 20] * 64, None) == usable_cpus()


def test_claims_meet_in_the_middle_without_a_gap_or_a_page_twice() -> None:
    claims = _Claims(5)
    try:
        assert [claims.front(), claims.back(), claims.back(), claims.front()] == [0, 4, 3, 1]
        assert claims.back() == 2
        assert claims.front() is None and claims.back() is None
    finally:
        claims.close()


@needs_fork
def test_claims_across_processes_hand_out_each_page_once() -> None:
    """Two processes taking pages from both ends as fast as they can: together, every page
    exactly once."""
    n = 20_000
    claims = _Claims(n)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the other end: its pages, on the pipe
        os.close(read_end)
        taken = []
        while (page := claims.back()) is not None:
            taken.append(page)
        os.write(write_end, ",".join(map(str, taken)).encode())
        os._exit(0)
    os.close(write_end)
    mine = []
    while (page := claims.front()) is not None:
        mine.append(page)
    with os.fdopen(read_end, "rb") as pipe:
        theirs = [int(x) for x in pipe.read().decode().split(",") if x]
    os.waitpid(pid, 0)
    claims.close()
    assert mine == list(range(len(mine)))  # the front, in order
    assert theirs == list(range(n - 1, n - 1 - len(theirs), -1))  # the back, in order
    assert len(mine) + len(theirs) == n


@needs_fork
def test_two_processes_give_the_one_process_results_in_order() -> None:
    before = _children_cpu()
    two = list(extract_many(PAGES, blocks=True, digest=True, jobs=2))
    assert _children_cpu() > before  # a worker ran (and was reaped)
    one = list(extract_many(PAGES, blocks=True, digest=True, jobs=1))
    assert two == one
    # and one process is the plain single-page functions, page by page
    for path, got in zip(PAGES, one, strict=True):
        assert isinstance(got, Extracted)
        assert (got.text, got.blocks) == jsoup_text_and_blocks(path.read_bytes())


@needs_fork
def test_text_only_and_engines_match_page_by_page() -> None:
    for engine in (None, "lexbor"):
        got = list(extract_many(PAGES, engine=engine, jobs=2))
        want = [jsoup_body_text(p.read_bytes(), engine or "jsoup") for p in PAGES]
        assert [r.text for r in got if isinstance(r, Extracted)] == want
        assert all(r.blocks is None and r.sha256 is None for r in got if isinstance(r, Extracted))


@needs_fork
def test_a_killed_worker_has_its_pages_done_by_the_caller() -> None:
    pages = PAGES * 3  # the worker's share takes long enough to be killed mid-way
    results = extract_many(pages, jobs=2)
    first = next(results)  # the worker is forked by now, the caller on its first page
    killed = _live_children()
    assert killed, "no worker process to kill"
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    rest = list(results)
    got = [first, *rest]
    assert [r.text for r in got if isinstance(r, Extracted)] == [
        jsoup_body_text(p.read_bytes()) for p in pages
    ]
    assert not _live_children()


@needs_fork
def test_a_page_that_fails_in_a_worker_is_reported_by_the_caller_in_its_place(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.html"
    bad.write_bytes(b"<p>never read</p>")
    pages = [*PAGES[:-5], bad, *PAGES[-5:]]  # the last pages are the worker's

    tried = tmp_path / "tried"

    def read(path: str | os.PathLike[str]) -> bytes:
        if Path(path).name == "bad.html":
            with tried.open("a") as log:  # which processes tried it, in order
                log.write(f"{os.getpid()}\n")
            raise ValueError(f"refused in process {os.getpid()}")
        return Path(path).read_bytes()

    got = list(extract_many(pages, read=read, jobs=2))
    failed = got[len(pages) - 6]
    assert isinstance(failed, PageError) and failed.stage == "read"
    assert str(failed.error) == f"refused in process {os.getpid()}"  # the caller's own
    first, again = (int(pid) for pid in tried.read_text().split())
    assert first != os.getpid() and again == os.getpid()  # a worker's, then redone here
    assert [r.text for r in got if isinstance(r, Extracted)] == [
        jsoup_body_text(p.read_bytes()) for p in pages if p != bad
    ]


def test_missing_and_unreadable_pages_are_page_errors(tmp_path: Path) -> None:
    page = tmp_path / "a.html"
    page.write_bytes(b"<p>a &amp; b</p>")
    got = list(extract_many([page, tmp_path / "gone.html", tmp_path], jobs=2))
    assert got[0] == Extracted("a & b", None, None)
    assert isinstance(got[1], PageError) and isinstance(got[1].error, FileNotFoundError)
    assert isinstance(got[2], PageError) and isinstance(got[2].error, IsADirectoryError)
    assert [r.stage for r in got[1:] if isinstance(r, PageError)] == ["read", "read"]
    broken = list(extract_many([page], "no-such-profile", jobs=1))
    assert isinstance(broken[0], PageError) and broken[0].stage == "extract"


def test_off_the_main_thread_one_process_does_it_all() -> None:
    got: list[Extracted | PageError] = []
    before = _children_cpu()
    worker = threading.Thread(target=lambda: got.extend(extract_many(PAGES[:200], jobs=2)))
    worker.start()
    worker.join()
    assert _children_cpu() == before  # no process was forked (and reaped)
    assert [r.text for r in got if isinstance(r, Extracted)] == [
        jsoup_body_text(p.read_bytes()) for p in PAGES[:200]
    ]


@needs_fork
def test_closing_early_stops_the_workers() -> None:
    results = extract_many(PAGES * 2, jobs=2)
    next(results)
    assert _live_children()
    results.close()
    assert not _live_children()


_ONE_CPU = """
import hashlib, resource, sys
from pathlib import Path
from labeler.extract import extract_many
pages = sorted(Path(sys.argv[1]).rglob("*.html"))[:300]
texts = [r.text for r in extract_many(pages, jobs=2)]
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(usage.ru_utime + usage.ru_stime, hashlib.sha256("\\0".join(texts).encode()).hexdigest())
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs CPU affinity (Linux)")
def test_with_one_usable_cpu_one_process_does_it_all() -> None:
    cpu = min(os.sched_getaffinity(0))
    proc = subprocess.run(
        [sys.executable, "-c", _ONE_CPU, str(CORPUS)],
        capture_output=True,
        text=True,
        check=True,
        preexec_fn=lambda: os.sched_setaffinity(0, {cpu}),
        timeout=600,
    )
    children, digest = proc.stdout.split()
    assert float(children) == 0.0  # no process was forked (and reaped)
    want = "\0".join(jsoup_body_text(p.read_bytes()) for p in PAGES[:300])
    assert digest == hashlib.sha256(want.encode()).hexdigest()
