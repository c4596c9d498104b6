"""What may stand for a retriever, recognised by its attributes (no framework is imported).

:func:`adapt` turns the object given to ``labeler evaluate --retriever`` or
``GoldSet.evaluate`` into one *question call*: ``call(text, query_id)`` returning the
question's results (or an awaitable of them, for an async method). The first rule that
fits the object is used:

1. ``invoke`` (else ``ainvoke``): LangChain retrievers and runnables, called with the text;
2. ``retrieve`` (else ``aretrieve``): LlamaIndex retrievers, called with the text;
3. ``similarity_search_with_score`` (else ``asimilarity_search_with_score``): LangChain
   vector stores, called with the text and ``k`` = the deepest cut-off scored (10 for the
   default cut-offs 1, 3, 5, 10); the ``(Document, score)`` pairs keep their scores;
4. ``as_retriever()``: LangChain vector stores, LlamaIndex indexes; called once, with no
   argument (so with the object's own depth: LangChain's 4, LlamaIndex's 2 unless it was
   built otherwise), and what it returns must fit rule 1 or 2;
5. a callable (a function, a coroutine function, an object with ``__call__``): called with
   the text, or with the text and the query id when its second positional parameter has no
   default.

The sync method is preferred where an object has both: it runs in a worker thread, so it
is bounded like any other call. Anything else is refused with :class:`UsageError` at once,
before any question is asked, listing what is accepted.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from labeler.errors import UsageError

ACCEPTED = (
    "a callable (sync or async) taking the question text (and its id), or an object with "
    "invoke/ainvoke (LangChain retrievers, runnables), retrieve/aretrieve (LlamaIndex "
    "retrievers), similarity_search_with_score (LangChain vector stores) or as_retriever() "
    "(LangChain vector stores, LlamaIndex indexes)"
)


@dataclass(frozen=True)
class QuestionCall:
    """How one question is asked: ``call(text, query_id)``; ``coroutine`` when it returns
    a coroutine (run in the event loop); ``how`` names the method used (for messages)."""

    call: Callable[[str, str], Any]
    coroutine: bool
    how: str


def takes_id(retriever: Callable[..., Any]) -> bool:
    """True when ``retriever``'s second positional parameter has no default: it is then
    called with ``(text, query_id)``, else with ``(text,)``."""
    try:
        params = list(inspect.signature(retriever).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 2 and positional[1].default is inspect.Parameter.empty


def _is_coroutine(function: Any) -> bool:
    call = getattr(function, "__call__", None)  # noqa: B004 (an instance's async __call__)
    return inspect.iscoroutinefunction(function) or inspect.iscoroutinefunction(call)


def _method(obj: Any, sync: str, asynchronous: str) -> tuple[Callable[..., Any], str] | None:
    """The bound ``sync`` method of ``obj``, else its ``asynchronous`` one, else None."""
    for name in (sync, asynchronous):
        method = getattr(obj, name, None)
        if callable(method):
            return method, name
    return None


def _text_only(method: Callable[..., Any], name: str) -> QuestionCall:
    return QuestionCall(lambda text, _qid: method(text), _is_coroutine(method), name)


def _framework(obj: Any, depth: int) -> QuestionCall | None:
    """Rules 1 to 3 of the module docstring, or None when none fits."""
    for sync, asynchronous in (("invoke", "ainvoke"), ("retrieve", "aretrieve")):
        found = _method(obj, sync, asynchronous)
        if found is not None:
            return _text_only(*found)
    found = _method(obj, "similarity_search_with_score", "asimilarity_search_with_score")
    if found is not None:
        search, name = found
        return QuestionCall(
            lambda text, _qid: search(text, k=depth), _is_coroutine(search), f"{name}(k={depth})"
        )
    return None


_METHODS = (
    "invoke",
    "ainvoke",
    "retrieve",
    "aretrieve",
    "similarity_search_with_score",
    "asimilarity_search_with_score",
    "as_retriever",
)


def recognised(obj: Any, *, where: str = "retriever") -> None:
    """Check, without calling anything, that one rule of the module docstring may fit
    ``obj``. Raises :class:`UsageError` listing what is accepted when none does."""
    if callable(obj) or any(callable(getattr(obj, name, None)) for name in _METHODS):
        return
    raise UsageError(f"{where}: a {type(obj).__name__} is not a retriever; accepted: {ACCEPTED}")


def adapt(obj: Any, *, depth: int = 10, where: str = "retriever") -> QuestionCall:
    """The question call for ``obj`` by the rules of the module docstring.

    ``depth`` is the ``k`` asked of a vector store (the deepest cut-off scored). A class
    (not an instance) is taken as a callable. Raises :class:`UsageError` (its message
    starting with ``where``) for an object no rule fits, or whose ``as_retriever()`` raises
    or returns such an object.
    """
    if depth < 1:
        raise UsageError(f"{where}: depth must be at least 1, got {depth}")
    if not isinstance(obj, type):
        found = _framework(obj, depth)
        if found is not None:
            return found
        make = getattr(obj, "as_retriever", None)
        if callable(make):
            try:
                made = make()
            except Exception as err:  # the framework's own failure
                raise UsageError(
                    f"{where}: {type(obj).__name__}.as_retriever() failed: "
                    f"{type(err).__name__}: {err}"
                ) from None
            found = None if isinstance(made, type) else _framework(made, depth)
            if found is None:
                raise UsageError(
                    f"{where}: {type(obj).__name__}.as_retriever() returned a "
                    f"{type(made).__name__}, which has no invoke/ainvoke or retrieve/aretrieve"
                )
            return QuestionCall(found.call, found.coroutine, f"as_retriever().{found.how}")
    if callable(obj):
        coroutine = _is_coroutine(obj)
        if takes_id(obj):
            return QuestionCall(obj, coroutine, "call(text, query_id)")
        return QuestionCall(lambda text, _qid: obj(text), coroutine, "call(text)")
    raise UsageError(f"{where}: a {type(obj).__name__} is not a retriever; accepted: {ACCEPTED}")
