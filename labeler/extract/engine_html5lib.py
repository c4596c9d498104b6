"""The ``html5lib`` engine: BeautifulSoup's html5lib tree builder walked with jsoup's rules.

Slower than lexbor, but pure Python and independent of it: a second WHATWG implementation
that keeps the first honest (the tests require both to give identical text).
"""

from __future__ import annotations

import re
import warnings
from functools import partial

from bs4 import BeautifulSoup
from bs4.element import NavigableString, PageElement, PreformattedString, Tag

from labeler.extract.prepass import strip_head
from labeler.extract.sentinels import Sentinels, pick_sentinels
from labeler.extract.walk import (
    BLOCK_TAGS,
    DATA_TAGS,
    PRESERVE_DEPTH,
    PRESERVE_TAGS,
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


def body_text(text: str, sentinels: Sentinels | None) -> str:
    """jsoup's ``body().text()`` for already pre-passed ``text`` parsed by html5lib."""
    if _TEMPLATE.search(text) is not None:
        text = strip_head(text, _TEMPLATE_ONLY)
    if _PRE_LF.search(text) is not None:
        s = sentinels if sentinels is not None else pick_sentinels(text)
        text = _PRE_LF.sub(lambda m: m.group(1) + s.prelf + "\n", text)
        sentinels = s
    with warnings.catch_warnings():
        # bs4 warns about XML-looking or file-name-looking input; any bytes are a page here.
        warnings.simplefilter("ignore")
        soup = BeautifulSoup(text, "html5lib")
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


def _walk(el: Tag, acc: TextAcc, maps: SentinelMaps | None, ancestors: list[str]) -> None:
    """Visit ``el`` (head, children, and the tail rule per child); ancestors exclude ``el``."""
    if el.name in BLOCK_TAGS or el.name == "br":
        acc.separator()
    chain = [el.name, *ancestors]
    preserved = any(name in PRESERVE_TAGS for name in chain[:PRESERVE_DEPTH])
    popped = chain[: chain.index("body")] if "body" in chain else chain
    prev: PageElement | None = None
    for child in el.children:
        after_block = (
            isinstance(prev, Tag) and prev.name in BLOCK_TAGS and _carrier(prev, maps) is None
        )
        carried = _carrier(child, maps)
        if carried is not None:
            assert maps is not None
            marked_text(
                acc, carried, maps, el.name, preserved, after_block, partial(popped_chain, popped)
            )
        elif isinstance(child, Tag):
            _walk(child, acc, maps, chain)
        elif isinstance(child, NavigableString) and not isinstance(child, PreformattedString):
            if el.name in DATA_TAGS:
                continue
            value = str(child)
            if maps is not None and maps.any.search(value) is not None:
                marked_text(
                    acc, value, maps, el.name, preserved, after_block, partial(popped_chain, popped)
                )
            elif preserved:
                if after_block:
                    acc.separator()  # tail(block) before a text sibling
                acc.raw(value)
            else:
                if after_block:
                    acc.separator()
                acc.normal(value)
        prev = child
