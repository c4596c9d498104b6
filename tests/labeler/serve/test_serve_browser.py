"""``labeler serve`` in a real browser (issue 16): Debian's chromium, headless, via Playwright.

Each test starts a real server process on a real database (SQLite file and PostgreSQL) and
opens annotators' links in chromium. The TUI is driven with the keyboard, and what it
stored is read back from the database.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from _serve_support import (
    CAPTURE,
    CHROMIUM,
    PATIENCE,
    RECORD,
    WAL,
    command_line,
    environment,
    frame_count,
    screen_text,
    seed,
    serve,
    wait_for_text,
    wait_until,
)

from labeler.store import open_store
from labeler.store.annotators import revoke, rotate_token
from labeler.store.team import add_assignment

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.slow, pytest.mark.backends("sqlite", "postgresql")]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless chromium from the system (no download); fails when it is missing."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} missing: apt-get install chromium"
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


def open_link(browser: object, url: str) -> object:
    """A fresh browser context (its own cookies) with a page that records the terminal."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    page.add_init_script(CAPTURE)
    page.set_default_timeout(PATIENCE * 1000)
    page.goto(url)
    return page


def elements(db: str) -> list[tuple[str, str, str, str]]:
    """Every element: (question, page, text, annotator), sorted."""
    with open_store(db) as store, store.session() as s:
        rows = s.connection().exec_driver_sql(
            "SELECT q.external_id, e.document_id, e.text, e.annotator FROM element AS e "
            'JOIN "query" AS q ON q.id = e.query_id'
        )
        return sorted(tuple(r) for r in rows)  # type: ignore[misc]


def attach_sentence(page: object, word: str, length: int) -> None:
    """F3, search ``word``, enter (the page opens at the match), ``s`` (its sentence, of
    ``length`` characters), ``a`` (attach to the current question, q1)."""
    keyboard = page.keyboard  # type: ignore[attr-defined]
    page.click("#terminal")  # type: ignore[attr-defined]
    mark = frame_count(page)
    keyboard.press("F3")
    wait_for_text(page, "search", mark)
    mark = frame_count(page)
    keyboard.type(word)
    wait_for_text(page, word, mark)  # the result, with the matching text
    mark = frame_count(page)
    keyboard.press("Enter")
    wait_for_text(page, "Attach", mark)  # the page screen's footer
    mark = frame_count(page)
    keyboard.press("s")
    wait_for_text(page, f"{length} chars", mark)
    keyboard.press("a")


def test_annotator_link_labels_under_their_name(browser: object, db_url: str) -> None:
    tokens = seed(db_url, ("alice",))
    with serve(db_url) as served:
        page = open_link(browser, served.link(tokens["alice"]))
        wait_for_text(page, "demo · alice")  # the TUI's header: gold set · annotator
        assert "token" not in page.url  # type: ignore[attr-defined]
        [child] = served.children()
        argv, env = command_line(child), environment(child)
        assert env["LABELER_ANNOTATOR"] == "alice" and env["LABELER_DB"] == db_url
        assert argv[-3:] == ["-m", "labeler", "tui"]  # no name, database or token
        attach_sentence(page, "readers", len(WAL))
        wait_until("the element in the database", lambda: elements(db_url) != [])
        assert elements(db_url) == [("q1", "wal.html", WAL, "alice")]
        page.context.close()  # type: ignore[attr-defined]
        wait_until("the session's process to end", lambda: served.children() == [])
    assert tokens["alice"] not in served.log
    assert "session opened for alice" in served.log


