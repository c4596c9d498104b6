"""The ``html5lib`` engine: BeautifulSoup's html5lib tree builder walked with jsoup's rules.

Slower than lexbor, but pure Python and independent of it: a second WHATWG implementation
that keeps the first honest (the tests require both to give identical text). It is a
cross-check, not a production path: about 15× slower than lexbor on ordinary pages, and
quadratic on some hostile ones (misnested formatting elements: 2,000 ``<p><b id=N>x`` take
html5lib+bs4 over 100 s, cloning the open ``<b>`` elements again for every paragraph; deep
nesting). So every parse runs under a CPU-time budget (:data:`BUDGET_SECONDS`): past it,
:class:`~labeler.errors.ExtractError` says so, and the page is for the default engine.
"""

from __future__ import annotations

import re
import time
import warnings
from functools import partial
from typing import Any

from bs4 import BeautifulSoup
from bs4.builder._html5lib import HTML5TreeBuilder, TreeBuilderForHtml5lib
from bs4.element import NavigableString, PageElement, PreformattedString, Tag

from labeler.errors import ExtractError
from labeler.extract.prepass import strip_head
from labeler.extract.sentinels import Sentinels, pick_sentinels
from labeler.extract.walk import (
    BLOCK_TAGS,
    DATA_TAGS,
    PRESERVE_DEPTH,
    PRESERVE_TAGS,
    SPECIAL_TAGS,
    SentinelMaps,
    TextAcc,
    marked_text,
    popped_chain,
)


def _body(soup: BeautifulSoup) -> Tag | None:
    """jsoup's ``body()``: the first child of ``<html>`` that is body or frameset."""
    html = soup.find("html", recursive=False)
    if not isinstance(html, Tag):
        return None
    for child in html.children:
        if isinstance(child, Tag) and child.name in ("body", "frameset"):
            return child
    return None


# html5lib drops the LF after <pre>/<listing> only when in body mode, not inside a table
# cell (its "in cell" phase bypasses the hook). Marking that LF for the walk to drop makes
# the result independent of the insertion mode.
_PRE_LF = re.compile(r"(<(?:pre|listing)(?=[\s/>])[^>]*>)\n", re.I)
# html5lib 1.1 has no template insertion mode: a <template> in head moves to body. jsoup
# (like lexbor) keeps it, and its content, in head.
_TEMPLATE = re.compile(r"<template", re.I)
_TEMPLATE_ONLY = frozenset({"template"})


BUDGET_SECONDS = 20.0
"""CPU seconds (of the calling thread, so a loaded machine does not shorten it) one
html5lib parse may take before it is abandoned. The largest bundled corpus page (1.8 MB)
takes about 3 s; 2,000 ``<p><b id=N>x`` take 100 s (the jar: 0.4 s)."""


class _OverBudget(Exception):
    """Raised inside html5lib's tree construction once the deadline has passed."""


class _TimedTreeBuilder(TreeBuilderForHtml5lib):
    """bs4's html5lib tree builder, checking a deadline at every element, text and
    reconstruction of active formatting elements (where the quadratic cases spend it)."""

    deadline = 0.0

    def _check(self) -> None:
        if time.thread_time() > self.deadline:
            raise _OverBudget

    def elementClass(self, name: str, namespace: str) -> Any:
        self._check()
        return super().elementClass(name, namespace)

    def insertText(self, data: str, parent: Any = None) -> None:
        self._check()
        super().insertText(data, parent)

    def reconstructActiveFormattingElements(self) -> None:
        self._check()
        super().reconstructActiveFormattingElements()


class _TimedBuilder(HTML5TreeBuilder):
    """The bs4 builder that hands html5lib a :class:`_TimedTreeBuilder`."""

    def __init__(self, deadline: float) -> None:
        super().__init__()
        self.deadline = deadline

    def create_treebuilder(self, namespaceHTMLElements: bool) -> TreeBuilderForHtml5lib:
        builder = _TimedTreeBuilder(
            namespaceHTMLElements, self.soup, store_line_numbers=self.store_line_numbers
        )
        builder.deadline = self.deadline
        self.underlying_builder = builder
        return builder


