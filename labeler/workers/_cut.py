"""Where a large JSON Lines file is cut so that two processes read a half each."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from labeler.errors import STDIN
from labeler.workers._fork import may_fork

#: the longest search for a line start past the middle (bytes): a longer line, no cut
_SEARCH = 1 << 20


def cut_point(
    path: str | Path, size: int, minimum: int, share: float = 0.5
) -> tuple[int, int] | None:
    """``(offset, line)``: the byte offset of the first line start past the middle of file
    ``path`` (``size`` bytes) and that line's 1-based number, where a second process should
    start reading; None when the file is read whole by one process: standard input, not a
    regular file, under ``minimum`` bytes, no fork to be had (:func:`may_fork`), no line
    start within a megabyte past the middle, or a file that cannot be read here (reading it
    whole then reports the problem). ``share``: the part of the file before the cut, the
    middle by default (``size * share`` bytes, rounded down, stands for the middle)."""
    if str(path) == STDIN or size < minimum or not may_fork():
        return None
    try:
        with open(path, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return None
            middle = size // 2 if share == 0.5 else int(size * share)
            handle.seek(middle)
            newline = handle.read(_SEARCH).find(b"\n")
            offset = middle + newline + 1
            if newline < 0 or offset >= size:
                return None
            handle.seek(0)
            lines, left = 0, offset
            while left:
                block = handle.read(min(left, 1 << 20))
                if not block:
                    return None  # the file shrank: read it whole, which reports what it is
                lines += block.count(b"\n")
                left -= len(block)
    except OSError:
        return None
    return offset, lines + 1
