"""Every question's call bounded, whatever the retriever does.

The calling thread only supervises: it starts at most ``concurrency`` calls, waits for
their outcomes on a queue and fails a question whose deadline passes. Nothing a retriever
does can hold it:

* a plain call runs in a daemon thread of its own, its results read there too, lazily and
  no further than ``max_results + 1`` (a generator that never ends stops there); a thread
  that never returns is left behind (Python cannot stop a thread) and its late answer
  dropped;
* a coroutine runs in one event loop in a daemon thread, whose heartbeat (a callback every
  0.05 s) tells whether it still runs: when a question times out and the loop has not
  beaten for 0.25 s, a coroutine blocks it (``time.sleep`` in ``async def``), so the loop
  is left behind and later questions get a new one;
* whatever is raised, ``BaseException``, ``SystemExit`` and ``KeyboardInterrupt`` included,
  fails that question with its name and message: ``sys.exit(3)`` in a retriever is not the
  process's status.

The loop's default executor (``run_in_executor(None, ...)``, ``asyncio.to_thread``, what
LangChain's async methods fall back on) runs each job on a daemon thread too, so that the
process can end while one never returns.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import math
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from labeler.errors import LabelerError
from labeler.evaluation._adapters import QuestionCall
from labeler.evaluation._results import ResultShapeError, to_chunks
from labeler.progress import Progress, no_progress
from scoring import Chunk

_T = TypeVar("_T")
_BEAT = 0.05  # seconds between the loop's heartbeats
_STALLED = 0.25  # a loop silent this long is blocked by a coroutine

# (query id, chunks or None, error or None, perf_counter when the call ended)
Outcome = tuple[str, list[Chunk] | None, str | None, float]


class RetrieverError(LabelerError):
    """A retriever failed on a question and the caller asked to stop (``fail_fast``)."""


class _DaemonExecutor(concurrent.futures.ThreadPoolExecutor):
    """Each job on a daemon thread of its own: ThreadPoolExecutor's workers are joined at
    interpreter exit, so one job that never returns would keep the process alive."""

    def submit(
        self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any
    ) -> concurrent.futures.Future[_T]:
        future: concurrent.futures.Future[_T] = concurrent.futures.Future()

        def work() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                value = fn(*args, **kwargs)
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(value)

        threading.Thread(target=work, name="labeler-retriever-job", daemon=True).start()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to wait for: the jobs' threads are daemons."""


class _Loop:
    """An event loop running in a daemon thread, with a heartbeat."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.loop.set_default_executor(_DaemonExecutor())
        self.beat = time.perf_counter()
        self.thread = threading.Thread(target=self._run, name="labeler-retrievers", daemon=True)
        self.thread.start()

    def _tick(self) -> None:
        self.beat = time.perf_counter()
        self.loop.call_later(_BEAT, self._tick)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.call_soon(self._tick)
        try:
            self.loop.run_forever()
            tasks = asyncio.all_tasks(self.loop)
            for task in tasks:
                task.cancel()
            if tasks:
                self.loop.run_until_complete(asyncio.wait(tasks, timeout=1))
        finally:
            self.loop.close()

    def stalled(self, now: float) -> bool:
        return now - self.beat > _STALLED

    def submit(self, job: Any) -> concurrent.futures.Future[None]:
        return asyncio.run_coroutine_threadsafe(job, self.loop)

    def close(self, *, wait: bool = True) -> None:
        """Stop the loop (once it runs again, for a blocked one); with ``wait``, wait a
        moment for it (a loop still blocked then is left to its daemon thread)."""
        with contextlib.suppress(RuntimeError):  # closed already
            self.loop.call_soon_threadsafe(self.loop.stop)
        if wait:
            self.thread.join(1.0)


def describe(exc: BaseException) -> str:
    """A failure's message: ``Name: message`` (the name alone without a message)."""
    if isinstance(exc, ResultShapeError):
        return f"unreadable results: {exc}"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


async def _settled(result: Any, max_results: int | None) -> Any:
    """``result`` awaited, and an async iterable read, no further than ``max_results + 1``."""
    while inspect.isawaitable(result):
        result = await result
    if hasattr(result, "__aiter__"):
        items: list[Any] = []
        async for item in result:
            items.append(item)
            if max_results is not None and len(items) > max_results:
                break
        result = items
    return result


def _needs_awaiting(result: Any) -> bool:
    return inspect.isawaitable(result) or hasattr(result, "__aiter__")