def test_no_token_bad_token_revoked_token_get_401_and_start_nothing(
    browser: object, db_url: str
) -> None:
    tokens = seed(db_url, ("alice", "bob"))
    with open_store(db_url) as store, store.write() as s:
        revoke(s, "bob")
    with serve(db_url) as served:
        for url in (
            served.url + "/",
            served.link("x" * 43),
            served.link(tokens["bob"]),
            served.url + "/ws",
        ):
            page = open_link(browser, url)
            response = page.context.request.get(url)  # type: ignore[attr-defined]
            assert response.status == 401, url
            assert "Not signed in" in page.content()  # type: ignore[attr-defined]
            assert tokens["bob"] not in page.content()  # type: ignore[attr-defined]
            page.context.close()  # type: ignore[attr-defined]
        assert served.children() == []

        # an open session ends as soon as its link is revoked, and the link is 401 after
        page = open_link(browser, served.link(tokens["alice"]))
        wait_for_text(page, "demo · alice")
        assert len(served.children()) == 1
        with open_store(db_url) as store, store.write() as s:
            revoke(s, "alice")
        page.wait_for_url("**/ended?why=revoked")  # type: ignore[attr-defined]
        assert "revoked" in page.content()  # type: ignore[attr-defined]
        wait_until("the revoked session's process to end", lambda: served.children() == [])
        again = open_link(browser, served.link(tokens["alice"]))
        assert "Not signed in" in again.content()  # type: ignore[attr-defined]

        # rotate: the new link works, the old one does not
        with open_store(db_url) as store, store.write() as s:
            fresh = rotate_token(s, "alice")
        assert "Not signed in" in open_link(browser, served.link(tokens["alice"])).content()  # type: ignore[attr-defined]
        page = open_link(browser, served.link(fresh))
        wait_for_text(page, "demo · alice")
        # another site's page cannot open a session with alice's cookie
        foreign = page.context.request.get(  # type: ignore[attr-defined]
            served.url + "/ws", headers={"Origin": "http://elsewhere.example"}
        )
        assert foreign.status == 403
        assert len(served.children()) == 1
    for token in (*tokens.values(), fresh):
        assert token not in served.log


def test_two_annotators_at_once_each_write_under_their_own_name(
    browser: object, db_url: str
) -> None:
    """Two sessions side by side on a team gold set (q1 assigned to both): each child runs as
    its annotator, each attach is stored under the name of the link it came through, and
    each browser shows only its own annotator's labels (blind layers): after both attached,
    each questions screen counts one element, its own, and never names the other."""
    tokens = seed(db_url, ("alice", "bob"))
    with open_store(db_url) as store, store.write() as s:
        for name in ("alice", "bob"):
            add_assignment(s, 1, name, actor="lead")
    with serve(db_url) as served:
        alice = open_link(browser, served.link(tokens["alice"]))
        bob = open_link(browser, served.link(tokens["bob"]))
        wait_for_text(alice, "demo · alice")
        wait_for_text(bob, "demo · bob")
        names = sorted(environment(pid)["LABELER_ANNOTATOR"] for pid in served.children())
        assert names == ["alice", "bob"]
        attach_sentence(alice, "readers", len(WAL))
        attach_sentence(bob, "record", len(RECORD))
        wait_until("both elements", lambda: len(elements(db_url)) == 2)
        for page, me, other in ((alice, "alice", "bob"), (bob, "bob", "alice")):
            mark = frame_count(page)
            page.keyboard.press("F2")  # type: ignore[attr-defined]
            wait_for_text(page, f"1 element · {me} 1", mark)
            assert other not in screen_text(page)
    assert elements(db_url) == [
        ("q1", "policy.html", RECORD, "bob"),
        ("q1", "wal.html", WAL, "alice"),
    ]


@pytest.mark.backends("sqlite")
def test_session_cap_and_idle_timeout(browser: object, db_url: str) -> None:
    tokens = seed(db_url, ("alice", "bob"))
    # 8 s idle (was 15): the test waits that long for alice's session to end; her click
    # (mouse input) restarts her clock just before bob's link is opened, so bob is still
    # refused however slowly her TUI started
    with serve(db_url, "--max-sessions", "1", "--idle-timeout", "8") as served:
        alice = open_link(browser, served.link(tokens["alice"]))
        wait_for_text(alice, "demo · alice")
        alice.click("#terminal")  # type: ignore[attr-defined]
        bob = open_link(browser, served.link(tokens["bob"]))
        assert "All sessions in use" in bob.content()  # type: ignore[attr-defined]
        assert "at most 1 at once" in bob.content()  # type: ignore[attr-defined]
        assert len(served.children()) == 1
        # no input for 8 s: alice's session ends and its process with it
        alice.wait_for_url("**/ended?why=idle")  # type: ignore[attr-defined]
        wait_until("the idle session's process to end", lambda: served.children() == [])
        bob.goto(served.url + "/")  # type: ignore[attr-defined]
        wait_for_text(bob, "demo · bob")
        # a TUI process that dies ends its session: the page says so, the slot is free
        [child] = served.children()
        os.kill(child, signal.SIGKILL)
        bob.wait_for_selector("body.-closed")  # type: ignore[attr-defined]
        assert "Session ended" in bob.inner_text("body")  # type: ignore[attr-defined]
        wait_until("the dead session's slot to be free", lambda: served.children() == [])
        bob.goto(served.url + "/")  # type: ignore[attr-defined]
        wait_for_text(bob, "demo · bob")


