"""The ``bs4-get-text`` profile: BeautifulSoup's ``get_text()`` with ``html.parser``.

The text many Python pipelines chunk (LangChain's ``BSHTMLLoader``, hand-written loaders):
``BeautifulSoup(data, "html.parser").get_text()``, as it is: bytes decoded by
BeautifulSoup's own ``UnicodeDammit`` (BOM, ``<meta charset>``, then guesses), strings
joined with no separator and nothing stripped. Its version is the installed
beautifulsoup4's, since that is what fixes the text.

Block offsets: where the first non-whitespace character of each block-level element
(:data:`BLOCK_TAGS`) falls in that text, plus the first of the page; the walk joins the
same strings ``get_text()`` joins and is checked to give the same text.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from labeler.errors import ExtractError

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag

NAME = "bs4-get-text"

BLOCK_TAGS = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "caption",
        "dd",
        "details",
        "div",
        "dl",
        "dt",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hr",
        "li",
        "main",
        "nav",
        "ol",
        "p",
        "pre",
        "section",
        "summary",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "ul",
    ]
)
"""HTML's block-level elements (plus table parts and list items)."""


def _soup(data: bytes) -> BeautifulSoup:
    from bs4 import BeautifulSoup

    with warnings.catch_warnings():
        # "looks like a URL/file name", "XML parsed as HTML": the text is the same
        warnings.simplefilter("ignore")
        return BeautifulSoup(data, "html.parser")


def bs4_get_text(data: bytes, engine: str | None = None) -> str:
    """``BeautifulSoup(data, "html.parser").get_text()``."""
    if engine is not None:
        raise ExtractError(f"profile {NAME!r} has no engines")
    return _soup(data).get_text()


def bs4_blocks(data: bytes) -> tuple[str, list[int]]:
    """The page text and the sorted offsets where a block's visible text begins (module
    docstring). Raises :class:`ExtractError` if the walk does not give ``get_text()``."""
    soup = _soup(data)
    strings = list(soup.strings)
    text = "".join(strings)
    if text != soup.get_text():
        raise ExtractError("the bs4 block walk does not reproduce get_text()")
    starts: dict[int, int] = {}
    at = 0
    for piece in strings:
        starts[id(piece)] = at
        at += len(piece)

    def first_visible(tag: Tag | BeautifulSoup) -> int | None:
        for piece in tag.strings:
            start = starts.get(id(piece))
            if start is None:
                continue
            lead = len(piece) - len(piece.lstrip())
            if lead < len(piece):
                return start + lead
        return None

    offsets = {first_visible(soup)}
    offsets.update(first_visible(tag) for tag in soup.find_all(BLOCK_TAGS))
    return text, sorted(o for o in offsets if o is not None)


def version() -> str:
    """The installed beautifulsoup4's version."""
    import bs4

    return str(bs4.__version__)
