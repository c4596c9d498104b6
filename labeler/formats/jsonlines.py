"""Line-numbered JSON Lines reading shared by every JSONL format."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from labeler.errors import STDIN, InputError
from labeler.formats.jsontext import bad_text
from labeler.formats.lines import read_lines


@contextmanager
def open_input(path: str | Path) -> Iterator[IO[bytes]]:
    """``path`` opened for reading bytes; ``-`` is standard input (left open afterwards).

    Raises :class:`InputError` when the file cannot be opened.
    """
    if str(path) == STDIN:
        yield sys.stdin.buffer
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as err:
        raise InputError(path, f"cannot read: {err.strerror or err}") from None
    with handle:
        yield handle


def input_size(path: str | Path) -> int:
    """The size of input ``path`` in bytes, 0 for standard input (not known in advance).

    Raises :class:`InputError` when the file cannot be read.
    """
    if str(path) == STDIN:
        return 0
    try:
        return Path(path).stat().st_size
    except OSError as err:
        raise InputError(path, f"cannot read: {err.strerror or err}") from None


def decode_json(text: str, path: str | Path, line: int | None = None) -> Any:
    """``json.loads(text)``, every failure an :class:`InputError` naming ``path``.

    The one place input JSON is decoded. ``line`` is the line ``text`` came from (JSON
    Lines); for a whole file (None) a syntax error names its line within ``text``. Besides
    broken JSON this covers what :mod:`json` raises other errors for: nesting deeper than
    the interpreter's recursion limit (about 1,000 levels; the limit is not raised, a
    deeper file is refused) and integers longer than Python reads
    (``sys.get_int_max_str_digits()``, 4,300 digits by default).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        at = line if line is not None else err.lineno
        raise InputError(path, f"broken JSON: {err.msg} (column {err.colno})", at) from None
    except RecursionError:
        raise InputError(path, "JSON nested too deeply", line) from None
    except ValueError:
        # int() refuses longer digit strings (CVE-2020-10735); json lets that ValueError out
        limit = sys.get_int_max_str_digits()
        raise InputError(path, f"a number with more than {limit:,} digits", line) from None


def read_objects(
    path: str | Path,
    on_progress: Callable[[int], None] | None = None,
    *,
    allow_nul: bool = True,
    part: tuple[int, int, int | None] | None = None,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line of a JSONL file.

    ``part`` ``(offset, line, stop)`` reads only the lines from byte ``offset`` (the start
    of line number ``line``) to byte ``stop`` (a line start; None: the end of the file),
    numbered as in the whole file: a regular file read in parts, each by its own process.

    ``path`` ``-`` reads standard input. Streams: memory stays bounded by the longest
    line, itself bounded by the line limit (:func:`~labeler.formats.lines.read_lines`: a
    longer line is refused naming it). ``on_progress`` is called with the number of bytes read so far every 1,000 lines.
    Raises :class:`InputError` naming the file and 1-based line for unreadable files,
    bytes that are not UTF-8, broken or too deeply nested JSON (see :func:`decode_json`),
    a line that is not a JSON object, and a string (field name or value, anywhere in the
    line) holding a lone surrogate (``"\\ud800"``) or, unless ``allow_nul``, a NUL
    character: neither can be stored (PostgreSQL text holds no NUL).
    """
    with open_input(path) as handle:
        consumed = 0
        first, stop = 1, None
        if part is not None:
            offset, first, end = part
            handle.seek(offset)
            stop = None if end is None else end - offset
        for number, raw in read_lines(handle, path, first=first, stop=stop):
            consumed += len(raw)
            if on_progress is not None and number % 1000 == 0:
                on_progress(consumed)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise InputError(
                    path, f"not UTF-8 (byte {err.start + 1} of the line: {err.reason})", number
                ) from None
            if number == 1 and line.startswith("\ufeff"):
                line = line[1:]  # a UTF-8 byte order mark some editors write
            if not line or line.isspace():  # (as ``not line.strip()``, without the copy)
                continue
            obj = decode_json(line, path, number)
            if not isinstance(obj, dict):
                raise InputError(path, f"expected a JSON object, got {type(obj).__name__}", number)
            bad = bad_text(line, obj, allow_nul=allow_nul)
            if bad is not None:
                raise InputError(path, bad.describe(), number)
            yield number, obj


def require(
    obj: dict[str, Any],
    key: str,
    kind: type | tuple[type, ...],
    path: str | Path,
    line: int,
    where: str = "",
) -> Any:
    """``obj[key]``, checked to be present and of ``kind`` (bool is never an int here)."""
    if key not in obj:
        raise InputError(path, f"missing field {where}{key!r}", line)
    return check_type(obj[key], key, kind, path, line, where)


def optional(
    obj: dict[str, Any],
    key: str,
    kind: type | tuple[type, ...],
    path: str | Path,
    line: int,
    where: str = "",
) -> Any:
    """``obj.get(key)``, checked to be of ``kind`` unless absent or null."""
    value = obj.get(key)
    if value is None:
        return None
    return check_type(value, key, kind, path, line, where)


def check_type(
    value: Any, key: str, kind: type | tuple[type, ...], path: str | Path, line: int, where: str
) -> Any:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = False if isinstance(value, bool) and bool not in kinds else isinstance(value, kinds)
    if not ok:
        names = " or ".join(_json_name(k) for k in kinds)
        raise InputError(
            path, f"field {where}{key!r} must be {names}, got {_json_name(type(value))}", line
        )
    return value


def _json_name(kind: type) -> str:
    return {
        str: "a string",
        int: "an integer",
        float: "a number",
        bool: "true/false",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }.get(kind, kind.__name__)
