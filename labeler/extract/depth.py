"""A bound on how deeply a page nests block elements, checked before the parser runs.

Both WHATWG parsers spend time linear in the depth of the open-element stack on every
start tag of a block element (``div``, ``dl``, ``ul``, ``section``...): the tree builder
first looks for an open ``p`` "in button scope", searching the whole stack (jsoup stops
after 100 elements, ``HtmlTreeBuilder.MaxScopeSearchDepth``). Nesting ``d`` such elements
therefore costs ``O(d²)``: measured with lexbor, 40,000 nested ``<div>`` take 4 s to parse,
100,000 take 25 s; ``<ul><li>`` pairs cost about five times as much (100,000 ``<dl><dd>`` pairs: over 500 s). The walk itself is linear.

:func:`check_depth` refuses such a page (an :class:`~labeler.errors.ExtractError` saying
why) instead of spending minutes on it. The estimate counts start tags of block containers
minus their end tags, never fewer levels than the parser builds for them (elements closed
implicitly, like ``p``, ``li``, ``dd``, ``dt``, ``option`` or table parts, are not counted),
so a page it lets through parses in about a second at most.
"""

from __future__ import annotations

import re

from labeler.errors import ExtractError

MAX_BLOCK_DEPTH = 10_000
"""Deepest estimated nesting of block containers a page may have (under a second or two with lexbor)."""

_CONTAINERS = (
    "address|article|aside|blockquote|center|details|dialog|dir|div|dl|fieldset|figcaption"
    "|figure|footer|header|hgroup|main|menu|nav|ol|section|summary|ul"
)
_TAG = re.compile(rf"<(/?)(?:{_CONTAINERS})(?=[\s/>])", re.I)
_COMMENT_OR_RAW = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style|textarea|title|xmp|iframe|noembed|noframes)"
    r"(?=[\s/>])[^>]*>.*?(?:</\1\s*>|\Z)|<plaintext.*",
    re.I | re.S,
)


def block_depth(text: str) -> int:
    """The deepest running count of open block containers in ``text`` (start minus end
    tags, outside comments and raw-text elements; never below zero), or 0 without scanning
    when ``text`` has too few tags to exceed :data:`MAX_BLOCK_DEPTH`."""
    if text.count("<") <= MAX_BLOCK_DEPTH:
        return 0  # cannot nest deeper than it has tags (the common case: no scan at all)
    text = _COMMENT_OR_RAW.sub("", text)
    depth = deepest = 0
    for m in _TAG.finditer(text):
        if m.group(1):
            depth = max(depth - 1, 0)
        else:
            depth += 1
            deepest = max(deepest, depth)
    return deepest


def check_depth(text: str) -> None:
    """Raise :class:`ExtractError` when ``text`` nests block containers deeper than
    :data:`MAX_BLOCK_DEPTH` (see the module docstring for why)."""
    depth = block_depth(text)
    if depth > MAX_BLOCK_DEPTH:
        raise ExtractError(
            f"block elements nested about {depth:,} deep (more than {MAX_BLOCK_DEPTH:,}): "
            "the HTML tree builder's time grows with the square of that depth; refused"
        )
