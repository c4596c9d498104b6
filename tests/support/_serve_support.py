"""Helpers of the ``labeler serve`` tests: a real server process, a real headless browser.

The browser is Debian's ``chromium`` (``/usr/bin/chromium``) driven by Playwright's Python
package; nothing is downloaded. The terminal draws on a canvas, so the page's websocket is
wrapped (an init script) to keep every frame the server sends: the tests wait for text in
what the TUI wrote, with the escape sequences taken out.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from labeler.store import add_query, create_gold_set, open_store, upsert_document
from labeler.store.annotators import add_annotator

CHROMIUM = os.environ.get("LABELER_CHROMIUM", "/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
PAGE = "A second page about write-ahead logging. WAL mode lets readers continue."
WAL = "WAL mode lets readers continue."  # PAGE[41:72]
POLICY = "Intro. The index is never the source of record. Outro."
RECORD = "The index is never the source of record."  # POLICY[7:47]
#: generous bound on waiting for a process or a page (a loaded CI machine); never asserted on
PATIENCE = 90.0

CAPTURE = """
(() => {
  const Native = window.WebSocket;
  window.__frames = [];
  window.WebSocket = function (url, protocols) {
    const ws = protocols ? new Native(url, protocols) : new Native(url);
    ws.addEventListener("message", (e) => {
      if (typeof e.data !== "string") window.__frames.push(new TextDecoder().decode(e.data));
    });
    return ws;
  };
  window.WebSocket.prototype = Native.prototype;
})();
"""

ESCAPES = re.compile(r"\x1b(\[[0-9;?$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def seed(db: str, annotators: tuple[str, ...], leads: tuple[str, ...] = ()) -> dict[str, str]:
    """Two pages, gold set ``demo`` with q1 and q2; returns each annotator's token (those in
    ``leads`` registered with the lead role, the others as annotators)."""
    tokens: dict[str, str] = {}
    with open_store(db) as store, store.write() as s:
        upsert_document(
            s, doc_id="wal.html", source_path="wal.html", sha256="b", profile="text", text=PAGE
        )
        upsert_document(
            s,
            doc_id="policy.html",
            source_path="policy.html",
            sha256="a",
            profile="text",
            text=POLICY,
        )
        gs = create_gold_set(s, "demo", "demo set")
        add_query(s, gs, "q1", "Can readers go on during a write?", actor="seed")
        add_query(s, gs, "q2", "What is the source of record?", actor="seed")
        for name in annotators:
            role = "lead" if name in leads else "annotator"
            tokens[name] = add_annotator(s, name, role, actor="seed")
    return tokens


@dataclass
class Served:
    """A running ``labeler serve`` process and everything it wrote."""

    process: subprocess.Popen[str]
    url: str
    lines: list[str] = field(default_factory=list)

    @property
    def log(self) -> str:
        return "\n".join(self.lines)

    def link(self, token: str) -> str:
        return f"{self.url}/?token={token}"

    def children(self) -> list[int]:
        """Process ids of the server's TUI children (alive, not zombies)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == self.process.pid and fields[0] != "Z":
                found.append(int(entry.name))
        return found


def command_line(pid: int) -> list[str]:
    return (Path("/proc") / str(pid) / "cmdline").read_bytes().decode().split("\0")[:-1]


def environment(pid: int) -> dict[str, str]:
    raw = (Path("/proc") / str(pid) / "environ").read_bytes().decode("utf-8", "replace")
    return dict(item.split("=", 1) for item in raw.split("\0") if "=" in item)


def wait_until(what: str, check: object, timeout: float = PATIENCE) -> None:
    """Poll ``check()`` until true; fail naming ``what`` after ``timeout`` seconds.

    The pause between polls starts at 10 ms and grows by half each time up to 0.2 s: most
    waits (a key drawn, a process gone) end within a fraction of a second, and a fixed 0.2 s
    pause made each of them last 0.1 s longer on average; a long wait still polls 5 times a
    second."""
    deadline = time.monotonic() + timeout
    pause = 0.01
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(pause)
        pause = min(pause * 1.5, 0.2)


@contextmanager
def serve(db: str, *options: str) -> Iterator[Served]:
    """``labeler serve --db DB --port 0 OPTIONS`` until the block ends (then SIGTERM)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("LABELER_ANNOTATOR", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "labeler", "serve", "--db", db, "--port", "0", *options],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=REPO,
    )
    served = Served(process, "")
    ready = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            served.lines.append(line.rstrip("\n"))
            found = re.search(r"listening on (http://\S+)", line)
            if found:
                served.url = found.group(1)
                ready.set()
        ready.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        ready.wait(PATIENCE)
        assert served.url, f"server did not start:\n{served.log}"
        yield served
    finally:
        process.terminate()
        try:
            process.wait(PATIENCE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(5)


def screen_text(page: object, start: int = 0) -> str:
    """What the TUI wrote into ``page`` (frames ``start`` on), escape sequences removed."""
    frames = page.evaluate(f"window.__frames.slice({start}).join('')")  # type: ignore[attr-defined]
    return ESCAPES.sub("", str(frames))


def frame_count(page: object) -> int:
    return int(page.evaluate("window.__frames.length"))  # type: ignore[attr-defined]


def wait_for_text(page: object, text: str, start: int = 0) -> None:
    """Wait until the TUI has written ``text`` (in frames ``start`` on)."""
    try:
        wait_until(repr(text), lambda: text in screen_text(page, start))
    except AssertionError as err:
        shown = " ".join(screen_text(page, start).split())[-1500:]
        raise AssertionError(f"{err}; the TUI wrote (end): {shown}") from None
