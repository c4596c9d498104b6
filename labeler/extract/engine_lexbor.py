"""The ``lexbor`` engine: selectolax's lexbor (WHATWG, C) tree walked with jsoup's rules.

The walk is the hot spot, so it iterates ``traverse()`` (a C-level pre-order generator)
with integer tag ids instead of names, and asks for a node's siblings or ancestors only
when a rule needs them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from labeler.extract.sentinels import Sentinels
from labeler.extract.walk import (
    BLOCK_TAGS,
    DATA_TAGS,
    INVISIBLE,
    PRESERVE_DEPTH,
    PRESERVE_TAGS,
    WS_RUN,
    SentinelMaps,
    TextAcc,
    java_trim,
    marked_text,
    popped_chain,
)

_factory = LexborHTMLParser("")


def _tag_id(name: str) -> int:
    tag_id: int = _factory.create_node(name).tag_id
    return tag_id


_TEXT = 2
_BLOCK_IDS = frozenset(_tag_id(name) for name in BLOCK_TAGS)
_HEAD_IDS = _BLOCK_IDS | {_tag_id("br")}  # tags whose head() may add a separator
_DATA_IDS = frozenset(_tag_id(name) for name in DATA_TAGS)
_PRESERVE_IDS = frozenset(_tag_id(name) for name in PRESERVE_TAGS)
_TEMPLATE = _tag_id("template")
_TEXTAREA = _tag_id("textarea")
_STYLE = _tag_id("style")
_BODY = _tag_id("body")
_HTML = _tag_id("html")
_FRAMESET = _tag_id("frameset")
_PRESERVE_CSS = ",".join(sorted(PRESERVE_TAGS))


def _body(tree: LexborHTMLParser) -> Any:
    """jsoup's ``body()``: the first child of ``<html>`` that is body or frameset."""
    html = tree.root
    if html is None or html.tag_id != _HTML:
        return None
    child = html.first_child
    while child is not None:
        if child.tag_id in (_BODY, _FRAMESET):
            return child
        child = child.next
    return None


def _collect(node: Any, depth: int, ids: set[int]) -> None:
    """Add the text nodes of preserve element ``node`` within six levels below it to
    ``ids`` (``depth``: ``node``'s own level below it, from 1)."""
    child = node.first_child
    while child is not None:
        if child.tag_id == _TEXT:
            ids.add(child.mem_id)
        elif depth < PRESERVE_DEPTH:
            _collect(child, depth + 1, ids)
        child = child.next


def _preserved_ids(body: Any) -> set[int]:
    """Text nodes within six levels below a pre/plaintext/title/textarea element."""
    ids: set[int] = set()
    for el in body.css(_PRESERVE_CSS):
        _collect(el, 1, ids)
    return ids


def _ancestor_names(node: Any) -> list[str]:
    names: list[str] = []
    parent = node.parent
    while parent is not None and parent.tag_id != _BODY:
        names.append(parent.tag or "")
        parent = parent.parent
    return names


def _popped(node: Any) -> bool:
    return popped_chain(_ancestor_names(node))


def body_text(text: str, sentinels: Sentinels | None) -> str:
    """jsoup's ``body().text()`` for already pre-passed ``text`` parsed by lexbor."""
    return tree_text(LexborHTMLParser(text), sentinels)


def tree_text(tree: LexborHTMLParser, sentinels: Sentinels | None) -> str:
    """jsoup's ``body().text()`` of lexbor's ``tree`` (of pre-passed text, or of a page
    the fast path's check accepted as it is: ``sentinels`` None)."""
    body = _body(tree)
    if body is None:
        return ""
    if sentinels is None:
        return _fast_text(body)
    preserved = _preserved_ids(body) if body.css_first(_PRESERVE_CSS) is not None else set()
    acc = TextAcc()
    _walk(body, acc, preserved, SentinelMaps(sentinels))
    return acc.result()


