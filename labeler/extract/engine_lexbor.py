"""The ``lexbor`` engine: selectolax's lexbor (WHATWG, C) tree walked with jsoup's rules.

The walk is the hot spot, so it iterates ``traverse()`` (a C-level pre-order generator)
with integer tag ids instead of names, and asks for a node's siblings or ancestors only
when a rule needs them.
"""

from __future__ import annotations

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


def _preserved_ids(body: Any) -> set[int]:
    """Text nodes within six levels below a pre/plaintext/title/textarea element."""
    ids: set[int] = set()

    def collect(node: Any, depth: int) -> None:
        child = node.first_child
        while child is not None:
            if child.tag_id == _TEXT:
                ids.add(child.mem_id)
            elif depth < PRESERVE_DEPTH:
                collect(child, depth + 1)
            child = child.next

    for el in body.css(_PRESERVE_CSS):
        collect(el, 1)
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
    acc = TextAcc()
    preserved = _preserved_ids(body) if body.css_first(_PRESERVE_CSS) is not None else set()
    maps = SentinelMaps(sentinels) if sentinels is not None else None
    if maps is None:
        _walk_fast(body, acc, preserved)
    else:
        _walk(body, acc, preserved, maps)
    return acc.result()


def _fragments(node: Any, preserved: set[int]) -> Iterator[tuple[Any, set[int]]]:
    """The content fragment of template ``node`` with its preserved text ids (one at most)."""
    for fragment in node.template_fragments()[:1]:
        inner = _preserved_ids(fragment) if fragment.css_first(_PRESERVE_CSS) else set()
        yield fragment, preserved | inner


def _walk_fast(root: Any, acc: TextAcc, preserved: set[int]) -> None:
    """The walk for a page the pre-pass left unchanged (no sentinels): the hot loop.

    Same rules as :class:`TextAcc` and :func:`_walk`, inlined with local state, because
    per-node Python overhead dominates extraction time. Iterative: ``traverse()`` walks
    the tree in C, and a ``<template>``'s content (a separate fragment) is walked by
    pushing its traversal on an explicit stack, so any nesting depth is fine.
    """
    parts = acc.parts
    append = parts.append
    space, empty = acc.space, acc.empty
    ws_sub = WS_RUN.sub
    block_ids, head_ids, data_ids = _BLOCK_IDS, _HEAD_IDS, _DATA_IDS
    after_data = False
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
                if not empty and not space:
                    prev = node.prev  # tail(block) of the previous sibling
                    if prev is not None and prev.tag_id in block_ids:
                        append(" ")
                        space = True
                value: str = node.text_content
                if not (preserved and node.mem_id in preserved):
                    if "\u200b" in value or "\u00ad" in value:
                        value = INVISIBLE.sub("", value)
                    value = ws_sub(" ", value)
                    if space and value[:1] == " ":
                        value = value[1:]
                if value:
                    append(value)
                    space = value[-1] == " "
                    empty = False
                continue
            after_data = tag_id in data_ids
            if tag_id in head_ids and not empty and not space:
                append(" ")
                space = True
            if tag_id == _TEMPLATE:
                for fragment, inner in _fragments(node, preserved):
                    stack.append((fragment.traverse(include_text=True), inner))
                    break
                else:
                    continue
                break  # walk the template's content, then resume this traversal
        else:
            stack.pop()
    acc.space, acc.empty = space, empty


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
