"""``labeler serve`` under abuse (issue 21): a killed server, bad requests, bad frames, fuzz.

Each test starts a real server process on a real database and talks to it over loopback
with aiohttp's client (a dependency of the server already): plain HTTP requests, and
websockets that carry the annotator's cookie exactly as the terminal page's do, so every
session is a real TUI process. Child processes are found and watched through /proc.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import aiohttp
import pytest
from _serve_support import REPO, Served, seed, serve, wait_until

pytestmark = [pytest.mark.slow, pytest.mark.backends("sqlite", "postgresql")]


def alive(pid: int) -> bool:
    """True while process ``pid`` exists and is not a zombie (a zombie has ended)."""
    try:
        stat = (Path("/proc") / str(pid) / "stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def cookie(token: str) -> dict[str, str]:
    return {"Cookie": f"labeler_token={token}"}


async def open_session(
    http: aiohttp.ClientSession, served: Served, token: str
) -> aiohttp.ClientWebSocketResponse:
    """A websocket session as the terminal page opens it; returns once the TUI has drawn."""
    ws = await http.ws_connect(f"{served.url}/ws?width=100&height=30", headers=cookie(token))
    while True:
        message = await asyncio.wait_for(ws.receive(), 90)
        assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
        if message.type == aiohttp.WSMsgType.BINARY:
            return ws


def closed_session(
    served: Served, token: str, before_close: Callable[[int], object] = lambda pid: None
) -> int:
    """Open a session as ``token``, call ``before_close`` with its TUI process id, close
    the socket; that process id."""

    async def run() -> int:
        async with aiohttp.ClientSession() as http:
            ws = await open_session(http, served, token)
            [child] = served.children()
            before_close(child)
            await ws.close()
            return child

    return asyncio.run(run())


async def ping(ws: aiohttp.ClientWebSocketResponse, payload: str) -> None:
    """The session still answers: a ping's pong comes back (drawing frames are skipped)."""
    await ws.send_str(json.dumps(["ping", payload]))
    while True:
        message = await asyncio.wait_for(ws.receive(), 30)
        assert message.type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT), message
        if message.type == aiohttp.WSMsgType.TEXT and json.loads(message.data) == [
            "pong",
            payload,
        ]:
            return


def assert_clean(served: Served) -> None:
    assert "Traceback" not in served.log, served.log[-3000:]
    assert "Error handling request" not in served.log, served.log[-3000:]


# -- the server dies: its session processes end -----------------------------------------------


def test_sigkill_of_the_server_ends_every_session_process(db_url: str) -> None:
    tokens = seed(db_url, ("alice", "bob"))
    with serve(db_url) as served:

        async def run() -> list[int]:
            async with aiohttp.ClientSession() as http:
                sockets = [await open_session(http, served, tokens[n]) for n in ("alice", "bob")]
                children = served.children()
                assert len(children) == 2
                served.process.send_signal(signal.SIGKILL)
                served.process.wait(30)
                for ws in sockets:
                    ws.force_close() if hasattr(ws, "force_close") else None
                return children

        children = asyncio.run(run())
        started = time.monotonic()
        while any(alive(pid) for pid in children) and time.monotonic() - started < 10:
            time.sleep(0.05)
        took = time.monotonic() - started
        print(f"session processes ended {took:.2f} s after the server's SIGKILL")
        assert not any(alive(pid) for pid in children), "a session process outlived its server"
        assert took < 5


def _orphan(code: str) -> tuple[subprocess.Popen[str], int]:
    """A middle process that starts ``code`` in a grandchild (printing its pid) and
    sleeps; returns the middle process and the grandchild's pid once ``code`` ran."""
    middle = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import subprocess, sys, time\n"
            f"p = subprocess.Popen([sys.executable, '-c', {code!r}], stdout=subprocess.PIPE, text=True)\n"
            "assert p.stdout.readline() == 'ready\\n'\n"
            "print(p.pid, flush=True)\n"
            "time.sleep(120)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert middle.stdout is not None
    return middle, int(middle.stdout.readline())


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize("watch", ["polling thread alone", "death signal alone"])
def test_each_watch_alone_ends_an_orphaned_child(watch: str) -> None:
    """Each of the child's two watches suffices: the portable thread (``os.getppid()``
    polled, no prctl) and Linux's PR_SET_PDEATHSIG (no thread)."""
    setup = (
        "from labeler.serve.watch import watch_parent\nwatch_parent(os.getppid(), death_signal=False)"
        if watch == "polling thread alone"
        else "from labeler.serve.watch import set_death_signal\nassert set_death_signal()"
    )
    code = f"import os, time\n{setup}\nprint('ready', flush=True)\ntime.sleep(120)\n"
    middle, pid = _orphan(code)
    assert alive(pid)
    middle.kill()
    middle.wait()
    started = time.monotonic()
    while alive(pid) and time.monotonic() - started < 10:
        time.sleep(0.05)
    assert not alive(pid), f"{watch}: the orphan lives on"
    assert time.monotonic() - started < 5


