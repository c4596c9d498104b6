"""``labeler serve``: the annotator TUI in browsers, one process per session, on textual-serve.

Routes (an aiohttp application; the terminal's JavaScript and the child-process plumbing
are textual-serve's ``static/`` files and :class:`~textual_serve.app_service.AppService`):

* ``GET /?token=T``: a valid token (an active annotator's) is set as an HttpOnly,
  SameSite=Lax cookie and the browser is sent on to ``./`` (the token leaves the address
  bar); anything else is 401 and starts nothing.
* ``GET /``: with a valid cookie, the terminal page (503 when every session is in use);
  without, 401.
* ``GET /ws``: the websocket. Needs the cookie (401 before any upgrade otherwise) and, when
  the browser sends an ``Origin``, this server's host (or ``--public-url``'s). Starts ``python -m labeler tui`` with
  the annotator's name and the database in its environment (``LABELER_ANNOTATOR``,
  ``LABELER_DB``), never on its command line, which holds no secret at all.
* ``GET /ended?why=...``: where a browser is sent when the server ends its session.

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
from labeler.serve.pages import UNAUTHORIZED, UNAVAILABLE, ended_page, full_page, terminal_page
from labeler.serve.sessions import Session, Sessions
from labeler.store import Store, read_active_hashes, read_annotator_for_token, token_hash

log = logging.getLogger("labeler.serve")
T = TypeVar("T")

#: the cookie that carries the token after the first visit
COOKIE = "labeler_token"
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
                web.static("/static", STATIC),
            ]
        )
        app.on_startup.append(self._start_watch)
        app.on_shutdown.append(self._shutdown)
        return app

    # -- pages -------------------------------------------------------------------------

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if "token" in request.query:
            token = request.query["token"]
            if await self._identify(token) is None:
                return _page(UNAUTHORIZED, 401)
            response = web.HTTPSeeOther("./", headers=PAGE_HEADERS)
            response.set_cookie(
                COOKIE,
                token,
                httponly=True,
                samesite="Lax",
                secure=self._secure(request),
                path="/",
            )
            return response
        name = await self._identify(request.cookies.get(COOKIE))
        if name is None:
            return _page(UNAUTHORIZED, 401)
        if self.sessions.full:
            return _page(full_page(self.sessions.limit), 503)
        font_size = request.query.get("fontsize", "16")
        return _page(
            terminal_page(
                title=f"labeler · {name}",
                websocket_url=self._websocket_url(request),
                static_url="static/",
                font_size=int(font_size) if font_size.isdigit() else 16,
            )
        )

    async def handle_ended(self, request: web.Request) -> web.Response:
        return _page(ended_page(request.query.get("why", "")))

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
        token = request.cookies.get(COOKIE)
        name = await self._identify(token)
        if name is None or token is None:
            return _page(UNAUTHORIZED, 401)
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc not in self._own_hosts(request):
            return _page(UNAUTHORIZED, 403)
        ws = web.WebSocketResponse(heartbeat=15)
        await ws.prepare(request)
        loop = asyncio.get_running_loop()
        session = self.sessions.open(name, token_hash(token), loop.time())
        if session is None:
            await _send_away(ws, "full")
            return ws
        width = _int(request.query.get("width"), 80)
        height = _int(request.query.get("height"), 24)

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
        """Pass the browser's keys, mouse and size to the app until the socket closes."""
        loop = asyncio.get_running_loop()
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            envelope = message.json()
            if not isinstance(envelope, list) or not envelope:
                continue
            kind = envelope[0]
            if kind == "stdin" and len(envelope) > 1:
                session.last_input = loop.time()
                await service.send_bytes(str(envelope[1]).encode("utf-8"))
            elif kind == "resize" and len(envelope) > 1 and isinstance(envelope[1], dict):
                size = envelope[1]
                await service.set_terminal_size(
                    _int(size.get("width"), 80), _int(size.get("height"), 24)
                )
            elif kind == "ping" and len(envelope) > 1:
                await ws.send_json(["pong", envelope[1]])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

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


def _int(value: object, default: int) -> int:
    try:
        return max(1, min(int(str(value)), 1000))
    except ValueError:
        return default
