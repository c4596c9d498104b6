"""Sentinel code points: private-use characters standing in for rewritten input.

The pre-pass (:mod:`labeler.extract.prepass`) replaces characters a WHATWG parser would
treat differently from jsoup by sentinels; the walk maps them back per text context. A
page's sentinels are chosen so that none of them occurs in the page itself.
"""

from __future__ import annotations

from dataclasses import dataclass

_FIELDS = (
    "amp",
    "cr",
    "nul",
    "zero",
    "cdo",
    "cdc",
    "lt",
    "ab",
    "abh",
    "empty",
    "prelf",
    "nultok",
    "carrier",
)
_DEFAULT_BASE = 0xE9A0


@dataclass(frozen=True)
class Sentinels:
    """The private-use code points standing in for one document's rewritten characters."""

    amp: str  # a literal '&' jsoup does not decode
    cr: str  # a CR inside a whitespace-preserving element
    nul: str  # a raw NUL
    zero: str  # the '&' of a numeric reference to U+0000
    cdo: str  # start of CDATA text
    cdc: str  # end of CDATA text
    lt: str  # a '<' inside CDATA text
    ab: str  # marks a whitespace-only token after </body> (outside body if body was popped)
    abh: str  # marks a whitespace-only token after </html> (always outside body)
    empty: str  # keeps WHATWG from dropping textarea's leading LF; maps to nothing
    prelf: str  # precedes a LF after <pre>/<listing> that the walk drops (html5lib engine)
    nultok: str  # a character token that is exactly one NUL: jsoup drops it (maps to nothing)
    carrier: str  # starts a <style> carrying table-context text (see tables.py)

    @classmethod
    def at(cls, base: int) -> Sentinels:
        """The sentinels at consecutive code points from ``base``."""
        return cls(*(chr(base + i) for i in range(len(_FIELDS))))

    @property
    def chars(self) -> str:
        """All sentinel characters, as one string."""
        return "".join(getattr(self, f) for f in _FIELDS)


def pick_sentinels(text: str) -> Sentinels:
    """Sentinels none of whose code points occur in ``text``."""
    # Almost every document lacks the default block; otherwise find a free one in the PUA.
    if not any(ch in text for ch in _DEFAULT.chars):  # str "in" is fast; a regex class is not
        return _DEFAULT
    base = _DEFAULT_BASE + 16
    while base + 16 < 0xF8FF:
        candidate = Sentinels.at(base)
        if not any(ch in text for ch in candidate.chars):
            return candidate
        base += 16
    return Sentinels.at(0xF0000)  # plane-15 private use: no real page fills the whole BMP PUA


_DEFAULT = Sentinels.at(_DEFAULT_BASE)
