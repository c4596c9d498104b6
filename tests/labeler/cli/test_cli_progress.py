"""Progress of long commands (issue 24): a plain line every ten seconds on a stderr that is
not a terminal (on a clock the test advances: nothing sleeps), a rich bar on a terminal (a
real pseudo-terminal), nothing with ``-q``, and stdout the same byte for byte either way.

Expected lines are worked by hand: the fake clock reads 0 at the reporter's start and 11 s
more at every later reading, so every report is a line; rate = done / elapsed, time left =
(total - done) * elapsed / done, rounded up.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from _scoring_db import build

from labeler.cli import main
from labeler.progress import set_clock
from labeler.store import add_query, create_gold_set, open_store, upsert_document
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR
from labeler.store.team import mark_done


class Clock:
    """0 at the first reading, then ``step`` seconds more at each."""

    def __init__(self, step: float) -> None:
        self.now = -step
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.fixture
def ticking() -> Iterator[None]:
    """Reporters built during the test read a clock that moves 11 s a reading."""
    before = set_clock(Clock(11.0))
    yield
    set_clock(before)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """Four corpus pages, gold set g (90 questions, every 17th without elements) and runs
    a and b, built with -q so that no clock is read yet."""
    return build(tmp_path)


def test_score_writes_a_line_per_report_on_a_stderr_that_is_no_terminal(
    db: str, ticking: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["score", "--gold-set", "g", "--run", "a", "--db", db]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("score: ")]
    # a report after each range of questions with elements (one range: the 84 of 90 that
    # have elements, every 17th has none), then the end, at 11 s and 22 s:
    # 84/11 = 7.6/s, 6 left: 6 * 11 / 84 = 0.8 s -> 1 s; 90/22 = 4.1/s, done
    assert lines == [
        "score: 84/90 questions, 7.6/s, 1 s left",
        "score: 90/90 questions, 4.1/s",
    ]


def test_quiet_silences_progress_and_stdout_is_unchanged(
    db: str, ticking: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["score", "--gold-set", "g", "--run", "a", "--db", db, "--format", "json"]
    assert main(args) == 0
    loud = capsys.readouterr()
    assert main([*args, "-q"]) == 0
    quiet = capsys.readouterr()
    assert "score: " in loud.err
    assert "score: " not in quiet.err
    assert quiet.err == "".join(
        line + "\n" for line in loud.err.splitlines() if not line.startswith("score: ")
    )
    assert loud.out == quiet.out
    assert loud.out.startswith("{")


def test_short_work_on_the_real_clock_writes_no_progress_line(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under ten seconds nothing is added: stderr is what it was before progress existed."""
    args = ["score", "--gold-set", "g", "--run", "a", "--db", db]
    assert main(args) == 0
    plain = capsys.readouterr()
    assert main([*args, "--quiet"]) == 0
    quiet = capsys.readouterr()
    assert plain == quiet


def _seed_team(db: str) -> None:
    """Gold set team: ana and bob marked q1 and q2 done, with labels on one page."""
    store = open_store(db)
    with store.write() as s:
        text = "Alpha beta. Gamma delta epsilon. Zeta eta."
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=text
        )
        gold = create_gold_set(s, "team")
        for name, spans in (("q1", ((12, 32), (12, 32))), ("q2", ((0, 11), (0, 5)))):
            q = add_query(s, gold, name, f"{name}?", actor="lead")
            for who, (start, end) in zip(("ana", "bob"), spans, strict=True):
                add_element(s, q.id, "w.html", start, end, annotator=who, layer=LAYER_ANNOTATOR)
                mark_done(s, q.id, who)
    store.close()


COMMANDS: dict[str, tuple[list[str], str]] = {
    # command -> (arguments after the command, the line's start)
    "ingest": (["ingest", "{tmp}/docs"], "ingest: 1/4 files, 0.1/s, 33 s left"),
    "gold import": (
        ["gold", "import", "{tmp}/gold.jsonl", "--gold-set", "again"],
        "gold import: 90/90 questions, 8.2/s",
    ),
    "run import": (["run", "import", "{tmp}/a.jsonl", "--name", "c"], "run import: "),
    "chunks make": (
        ["chunks", "make", "--chunker", "fixed", "-o", "{tmp}/made.jsonl"],
        "chunks make: 1/5 pages, 0.1/s, 44 s left",
    ),
    "chunks audit": (
        ["chunks", "audit", "{tmp}/chunks.jsonl", "--gold-set", "g"],
        "chunks audit: ",
    ),
    "compare": (
        ["compare", "--gold-set", "g", "--run", "a", "--run", "b"],
        # one range of run a (84 questions with elements) at 11 s: 7.6/s, 96 * 11 / 84 = 12.6
        "compare: 84/180 questions, 7.6/s, 13 s left",
    ),
    "evaluate": (
        [
            "evaluate",
            "--gold-set",
            "g",
            "--retriever",
            "labeler.evaluation:bm25_retriever",
            "--retriever-arg",
            "chunks={tmp}/chunks.jsonl",
        ],
        "evaluate: 1/90 questions, 0.1/s, 17 min left",
    ),
    "agreement": (["agreement", "--gold-set", "team"], "agreement: 0/2 questions"),
    "doctor": (["doctor"], "doctor: 1/"),
}


