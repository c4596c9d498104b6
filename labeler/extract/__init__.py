"""Page text from raw bytes, through named and versioned extraction profiles.

A *profile* fixes exactly how bytes become the text that offsets point into. Every stored
page records the profile that produced its text, so a label's offsets are never read
against text made another way.

Profiles:

``jsoup-1.15.3`` (default)
    Byte for byte what jsoup 1.15.3 returns for ``Jsoup.parse(file, null).body().text()``:
    charset detection (BOM, ``<meta>``, UTF-8), HTML tree building and jsoup's text walk.
    Engines (:mod:`labeler.extract.jsoup`): ``jsoup`` (default; a pure-Python port of
    jsoup's parser, exact by construction), ``lexbor`` (a fast WHATWG parser behind a
    pre-pass, with a few listed gaps) and ``html5lib`` (the cross-check engine).
``text``
    The file decoded as UTF-8 (malformed bytes become U+FFFD), as it is.
``bs4-get-text``
    BeautifulSoup with the standard library's ``html.parser``, ``get_text()`` as it is
    (:mod:`labeler.extract.bs4text`): the text many Python pipelines chunk.

Besides these, a pipeline brings its own: ``package.module:function`` or a name registered
in the entry-point group ``labeler.profiles`` (:mod:`labeler.extract.profiles`). A page is
stored with its profile's :attr:`Profile.stored` name, which carries the version when the
profile has one (``bs4-get-text@4.12.3``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from labeler.errors import ExtractError

DEFAULT_PROFILE = "jsoup-1.15.3"


@dataclass(frozen=True)
class Profile:
    """A named, versioned way of turning bytes into page text.

    ``extract(data, engine)`` gives the text; ``blocks(data)``, when the profile reports
    block offsets, gives ``(text, sorted offsets where a block's text begins)`` (the text
    is checked against the stored one); ``version`` is empty for profiles whose name
    carries it (``jsoup-1.15.3``)."""

    name: str
    description: str
    extract: Callable[[bytes, str | None], str]
    engines: tuple[str, ...] = ()
    version: str = ""
    blocks: Callable[[bytes], tuple[str, list[int]]] | None = None

    @property
    def stored(self) -> str:
        """What a page records: ``name`` or ``name@version``."""
        return f"{self.name}@{self.version}" if self.version else self.name


def _plain_text(data: bytes, engine: str | None) -> str:
    if engine is not None:
        raise ExtractError("profile 'text' has no engines")
    return data.decode("utf-8", errors="replace")


def _jsoup(data: bytes, engine: str | None) -> str:
    from labeler.extract.jsoup import DEFAULT_ENGINE, ENGINES, jsoup_body_text

    name = engine or DEFAULT_ENGINE
    if name not in ENGINES:
        raise ExtractError(f"unknown engine {name!r}; known: {', '.join(ENGINES)}")
    return jsoup_body_text(data, engine=name)


PROFILES: dict[str, Profile] = {
    "jsoup-1.15.3": Profile(
        "jsoup-1.15.3",
        "jsoup 1.15.3 Jsoup.parse(file, null).body().text()",
        _jsoup,
        ("jsoup", "lexbor", "html5lib"),
    ),
    "text": Profile("text", "the file decoded as UTF-8, as it is", _plain_text),
}

HTML_SUFFIXES = frozenset({".html", ".htm", ".xhtml"})
TEXT_SUFFIXES = frozenset({".txt", ".md", ".markdown", ".text"})


def page_text(data: bytes, profile: str = DEFAULT_PROFILE, *, engine: str | None = None) -> str:
    """Return the page text of ``data`` under ``profile``.

    ``engine`` picks an HTML parser for profiles that have several (all engines of one
    profile produce identical text; the default is the fastest). Raises
    :class:`~labeler.errors.ExtractError` for an unknown profile or engine.
    ``profile`` may also be a stored name (``name@version``; another version of the
    profile is an error), ``package.module:function`` or an entry-point name (see
    :func:`labeler.extract.profiles.get_profile`).
    """
    prof = PROFILES.get(profile)
    if prof is None:
        from labeler.extract.profiles import get_profile

        prof = get_profile(profile)
    return prof.extract(data, engine)


def profile_for_path(path: str | Path) -> str | None:
    """The profile ingest uses for a file name: HTML → default, text/Markdown → ``text``.

    Returns ``None`` for files ingest does not take.
    """
    suffix = Path(path).suffix.lower()
    if suffix in HTML_SUFFIXES:
        return DEFAULT_PROFILE
    if suffix in TEXT_SUFFIXES:
        return "text"
    return None


# Names of the package's heavier modules, loaded on first use (PEP 562) so that importing
# the facade stays light.
_LAZY: dict[str, str] = {
    "block_starts": "labeler.extract.blocks",
    "reports_blocks": "labeler.extract.blocks",
    "get_profile": "labeler.extract.profiles",
}

if TYPE_CHECKING:
    from labeler.extract.blocks import block_starts as block_starts
    from labeler.extract.blocks import reports_blocks as reports_blocks
    from labeler.extract.profiles import get_profile as get_profile


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.extract' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
