"""The TUI process behind one browser session.

:class:`LabelerAppService` is textual-serve's :class:`AppService` with three changes: the
child is started with ``exec`` (an argument list, no shell), its end (a crash included) ends
the session, and its environment carries who is labelling and where: ``LABELER_ANNOTATOR`` (read by the TUI as its ``--annotator``),
``LABELER_DB`` (its ``--db``, which may hold a PostgreSQL password) and
``LABELER_SERVE_PARENT`` (the server's process id: the child ends when the server does, by
any signal, see :mod:`labeler.serve.watch`). Its command line
is ``python -m labeler tui [--gold-set NAME]``: neither name nor database nor any token
shows in a process listing. Stopping it is bounded: one that does not quit when asked is
killed (:meth:`LabelerAppService.stop`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from labeler.serve.watch import PARENT_ENV
from labeler.store import ANNOTATOR_ENV, DB_ENV

log = logging.getLogger("labeler.serve")
#: how long a session's process may take to quit once asked before it is killed
STOP_SECONDS = 5.0


def child_command(gold_set: str | None) -> list[str]:
    """The argument list of a session's TUI process."""
    command = [sys.executable, "-m", "labeler", "tui"]
    return [*command, "--gold-set", gold_set] if gold_set else command


def child_environment(db: str, annotator: str) -> dict[str, str]:
    """What a session's TUI process gets on top of the server's environment: who, where,
    and the server's process id, which the child watches (:mod:`labeler.serve.watch`)."""
    return {DB_ENV: db, ANNOTATOR_ENV: annotator, PARENT_ENV: str(os.getpid())}


class LabelerAppService(AppService):
    """One session's TUI process (see the module docstring)."""

    def __init__(
        self,
        argv: list[str],
        extra_env: dict[str, str],
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        download_manager: DownloadManager,
    ) -> None:
        super().__init__(
            argv[0],
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=download_manager,
        )
        self.argv = argv
        self.extra_env = extra_env

    async def run(self) -> None:
        """Relay the process's output until it ends, then close the browser's socket (a
        process that failed to start, or crashed, ends the session instead of leaving the
        page waiting)."""
        await super().run()
        await self._reap()
        await self.remote_close()

    async def _reap(self) -> None:
        """Close the process's stdin and wait for it to exit (killed after
        :data:`STOP_SECONDS`). textual-serve stops at the end of the output: the process,
        still exiting, and its transport (held open by stdin) outlived the session, and
        when the server ended first, its exit reached a closed event loop and the
        transport's clean-up printed a traceback."""
        process = self._process
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), STOP_SECONDS)
        except TimeoutError:
            log.warning("session process %d did not exit: killed", process.pid)
            process.kill()
            await process.wait()

    async def stop(self) -> None:
        """textual-serve's stop (ask the app to quit, wait for it), bounded: a process
        still running :data:`STOP_SECONDS` later (hung, stopped, stuck on a lock) is
        killed, so an ended session never leaves a process holding the database."""
        stopping = asyncio.ensure_future(super().stop())
        try:
            await asyncio.wait_for(asyncio.shield(stopping), STOP_SECONDS)
        except TimeoutError:
            process = self._process
            if process is not None and process.returncode is None:
                log.warning("session process %d did not quit: killed", process.pid)
                process.kill()
            await stopping

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        environment = self._build_environment(width=width, height=height)
        environment.update(self.extra_env)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process