def test_the_role_comes_with_the_link(browser: object, db_url: str) -> None:
    """On a team gold set, annotator alice's F5 opens no adjudication screen (the key is not
    hers), lead lena's does: each session's role is its link's, through the same core check
    as the TUI's (issue 21). Nothing is written by either."""
    tokens = seed(db_url, ("alice", "lena"), leads=("lena",))
    with open_store(db_url) as store, store.write() as s:
        for name in ("alice", "lena"):
            add_assignment(s, 1, name, actor="seed")
    with serve(db_url) as served:
        alice = open_link(browser, served.link(tokens["alice"]))
        lena = open_link(browser, served.link(tokens["lena"]))
        wait_for_text(alice, "demo · alice")
        wait_for_text(lena, "demo · lena")
        for page in (alice, lena):
            page.click("#terminal")  # type: ignore[attr-defined]
        mark = frame_count(lena)
        lena.keyboard.press("F5")  # type: ignore[attr-defined]
        wait_for_text(lena, "Adjudication · demo", mark)
        mark = frame_count(alice)
        alice.keyboard.press("F5")  # type: ignore[attr-defined]
        alice.keyboard.press("F3")  # type: ignore[attr-defined]
        wait_for_text(alice, "search", mark)  # F3 answered, so F5 was handled before it
        assert "Adjudication" not in screen_text(alice, mark)
    assert elements(db_url) == []


def token_cookie(page: object) -> str | None:
    cookies = page.context.cookies()  # type: ignore[attr-defined]
    return next((c["value"] for c in cookies if c["name"] == "labeler_token"), None)


def test_another_annotators_link_asks_before_switching(browser: object, db_url: str) -> None:
    """Signed in as alice, the browser opens bob's link: a page names both and asks.
    Staying keeps alice's cookie and her labels land under her name; only the switch
    button makes the cookie bob's."""
    tokens = seed(db_url, ("alice", "bob"))
    with serve(db_url) as served:
        page = open_link(browser, served.link(tokens["alice"]))
        wait_for_text(page, "demo · alice")
        page.goto(served.link(tokens["bob"]))  # type: ignore[attr-defined]
        assert page.inner_text("#current") == "alice"  # type: ignore[attr-defined]
        assert page.inner_text("#wanted") == "bob"  # type: ignore[attr-defined]
        assert "Switch annotator?" in page.content()  # type: ignore[attr-defined]
        assert page.url == served.url + "/switch"  # type: ignore[attr-defined]
        assert token_cookie(page) == tokens["alice"]
        assert tokens["bob"] not in page.content()  # type: ignore[attr-defined]

        # no answer: going on to the terminal is still alice's session
        page.goto(served.url + "/")  # type: ignore[attr-defined]
        wait_for_text(page, "demo · alice")
        assert token_cookie(page) == tokens["alice"]

        # cancel: alice stays, and what she attaches is hers
        page.goto(served.link(tokens["bob"]))  # type: ignore[attr-defined]
        page.click("#stay")  # type: ignore[attr-defined]
        wait_for_text(page, "demo · alice")
        assert token_cookie(page) == tokens["alice"]
        attach_sentence(page, "readers", len(WAL))
        wait_until("alice's element", lambda: elements(db_url) != [])
        assert elements(db_url) == [("q1", "wal.html", WAL, "alice")]

        # confirm: the cookie is bob's and the terminal is his
        page.goto(served.link(tokens["bob"]))  # type: ignore[attr-defined]
        page.click("#switch")  # type: ignore[attr-defined]
        wait_for_text(page, "demo · bob")
        assert token_cookie(page) == tokens["bob"]
        assert "labeler · bob" in page.title()  # type: ignore[attr-defined]
    assert "browser switched to bob" in served.log
    for token in tokens.values():
        assert token not in served.log
