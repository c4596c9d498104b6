"""Re-anchoring a labelled span when its page text changes (pure; no database).

An element is identified the way a W3C *text quote selector* identifies a passage: its exact
text plus the :data:`CONTEXT` code points before it (``prefix``) and after it (``suffix``),
both taken from the **old** page text at re-ingest time (shorter at the page's edges).

:func:`relocate` decides where the element ``old[start:end]`` lives in ``new``:

1. **Kept in place** when ``new[start:end]`` is the same text with the same prefix and
   suffix: nothing around it changed.
2. Otherwise every occurrence ``n`` of the exact text in ``new`` (overlapping ones
   included) is a candidate. Its *agreement* with an occurrence ``o`` of the text in
   ``old`` is the number of code points that agree walking outwards from the text on both
   sides, at most :data:`CONTEXT` per side::

       agreement(o, n) = common_suffix(old[o-32:o], new[n-32:n])
                       + common_prefix(old[o+L:o+L+32], new[n+L:n+L+32])

3. The element moves to ``n*`` when all of the following hold, and is **stale** otherwise:

   * the text occurs in ``new`` at all (else: *text no longer on the page*);
   * ``n*`` is the unique candidate with the highest agreement with the element's own old
     occurrence (a tie is *ambiguous*: the context cannot tell the copies apart);
   * that agreement is at least ``min(MIN_AGREEMENT, len(prefix) + len(suffix))`` code
     points (a copy of the text in unrelated surroundings is not the labelled passage);
   * no *other* old occurrence of the text agrees with ``n*`` as much or more (``n*`` is
     that other passage, carried over by the edit, not the labelled one).

   The result says ``kept`` when ``n*`` is the old offset, ``moved`` otherwise.

Edits before the element move it; edits after it leave it in place; an edit inside it
removes its text, so it goes stale unless an identical copy survives elsewhere in
surroundings that agree (then it moves there); a duplicate of the text introduced by the
edit is told apart by context, and an exact duplicate of text and context is a tie: stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CONTEXT = 32
"""Code points of context kept on each side of the element (prefix and suffix)."""

MIN_AGREEMENT = 8
"""Code points of context a new location must share with the old one (fewer when the old
page holds less context than this around the element)."""

Outcome = Literal["kept", "moved", "stale"]


@dataclass(frozen=True)
class Quote:
    """A text quote selector: the exact text with its surrounding context."""

    prefix: str
    exact: str
    suffix: str


@dataclass(frozen=True)
class Relocation:
    """Where an element ended up: ``start``/``end`` are None when it is stale.

    ``reason`` says why it is stale (empty otherwise); ``agreement`` is the context
    agreement of the chosen location (or of the best candidate when stale), ``candidates``
    how often the text occurs in the new page.
    """

    outcome: Outcome
    start: int | None
    end: int | None
    reason: str
    agreement: int
    candidates: int


def quote_at(page: str, start: int, end: int, width: int = CONTEXT) -> Quote:
    """The quote of ``page[start:end]`` with up to ``width`` code points on each side."""
    return Quote(page[max(0, start - width) : start], page[start:end], page[end : end + width])


def occurrences(page: str, text: str) -> list[int]:
    """Start offsets of every occurrence of ``text`` in ``page``, overlapping ones included.

    Empty ``text`` has no occurrences.
    """
    if not text:
        return []
    found: list[int] = []
    pos = page.find(text)
    while pos != -1:
        found.append(pos)
        pos = page.find(text, pos + 1)
    return found


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _common_suffix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x != y:
            break
        n += 1
    return n


def agreement(a: Quote, b: Quote) -> int:
    """Code points of context that agree outwards from the text: suffix of the prefixes
    plus prefix of the suffixes (0 to ``2 * CONTEXT``)."""
    return _common_suffix(a.prefix, b.prefix) + _common_prefix(a.suffix, b.suffix)


def relocate(old: str, new: str, start: int, end: int, *, width: int = CONTEXT) -> Relocation:
    """Where the element ``old[start:end]`` lives in ``new``; see the module docstring.

    ``0 <= start < end <= len(old)`` is expected (a stored element's span); an empty or
    out-of-range span is reported stale.
    """
    if not 0 <= start < end <= len(old):
        return Relocation("stale", None, None, "span is not within the old page", 0, 0)
    length = end - start
    mine = quote_at(old, start, end, width)
    if quote_at(new, start, end, width) == mine:
        return Relocation("kept", start, end, "", 2 * width, 1)
    found = occurrences(new, mine.exact)
    if not found:
        return Relocation("stale", None, None, "text no longer on the page", 0, 0)
    scored = [(agreement(mine, quote_at(new, n, n + length, width)), n) for n in found]
    best = max(score for score, _ in scored)
    winners = [n for score, n in scored if score == best]
    if len(winners) > 1:
        return Relocation(
            "stale",
            None,
            None,
            f"text occurs {len(found)} times on the new page and {len(winners)} of them "
            f"agree equally with its old context ({best} code points)",
            best,
            len(found),
        )
    need = min(MIN_AGREEMENT, len(mine.prefix) + len(mine.suffix))
    if best < need:
        return Relocation(
            "stale",
            None,
            None,
            f"the text's new surroundings share only {best} code point(s) of its old "
            f"context (at least {need} needed)",
            best,
            len(found),
        )
    (chosen,) = winners
    theirs = quote_at(new, chosen, chosen + length, width)
    for other in occurrences(old, mine.exact):
        if (
            other != start
            and agreement(quote_at(old, other, other + length, width), theirs) >= best
        ):
            return Relocation(
                "stale",
                None,
                None,
                f"the best match at {chosen} is at least as close to the copy of the text "
                f"that was at {other} on the old page",
                best,
                len(found),
            )
    outcome: Outcome = "kept" if chosen == start else "moved"
    return Relocation(outcome, chosen, chosen + length, "", best, len(found))
