"""Page text from raw bytes, through named and versioned extraction profiles.

A *profile* fixes exactly how bytes become the text that offsets point into. Every stored
page records the profile that produced its text, so a label's offsets are never read
against text made another way.

Profiles:

``jsoup-1.15.3`` (default)
    Byte for byte what jsoup 1.15.3 returns for ``Jsoup.parse(file, null).body().text()``:
    charset detection (BOM, ``<meta>``, UTF-8), HTML tree building and jsoup's text walk.
    Engines (:mod:`labeler.extract.jsoup`): ``jsoup`` (default; exact by construction: a
    pure-Python port of jsoup's parser, with a fast path through lexbor for pages a
    conservative check finds free of every construct where the two differ), ``lexbor`` (a
    fast WHATWG parser behind a pre-pass, with a few listed gaps) and ``html5lib`` (the
    cross-check engine).
``text``
    The file decoded as UTF-8 (malformed bytes become U+FFFD), as it is.
``bs4-get-text``
    BeautifulSoup with the standard library's ``html.parser``, ``get_text()`` as it is
    (:mod:`labeler.extract.bs4text`): the text many Python pipelines chunk.

Besides these, a pipeline brings its own: ``package.module:function`` or a name registered
in the entry-point group ``labeler.profiles`` (:mod:`labeler.extract.profiles`). A page is
stored with its profile's :attr:`Profile.stored` name, which carries the version when the
profile has one (``bs4-get-text@4.12.3``).

Many pages: :func:`extract_many` extracts a sequence of files in up to N processes (one per
usable CPU by default), one result per file in the order given, the same results as one
process gives (:mod:`labeler.extract.batch`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from labeler.extract._profile import (
    DEFAULT_PROFILE,
    HTML_SUFFIXES,
    PROFILES,
    TEXT_SUFFIXES,
    Profile,
    profile_for_path,
)

if TYPE_CHECKING:
    from labeler.extract.batch import Extracted as Extracted
    from labeler.extract.batch import PageError as PageError
    from labeler.extract.batch import extract_many as extract_many
    from labeler.extract.batch import text_and_blocks as text_and_blocks
    from labeler.extract.blocks import block_starts as block_starts
    from labeler.extract.blocks import reports_blocks as reports_blocks
    from labeler.extract.profiles import get_profile as get_profile
    from labeler.extract.profiles import page_text as page_text

# Names of the package's heavier modules, loaded on first use (PEP 562) so that importing
# the facade stays light.
_LAZY: dict[str, str] = {
    "Extracted": "labeler.extract.batch",
    "PageError": "labeler.extract.batch",
    "extract_many": "labeler.extract.batch",
    "text_and_blocks": "labeler.extract.batch",
    "block_starts": "labeler.extract.blocks",
    "reports_blocks": "labeler.extract.blocks",
    "get_profile": "labeler.extract.profiles",
    "page_text": "labeler.extract.profiles",
}

__all__ = [
    "DEFAULT_PROFILE",
    "HTML_SUFFIXES",
    "PROFILES",
    "TEXT_SUFFIXES",
    "Extracted",
    "PageError",
    "Profile",
    "block_starts",
    "extract_many",
    "get_profile",
    "page_text",
    "profile_for_path",
    "reports_blocks",
    "text_and_blocks",
]


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.extract' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
