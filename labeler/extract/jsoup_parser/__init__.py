"""Pure-Python port of jsoup 1.15.3's HTML parser (tokeniser and tree builder).

``parse(html)`` is ``Jsoup.parse(html)`` for an already decoded string; ``body_text(html)`` is
``Jsoup.parse(html).body().text()``.
"""

from __future__ import annotations

from labeler.extract.jsoup_parser.nodes import Document
from labeler.extract.jsoup_parser.text import element_text
from labeler.extract.jsoup_parser.tree_builder import HtmlTreeBuilder

__all__ = ["Document", "body_text", "parse"]


def parse(html: str) -> Document:
    """Parse a whole HTML document as jsoup 1.15.3 does (htmlDefault settings)."""
    return HtmlTreeBuilder(html).parse()


def body_text(html: str) -> str:
    """``Jsoup.parse(html).body().text()``."""
    return element_text(parse(html).body())
