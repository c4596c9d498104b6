"""``labeler serve``: the annotator TUI in browsers, one process per session, on textual-serve.

Routes (an aiohttp application; the terminal's JavaScript and the child-process plumbing
are textual-serve's ``static/`` files and :class:`~textual_serve.app_service.AppService`):

* ``GET /?token=T``: a valid token (an active annotator's) is set as an HttpOnly,
  SameSite=Lax cookie and the browser is sent on to ``./`` (the token leaves the address
  bar); anything else is 401 and starts nothing. A browser already signed in as another
  active annotator is sent to ``GET /switch`` instead, which names both; ``POST /switch``
  makes the link's token the cookie, ``POST /stay`` keeps the old one.
* ``GET /``: with a valid cookie, the terminal page (503 when every session is in use);
  without, 401.
* ``GET /ws``: the websocket. Needs the cookie (401 before any upgrade otherwise) and, when
  the browser sends an ``Origin``, this server's host (or ``--public-url``'s). Starts ``python -m labeler tui`` with
  the annotator's name and the database in its environment (``LABELER_ANNOTATOR``,
  ``LABELER_DB``), never on its command line, which holds no secret at all.
* ``GET /ended?why=...``: where a browser is sent when the server ends its session.

Every query parameter read is checked before anything else (400 with a one-line page when
it is repeated, does not decode, or is not a whole number of ASCII digits in range); every
websocket frame is checked by :func:`parse_frame` (a bad one is dropped with one log line,
the session goes on). Each session's TUI process ends when the server does, by any signal
(:mod:`labeler.serve.watch`).

Every ``check_interval`` seconds the server reads the active annotators' token hashes (one
query) and ends sessions whose token was revoked or rotated, and sessions idle for longer
than ``idle_timeout`` (see :mod:`labeler.serve.sessions`). Any number of servers may share
one PostgreSQL database: a cookie is checked against the database on every request, so a
load balancer may send each request to any of them (a websocket stays on one).

Cookies and tokens are never logged or echoed (see :mod:`labeler.serve.listen` for the
access log).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import textual_serve
from aiohttp import WSMsgType, web

from labeler.serve.children import LabelerAppService, child_command, child_environment
from labeler.serve.pages import (
    ENDED,
    UNAUTHORIZED,
    UNAVAILABLE,
    ended_page,
    full_page,
    message_page,
    switch_page,
    terminal_page,
)
from labeler.serve.sessions import Session, Sessions
from labeler.store import Store, read_active_hashes, read_annotator_for_token, token_hash

log = logging.getLogger("labeler.serve")
T = TypeVar("T")

#: the cookie that carries the token after the first visit
COOKIE = "labeler_token"
#: the cookie holding another annotator's link while the browser is asked whether to switch
PENDING = "labeler_pending"
STATIC = Path(textual_serve.__file__).resolve().parent / "static"
#: headers of every page: never cached, never sent on as a referrer, never framed
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


@dataclass(frozen=True)
class ServeConfig:
    """What ``labeler serve`` was asked for."""

    db: str
    gold_set: str | None
    host: str
    port: int
    public_url: str | None
    max_sessions: int
    idle_timeout: float
    check_interval: float = 1.0


def _page(text: str, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", headers=PAGE_HEADERS)


class LabelerServer:
    """The aiohttp application of ``labeler serve`` on an open store."""

    def __init__(self, store: Store, config: ServeConfig) -> None:
        self.store = store
        self.config = config
        self.sessions = Sessions(config.max_sessions, config.idle_timeout)
        # one thread for the database: the server's reads never overlap
        self._db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="labeler-serve-db")
        self._watch: asyncio.Task[None] | None = None

    async def _read(self, job: Callable[[Store], T]) -> T:
        """``job`` (a read verb) on the server's one database thread."""
        return await asyncio.get_running_loop().run_in_executor(self._db, job, self.store)

    async def _identify(self, token: str | None) -> str | None:
        """The active annotator whose token is ``token``, else None; a database that cannot
        answer is a 503 page (the error's text, which may quote the query, is not shown)."""
        if not token:
            return None
        try:
            return await self._read(lambda store: read_annotator_for_token(store, token))
        except Exception as err:  # the database is down: say so, never with the query
            log.warning("cannot read annotators: %s", type(err).__name__)
            raise web.HTTPServiceUnavailable(
                text=UNAVAILABLE, content_type="text/html", headers=PAGE_HEADERS
            ) from None

    def make_app(self) -> web.Application:
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self.handle_index),
                web.get("/ws", self.handle_websocket),
                web.get("/ended", self.handle_ended),
                web.get("/switch", self.handle_switch_page),
                web.post("/switch", self.handle_switch),
                web.post("/stay", self.handle_switch),
                web.static("/static", STATIC),
            ]
        )
        app.on_startup.append(self._start_watch)
        app.on_shutdown.append(self._shutdown)
        return app

    # -- pages -------------------------------------------------------------------------

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        query = _query(request, ("token", "fontsize"))
        font_size = _number(query, "fontsize", FONT_SIZES, 16)  # 400 before any sign-in
        if "token" in query:
            return await self._sign_in(request, query["token"])
        name = await self._identify(request.cookies.get(COOKIE))
        if name is None:
            return _page(UNAUTHORIZED, 401)
        if self.sessions.full:
            return _page(full_page(self.sessions.limit), 503)
        return _page(
            terminal_page(
                title=f"labeler · {name}",
                websocket_url=self._websocket_url(request),
                static_url="static/",
                font_size=font_size,
            )
        )

    async def _sign_in(self, request: web.Request, token: str) -> web.StreamResponse:
        """A link's first request. Its token becomes the cookie, except when the browser
        is signed in as another active annotator: then the token waits in a second
        HttpOnly cookie (:data:`PENDING`) and the browser is sent to ``switch``, a page
        that names both and asks, so a colleague's link never silently takes over."""
        wanted = await self._identify(token)
        if wanted is None:
            return _page(UNAUTHORIZED, 401)
        current = await self._identify(request.cookies.get(COOKIE))
        switch = current is not None and current != wanted
        response = web.HTTPSeeOther("switch" if switch else "./", headers=PAGE_HEADERS)
        if switch:
            self._set_cookie(response, request, PENDING, token)
        else:
            self._set_cookie(response, request, COOKIE, token)
            response.del_cookie(PENDING, path="/")
        return response

    async def handle_switch_page(self, request: web.Request) -> web.StreamResponse:
        """``GET /switch``: who the browser is signed in as, whose link waits, two buttons;
        nothing waiting (or either name no longer active): on to ``./``."""
        current = await self._identify(request.cookies.get(COOKIE))
        wanted = await self._identify(request.cookies.get(PENDING))
        if current is None or wanted is None:
            response = web.HTTPSeeOther("./", headers=PAGE_HEADERS)
            response.del_cookie(PENDING, path="/")
            return response
        return _page(switch_page(current, wanted))

    async def handle_switch(self, request: web.Request) -> web.StreamResponse:
        """``POST /switch``: the waiting link's token becomes the cookie (when it is still
        an active annotator's); ``POST /stay``: it is dropped. Either way on to ``./``.

        The cookies are SameSite=Lax, so a form posted from another site carries neither
        and switches nothing (401); an ``Origin`` naming another host is 403 as well. A
        browser sends ``Origin: null`` here (our pages' ``no-referrer`` policy), which is
        let through: the cookie rule is the guard."""
        origin = request.headers.get("Origin")
        if origin not in (None, "null") and urlsplit(origin).netloc not in self._own_hosts(request):
            return _page(UNAUTHORIZED, 403)
        response = web.HTTPSeeOther("./", headers=PAGE_HEADERS)
        response.del_cookie(PENDING, path="/")
        if request.path == "/switch":
            token = request.cookies.get(PENDING)
            name = await self._identify(token)
            if name is None or token is None:
                return _page(UNAUTHORIZED, 401)
            self._set_cookie(response, request, COOKIE, token)
            log.info("browser switched to %s", name)
        return response

    def _set_cookie(
        self, response: web.StreamResponse, request: web.Request, name: str, token: str
    ) -> None:
        response.set_cookie(
            name, token, httponly=True, samesite="Lax", secure=self._secure(request), path="/"
        )

    async def handle_ended(self, request: web.Request) -> web.Response:
        why = _query(request, ("why",)).get("why", "")
        if why and why not in ENDED:
            raise _bad_request(f"why: one of {', '.join(sorted(ENDED))}")
        return _page(ended_page(why))

    def _own_hosts(self, request: web.Request) -> set[str]:
        """The ``host[:port]`` a page of ours is served from: the request's ``Host``, and
        ``--public-url``'s (a proxy that does not pass ``Host`` on)."""
        public = self.config.public_url
        return {request.host} | ({urlsplit(public).netloc} if public else set())

    def _secure(self, request: web.Request) -> bool:
        public = self.config.public_url
        return public.startswith("https:") if public else request.secure

    def _websocket_url(self, request: web.Request) -> str:
        public = self.config.public_url
        base = public if public else f"{request.scheme}://{request.host}"
        scheme, rest = base.split(":", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}:{rest.rstrip('/')}/ws"

    # -- sessions ----------------------------------------------------------------------

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        query = _query(request, ("width", "height"))  # checked before sign-in: 400 first
        # the page's first guess at its size: any 0 to 9999 (a hidden tab reports 0),
        # clamped; the resize frames that follow are checked strictly
        low, high = TERMINAL_SIZES
        width = max(low, min(_number(query, "width", (0, 9999), 80), high))
        height = max(low, min(_number(query, "height", (0, 9999), 24), high))
        token = request.cookies.get(COOKIE)
        name = await self._identify(token)
        if name is None or token is None:
            return _page(UNAUTHORIZED, 401)
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc not in self._own_hosts(request):
            return _page(UNAUTHORIZED, 403)
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_READ)
        await ws.prepare(request)
        loop = asyncio.get_running_loop()
        session = self.sessions.open(name, token_hash(token), loop.time())
        if session is None:
            await _send_away(ws, "full")
            return ws

        async def end(why: str) -> None:
            session.ending = True
            await _send_away(ws, why)

        session.end = end

        async def close() -> None:
            await ws.close()

        service = LabelerAppService(
            child_command(self.config.gold_set),
            child_environment(self.config.db, name),
            write_bytes=ws.send_bytes,
            write_str=ws.send_str,
            close=close,
            download_manager=_NO_DOWNLOADS,
        )
        log.info("session opened for %s (%d/%d)", name, len(self.sessions), self.sessions.limit)
        try:
            await service.start(width, height)
            await self._relay(ws, service, session)
        finally:
            self.sessions.close(session)
            await service.stop()
            log.info("session of %s ended", name)
        return ws

    async def _relay(
        self, ws: web.WebSocketResponse, service: LabelerAppService, session: Session
    ) -> None:
        """Pass the browser's keys, mouse and size to the app until the socket closes.

        A frame that is not one of :func:`parse_frame`'s messages is dropped with one log
        line (who, and what was wrong with it; never its content) and the session goes on;
        so is a frame whose handling fails (the app gone mid-write). Frames beyond
        :data:`MAX_READ` bytes are refused by the websocket layer itself, which closes that
        one socket (close code 1009)."""
        loop = asyncio.get_running_loop()
        async for message in ws:
            try:
                if message.type == WSMsgType.ERROR:
                    log.warning("websocket of %s failed: %s", session.annotator, ws.exception())
                    continue
                if message.type != WSMsgType.TEXT:
                    raise BadFrame(f"{message.type.name.lower()} frame where text was expected")
                kind, value = parse_frame(message.data)
                if kind == "stdin":
                    session.last_input = loop.time()
                    await service.send_bytes(str(value).encode("utf-8"))
                elif kind == "resize":
                    assert isinstance(value, tuple)
                    await service.set_terminal_size(*value)
                elif kind == "ping":
                    await ws.send_json(["pong", value])
                elif kind == "blur":
                    await service.blur()
                elif kind == "focus":
                    await service.focus()
            except BadFrame as err:
                log.warning("frame from %s dropped: %s", session.annotator, err)
            except Exception as err:  # the app or the socket went away mid-frame
                log.warning("frame from %s not handled: %s", session.annotator, type(err).__name__)

    async def _start_watch(self, app: web.Application) -> None:
        self._watch = asyncio.create_task(self._watch_sessions())

    async def _watch_sessions(self) -> None:
        """End revoked and idle sessions, every ``check_interval`` seconds."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.config.check_interval)
            if not len(self.sessions):
                continue
            try:
                hashes = await self._read(read_active_hashes)
            except Exception as err:  # a database hiccup: keep sessions, try again
                log.warning("cannot read annotators: %s", type(err).__name__)
                continue
            for session, why in self.sessions.expired(hashes.keys(), loop.time()):
                log.info("ending session of %s (%s)", session.annotator, why)
                if session.end is not None:
                    await session.end(why)

    async def _shutdown(self, app: web.Application) -> None:
        if self._watch is not None:
            self._watch.cancel()
        for session in self.sessions.all():
            if session.end is not None:
                await session.end("shutdown")
        self._db.shutdown(wait=False)


class _NoDownloads(textual_serve.download_manager.DownloadManager):
    """The TUI delivers no files; textual-serve's service still wants a manager."""