def _ask_in_thread(
    asked: QuestionCall, qid: str, text: str, out: queue.SimpleQueue[Outcome], read: Any
) -> None:
    try:
        result = asked.call(text, qid)
        if _needs_awaiting(result):  # a plain function that returned a coroutine
            result = asyncio.run(_settled(result, read.max_results))
        out.put((qid, read(result), None, time.perf_counter()))
    except BaseException as exc:  # every failure is this question's alone
        out.put((qid, None, describe(exc), time.perf_counter()))


async def _ask_in_loop(
    asked: QuestionCall, qid: str, text: str, out: queue.SimpleQueue[Outcome], read: Any
) -> None:
    try:
        result = await _settled(asked.call(text, qid), read.max_results)
        out.put((qid, read(result), None, time.perf_counter()))
    except BaseException as exc:  # also a cancellation: then nobody waits for it
        out.put((qid, None, describe(exc), time.perf_counter()))


@dataclass(frozen=True)
class _Reader:
    allow_nul: bool
    max_results: int | None

    def __call__(self, result: Any) -> list[Chunk]:
        return to_chunks(result, allow_nul=self.allow_nul, max_results=self.max_results)


@dataclass(frozen=True)
class _Flight:
    started: float
    deadline: float
    future: concurrent.futures.Future[None] | None
    loop: _Loop | None


def ask_all(
    asked: QuestionCall,
    questions: Sequence[tuple[str, str]],
    *,
    concurrency: int,
    timeout: float | None,
    fail_fast: bool,
    allow_nul: bool,
    max_results: int | None,
    progress: Progress = no_progress,
) -> tuple[dict[str, list[Chunk]], dict[str, float], dict[str, tuple[str, float]]]:
    """Ask every ``(query_id, text)``: the answered chunks, their seconds, and per failed
    question its error and seconds (module docstring). Raises :class:`RetrieverError` at
    the first failure when ``fail_fast``. ``progress(settled, len(questions), query_id)``
    after each question is answered or has failed."""
    out: queue.SimpleQueue[Outcome] = queue.SimpleQueue()
    read = _Reader(allow_nul, max_results)
    waiting = deque(questions)
    flights: dict[str, _Flight] = {}
    answered: dict[str, list[Chunk]] = {}
    seconds: dict[str, float] = {}
    failed: dict[str, tuple[str, float]] = {}
    loop: _Loop | None = None
    left: list[_Loop] = []

    def fail(qid: str, error: str, took: float) -> None:
        failed[qid] = (error, took)
        if fail_fast:
            raise RetrieverError(f"question {qid!r}: {error} (stopped: --fail-fast)")

    try:
        while waiting or flights:
            while waiting and len(flights) < concurrency:
                qid, text = waiting.popleft()
                started = time.perf_counter()
                deadline = started + timeout if timeout is not None else math.inf
                if asked.coroutine:
                    loop = loop or _Loop()
                    future = loop.submit(_ask_in_loop(asked, qid, text, out, read))
                    flights[qid] = _Flight(started, deadline, future, loop)
                else:
                    args = (asked, qid, text, out, read)
                    threading.Thread(
                        target=_ask_in_thread, args=args, name="labeler-retriever", daemon=True
                    ).start()
                    flights[qid] = _Flight(started, deadline, None, None)
            nearest = min(f.deadline for f in flights.values())
            try:
                wait = None if nearest == math.inf else max(nearest - time.perf_counter(), 0)
                qid, chunks, error, ended = out.get(timeout=wait)
            except queue.Empty:
                pass
            else:
                flight = flights.pop(qid, None)
                if flight is None:  # a late answer of a question timed out already
                    continue
                if error is None and chunks is not None:
                    answered[qid], seconds[qid] = chunks, ended - flight.started
                else:
                    fail(qid, error or "no answer", ended - flight.started)
                progress(len(answered) + len(failed), len(questions), qid)
            now = time.perf_counter()
            for qid, flight in list(flights.items()):
                if flight.deadline > now:
                    continue
                del flights[qid]
                if flight.future is not None:
                    flight.future.cancel()
                    if flight.loop is loop and loop is not None and loop.stalled(now):
                        left.append(loop)  # blocked by a coroutine: later questions get
                        loop = None  # a new loop; its own may still answer in time
                fail(qid, f"timed out after {timeout:g} s", now - flight.started)
                progress(len(answered) + len(failed), len(questions), qid)
    finally:
        for flight in flights.values():
            if flight.future is not None:
                flight.future.cancel()
        for blocked in left:
            blocked.close(wait=False)
        if loop is not None:
            loop.close()
    return answered, seconds, failed
