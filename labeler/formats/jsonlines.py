"""Line-numbered JSON Lines reading shared by every JSONL format."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from labeler.errors import InputError


def read_objects(
    path: str | Path, on_progress: Callable[[int], None] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line of a JSONL file.

    Streams: memory stays bounded by the longest line. ``on_progress`` is called with the
    number of bytes read so far every 1,000 lines. Raises :class:`InputError` naming the
    file and 1-based line for unreadable files, bytes that are not UTF-8, broken JSON, or a
    line that is not a JSON object.
    """
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as err:
        raise InputError(path, f"cannot read: {err.strerror or err}") from None
    with handle:
        consumed = 0
        for number, raw in enumerate(handle, start=1):
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
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as err:
                raise InputError(
                    path, f"broken JSON: {err.msg} (column {err.colno})", number
                ) from None
            if not isinstance(obj, dict):
                raise InputError(path, f"expected a JSON object, got {type(obj).__name__}", number)
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