_NO_DOWNLOADS = _NoDownloads()


async def _send_away(ws: web.WebSocketResponse, why: str) -> None:
    """Send the browser to ``/ended?why=WHY`` (textual.js opens ``open_url``), then close."""
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_json(["open_url", {"url": f"ended?why={why}", "new_tab": False}])
    await ws.close()


class BadFrame(ValueError):
    """A websocket frame that is not a message of the terminal's protocol."""


#: the messages the terminal's JavaScript sends, each a JSON array ``[kind, ...]``
FRAME_KINDS = ("stdin", "resize", "ping", "blur", "focus")
#: the longest text frame handled (a paste of this many bytes); longer ones are dropped
MAX_FRAME = 1024 * 1024
#: the longest frame read at all: the websocket layer closes the socket beyond it
MAX_READ = 16 * 1024 * 1024
#: the longest ping payload echoed back
MAX_PING = 256


def parse_frame(data: str) -> tuple[str, str | tuple[int, int] | None]:
    """The message of one text frame: ``("stdin", text)``, ``("resize", (width,
    height))``, ``("ping", payload)``, ``("blur", None)`` or ``("focus", None)``.

    :class:`BadFrame` (saying what is wrong, never quoting the frame) for a frame over
    :data:`MAX_FRAME` characters, not JSON, not a non-empty array with a known kind first,
    a stdin or ping payload that is not a string (a ping's at most :data:`MAX_PING`), or a
    resize whose ``width`` / ``height`` are not integers of :data:`TERMINAL_SIZES`."""
    if len(data) > MAX_FRAME:
        raise BadFrame(f"{len(data)} characters, more than {MAX_FRAME}")
    try:
        envelope = json.loads(data)
    except (ValueError, RecursionError):
        raise BadFrame("not JSON") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise BadFrame("not a JSON array starting with a message kind")
    kind, args = envelope[0], envelope[1:]
    if kind not in FRAME_KINDS:
        raise BadFrame(f"unknown message kind ({len(kind)} characters)")
    if kind in ("stdin", "ping"):
        if len(args) != 1 or not isinstance(args[0], str):
            raise BadFrame(f"{kind}: expected one string")
        if kind == "ping" and len(args[0]) > MAX_PING:
            raise BadFrame(f"ping: payload longer than {MAX_PING}")
        return kind, args[0]
    if kind == "resize":
        size = args[0] if len(args) == 1 else None
        if not isinstance(size, dict):
            raise BadFrame("resize: expected one object with width and height")
        width, height = size.get("width"), size.get("height")
        low, high = TERMINAL_SIZES
        for value in (width, height):
            if type(value) is not int or not low <= value <= high:
                raise BadFrame(f"resize: width and height must be integers {low} to {high}")
        assert isinstance(width, int) and isinstance(height, int)
        return kind, (width, height)
    return kind, None