@pytest.mark.backends("sqlite")
def test_a_child_whose_parent_is_already_gone_ends_at_once() -> None:
    code = (
        "import os, sys, time\nfrom labeler.serve.watch import watch_parent\n"
        "watch_parent(os.getppid() + 1000000)\nprint('still here')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        check=False,
    )
    assert proc.returncode == 75 and "still here" not in proc.stdout


# -- bad query parameters: 400 with a short message ----------------------------------------

BAD_QUERIES = [
    "/?fontsize=%C2%B2",  # "²", a Unicode digit
    "/?fontsize=" + "9" * 5000,
    "/?fontsize=-1",
    "/?fontsize=0",
    "/?fontsize=5",
    "/?fontsize=73",
    "/?fontsize=+16",
    "/?fontsize=1e3",
    "/?fontsize=%D9%A1%D9%A6",  # Arabic-Indic "16"
    "/?fontsize=%EF%BC%91%EF%BC%96",  # full-width "16"
    "/?fontsize=",
    "/?fontsize=16&fontsize=17",
    "/?token=a&token=b",
    "/ended?why=nonsense",
    "/ended?why=idle&why=idle",
    "/ws?width=%C2%B2",
    "/ws?height=" + "1" * 5000,
    "/ws?width=-5",
    "/ws?width=80&width=81",
]


def test_bad_query_parameters_answer_400_never_500(db_url: str) -> None:
    tokens = seed(db_url, ("alice",))
    with serve(db_url) as served:

        async def run() -> None:
            async with aiohttp.ClientSession() as http:
                for path in BAD_QUERIES:
                    for headers in ({}, cookie(tokens["alice"])):
                        url = aiohttp.client.URL(served.url + path, encoded=True)
                        async with http.get(url, headers=headers) as response:
                            text = await response.text()
                        assert response.status == 400, (path, response.status)
                        assert "Bad request" in text and len(text) < 2000, path
                async with http.get(
                    served.url + "/?fontsize=20", headers=cookie(tokens["alice"])
                ) as ok:
                    assert ok.status == 200 and 'data-font-size="20"' in await ok.text()

        asyncio.run(run())
    assert_clean(served)
    assert tokens["alice"] not in served.log


# -- bad websocket frames: one log line each, the session goes on ----------------------------

BAD_FRAMES: list[str | bytes] = [
    "not json",
    "{",
    "{}",
    "[]",
    "null",
    "[1, 2]",
    '["nope"]',
    '["stdin"]',
    '["stdin", 5]',
    '["stdin", "a", "b"]',
    '["resize"]',
    '["resize", {"width": "x", "height": 3}]',
    '["resize", {"width": true, "height": 3}]',
    '["resize", {"width": 0, "height": 3}]',
    '["resize", {"width": 100000000000000000000, "height": 3}]',
    '["resize", [80, 24]]',
    '["ping", {}]',
    '["ping", "' + "x" * 1000 + '"]',
    "[" * 100_000,
    '["stdin", "' + "a" * (2 * 1024 * 1024) + '"]',  # a 2 MiB frame
    b"\x00\xff binary",
]


def test_bad_frames_end_only_their_own_handling(db_url: str) -> None:
    tokens = seed(db_url, ("alice", "bob"))
    with serve(db_url) as served:

        async def run() -> None:
            async with aiohttp.ClientSession() as http:
                alice = await open_session(http, served, tokens["alice"])
                bob = await open_session(http, served, tokens["bob"])
                for i, frame in enumerate(BAD_FRAMES, start=1):
                    if isinstance(frame, bytes):
                        await alice.send_bytes(frame)
                    else:
                        await alice.send_str(frame)
                    wait_until(
                        f"the log line of bad frame {i}",
                        lambda i=i: served.log.count("frame from alice dropped") >= i,
                        30,
                    )
                await ping(alice, "alice still here")
                await ping(bob, "bob still here")
                assert len(served.children()) == 2

        asyncio.run(run())
    assert served.log.count("frame from alice dropped") == len(BAD_FRAMES)
    assert "frame from bob" not in served.log
    assert_clean(served)


# -- fuzz: thousands of malformed requests and frames --------------------------------------


def _junk(rng: random.Random) -> str:
    """A short string of the kinds that break parsers: digits of every script, escapes,
    separators, huge numbers, invalid percent-encodings."""
    pieces = [
        "9" * rng.randint(1, 6000),
        "%C2%B2",
        "%FF",
        "%",
        "%zz",
        "-1",
        "0",
        "&",
        "=",
        "+",
        ";",
        "%00",
        "%EF%BC%91",
        "%D9%A1",
        "16",
        "..",
        "%2F",
        "\u00e9".encode().decode("latin-1"),
        "token",
        "fontsize",
        "why",
        "width",
        "height",
    ]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 6)))