def _fragments(node: Any, preserved: set[int]) -> Iterator[tuple[Any, set[int]]]:
    """The content fragment of template ``node`` with its preserved text ids (one at most)."""
    for fragment in node.template_fragments()[:1]:
        inner = _preserved_ids(fragment) if fragment.css_first(_PRESERVE_CSS) else set()
        yield fragment, preserved | inner


# Whitespace as jsoup's StringUtil.isActuallyWhitespace has it (WS_RUN's characters).
_WS_CHARS = frozenset(" \t\n\f\r\u00a0")
# What str.split() takes for whitespace besides those: with none of these in a text,
# splitting it and joining with spaces collapses exactly jsoup's whitespace runs.
_OTHER_SPACE = re.compile("[\x0b\x1c-\x1f\x85\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]")


def _normalised(run: list[str], after_space: bool) -> str:
    """A run of normal text and separators as jsoup appends it: invisible characters
    dropped, each whitespace run one space, a leading space dropped when the text so far
    (non-empty) ends with one (``after_space``).

    ``str.split()`` and a join do the collapsing (in C, about three times faster than
    the regular expression, which replaces every single space too) unless the text holds
    a character that ``split`` alone takes for whitespace; the ends are put back by hand.
    """
    text = "".join(run)
    if "\u200b" in text or "\u00ad" in text:
        text = INVISIBLE.sub("", text)
    if not text:
        return text
    if _OTHER_SPACE.search(text) is not None:
        text = WS_RUN.sub(" ", text)
        return text[1:] if after_space and text[:1] == " " else text
    ws = _WS_CHARS
    words = text.split()
    lead = " " if text[0] in ws and not after_space else ""
    if not words:
        return lead
    return lead + " ".join(words) + (" " if text[-1] in ws else "")


def _fast_text(root: Any) -> str:
    """The text of a tree the pre-pass left unchanged (no sentinels): the hot loop.

    jsoup appends each text node normalised (``appendNormalisedWhitespace``, dropping
    leading whitespace when the text so far ends with a space) and a separator space
    (block/``br`` head, block tail before a text sibling) when the text so far is non-empty
    and ends with no space. A separator is then exactly a normal text ``" "`` except on an
    empty text, where it only adds leading whitespace that the final ``trim()`` removes;
    and normalising text nodes one after another is normalising their concatenation. So
    the walk gathers a run of normal text and separators raw and normalises it in one
    regex pass where preserved text (kept as is) interrupts it, and at the end, instead of
    once per text node. A block's tail separator only matters before text that does not
    start with whitespace (which becomes that space anyway), or before preserved text, so
    only then is the previous sibling looked at (and not when the run so far ends with
    whitespace).

    Preserved text (within six levels below a pre, plaintext, title or textarea) is
    found when the walk meets such an element, before its text comes (no CSS query over
    every page). Iterative: ``traverse()`` walks the tree in C, and a ``<template>``'s
    content (a separate fragment) is walked by pushing its traversal on an explicit
    stack, so any nesting depth is fine.
    """
    preserved: set[int] = set()  # ids of the text nodes kept as they are
    out: list[str] = []
    run: list[str] = []
    append = run.append
    ws = _WS_CHARS
    text_id, template_id, textarea_id = _TEXT, _TEMPLATE, _TEXTAREA
    block_ids, head_ids, data_ids, preserve_ids = _BLOCK_IDS, _HEAD_IDS, _DATA_IDS, _PRESERVE_IDS
    after_data = False
    ends_space = False  # the text in ``out`` ends with a space
    stack: list[Iterator[Any]] = [root.traverse(include_text=True)]
    while stack:
        for node in stack[-1]:
            tag_id = node.tag_id
            if tag_id == text_id:
                if after_data:
                    after_data = False
                    if node.prev is None:
                        continue  # script/style content: data, not text
                value: str = node.text_content
                if preserved and node.mem_id in preserved:
                    prev = node.prev
                    if prev is not None and prev.tag_id in block_ids:
                        append(" ")
                    if value:
                        if run:
                            flushed = _normalised(run, ends_space)
                            run.clear()
                            if flushed:
                                out.append(flushed)
                        out.append(value)
                        ends_space = value[-1] == " "
                    continue
                if value[:1] not in ws and (not run or run[-1][-1:] not in ws):
                    prev = node.prev  # tail(block) of the previous sibling
                    if prev is not None and prev.tag_id in block_ids:
                        append(" ")
                append(value)
                continue
            if tag_id not in head_ids:  # script, style, template, pre, title are blocks
                after_data = False
                if tag_id == textarea_id:
                    _collect(node, 1, preserved)
                continue
            append(" ")
            after_data = tag_id in data_ids
            if tag_id in preserve_ids:
                _collect(node, 1, preserved)
            elif tag_id == template_id:
                fragments = node.template_fragments()
                if fragments:
                    stack.append(fragments[0].traverse(include_text=True))
                    break  # walk the template's content, then resume this traversal
        else:
            stack.pop()
    if run:
        out.append(_normalised(run, ends_space))
    return java_trim("".join(out))


