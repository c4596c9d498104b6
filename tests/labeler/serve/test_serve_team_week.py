"""A labelling week in a real browser (issue 21): two annotators and a lead on one team gold
set, each through their own ``labeler serve`` link in headless chromium.

alice and bob each label the same sentence on q1 and mark it done (``D``); alice's F5 (the
adjudication screen) is refused with the role it needs; lena, the lead, accepts the
unanimous span (``U``) and settles q1 (``m``); alice's and bob's screens show q1 settled
with no key pressed; lena lists the settled questions (``s``), reopens q1 (``r``), selects
a key clause on the page (``tab``, ``shift+right``) and sets it (``K``), and settles q1
again. The audit log holds every step under the name (and role) of the link it came from.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from _serve_support import (
    CAPTURE,
    CHROMIUM,
    PAGE,
    PATIENCE,
    WAL,
    frame_count,
    screen_text,
    seed,
    serve,
    wait_for_text,
    wait_until,
)

from labeler.store import open_store
from labeler.store.team import add_assignment

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = [pytest.mark.slow, pytest.mark.backends("sqlite", "postgresql")]

#: how long an annotator's screen may take to show another session's change, no key pressed
#: (generous for a loaded machine; the delay itself is measured by benchmarks/bench_live.py)
LIVE_PATIENCE = 20.0
#: the key clause the lead sets
CLAUSE = "continue."


def rows(db: str, sql: str) -> list[tuple[object, ...]]:
    with open_store(db) as store, store.session() as s:
        return [tuple(r) for r in s.connection().exec_driver_sql(sql)]


def open_link(browser: object, url: str) -> object:
    context = browser.new_context(viewport={"width": 1400, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    page.add_init_script(CAPTURE)
    page.set_default_timeout(PATIENCE * 1000)
    page.goto(url)
    return page


def press(page: object, key: str, then: str) -> None:
    """Press ``key`` and wait for ``then`` in what the TUI writes after it."""
    mark = frame_count(page)
    page.keyboard.press(key)  # type: ignore[attr-defined]
    wait_for_text(page, then, mark)


def quiet(page: object) -> None:
    """Wait until the TUI has written nothing new for 0.3 s (a key handled and drawn)."""
    seen, still = frame_count(page), time.monotonic()
    deadline = still + PATIENCE
    while time.monotonic() - still < 0.3:
        time.sleep(0.05)
        now = frame_count(page)
        if now != seen:
            seen, still = now, time.monotonic()
        assert time.monotonic() < deadline, "the TUI kept drawing"


def shows(page: object, text: str, mark: int) -> Callable[[], bool]:
    return lambda: text in screen_text(page, mark)


@pytest.fixture(scope="module")
def browser() -> object:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield chromium
        chromium.close()


def label_and_mark_done(page: object, db: str, name: str) -> None:
    """F3, search "readers", open wal.html at the match, ``s`` (the sentence WAL), ``a``
    (attach to q1), and once the element is stored ``D`` (q1 done): ``D`` pressed while the
    attach is still on its way to the screen would ask "no answer?" (the screen decides
    on what it shows)."""
    page.click("#terminal")  # type: ignore[attr-defined]
    press(page, "F3", "search")
    mark = frame_count(page)
    page.keyboard.type("readers")  # type: ignore[attr-defined]
    wait_for_text(page, "readers", mark)
    press(page, "Enter", "Attach")
    press(page, "s", f"{len(WAL)} chars")
    mark = frame_count(page)
    page.keyboard.press("a")  # type: ignore[attr-defined]
    sql = f"SELECT count(*) FROM element WHERE annotator = '{name}'"
    wait_until(f"{name}'s element", lambda: rows(db, sql) == [(1,)])
    wait_for_text(page, "n_gold 1", mark)  # the header counts it: the questions reloaded
    press(page, "D", "marked done")


def test_two_annotators_and_a_lead_settle_reopen_and_settle_again(
    browser: object, db_url: str
) -> None:
    tokens = seed(db_url, ("alice", "bob", "lena"), leads=("lena",))
    with open_store(db_url) as store, store.write() as s:
        for name in ("alice", "bob"):
            add_assignment(s, 1, name, actor="lena")
    start = PAGE.index(WAL)
    with serve(db_url) as served:
        alice = open_link(browser, served.link(tokens["alice"]))
        bob = open_link(browser, served.link(tokens["bob"]))
        lena = open_link(browser, served.link(tokens["lena"]))
        for page, name in ((alice, "alice"), (bob, "bob"), (lena, "lena")):
            wait_for_text(page, f"demo · {name}")
        label_and_mark_done(alice, db_url, "alice")
        label_and_mark_done(bob, db_url, "bob")
        wait_until(
            "both done marks",
            lambda: rows(db_url, "SELECT count(*) FROM question_done") == [(2,)],
        )

        # an annotator's attempt to adjudicate is refused, naming the role it needs
        press(alice, "F5", "needs the lead role")
        assert "Adjudication · demo" not in screen_text(alice)

        # the lead accepts the unanimous span and settles q1
        lena.click("#terminal")  # type: ignore[attr-defined]
        press(lena, "F5", "Adjudication · demo")
        press(lena, "U", "accepted")
        marks = {page: frame_count(page) for page in (alice, bob)}
        press(lena, "m", "q1 adjudicated by lena")
        settled_at = time.monotonic()
        for page in (alice, bob):  # no key pressed on their side
            wait_until(
                "the settlement on an annotator's screen",
                shows(page, "adjudicated", marks[page]),
                LIVE_PATIENCE,
            )
        delay = time.monotonic() - settled_at
        print(f"settlement on both annotators' screens after {delay:.2f} s")
        assert rows(db_url, "SELECT adjudicated_by FROM query WHERE external_id = 'q1'") == [
            ("lena",)
        ]

        # reopen, set the key clause ("continue.", the span's last 9 characters), settle again
        press(lena, "s", "settled by lena")
        press(lena, "r", "q1 reopened by lena")
        assert rows(db_url, "SELECT adjudicated_by FROM query WHERE external_id = 'q1'") == [
            (None,)
        ]
        # tab to the page (the accepted span is selected there, the cursor at its end),
        # collapse the selection at the end, select back 9 characters, shift+tab back
        for key in ("Tab", "ArrowRight", *["Shift+ArrowLeft"] * len(CLAUSE), "Shift+Tab"):
            lena.keyboard.press(key)  # type: ignore[attr-defined]
            quiet(lena)
        press(lena, "K", "key")
        press(lena, "m", "q1 adjudicated by lena")

    finals = rows(
        db_url,
        'SELECT e.start, e."end", e.key_start, e.key_end FROM element AS e '
        "WHERE e.layer = 'final'",
    )
    end = start + len(WAL)
    assert WAL.endswith(CLAUSE)
    assert finals == [(start, end, end - len(CLAUSE), end)]
    assert rows(db_url, "SELECT adjudicated_by FROM query WHERE external_id = 'q1'") == [("lena",)]
    audit = rows(
        db_url,
        "SELECT actor, actor_role, entity, action FROM audit_entry WHERE actor <> 'seed' "
        "ORDER BY id",
    )
    by_actor: dict[str, set[tuple[object, ...]]] = {}
    for actor, role, entity, action in audit:
        by_actor.setdefault(str(actor), set()).add((role, entity, action))
    assert by_actor["alice"] == {
        ("annotator", "element", "add"),
        ("annotator", "question_done", "add"),
    }
    assert by_actor["bob"] == {
        ("annotator", "element", "add"),
        ("annotator", "question_done", "add"),
    }
    lead_steps = [(e, a) for actor, role, e, a in audit if actor == "lena" and role == "lead"]
    # accept, settle, reopen, key, settle again (the seed's assignments were lena's too)
    assert lead_steps[-5:] == [
        ("element", "add"),
        ("query", "change"),
        ("query", "change"),
        ("element", "change"),
        ("query", "change"),
    ]
    assert {actor for actor, *_ in audit} == {"alice", "bob", "lena"}
    for token in tokens.values():
        assert token not in served.log
