"""The one reader of input lines, in bounded memory: every command that reads JSON Lines
(gold and run imports, chunk files, correctness rows) reads through :func:`read_lines`,
and whole-document inputs (a Label Studio export, a page given to ``extract``) through
:func:`read_bounded`.

A stream without a newline (``/dev/zero``, a FIFO whose writer never ends a line) would
otherwise be read into memory until the process ran out of it. Here a line longer than the
limit is refused with its file and line number once ``limit + 1`` bytes of it are read;
nothing more of it is kept. The limit is :data:`MAX_LINE_BYTES` unless a command sets
another for its run (:func:`line_limit`, the CLI's ``--max-line-bytes``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import IO

from labeler.errors import InputError, UsageError

#: the default longest line (bytes, newline excluded): 64 MiB, far above any real JSONL
#: line (a run line of 100 chunks of 2,000 characters is under 1 MiB) and far below memory
MAX_LINE_BYTES = 64 * 1024 * 1024

_LIMIT: ContextVar[int] = ContextVar("labeler_max_line_bytes", default=MAX_LINE_BYTES)


def current_limit() -> int:
    """The line limit in force (bytes): :data:`MAX_LINE_BYTES` unless :func:`line_limit`
    set another."""
    return _LIMIT.get()


@contextmanager
def line_limit(limit: int | None) -> Iterator[None]:
    """Read lines of at most ``limit`` bytes inside the ``with`` (None: the default).

    Raises :class:`UsageError` for a limit below 1."""
    if limit is None:
        yield
        return
    if limit < 1:
        raise UsageError(f"--max-line-bytes must be at least 1, got {limit}")
    token = _LIMIT.set(limit)
    try:
        yield
    finally:
        _LIMIT.reset(token)


def _too_long(path: str | Path, limit: int, number: int | None, what: str) -> InputError:
    return InputError(
        path, f"{what} longer than {limit:,} bytes (raise the limit with --max-line-bytes)", number
    )


def read_lines(
    handle: IO[bytes],
    path: str | Path,
    limit: int | None = None,
    *,
    first: int = 1,
    stop: int | None = None,
) -> Iterator[tuple[int, bytes]]:
    """Yield ``(line_number, line)`` for each line of ``handle`` (numbered from ``first``,
    1 by default; a line keeps its newline, the last may have none).

    ``stop`` ends the reading once that many bytes were read (a part of a file read up to
    a line start: the line ending there is the last one yielded).

    ``limit`` (default :func:`current_limit`) bounds a line's bytes, its newline not counted:
    a longer line raises :class:`InputError` naming ``path`` and the line after at most
    ``limit + 1`` bytes of it were read, so memory stays bounded however long it is (standard
    input and FIFOs included). An unreadable stream raises :class:`InputError` too.
    """
    limit = current_limit() if limit is None else limit
    readline = handle.readline
    number = first - 1
    left = -1 if stop is None else stop
    while left != 0:
        try:
            raw = readline(limit + 1)
        except OSError as err:
            raise InputError(path, f"cannot read: {err.strerror or err}", number + 1) from None
        if not raw:
            return
        number += 1
        if len(raw) > limit and raw[-1:] != b"\n":
            raise _too_long(path, limit, number, "line")
        if left > 0:
            left = max(0, left - len(raw))
        yield number, raw


def read_bounded(handle: IO[bytes], path: str | Path, limit: int | None = None) -> bytes:
    """All of ``handle``, refused with :class:`InputError` naming ``path`` once it holds more
    than ``limit`` bytes (default :func:`current_limit`): a whole-document input is one
    "line" for the limit. Reads at most ``limit + 1`` bytes."""
    limit = current_limit() if limit is None else limit
    parts: list[bytes] = []
    size = 0
    while True:
        try:
            part = handle.read(min(1 << 20, limit + 1 - size))
        except OSError as err:
            raise InputError(path, f"cannot read: {err.strerror or err}") from None
        if not part:
            return b"".join(parts)
        parts.append(part)
        size += len(part)
        if size > limit:
            raise _too_long(path, limit, None, "input")
