"""Listening and logging for ``labeler serve``: the socket, the run loop, the access log.

The access log has one line per request: client, method, path (never the query string,
where a link's token travels), status and time taken. A request that is not HTTP gets
aiohttp's 400 and one line, never a traceback or its text (:class:`OneLineBadRequests`).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import sys
from collections.abc import Callable

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_request import BaseRequest
from aiohttp.web_response import StreamResponse

from labeler.errors import ServeError
from labeler.serve.server import LabelerServer, ServeConfig
from labeler.store import Store


class PathOnlyAccessLogger(AbstractAccessLogger):
    """One access-log line per request without the query string (where a token travels)."""

    def log(self, request: BaseRequest, response: StreamResponse, time: float) -> None:
        self.logger.info(
            "%s %s %s %s %.3fs",
            request.remote,
            request.method,
            request.path,
            response.status,
            time,
        )


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``port`` 0: any free port);
    :class:`ServeError` when the address is taken or not this machine's."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(info[0], socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(info[4])
    except OSError as err:
        raise ServeError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    sock.listen(128)
    sock.setblocking(False)
    return sock


async def serve(store: Store, config: ServeConfig, announce: Callable[[str], None]) -> None:
    """Serve until SIGINT or SIGTERM; ``announce`` receives the address line once listening."""
    server = LabelerServer(store, config)
    runner = web.AppRunner(
        server.make_app(), access_log_class=PathOnlyAccessLogger, handle_signals=False
    )
    await runner.setup()
    sock = bind(config.host, config.port)
    site = web.SockSite(runner, sock)
    await site.start()
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    announce(f"http://{shown}:{port}")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()


class OneLineBadRequests(logging.Filter):
    """aiohttp logs a request it cannot parse (broken HTTP, a TLS hello on the plain port)
    with its traceback, and the exception's text quotes the request line, which may hold a
    link's token. Such a record becomes one line naming the client, the error's class and
    its status code; any other error keeps its traceback (a bug, never expected)."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, HttpProcessingError):
            remote = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            record.msg = "bad HTTP request from %s (%s, %s)"
            record.args = (remote, type(exc).__name__, exc.code)
            record.exc_info = None
            record.exc_text = None
        return True


def configure_logging() -> None:
    """Log lines (access log, sessions, requests that do not parse) to stderr, one per
    event."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("labeler serve: %(asctime)s %(message)s", "%H:%M:%S"))
    for name in ("labeler.serve", "aiohttp.access", "textual-serve"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    server = logging.getLogger("aiohttp.server")
    server.addHandler(handler)
    server.setLevel(logging.WARNING)
    server.addFilter(OneLineBadRequests())
