"""Writing command output to stdout or to a file that appears only when complete."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from labeler.errors import InputError, OutputError, write_failure
from labeler.formats import create_beside

#: how diagnostics name standard output
STDOUT = "standard output"


def add_max_line_bytes(parser: Any, what: str = "input line") -> None:
    """Give ``parser`` the ``--max-line-bytes N`` option that every reader of input lines
    has (the CLI sets the limit for the command's run: :func:`labeler.formats.line_limit`)."""
    from labeler.formats import MAX_LINE_BYTES

    parser.add_argument(
        "--max-line-bytes",
        type=int,
        default=None,
        metavar="N",
        help=f"refuse an {what} longer than N bytes, naming it (default: {MAX_LINE_BYTES:,}, "
        "64 MiB)",
    )


def _failed(err: OSError, target: str) -> OutputError | None:
    """The labeller error for a failed write of ``target``: disk full, I/O error... name
    ``target``; an error that names another file is left alone (it is not about ours)."""
    if err.filename is not None:
        return None
    return write_failure(err, STDOUT if target == "-" else target)


@contextmanager
def open_output(target: str) -> Iterator[TextIO]:
    """A UTF-8 text stream for ``target`` (``-`` is stdout).

    A regular file is written beside its final name and renamed into place when the block
    ends without error, so a failed export never leaves half a file behind; it gets the
    permissions ``open()`` would give it (:func:`~labeler.formats.create_beside`). Anything else
    that exists (``/dev/null``, a FIFO) is written in place. A write the system refuses
    (disk full, quota, I/O error: :data:`labeler.errors.WRITE_ERRNOS`), in the block or
    when the stream is flushed, raises :class:`~labeler.errors.OutputError` naming
    ``target`` (``standard output`` for ``-``).
    """
    try:
        with _open(target) as out:
            yield out
    except OSError as err:
        mapped = _failed(err, target)
        if mapped is None:
            raise
        raise mapped from None


@contextmanager
def _open(target: str) -> Iterator[TextIO]:
    if target == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    path = Path(target)
    if path.exists() and not path.is_file():
        # /dev/null, a FIFO, a terminal: write in place (renaming over it would replace the
        # device node with a regular file)
        try:
            handle = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        except OSError as err:
            raise InputError(target, f"cannot write: {err.strerror or err}") from None
        with handle:
            yield handle
        return
    try:
        fd, tmp = create_beside(path)  # the user's usual permissions, not mkstemp's 0600
    except OSError as err:
        raise write_failure(err, target) or InputError(
            target, f"cannot write: {err.strerror or err}"
        ) from None
    try:
        with open(fd, "w", encoding="utf-8", newline="\n") as out:
            yield out
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_SURROGATE = re.compile("[\ud800-\udfff]")


def warn(message: str) -> None:
    """Say ``message`` on stderr as every command's notes are said: ``labeler: message``."""
    print(f"labeler: {message}", file=sys.stderr)


def json_text(value: Any) -> str:
    """``json.dumps(value, ensure_ascii=False)`` that any UTF-8 stream can take.

    A string read from JSON may hold a lone surrogate (``"\\ud800"`` in the input), which
    UTF-8 cannot encode: such code points are written as the ``\\uXXXX`` escape they came
    in as, so the output is valid JSON that reads back to the same string, and the same
    bytes go to a file and to stdout. Everything else is written as itself.
    """
    text = json.dumps(value, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


QUIET_HELP = "no progress on stderr (shown otherwise: a bar on a terminal, else a line every 10 s)"


def add_quiet(parser: Any) -> None:
    """``-q``/``--quiet``, the option of every command that reports progress."""
    parser.add_argument("--quiet", "-q", action="store_true", help=QUIET_HELP)
