"""Two extraction profiles a pipeline might bring, registered as ``labeler.profiles``
entry points (see this folder's pyproject.toml).

``test-shout``: the file decoded as UTF-8 and upper-cased; no version of its own (the
distribution's, 1.2.0, is used) and no block offsets. ``test-lines``: the file decoded as
UTF-8 with runs of blank lines squeezed to one; version "7" and block offsets (each
paragraph's first character).
"""

from __future__ import annotations

import re


def shout(data: bytes) -> str:
    """UTF-8 text, upper-cased."""
    return data.decode("utf-8", errors="replace").upper()


def lines(data: bytes) -> str:
    """UTF-8 text with blank-line runs squeezed."""
    return re.sub(r"\n{3,}", "\n\n", data.decode("utf-8", errors="replace"))


def _line_blocks(data: bytes) -> tuple[str, list[int]]:
    text = lines(data)
    starts = [0] if text else []
    starts += [m.end() for m in re.finditer(r"\n\n", text) if m.end() < len(text)]
    return text, starts


lines.version = "7"  # type: ignore[attr-defined]
lines.blocks = _line_blocks  # type: ignore[attr-defined]
