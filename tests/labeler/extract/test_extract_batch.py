"""Many pages in several processes (labeler.extract.batch): the same results, in the same
order, as one process; a worker killed mid-way costs nothing but time. Real forks on the
bundled corpus, no mocks; nothing here is timed."""

from __future__ import annotations

import os
import resource
import signal
import threading
from pathlib import Path

import pytest

from labeler.extract import Extracted, PageError, extract_many
from labeler.extract.batch import plan_owners
from labeler.extract.jsoup import jsoup_body_text, jsoup_text_and_blocks
from labeler.workers import may_fork

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


def test_plan_owners_hand_worked() -> None:
    if not may_fork():
        assert plan_owners([1, 1, 1, 1], 2) == [0, 0, 0, 0]
        return
    # middles at 0.5, 1.5, 2.5, 3.5 of 4 bytes: slices [0, 2) and [2, 4)
    assert plan_owners([1, 1, 1, 1], 2) == [0, 0, 1, 1]
    # page 0's middle (5 of 13) is in the first half, the rest lie past it: 10 against 3
    assert plan_owners([10, 1, 1, 1], 2) == [0, 1, 1, 1]
    # a page without a size stays with the caller, between two runs of a worker
    assert plan_owners([1, None, 1, 1, 1], 2) == [0, 0, 0, 1, 1]
    # three processes over six equal pages: two each
    assert plan_owners([5] * 6, 3) == [0, 0, 1, 1, 2, 2]
    # one process asked for, or too little for the automatic count: no worker
    assert plan_owners([1, 1, 1, 1], 1) == [0, 0, 0, 0]
    assert plan_owners([1, 1, 1, 1], None) == [0, 0, 0, 0]
    assert plan_owners([None, None], 2) == [0, 0]


@needs_fork
def test_two_processes_give_the_one_process_results_in_order() -> None:
    owners = plan_owners([p.stat().st_size for p in PAGES], 2)
    assert owners[0] == 0 and owners[-1] == 1  # the corpus is really split
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
    assert plan_owners([p.stat().st_size for p in pages], 2)[len(pages) - 6] == 1

    def read(path: str | os.PathLike[str]) -> bytes:
        if Path(path).name == "bad.html":
            raise ValueError(f"refused in process {os.getpid()}")
        return Path(path).read_bytes()

    got = list(extract_many(pages, read=read, jobs=2))
    failed = got[len(pages) - 6]
    assert isinstance(failed, PageError) and failed.stage == "read"
    assert str(failed.error) == f"refused in process {os.getpid()}"  # the caller's own
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