#: the font sizes ``?fontsize=`` may ask for, and terminal columns / rows of ``/ws``
FONT_SIZES = (6, 72)
TERMINAL_SIZES = (1, 1000)


def _bad_request(text: str) -> web.HTTPBadRequest:
    return web.HTTPBadRequest(
        text=message_page("Bad request", text), content_type="text/html", headers=PAGE_HEADERS
    )


def _query(request: web.Request, names: tuple[str, ...]) -> dict[str, str]:
    """The query parameters of ``names`` that ``request`` carries; 400 when one is given
    twice or the query string does not decode. Other names are ignored."""
    try:
        query = request.query
        found = {name: query.getall(name) for name in names if name in query}
    except (UnicodeDecodeError, ValueError):
        raise _bad_request("the query string does not decode") from None
    for name, values in found.items():
        if len(values) > 1:
            raise _bad_request(f"{name}: given {len(values)} times, expected once")
    return {name: values[0] for name, values in found.items()}


def _number(query: dict[str, str], name: str, bounds: tuple[int, int], default: int) -> int:
    """``query[name]`` as a whole number within ``bounds`` (ASCII digits only, so no
    ``²`` or other Unicode digit, and no sign), ``default`` when absent; else 400."""
    value = query.get(name)
    if value is None:
        return default
    low, high = bounds
    if not (value.isascii() and value.isdigit() and len(value) <= len(str(high))):
        raise _bad_request(f"{name}: expected a whole number from {low} to {high}")
    number = int(value)
    if not low <= number <= high:
        raise _bad_request(f"{name}: expected a whole number from {low} to {high}")
    return number