def _junk_frame(rng: random.Random) -> str | bytes:
    """A malformed frame. Never a well-formed ``stdin``/``resize``/``focus``/``blur``
    message, which would type into or resize the live TUI (a stray ctrl+q would quit it)."""
    kind = rng.choice(["stdin", "resize", "ping", "blur", "focus", "nope", "", 1, None, []])
    arg = rng.choice(
        [None, 1, -1, 1.5, True, [], {}, {"width": "x"}, {"width": 1e309}, "x" * 300, 2**80]
    )
    shapes: list[str | bytes] = [
        json.dumps([kind, arg, arg]),  # one argument too many for every kind
        json.dumps({"kind": kind}),
        json.dumps(arg),
        json.dumps([kind, arg])[: rng.randint(0, 20)],  # cut short
        _junk(rng),
        bytes(rng.randrange(256) for _ in range(rng.randint(0, 64))),
        "[" * rng.randint(1, 5000),
        json.dumps(["resize", {"width": arg, "height": arg}]),
        json.dumps(["stdin", arg]) if not isinstance(arg, str) else "[",
    ]
    return rng.choice(shapes)


def test_fuzz_thousands_of_malformed_requests_and_frames(db_url: str) -> None:
    rng = random.Random(21)
    tokens = seed(db_url, ("alice", "bob"))
    statuses: dict[int, int] = {}
    with serve(db_url) as served:

        async def raw(data: bytes) -> None:
            host, port = served.url.removeprefix("http://").rsplit(":", 1)
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(data)
            await writer.drain()
            await asyncio.wait_for(reader.read(65536), 30)
            writer.close()

        async def run() -> float:
            started = time.monotonic()
            async with aiohttp.ClientSession() as http:
                alice = await open_session(http, served, tokens["alice"])
                for _ in range(2000):
                    path = rng.choice(["/", "/ended", "/ws", "/switch", "/stay", "/static/"])
                    query = "&".join(f"{_junk(rng)}={_junk(rng)}" for _ in range(rng.randint(0, 4)))
                    headers = rng.choice(
                        [{}, cookie(tokens["alice"]), cookie(_junk(rng)), {"Origin": _junk(rng)}]
                    )
                    method = rng.choice(["GET", "GET", "POST", "HEAD", "PUT"])
                    url = aiohttp.client.URL(f"{served.url}{path}?{query}", encoded=True)
                    try:
                        async with http.request(
                            method, url, headers=headers, allow_redirects=False
                        ) as response:
                            await response.read()
                            statuses[response.status] = statuses.get(response.status, 0) + 1
                    except aiohttp.ClientError:
                        statuses[0] = statuses.get(0, 0) + 1  # refused by the client itself
                for _ in range(200):  # not HTTP at all, or broken HTTP
                    line = rng.choice(
                        [b"GET /\xff\xfe HTTP/1.1\r\n\r\n", b"\x16\x03\x01\x00", b"GARBAGE\r\n\r\n"]
                    )
                    await raw(line + _junk(rng).encode("latin-1"))
                for _ in range(2000):
                    frame = _junk_frame(rng)
                    if isinstance(frame, bytes):
                        await alice.send_bytes(frame)
                    else:
                        await alice.send_str(frame)
                await ping(alice, "alice after the fuzz")
                bob = await open_session(http, served, tokens["bob"])
                await ping(bob, "bob after the fuzz")
            return time.monotonic() - started

        took = asyncio.run(run())
        print(
            f"fuzz: 4,200 requests and frames in {took:.1f} s; statuses {sorted(statuses.items())}"
        )
        assert took < 60
    assert not [code for code in statuses if code >= 500], statuses
    assert_clean(served)


@pytest.mark.backends("sqlite")
def test_a_session_process_that_does_not_quit_is_killed(db_url: str) -> None:
    """The browser goes away while the session's TUI process is stopped (SIGSTOP: it
    cannot answer the request to quit): the server kills it a few seconds later."""
    tokens = seed(db_url, ("alice",))
    with serve(db_url) as served:
        child = closed_session(served, tokens["alice"], lambda pid: os.kill(pid, signal.SIGSTOP))
        started = time.monotonic()
        while alive(child) and time.monotonic() - started < 30:
            time.sleep(0.1)
        took = time.monotonic() - started
        assert not alive(child), "the stopped session process lives on"
        assert 4 < took < 15, took  # STOP_SECONDS (5) after the socket closed
        wait_until("the session's end", lambda: "session of alice ended" in served.log, 30)
    assert f"session process {child} did not quit: killed" in served.log
    assert_clean(served)


def test_a_session_has_ended_only_once_its_process_has_exited(db_url: str) -> None:
    """When the server logs a session's end, its TUI process has exited and been waited
    for (no process, not even a zombie): left exiting, it outlived a server ending right
    after, and its clean-up printed a traceback on the server's closed event loop (a CI
    run's flake)."""
    tokens = seed(db_url, ("alice",))
    with serve(db_url) as served:
        child = closed_session(served, tokens["alice"])
        wait_until("the session's end", lambda: "session of alice ended" in served.log, 30)
        assert not Path(f"/proc/{child}").exists(), "the session ended before its process"
    assert_clean(served)
