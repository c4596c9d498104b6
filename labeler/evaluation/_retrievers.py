"""Retrievers called in the loop: each gold question's text in, ranked results out.

A *retriever* is any callable taking the question text, or the text and the question's id
when its second positional parameter has no default (``def retrieve(text, query_id)``), and
returning the question's results best first, in any shape of :mod:`labeler.evaluation`
(strings, mappings, LangChain ``Document``, LlamaIndex nodes or ``NodeWithScore``).
Coroutine functions are awaited in one event loop; plain functions run in worker threads
(daemon threads, so one that never returns cannot keep the process alive). At most
``concurrency`` calls are in flight at a time.

Per question the wall-clock time of the call is measured. A call that raises, returns
something that is not a list of results, or takes longer than ``timeout`` seconds makes
that question *failed*: its error is reported and it is left out of the run, so scoring
counts it as a question missing from the run (0, listed), unless ``fail_fast``, which
stops at the first failure with :class:`RetrieverError`. A thread that times out is left
running (Python cannot stop it); its late answer is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labeler.errors import LabelerError, UsageError
from labeler.evaluation._results import ResultShapeError, to_chunks
from scoring import Chunk

Retriever = Callable[..., Any]


class RetrieverError(LabelerError):
    """A retriever failed on a question and the caller asked to stop (``fail_fast``)."""


@dataclass(frozen=True)
class Failure:
    """A question whose retriever call failed: its id, the error, the seconds it took."""

    query_id: str
    error: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"query_id": self.query_id, "error": self.error, "seconds": self.seconds}


@dataclass(frozen=True)
class Latency:
    """Wall-clock seconds per answered question: nearest-rank percentiles (the value at
    position ``ceil(p/100 · n)`` of the sorted times; ``[1, 2, 3, 4]`` → p50 2, p95 4),
    the maximum and the mean; all 0.0 when no question was answered."""

    questions: int
    p50: float
    p95: float
    max: float
    mean: float

    @classmethod
    def of(cls, seconds: Sequence[float]) -> Latency:
        times = sorted(seconds)
        n = len(times)
        if not n:
            return cls(0, 0.0, 0.0, 0.0, 0.0)

        def rank(p: int) -> float:
            return times[max(math.ceil(p * n / 100), 1) - 1]

        return cls(n, rank(50), rank(95), times[-1], math.fsum(times) / n)

    def to_dict(self) -> dict[str, Any]:
        return {
            "questions": self.questions,
            "p50": self.p50,
            "p95": self.p95,
            "max": self.max,
            "mean": self.mean,
        }


@dataclass(frozen=True)
class Answers:
    """What the retriever returned: the run (query id → chunks, gold order, answered
    questions only), each answered question's seconds, and the failures (gold order)."""

    run: dict[str, list[Chunk]]
    seconds: dict[str, float]
    failures: tuple[Failure, ...]

    @property
    def latency(self) -> Latency:
        return Latency.of(list(self.seconds.values()))


def load_retriever(spec: str, factory_args: Mapping[str, str] | None = None) -> Retriever:
    """The callable ``package.module:name`` (``name`` may be dotted: ``module:Class.method``).

    The current directory is searched for the module too (as ``python -m`` does). With
    ``factory_args`` the object found is a factory: it is called once with them as keyword
    arguments and returns the retriever. Raises :class:`UsageError` saying what is wrong.
    """
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        raise UsageError(f"--retriever: expected package.module:callable, got {spec!r}")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as err:
        raise UsageError(f"--retriever {spec}: cannot import {module_name!r}: {err}") from None
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise UsageError(f"--retriever {spec}: {module_name!r} has no {attr!r}") from None
    if factory_args is not None:
        if not callable(target):
            raise UsageError(f"--retriever {spec}: not callable, cannot make a retriever")
        try:
            target = target(**factory_args)
        except LabelerError:
            raise
        except Exception as err:  # the factory's own failure, e.g. an unknown argument
            raise UsageError(
                f"--retriever {spec}: making the retriever failed: {type(err).__name__}: {err}"
            ) from None
    if not callable(target):
        raise UsageError(f"--retriever {spec}: {type(target).__name__} is not callable")
    return target  # type: ignore[no-any-return]


def retriever_label(retriever: Retriever) -> str:
    """``module:qualified.name`` of a callable (its class's for an instance)."""
    named = retriever if hasattr(retriever, "__qualname__") else type(retriever)
    return f"{getattr(named, '__module__', '?')}:{getattr(named, '__qualname__', '?')}"