def _carrier(node: Any, maps: SentinelMaps | None) -> str | None:
    """The table text a pre-pass ``<style>`` carrier holds, or None if ``node`` is not one."""
    if maps is None or node.tag_id != _STYLE:
        return None
    child = node.first_child
    if child is None or child.tag_id != _TEXT:
        return None
    value: str = child.text_content
    return value[1:] if value.startswith(maps.s.carrier) else None


def _after_block(node: Any, maps: SentinelMaps | None) -> bool:
    """jsoup's tail rule for ``node``'s previous sibling (a carrier counts as text)."""
    prev = node.prev
    if prev is None or prev.tag_id not in _BLOCK_IDS:
        return False
    return maps is None or _carrier(prev, maps) is None


def _walk(root: Any, acc: TextAcc, preserved: set[int], maps: SentinelMaps | None) -> None:
    """The walk with sentinel handling; iterative like :func:`_walk_fast`."""
    parts = acc.parts
    after_data = False  # the previous node was a script/style element
    stack: list[tuple[Iterator[Any], set[int]]] = [(root.traverse(include_text=True), preserved)]
    while stack:
        nodes, preserved = stack[-1]
        for node in nodes:
            tag_id = node.tag_id
            if tag_id == _TEXT:
                if after_data:
                    after_data = False
                    if node.prev is None:
                        continue  # script/style content: data, not text
                _text(node, acc, preserved, maps, parts)
                continue
            after_data = tag_id in _DATA_IDS
            if after_data and maps is not None:
                carried = _carrier(node, maps)
                if carried is not None:
                    parent = node.parent
                    marked_text(
                        acc,
                        carried,
                        maps,
                        parent.tag if parent is not None else "",
                        bool(preserved) and node.first_child.mem_id in preserved,
                        _after_block(node, maps),
                        partial(_popped, node),
                    )
                    continue
            if tag_id in _HEAD_IDS:
                acc.separator()
            if tag_id == _TEMPLATE:
                # template content lives in a fragment that traverse() does not enter
                for fragment, inner in _fragments(node, preserved):
                    stack.append((fragment.traverse(include_text=True), inner))
                    break
                else:
                    continue
                break
        else:
            stack.pop()


def _text(
    node: Any, acc: TextAcc, preserved: set[int], maps: SentinelMaps | None, parts: list[str]
) -> None:
    value: str = node.text_content
    keep = bool(preserved) and node.mem_id in preserved
    if maps is not None:
        if maps.any.search(value) is not None:
            parent = node.parent
            marked_text(
                acc,
                value,
                maps,
                parent.tag if parent is not None else "",
                keep,
                _after_block(node, maps),
                partial(_popped, node),
            )
            return
        if _after_block(node, maps):
            acc.separator()
    elif not acc.empty and not acc.space:
        # tail(block) of the previous sibling, done here: it fires only before text
        prev = node.prev
        if prev is not None and prev.tag_id in _BLOCK_IDS:
            parts.append(" ")
            acc.space = True
    if keep:
        acc.raw(value)
    else:
        acc.normal(value)