def body_text(text: str, sentinels: Sentinels | None, budget: float | None = None) -> str:
    """jsoup's ``body().text()`` for already pre-passed ``text`` parsed by html5lib.

    Raises :class:`ExtractError` when parsing takes more than ``budget`` CPU seconds
    (default :data:`BUDGET_SECONDS`).
    """
    seconds = BUDGET_SECONDS if budget is None else budget
    if _TEMPLATE.search(text) is not None:
        text = strip_head(text, _TEMPLATE_ONLY)
    if _PRE_LF.search(text) is not None:
        s = sentinels if sentinels is not None else pick_sentinels(text)
        text = _PRE_LF.sub(lambda m: m.group(1) + s.prelf + "\n", text)
        sentinels = s
    with warnings.catch_warnings():
        # bs4 warns about XML-looking or file-name-looking input; any bytes are a page here.
        warnings.simplefilter("ignore")
        try:
            soup = BeautifulSoup(text, builder=_TimedBuilder(time.thread_time() + seconds))
        except _OverBudget:
            raise ExtractError(
                f"the html5lib engine gave up after {seconds:g} CPU s (its time budget): html5lib "
                "is quadratic on some misnested or deeply nested markup; the default engine "
                "(jsoup) extracts this page"
            ) from None
    body = _body(soup)
    if body is None:
        return ""
    acc = TextAcc()
    maps = SentinelMaps(sentinels) if sentinels is not None else None
    _walk(body, acc, maps, [])
    return acc.result()


def _carrier(node: PageElement | None, maps: SentinelMaps | None) -> str | None:
    """The table text a pre-pass ``<style>`` carrier holds, or None if ``node`` is not one."""
    if maps is None or not isinstance(node, Tag) or node.name != "style":
        return None
    value = node.string
    if value is None or not value.startswith(maps.s.carrier):
        return None
    return str(value)[1:]


class _Frame:
    """An element being walked: its children left to visit and what its text rules need.

    ``names`` holds the element's name and its nearest ancestors' (``PRESERVE_DEPTH`` at
    most: jsoup's whitespace-preservation check reads no further); ``special`` whether the
    element or an ancestor below ``body`` is a "special" tag (then jsoup's ``</body>`` does
    not pop body here).
    """

    __slots__ = ("children", "el", "names", "popped", "preserved", "prev", "special")

    def __init__(self, el: Tag, names: tuple[str, ...], special: bool) -> None:
        self.el = el
        self.children = iter(el.contents)
        self.names = names
        self.special = special
        self.preserved = any(name in PRESERVE_TAGS for name in names)
        self.popped = partial(bool, not special)
        self.prev: PageElement | None = None

    def child(self, el: Tag) -> _Frame:
        """The frame of child element ``el``."""
        name = el.name
        special = name != "body" and (name in SPECIAL_TAGS or self.special)
        return _Frame(el, (name, *self.names)[:PRESERVE_DEPTH], special)


def _walk(root: Tag, acc: TextAcc, maps: SentinelMaps | None, ancestors: list[str]) -> None:
    """Visit ``root`` (head, children, and the tail rule per child); ancestors exclude it.

    Iterative (an explicit stack of open elements), so any nesting depth is fine.
    """
    if root.name in BLOCK_TAGS or root.name == "br":
        acc.separator()
    chain = [root.name, *ancestors]
    popped = chain[: chain.index("body")] if "body" in chain else chain
    stack = [_Frame(root, tuple(chain[:PRESERVE_DEPTH]), not popped_chain(popped))]
    while stack:
        frame = stack[-1]
        child = next(frame.children, None)
        if child is None:
            stack.pop()
            continue
        el, prev = frame.el, frame.prev
        frame.prev = child
        after_block = (
            isinstance(prev, Tag) and prev.name in BLOCK_TAGS and _carrier(prev, maps) is None
        )
        carried = _carrier(child, maps)
        if carried is not None:
            assert maps is not None
            marked_text(acc, carried, maps, el.name, frame.preserved, after_block, frame.popped)
        elif isinstance(child, Tag):
            if child.name in BLOCK_TAGS or child.name == "br":
                acc.separator()
            stack.append(frame.child(child))
        elif isinstance(child, NavigableString) and not isinstance(child, PreformattedString):
            if el.name in DATA_TAGS:
                continue
            value = str(child)
            if maps is not None and maps.any.search(value) is not None:
                marked_text(acc, value, maps, el.name, frame.preserved, after_block, frame.popped)
            else:
                if after_block:
                    acc.separator()  # tail(block) before a text sibling
                acc.raw(value) if frame.preserved else acc.normal(value)