#: commands whose stdout holds no timing and no name that differs between the two runs
SAME_OUTPUT = {"agreement", "chunks audit", "compare", "doctor"}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_long_command_reports_progress_and_quiet_silences_it(
    command: str, tmp_path: Path, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each command's first report is a line on stderr (counts worked by hand: e.g. the
    first of four files after 11 s is 0.1/s with 3 * 11 = 33 s left, of five pages (the team page too) 4 * 11 = 44 s; 84 of 180 questions
    for two runs of 90; one of 90 questions after 11 s leaves 89 * 11 s = 16.3 min, rounded up to 17); with
    -q there is none, and stdout is the same where it holds no timings or names."""
    assert (
        main(
            [
                "chunks",
                "make",
                "--chunker",
                "structure",
                "-o",
                str(tmp_path / "chunks.jsonl"),
                "--db",
                db,
                "-q",
            ]
        )
        == 0
    )
    _seed_team(db)
    capsys.readouterr()
    words, first = COMMANDS[command]
    args = [w.replace("{tmp}", str(tmp_path)) for w in words] + ["--db", db]
    if command in ("gold import", "run import", "chunks make"):
        quiet_args = [a.replace("again", "again2").replace("made.", "made2.") for a in args]
        quiet_args = [("d" if a == "c" else a) for a in quiet_args]
    else:
        quiet_args = list(args)
    before = set_clock(Clock(11.0))
    try:
        loud_code = main(args)
        loud = capsys.readouterr()
        quiet_code = main([*quiet_args, "-q"])
        quiet = capsys.readouterr()
    finally:
        set_clock(before)
    name = first.split(":")[0]
    reports = [line for line in loud.err.splitlines() if line.startswith(f"{name}: ")]
    assert reports, loud.err
    assert reports[0].startswith(first)
    assert not [line for line in quiet.err.splitlines() if line.startswith(f"{name}: ")]
    assert loud_code == quiet_code
    if command in SAME_OUTPUT:
        assert loud.out == quiet.out


# --- on a terminal ----------------------------------------------------------------------------


def _run_on_a_terminal(args: list[str], cwd: Path) -> tuple[bytes, bytes, int]:
    """``labeler ARGS`` with stderr on a pseudo-terminal and stdout on a pipe: (stdout,
    what the terminal received, exit status)."""
    master, slave = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "labeler", *args],
        stdout=subprocess.PIPE,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        env=env,
        cwd=cwd,
    )
    os.close(slave)
    assert proc.stdout is not None
    out_chunks: list[bytes] = []
    seen = b""
    streams = {master, proc.stdout.fileno()}
    while streams:
        ready, _, _ = select.select(list(streams), [], [], 30)
        assert ready, "the command did not finish in 30 s"
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the terminal's other end closed (Linux: EIO)
                chunk = b""
            if not chunk:
                streams.discard(fd)
            elif fd == master:
                seen += chunk
            else:
                out_chunks.append(chunk)
    os.close(master)
    return b"".join(out_chunks), seen, proc.wait()


BAR = "━".encode()
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def test_a_terminal_shows_a_bar_with_counts_and_rate_and_stdout_is_unchanged(
    db: str, tmp_path: Path
) -> None:
    args = ["score", "--gold-set", "g", "--run", "a", "--db", db, "--format", "json"]
    out, terminal, code = _run_on_a_terminal(args, tmp_path)
    quiet_out, quiet_terminal, quiet_code = _run_on_a_terminal([*args, "-q"], tmp_path)
    assert code == quiet_code == 0
    shown = ANSI.sub(b"", terminal)
    assert BAR in terminal
    assert b"score" in shown
    assert b"90/90 questions" in shown
    assert re.search(rb"[0-9,.]+/s", shown)
    assert BAR not in quiet_terminal
    assert b"questions" not in quiet_terminal
    assert out == quiet_out
    assert out.startswith(b"{")


def test_data_written_to_stdout_during_the_bar_stays_on_stdout(db: str, tmp_path: Path) -> None:
    """``chunks make -o -`` writes its chunks while the bar is up: they reach stdout, the
    same bytes as with -q, and none of them the terminal."""
    args = ["chunks", "make", "--chunker", "fixed", "--size", "50", "-o", "-", "--db", db]
    out, terminal, code = _run_on_a_terminal(args, tmp_path)
    quiet_out, _, quiet_code = _run_on_a_terminal([*args, "-q"], tmp_path)
    assert code == quiet_code == 0
    assert BAR in terminal
    assert b"4/4 pages" in ANSI.sub(b"", terminal)
    assert out == quiet_out
    assert out.count(b'"doc"') > 100
    assert b'"doc"' not in terminal
