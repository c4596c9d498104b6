"""Pure-Python port of jsoup 1.15.3's HTML parser (tokeniser and tree builder).

``parse(html)`` is ``Jsoup.parse(html)`` for an already decoded string; ``body_text(html)`` is
``Jsoup.parse(html).body().text()``.

Both run with Python's cyclic garbage collector paused (speed only): a parse allocates
hundreds of thousands of long-lived nodes, which would otherwise trigger a collection
every few hundred allocations, each scanning the young tree for nothing (the tree is all
live until the parse ends). Nothing cyclic becomes garbage during a parse; the collector
is switched back on (if it was on) before returning, and reclaims the tree later as usual.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from labeler.extract.jsoup_parser.nodes import Document
from labeler.extract.jsoup_parser.text_walk import element_text
from labeler.extract.jsoup_parser.tree_builder import HtmlTreeBuilder

__all__ = ["Document", "body_text", "parse"]


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic GC for the block; restore it if it was enabled on entry."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse(html: str) -> Document:
    """Parse a whole HTML document as jsoup 1.15.3 does (htmlDefault settings)."""
    with _collector_paused():
        return HtmlTreeBuilder(html).parse()


def body_text(html: str) -> str:
    """``Jsoup.parse(html).body().text()``."""
    with _collector_paused():
        return element_text(HtmlTreeBuilder(html).parse().body())
