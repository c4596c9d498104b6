"""Retrievers called in the loop: each gold question's text in, ranked results out.

A *retriever* is a callable (sync or async) taking the question text, or the text and the
question's id when its second positional parameter has no default (``def retrieve(text,
query_id)``), or an object with ``invoke``/``ainvoke``, ``retrieve``/``aretrieve``,
``similarity_search_with_score`` or ``as_retriever()`` (LangChain and LlamaIndex, read by
those names; the order is :mod:`labeler.evaluation._adapters`'). It returns the question's
results best first, in any shape of :mod:`labeler.evaluation._results` (strings, mappings,
LangChain ``Document``, LlamaIndex nodes or ``NodeWithScore``, with their offsets), as a
list or any iterable. Coroutines run in one event loop, plain calls in worker threads
(daemon threads); at most ``concurrency`` calls are in flight at a time.

Per question the wall-clock time of the call is measured. A call that raises (anything,
``SystemExit`` included), returns something that is not a list of results or more than
``max_results`` of them, or takes longer than ``timeout`` seconds (also a coroutine that
blocks the event loop, and a generator that never ends) makes that question *failed*: its
error is reported and it is left out of the run, so scoring counts it as a question missing
from the run (0, listed), unless ``fail_fast``, which stops at the first failure with
:class:`RetrieverError`. How the bounds hold is in :mod:`labeler.evaluation._calls`.
"""

from __future__ import annotations

import importlib
import math
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labeler.errors import LabelerError, UsageError
from labeler.evaluation._adapters import adapt, recognised, takes_id
from labeler.evaluation._calls import RetrieverError, ask_all
from labeler.progress import Progress, no_progress
from scoring import Chunk

#: a callable or an object with one of the methods above (checked by :func:`adapt`)
Retriever = Any
#: results read per question at most (``--max-results``)
MAX_RESULTS = 1000

__all__ = [
    "MAX_RESULTS",
    "Answers",
    "Failure",
    "Latency",
    "Retriever",
    "RetrieverError",
    "call_retriever",
    "load_retriever",
    "retriever_label",
    "takes_id",
]


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
    """The retriever ``package.module:name`` (``name`` may be dotted: ``module:Class.method``).

    The current directory is searched for the module too (as ``python -m`` does). With
    ``factory_args`` the object found is a factory: it is called once with them as keyword
    arguments and returns the retriever. Raises :class:`UsageError` saying what is wrong,
    also for an object that is no retriever (module docstring), listing what is accepted.
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
    recognised(target, where=f"--retriever {spec}")
    return target


def retriever_label(retriever: Retriever) -> str:
    """``module:qualified.name`` of a callable (its class's for an instance)."""
    named = retriever if hasattr(retriever, "__qualname__") else type(retriever)
    return f"{getattr(named, '__module__', '?')}:{getattr(named, '__qualname__', '?')}"


def call_retriever(
    retriever: Retriever,
    questions: Sequence[tuple[str, str]],
    *,
    concurrency: int = 1,
    timeout: float | None = None,
    fail_fast: bool = False,
    allow_nul: bool = True,
    max_results: int = MAX_RESULTS,
    depth: int = 10,
    where: str = "retriever",
    progress: Progress = no_progress,
) -> Answers:
    """Ask ``retriever`` every ``(query_id, text)`` of ``questions`` (module docstring).

    ``depth`` is the ``k`` asked of a vector store's ``similarity_search_with_score``.
    Reads and writes nothing but what the retriever does; works from inside a running event
    loop too (a notebook), the calls running in threads and a loop of their own. Raises
    :class:`UsageError` before any call for a retriever of no accepted kind (the message
    starts with ``where``), ``concurrency < 1``, ``timeout <= 0`` or ``max_results < 1``,
    and :class:`RetrieverError` at the first failure when ``fail_fast``.
    ``progress(settled, len(questions), query_id)`` after each question's answer or failure.
    """
    if concurrency < 1:
        raise UsageError(f"--concurrency must be at least 1, got {concurrency}")
    if timeout is not None and not (timeout > 0 and math.isfinite(timeout)):
        raise UsageError(f"--timeout must be a positive number of seconds, got {timeout}")
    if max_results < 1:
        raise UsageError(f"--max-results must be at least 1, got {max_results}")
    asked = adapt(retriever, depth=depth, where=where)
    answered, seconds, failed = ask_all(
        asked,
        questions,
        concurrency=concurrency,
        timeout=timeout,
        fail_fast=fail_fast,
        allow_nul=allow_nul,
        max_results=max_results,
        progress=progress,
    )
    order = [qid for qid, _ in questions]
    return Answers(
        run={qid: answered[qid] for qid in order if qid in answered},
        seconds={qid: seconds[qid] for qid in order if qid in seconds},
        failures=tuple(Failure(qid, *failed[qid]) for qid in order if qid in failed),
    )