def takes_id(retriever: Retriever) -> bool:
    """True when ``retriever``'s second positional parameter has no default: it is then
    called with ``(text, query_id)``, else with ``(text,)``."""
    try:
        params = list(inspect.signature(retriever).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 and positional[1].default is inspect.Parameter.empty


def _is_coroutine(retriever: Retriever) -> bool:
    call = getattr(retriever, "__call__", None)  # noqa: B004 (an instance's async __call__)
    return inspect.iscoroutinefunction(retriever) or inspect.iscoroutinefunction(call)


def _settle(future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
    if future.done():  # timed out meanwhile
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(value)


def _in_thread(retriever: Retriever, args: tuple[str, ...]) -> asyncio.Future[Any]:
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def work() -> None:
        value: Any = None
        error: BaseException | None = None
        try:
            value = retriever(*args)
        except BaseException as exc:
            error = exc
        with contextlib.suppress(RuntimeError):  # a closed loop: a late answer, timed out
            loop.call_soon_threadsafe(_settle, future, value, error)

    threading.Thread(target=work, name="labeler-retriever", daemon=True).start()
    return future


async def _ask(retriever: Retriever, args: tuple[str, ...], coroutine: bool) -> Any:
    result = retriever(*args) if coroutine else await _in_thread(retriever, args)
    while inspect.isawaitable(result):  # also a plain function returning an awaitable
        result = await result
    return result


async def _call_all(
    retriever: Retriever,
    questions: Sequence[tuple[str, str]],
    concurrency: int,
    timeout: float | None,
    fail_fast: bool,
    allow_nul: bool,
) -> tuple[dict[str, list[Chunk]], dict[str, float], dict[str, Failure]]:
    gate = asyncio.Semaphore(concurrency)
    with_id, coroutine = takes_id(retriever), _is_coroutine(retriever)
    answered: dict[str, list[Chunk]] = {}
    seconds: dict[str, float] = {}
    failed: dict[str, Failure] = {}

    async def one(qid: str, text: str) -> None:
        async with gate:
            args = (text, qid) if with_id else (text,)
            started = time.perf_counter()
            try:
                results = await asyncio.wait_for(_ask(retriever, args, coroutine), timeout)
                chunks = to_chunks(results, allow_nul=allow_nul)
            except TimeoutError:
                error = f"timed out after {timeout:g} s"
            except ResultShapeError as err:
                error = f"unreadable results: {err}"
            except Exception as exc:
                error = f"{type(exc).__name__}: {exc}"
            else:
                seconds[qid] = time.perf_counter() - started
                answered[qid] = chunks
                return
            failed[qid] = Failure(qid, error, time.perf_counter() - started)
            if fail_fast:
                raise RetrieverError(f"question {qid!r}: {error} (stopped: --fail-fast)")

    tasks = [asyncio.create_task(one(qid, text)) for qid, text in questions]
    if not tasks:
        return answered, seconds, failed
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]
    return answered, seconds, failed


def call_retriever(
    retriever: Retriever,
    questions: Sequence[tuple[str, str]],
    *,
    concurrency: int = 1,
    timeout: float | None = None,
    fail_fast: bool = False,
    allow_nul: bool = True,
) -> Answers:
    """Ask ``retriever`` every ``(query_id, text)`` of ``questions`` (module docstring).

    Reads and writes nothing but what the retriever does. Works from inside a running event
    loop too (a notebook): the calls then run in an event loop of their own thread. Raises
    :class:`UsageError` for ``concurrency < 1`` or ``timeout <= 0``, and
    :class:`RetrieverError` at the first failure when ``fail_fast``.
    """
    if concurrency < 1:
        raise UsageError(f"--concurrency must be at least 1, got {concurrency}")
    if timeout is not None and not timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, got {timeout}")
    job = _call_all(retriever, questions, concurrency, timeout, fail_fast, allow_nul)
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        answered, seconds, failed = asyncio.run(job)
    else:
        answered, seconds, failed = _run_elsewhere(job)
    order = [qid for qid, _ in questions]
    return Answers(
        run={qid: answered[qid] for qid in order if qid in answered},
        seconds={qid: seconds[qid] for qid in order if qid in seconds},
        failures=tuple(failed[qid] for qid in order if qid in failed),
    )


def _run_elsewhere(job: Any) -> Any:
    """``asyncio.run(job)`` in a thread of its own (this thread's loop is running)."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["value"] = asyncio.run(job)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=work, name="labeler-retrievers")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]
