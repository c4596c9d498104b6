"""The built-in extraction profiles and the value that describes one (see :mod:`labeler.extract`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

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
