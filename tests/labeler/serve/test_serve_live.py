"""Live screens in a browser (issue 21): a ``labeler serve`` session shows another process's
change without a key press (the delay is measured by ``benchmarks/bench_live.py``).

A real server process on a real database (SQLite file and PostgreSQL), alice's link opened in
headless chromium on her questions list; the lead settles q1 from another store (a process's
connection of its own) after alice and bob marked it done. What the TUI writes to the browser
is read back: ``adjudicated`` appears in alice's state column.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _serve_support import CAPTURE, CHROMIUM, PATIENCE, frame_count, screen_text, seed, serve

from labeler.store import open_store, settle_question
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR
from labeler.store.team import add_assignment, mark_done

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.slow, pytest.mark.backends("sqlite", "postgresql")]

#: how long the test waits for another process's change, no key pressed: generous for a
#: loaded machine (the delay itself is measured by benchmarks/bench_live.py, not asserted)
PATIENCE_S = 15.0


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: apt-get install chromium"
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


def wait_text(page: object, text: str, start: int, timeout: float) -> float:
    """Seconds until the TUI wrote ``text`` (frames ``start`` on); fails past ``timeout``."""
    began = time.monotonic()
    while text not in screen_text(page, start):
        waited = time.monotonic() - began
        shown = " ".join(screen_text(page, start).split())[-600:]
        assert waited < timeout, f"{text!r} not shown within {timeout} s: {shown}"
        time.sleep(0.05)
    return time.monotonic() - began


def test_a_settlement_elsewhere_reaches_the_browser_within_the_bound(
    browser: object, db_url: str
) -> None:
    tokens = seed(db_url, ("alice",))
    with open_store(db_url) as store, store.write() as s:
        for name in ("alice", "bob"):
            add_assignment(s, 1, name, actor="lead")
            add_element(s, 1, "wal.html", 41, 72, annotator=name, layer=LAYER_ANNOTATOR)
            mark_done(s, 1, name)
    with serve(db_url) as served:
        context = browser.new_context(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
        page = context.new_page()
        page.add_init_script(CAPTURE)
        page.set_default_timeout(PATIENCE * 1000)
        page.goto(served.link(tokens["alice"]))
        wait_text(page, "assigned · done", 0, PATIENCE)
        time.sleep(1.0)  # the session's watcher is up (it starts with the app)
        mark = frame_count(page)
        with open_store(db_url) as lead:
            settle_question(lead, 1, by="lead")
        wait_text(page, "adjudicated", mark, PATIENCE_S)
        wait_text(page, "lead settled q1", mark, PATIENCE_S)
