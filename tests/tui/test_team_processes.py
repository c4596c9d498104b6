"""Two annotators labelling the same question at once, in two TUI processes, on the same
SQLite file and on the same PostgreSQL database: neither sees the other's spans, nothing is
lost (issue 12, acceptance).

Each child (``team_app.py``) waits until both are ready, attaches three spans to q1 (one of
them the same span as the other annotator's) and marks q1 done, then, once both are
finished, reloads and reports what its page screen shows.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from sqlmodel import col, select
from tui_support import seed_team

from labeler.store import open_store
from labeler.store.models import Element, QuestionDone

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
SPANS = {
    "ana": [(7, 55), (63, 105), (0, 6)],
    "bob": [(7, 55), (63, 86), (106, 146)],
}


class Child:
    """One annotator's TUI process and its marker pipe."""

    def __init__(self, db: str, who: str, here: Path) -> None:
        self.who = who
        self.read_fd, write_fd = os.pipe()
        env = dict(os.environ, MARKER_FD=str(write_fd), PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "team_app.py"), db, who, str(here)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
            pass_fds=(write_fd,),
            cwd=ROOT,
        )
        os.close(write_fd)
        os.set_blocking(self.read_fd, False)
        self.out = b""

    def poll(self) -> None:
        try:
            chunk = os.read(self.read_fd, 65536)
        except BlockingIOError:
            return
        self.out += chunk

    def lines(self) -> list[str]:
        return self.out.decode().splitlines()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.read_fd)


def wait_all(children: list[Child], marker: str, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for child in children:
            child.poll()
        if all(any(line.startswith(marker) for line in c.lines()) for c in children):
            return
        if any(c.proc.poll() is not None and marker not in c.out.decode() for c in children):
            break
        time.sleep(0.1)
    raise TimeoutError(f"{marker!r} not seen: {[c.out[-300:] for c in children]}")


def test_two_annotators_at_once_see_only_their_own_and_lose_nothing(
    any_db: str, tmp_path: Path
) -> None:
    with open_store(any_db) as store:
        seed_team(store)
    children = [Child(any_db, who, tmp_path) for who in ("ana", "bob")]
    try:
        wait_all(children, "READY")
        (tmp_path / "start").touch()
        wait_all(children, "DONE")
        (tmp_path / "check").touch()
        wait_all(children, "SCRIPT-DONE")
        for child in children:
            assert child.proc.wait(30) == 0
    finally:
        for child in children:
            child.close()
    for child in children:
        lines = child.lines()
        assert [line for line in lines if line.startswith("SAVED")] == [
            f"SAVED {n} {child.who}" for n in (1, 2, 3)
        ]
        assert f"DONE {child.who} True" in lines
        seen = json.loads(next(x for x in lines if x.startswith("SEES")).split(" ", 2)[2])
        # only their own three spans of q1, by start; counts of their own only
        assert seen["elements"] == [[1, s, e, child.who] for s, e in sorted(SPANS[child.who])]
        assert seen["n_gold"] == [3, 0, 0, 0]
    with open_store(any_db) as store, store.session() as s:
        rows = s.exec(select(Element).order_by(col(Element.annotator), col(Element.start))).all()
        stored = [(e.query_id, e.start, e.end, e.layer, e.annotator) for e in rows]
        done = sorted((d.query_id, d.annotator, d.no_answer) for d in s.exec(select(QuestionDone)))
    assert stored == [
        (1, s, e, "annotator", who) for who in ("ana", "bob") for s, e in sorted(SPANS[who])
    ]
    assert done == [(1, "ana", False), (1, "bob", False)]
