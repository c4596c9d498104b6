"""How deeply a page nests elements, estimated before a WHATWG parser runs.

Both WHATWG parsers spend time linear in the depth of the open-element stack on every
start tag of a block element (``div``, ``dl``, ``ul``, ``pre``, ``section``...): the tree builder
first looks for an open ``p`` "in button scope", searching the whole stack (jsoup stops
after 100 elements, ``HtmlTreeBuilder.MaxScopeSearchDepth``). Nesting ``d`` such elements
therefore costs ``O(d²)``: measured with lexbor, 40,000 nested ``<div>`` take 4 s to parse,
100,000 take 25 s; ``<ul><li>`` pairs cost about five times as much (100,000 ``<dl><dd>``
pairs: over 500 s). html5lib is quadratic in the depth of any nesting (100,000 nested
``<span>`` exceed its 20 s budget).

The ``lexbor`` and ``html5lib`` engines therefore hand a page deeper than their bound
(:data:`MAX_BLOCK_DEPTH` block containers for lexbor, :data:`MAX_HTML5LIB_DEPTH` elements
for html5lib) to the ``jsoup`` engine, whose parser bounds its stack searches as jsoup
does and takes any depth in linear time. The estimates count start tags minus end tags,
never fewer levels than the parser builds (elements closed implicitly, like ``p``, ``li``,
``dd``, ``dt``, ``option`` or table parts, are counted as open), so a page under the bound
parses in about a second at most.
"""

from __future__ import annotations

import re

MAX_BLOCK_DEPTH = 10_000
"""Deepest estimated nesting of block containers lexbor parses (under a second or two)."""
MAX_HTML5LIB_DEPTH = 500
"""Deepest estimated nesting of elements html5lib parses (800 nested ``<b>`` take it 10 s:
its list of formatting elements is quadratic too)."""

_CONTAINERS = (
    "address|article|aside|blockquote|center|details|dialog|dir|div|dl|fieldset|figcaption"
    "|figure|footer|header|hgroup|listing|main|menu|nav|ol|pre|section|summary|ul"
)
_TAG = re.compile(rf"<(/?)(?:{_CONTAINERS})(?=[\s/>])", re.I)
# Start tags of containers in lower-cased text: their number bounds the depth. Matched
# without re.I (three times faster): lower() gives every ASCII letter's match, and the
# only other characters re.I matches to ASCII letters are these four (then: no bound).
_STARTS_LOW = re.compile(rf"<(?:{_CONTAINERS})(?=[\s/>])")
_CASE_LOOKALIKES = ("\u0130", "\u0131", "\u017f", "\u212a")
_VOID = frozenset(
    [
        "area",
        "base",
        "basefont",
        "bgsound",
        "br",
        "col",
        "embed",
        "frame",
        "hr",
        "image",
        "img",
        "input",
        "isindex",
        "keygen",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
_ANY_TAG = re.compile(r"<(/?)([A-Za-z][^\t\n\f\r />]*)")
_COMMENT_OR_RAW = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style|textarea|title|xmp|iframe|noembed|noframes)"
    r"(?=[\s/>])[^>]*>.*?(?:</\1\s*>|\Z)|<plaintext.*",
    re.I | re.S,
)


def block_depth(text: str, bound: int = MAX_BLOCK_DEPTH) -> int:
    """The deepest running count of open block containers in ``text`` (start minus end
    tags, outside comments and raw-text elements; never below zero), or 0 without scanning
    when ``text`` has too few tags, or too few container start tags, to exceed ``bound``
    (the start tags counted anywhere, comments included: never fewer than the scan)."""
    if (
        text.count("<") > bound
        and not any(c in text for c in _CASE_LOOKALIKES)
        and len(_STARTS_LOW.findall(text.lower())) <= bound
    ):
        return 0
    return _deepest(text, bound, _TAG, frozenset())


def element_depth(text: str, bound: int = MAX_HTML5LIB_DEPTH) -> int:
    """Like :func:`block_depth` for every element that is not void (``br``, ``img``...),
    any name, known or not."""
    return _deepest(text, bound, _ANY_TAG, _VOID)


def _deepest(text: str, bound: int, tags: re.Pattern[str], skip: frozenset[str]) -> int:
    if text.count("<") <= bound:
        return 0  # cannot nest deeper than it has tags (the common case: no scan at all)
    depth = deepest = 0
    for m in tags.finditer(_COMMENT_OR_RAW.sub("", text)):
        if skip and m.group(2).lower() in skip:
            continue
        if m.group(1):
            depth = max(depth - 1, 0)
        else:
            depth += 1
            deepest = max(deepest, depth)
    return deepest
