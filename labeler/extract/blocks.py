"""Where blocks begin in a page's text: the boundaries a structure-aware chunker cuts at.

:func:`block_starts` walks the same lexbor tree, with the same jsoup rules, as the
``jsoup-1.15.3`` profile's extractor (:mod:`labeler.extract.engine_lexbor`), but element by
element (with its own stack, not recursion) so it sees where each element ends, and notes the text offset at each block boundary. It is
a separate code path: :func:`labeler.extract.page_text` is untouched and pays nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain
from typing import Any

from selectolax.lexbor import LexborHTMLParser

from labeler.errors import ExtractError
from labeler.extract import DEFAULT_PROFILE
from labeler.extract.charset import decode_html
from labeler.extract.depth import check_depth
from labeler.extract.engine_lexbor import (
    _BLOCK_IDS,
    _DATA_IDS,
    _HEAD_IDS,
    _PRESERVE_CSS,
    _TEMPLATE,
    _TEXT,
    _after_block,
    _body,
    _carrier,
    _popped,
    _preserved_ids,
)
from labeler.extract.prepass import prepare
from labeler.extract.walk import SentinelMaps, TextAcc, marked_text

# Block tags whose boundaries mean nothing for chunking (the whole page, or invisible).
_IGNORED = frozenset({"html", "body", "head", "script", "style", "template", "title"})
_JAVA_TRIM = "".join(chr(c) for c in range(0x21))  # what String.trim() removes


class _Marks:
    """Block boundaries waiting for the next visible text, resolved to raw offsets."""

    def __init__(self, acc: TextAcc) -> None:
        self.acc = acc
        self.seen = 0  # parts already measured
        self.length = 0  # their total length
        self.pending = False
        self.offsets: list[int] = []

    def boundary(self) -> None:
        self.sync()
        self.pending = True

    def sync(self) -> None:
        parts = self.acc.parts
        while self.seen < len(parts):
            part = parts[self.seen]
            # a lone space right after a boundary is the block separator, not content
            if self.pending and part != " ":
                self.offsets.append(self.length)
                self.pending = False
            self.length += len(part)
            self.seen += 1


def block_starts(
    data: bytes, profile: str = DEFAULT_PROFILE, *, text: str | None = None
) -> list[int]:
    """Sorted offsets into ``page_text(data, profile)`` where a block of text begins.

    For ``jsoup-1.15.3``: where the visible text of a block-level element begins (``p``,
    ``li``, ``h1``–``h6``, ``div``, ``pre``, ``td``, ``tr``, ``table``, ``blockquote``,
    ``dd``, ``dt``... jsoup's block tags), and where text resumes after a block element
    closes inside its parent (``<div><p>a</p>b</div>``: ``b`` starts a block, as CSS's
    anonymous block boxes do). Nested blocks starting at the same text give one offset;
    blocks without visible text give none. Offset 0 is included whenever the page has text.
    Separator spaces are never at an offset: each points at the block's first character.

    For another profile: what its ``blocks`` function reports (``bs4-get-text``: see
    :mod:`labeler.extract.bs4text`); :class:`ExtractError` (:func:`no_blocks_message`)
    for a profile that reports none.

    For ``text``: the start of each paragraph (a non-blank line after a blank line or at the
    top).

    ``text``, when given, is the stored page text these offsets are for: a walk that does not
    reproduce it exactly raises :class:`ExtractError` rather than return wrong offsets.
    """
    if profile == "text":
        page = data.decode("utf-8", errors="replace")
        offsets = _paragraph_starts(page)
    elif profile == DEFAULT_PROFILE:
        page, offsets = _jsoup_blocks(data)
    else:
        from labeler.extract.profiles import get_profile

        found = get_profile(profile)
        if found.blocks is None:
            raise ExtractError(no_blocks_message(found.stored))
        page, offsets = found.blocks(data)
    if text is not None and text != page:
        raise ExtractError("the page's block walk does not reproduce its stored text")
    return offsets


BLOCK_PROFILES = frozenset({DEFAULT_PROFILE, "text"})
"""The built-in profiles :func:`block_starts` walks itself."""


def reports_blocks(profile: str) -> bool:
    """True when pages of ``profile`` (a stored name) get block offsets: the built-in
    walks, or a profile with a ``blocks`` function. False for one that cannot be found."""
    if profile in BLOCK_PROFILES:
        return True
    from labeler.extract.profiles import get_profile

    try:
        return get_profile(profile).blocks is not None
    except ExtractError:
        return False


def no_blocks_message(profile: str) -> str:
    """What is said where block offsets are needed from a profile that reports none."""
    return (
        f"profile {profile!r} reports no block offsets, so there are no block boundaries "
        "for this page (the structure chunker cannot cut it at blocks; the TUI's s and b "
        "keys go by line breaks)"
    )


def _paragraph_starts(page: str) -> list[int]:
    offsets: list[int] = []
    pos, blank = 0, True
    for line in page.splitlines(keepends=True):
        if line.strip():
            if blank:
                offsets.append(pos + len(line) - len(line.lstrip()))
            blank = False
        else:
            blank = True
        pos += len(line)
    return offsets


def _jsoup_blocks(data: bytes) -> tuple[str, list[int]]:
    """The page text and its block starts, from one walk."""
    prepared, sentinels = prepare(decode_html(data))
    check_depth(prepared)
    tree = LexborHTMLParser(prepared)
    body = _body(tree)
    if body is None:
        return "", []
    acc = TextAcc()
    marks = _Marks(acc)
    preserved = _preserved_ids(body) if body.css_first(_PRESERVE_CSS) is not None else set()
    maps = SentinelMaps(sentinels) if sentinels is not None else None
    _Walker(acc, marks, maps).element(body, preserved)
    marks.sync()
    raw = "".join(acc.parts)
    page = acc.result()
    lead = len(raw) - len(raw.lstrip(_JAVA_TRIM))
    starts = {min(max(o - lead, 0), len(page)) for o in marks.offsets}
    if page:
        starts.add(0)
    return page, sorted(o for o in starts if o < len(page))


class _Walker:
    """engine_lexbor's ``_walk`` with block enter/exit events.

    The walk keeps its own stack of open elements instead of recursing: a page may nest
    tens of thousands of elements (20,000 tables inside each other), far past Python's
    recursion limit.
    """

    def __init__(self, acc: TextAcc, marks: _Marks, maps: SentinelMaps | None) -> None:
        self.acc = acc
        self.marks = marks
        self.maps = maps

    def element(self, root: Any, preserved: set[int]) -> None:
        """Walk ``root`` and everything below it, in document order."""
        # each open element: its remaining children, and whether it is a block to close
        stack: list[tuple[Iterator[tuple[Any, set[int], bool]], bool]] = []
        self._enter(root, preserved, stack)
        while stack:
            items, block = stack[-1]
            item = next(items, None)
            if item is None:
                stack.pop()
                if block:
                    self.marks.boundary()
                continue
            node, inherited, is_text = item
            if is_text:
                self.text(node, inherited)
            else:
                self._enter(node, inherited, stack)

    def _enter(
        self,
        node: Any,
        preserved: set[int],
        stack: list[tuple[Iterator[tuple[Any, set[int], bool]], bool]],
    ) -> None:
        """What the walk does on reaching element ``node``; pushes its children, if any."""
        tag_id = node.tag_id
        is_data = tag_id in _DATA_IDS
        block = tag_id in _BLOCK_IDS and (node.tag or "") not in _IGNORED
        if is_data and self.maps is not None:
            carried = _carrier(node, self.maps)
            if carried is not None:
                parent = node.parent
                marked_text(
                    self.acc,
                    carried,
                    self.maps,
                    parent.tag if parent is not None else "",
                    bool(preserved) and node.first_child.mem_id in preserved,
                    _after_block(node, self.maps),
                    lambda: _popped(node),
                )
                self.marks.sync()
                return
        if block:
            self.marks.boundary()
        if tag_id in _HEAD_IDS:
            self.acc.separator()
        items = self.children(node, preserved, skip_first_text=is_data)
        if tag_id == _TEMPLATE:
            for fragment in node.template_fragments()[:1]:
                inner = _preserved_ids(fragment) if fragment.css_first(_PRESERVE_CSS) else set()
                items = chain(
                    self.children(fragment, preserved | inner, skip_first_text=False), items
                )
        stack.append((items, block))

    @staticmethod
    def children(
        node: Any, preserved: set[int], *, skip_first_text: bool
    ) -> Iterator[tuple[Any, set[int], bool]]:
        """``(child, preserved, is_text)`` for the children of ``node`` the walk visits,
        read lazily (as the walk reaches each)."""
        child = node.first_child
        first = True
        while child is not None:
            if child.tag_id == _TEXT:
                if not (first and skip_first_text):  # script/style content is data
                    yield child, preserved, True
            else:
                yield child, preserved, False
            first = False
            child = child.next

    def text(self, node: Any, preserved: set[int]) -> None:
        acc, maps = self.acc, self.maps
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
                    lambda: _popped(node),
                )
                self.marks.sync()
                return
            if _after_block(node, maps):
                acc.separator()
        elif not acc.empty and not acc.space:
            prev = node.prev
            if prev is not None and prev.tag_id in _BLOCK_IDS:
                acc.parts.append(" ")
                acc.space = True
        if keep:
            acc.raw(value)
        else:
            acc.normal(value)
        self.marks.sync()
