"""Where blocks begin in a page's text: the boundaries a structure-aware chunker cuts at.

For the ``jsoup-1.15.3`` profile, :func:`block_starts` walks the jsoup engine's tree
(:mod:`labeler.extract.jsoup_parser`) with the very walk that makes the page text
(:func:`~labeler.extract.jsoup_parser.text_walk.walk_text`), noting the text offset at each block
boundary (:class:`~labeler.extract.walk.BlockMarks`), so text and offsets come from one
parse (:func:`~labeler.extract.jsoup.jsoup_text_and_blocks`; ingest uses that).
"""

from __future__ import annotations

from labeler.errors import ExtractError
from labeler.extract._profile import DEFAULT_PROFILE
from labeler.extract.jsoup import jsoup_text_and_blocks


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
        page, offsets = jsoup_text_and_blocks(data)
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
