"""Killing the TUI with SIGKILL loses nothing that was shown as saved."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tui_support import PAGE

HERE = Path(__file__).parent
ROOT = HERE.parent.parent


def wait_for(fd: int, marker: bytes, timeout: float = 60.0) -> bytes:
    buf, end = b"", time.monotonic() + timeout
    while time.monotonic() < end:
        if select.select([fd], [], [], 0.2)[0]:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            buf += chunk
            if marker in buf:
                return buf
    raise TimeoutError(f"{marker!r} not seen; got {buf[-500:]!r}")


def test_sigkill_after_saves_loses_nothing(db: Path) -> None:
    read_fd, write_fd = os.pipe()
    env = dict(os.environ, MARKER_FD=str(write_fd), PYTHONPATH=str(ROOT))
    child = subprocess.Popen(
        [sys.executable, str(HERE / "kill_app.py"), str(db)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        pass_fds=(write_fd,),
        cwd=ROOT,
    )
    os.close(write_fd)
    try:
        out = wait_for(read_fd, b"SCRIPT-DONE")
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        os.close(read_fd)
    assert child.returncode == -signal.SIGKILL
    saved = [line for line in out.decode().splitlines() if line.startswith("SAVED")]
    assert len(saved) == 3
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute(
            'SELECT start, "end", text, annotator FROM element ORDER BY start'
        ).fetchall()
    finally:
        conn.close()
    assert rows == [(s, e, PAGE[s:e], "killer") for s, e in [(0, 5), (7, 13), (14, 17)]]
