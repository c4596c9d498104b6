"""labeler.progress: the words of a report, plain lines on a clock the test advances, the
throttle, the counting wrapper, and which reporter the CLI gets for which stream.

Expected strings are worked out by hand from the formula in the docstrings (rate = done /
elapsed, time left = (total - done) * elapsed / done, rounded up)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

from labeler.progress import (
    PlainLines,
    Throttled,
    counted,
    describe,
    left_words,
    no_progress,
    reporter,
    set_clock,
)


class Clock:
    """A clock that moves only when told to (or by ``step`` at every reading)."""

    def __init__(self, step: float = 0.0) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        now = self.now
        self.now += self.step
        return now


def test_describe_counts_rate_and_time_left() -> None:
    # 12,000 of 256,000 in 6.15 s: 1,951/s; 244,000 left at that rate: 125.05 s -> 3 min
    assert describe(12_000, 256_000, 6.15, "questions") == (
        "12,000/256,000 questions, 1,951/s, 3 min left"
    )
    # no total: count and rate only
    assert describe(500, None, 2.0, "files") == "500 files, 250/s"
    # a total of 0 (standard input's size) is no total
    assert describe(500, 0, 2.0, "files") == "500 files, 250/s"
    # bytes as MB: 12.5 of 250 MB in 4 s, 3.1 MB/s, 237.5 MB left: 76 s -> 2 min
    assert describe(12_500_000, 250_000_000, 4.0, "bytes") == (
        "12.5/250.0 MB, 3.1 MB/s, 2 min left"
    )
    # under ten a second: one decimal (7 in 2.8 s: 2.5/s, 3 left: 1.2 s -> 2 s)
    assert describe(7, 10, 2.8, "pages") == "7/10 pages, 2.5/s, 2 s left"
    # nothing done yet: neither rate nor time left
    assert describe(0, 10, 3.0, "pages") == "0/10 pages"


def test_time_left_is_rounded_up_and_gone_when_done() -> None:
    assert left_words(1, 3, 10.0) == "20 s left"
    assert left_words(3, 4, 10.0) == "4 s left"  # 3.33 s
    assert left_words(1, 100, 60.0) == "1 h 39 min left"  # 5,940 s = 99 min
    assert left_words(10, 10, 5.0) == ""
    assert left_words(5, None, 5.0) == ""


def test_plain_lines_wait_for_the_interval() -> None:
    clock = Clock()
    out = io.StringIO()
    lines = PlainLines(out, "score", "questions", interval=10.0, clock=clock)
    clock.now = 9.9
    lines(100, 400, "")
    assert out.getvalue() == ""  # under ten seconds: nothing
    clock.now = 10.0
    lines(200, 400, "")  # 20/s, 200 left: 10 s
    clock.now = 15.0
    lines(300, 400, "")  # five seconds after the last line: nothing
    clock.now = 20.0
    lines(400, 400, "")  # done: no time left
    assert out.getvalue() == (
        "score: 200/400 questions, 20/s, 10 s left\nscore: 400/400 questions, 20/s\n"
    )


def test_throttled_passes_the_first_the_last_and_one_per_interval() -> None:
    clock = Clock()
    seen: list[int] = []
    throttled = Throttled(lambda done, total, item: seen.append(done), 1.0, clock)
    for done, at in [(1, 0.0), (2, 0.5), (3, 1.0), (4, 1.5), (5, 1.7), (6, 2.9)]:
        clock.now = at
        throttled(done, 6, "")
    assert seen == [1, 3, 6]  # 6 is the total: always passed


def test_counted_reports_every_nth_and_the_last() -> None:
    calls: list[tuple[int, int | None, str]] = []
    items = list(counted(range(10), lambda d, t, i: calls.append((d, t, i)), 10, every=4))
    assert items == list(range(10))
    assert calls == [(4, 10, ""), (8, 10, ""), (10, 10, "")]
    assert list(counted(iter("abc"), no_progress, 3)) == ["a", "b", "c"]


def test_reporter_on_a_stream_that_is_no_terminal_writes_plain_lines() -> None:
    clock = Clock(step=11.0)
    before = set_clock(clock)
    try:
        out = io.StringIO()
        with reporter("doctor", "checks", stream=out) as progress:
            progress(1, 4, "integrity")  # 11 s after the start: 1/11 s, 33 s left
        with reporter("doctor", "checks", stream=out, quiet=True) as quiet:
            quiet(2, 4, "schema")
    finally:
        set_clock(before)
    assert quiet is no_progress
    assert out.getvalue() == "doctor: 1/4 checks, 0.1/s, 33 s left\n"


def test_a_plain_reporter_loads_neither_rich_nor_textual() -> None:
    code = (
        "import io, json, sys\n"
        "from labeler.progress import reporter\n"
        "with reporter('score', 'questions', stream=io.StringIO()) as p:\n"
        "    p(1, 2, '')\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    loaded = set(json.loads(out.stdout))
    assert not {m for m in loaded if m.split(".")[0] in {"rich", "textual"}}
