"""Decoded JSON values the database cannot take, found before anything is written.

Python's :mod:`json` accepts some input that is not storable text or not a real number:

* ``"\\ud800"``: an escaped UTF-16 surrogate without its partner decodes to a lone surrogate,
  which is not a Unicode character and cannot be encoded as UTF-8 (both backends store
  UTF-8);
* ``"\\u0000"``: NUL, which SQLite stores but PostgreSQL's ``text`` type cannot hold;
* ``NaN``, ``Infinity``, ``1e400`` and integers too long for a float, where a score is due.

:func:`bad_text` walks one decoded line (or file) for the first two, and is cheap in the
common case: both can only come from a ``\\u`` escape, so a source without a suspect one (one
scan of the text) is not walked at all.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

# A lone surrogate in decoded text (a valid escaped pair decodes to one astral character).
_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_OR_NUL = re.compile("[\ud800-\udfff\x00]")
# JSON source that may decode to a lone surrogate (JSON spells escapes with a lowercase u).
# Never misses one: a real escape of a high half decodes alone unless a low-half escape
# follows at once (1); a real low half alone unless a real high half comes just before (2).
# Whether an escape is real depends on how many backslashes precede it, so a low half after
# a high half's text that is itself after a backslash is suspect too (3). Valid pairs, the
# common case (emoji as json.dumps writes them), never match; a match only costs a walk of
# the decoded value. Every branch starts with a backslash: the scan skips to those.
_HIGH = r"u[dD][89abAB][0-9a-fA-F]{2}"
_LOW = r"u[dD][c-fC-F]"
_LONE = rf"{_HIGH}(?!\\{_LOW})|{_LOW}(?<!\\{_HIGH}\\{_LOW})|\\{_HIGH}\\{_LOW}"
_SUSPECT = re.compile(rf"\\(?:{_LONE})")
_SUSPECT_OR_NUL = re.compile(rf"\\(?:u0000|{_LONE})")


@dataclass(frozen=True)
class BadText:
    """Where a decoded JSON value holds a character that cannot be stored.

    ``path`` leads from the top value to the string (keys and list indices); ``in_key`` says
    the character is in the name of a field rather than its value; ``index`` is its 0-based
    position in that string.
    """

    path: tuple[str | int, ...]
    in_key: bool
    char: str
    index: int

    def describe(self, skip: int = 0) -> str:
        """A one-line message, e.g. ``field 'query': lone surrogate \\ud800 at character 3
        (not valid Unicode text)``; ``skip`` leaves out that many leading path items (a
        caller that names them itself)."""
        name = field_path(self.path[skip:])
        if self.in_key:
            where = f"a field name in {name!r}" if name else "a field name"
        else:
            where = f"field {name!r}" if name else "the value"
        at = f"at character {self.index + 1}"
        if self.char == "\x00":
            return f"{where}: NUL character (\\u0000) {at}; PostgreSQL text cannot hold it"
        return f"{where}: lone surrogate \\u{ord(self.char):04x} {at} (not valid Unicode text)"


def field_path(parts: tuple[str | int, ...]) -> str:
    """``("elements", 0, "text")`` → ``elements[0].text``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


def bad_text(source: str, value: Any, *, allow_nul: bool = True) -> BadText | None:
    """The first string (key or value, in document order) of ``value`` (decoded from JSON
    ``source``) holding a lone surrogate, or NUL unless ``allow_nul``; None when all are
    storable. Walks iteratively: a value nested as deep as the decoder allows is fine."""
    if (_SUSPECT if allow_nul else _SUSPECT_OR_NUL).search(source) is None:
        return None
    pattern = _SURROGATE if allow_nul else _SURROGATE_OR_NUL
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), value)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            found = pattern.search(item)
            if found is not None:
                return BadText(path, False, found.group(), found.start())
        elif isinstance(item, dict):
            children: list[tuple[tuple[str | int, ...], Any]] = []
            for key, child in item.items():
                found = pattern.search(key)
                if found is not None:
                    return BadText(path, True, found.group(), found.start())
                children.append(((*path, key), child))
            stack.extend(reversed(children))
        elif isinstance(item, list):
            stack.extend(((*path, i), child) for i, child in reversed(list(enumerate(item))))
    return None


def finite_problem(value: int | float) -> str | None:
    """Why the JSON number ``value`` is no finite float (NaN, infinite, or an integer too
    large for one); None when ``float(value)`` is finite."""
    try:
        number = float(value)
    except OverflowError:
        return f"an integer of {len(str(abs(value)))} digits, too large for a float"
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "infinite (or beyond a float's range, like 1e400)"
    return None
