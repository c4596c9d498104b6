"""jsoup 1.15.3's character references (``parser/Tokeniser.consumeCharacterReference``).

* Named: the longest run of letters then digits is the name; it decodes only if it is one
  of the 106 legacy names (``;`` optional) or an HTML5 name followed by ``;``. No prefix
  matching (``&copy2023``, ``&notit;``, ``&ampx`` stay literal); case-sensitive.
* Numeric: ``&#`` + digits or ``&#x`` + hex digits, ``;`` optional; surrogates, values above
  U+10FFFF and overflow give U+FFFD; 0x80-0x9F map through windows-1252; 0 gives U+0000.

Python's ``html.entities.html5`` holds exactly jsoup's two name sets (checked against the
jar): keys without ``;`` are the legacy names.
"""

from __future__ import annotations

import html.entities
import re

HTML5 = html.entities.html5
BASE_NAMES = frozenset(k for k in HTML5 if not k.endswith(";"))
FULL_NAMES = frozenset(k[:-1] for k in HTML5 if k.endswith(";"))
# Letters are Unicode letters (Character.isLetter), digits ASCII, as jsoup reads names.
REFERENCE = re.compile(r"&(?:([^\W\d_]+)([0-9]*)(;?)|#(?:[xX]([0-9A-Fa-f]+)|([0-9]+));?)")


def _win1252(value: int) -> str:
    try:
        return bytes([value]).decode("cp1252")
    except UnicodeDecodeError:
        return chr(value)  # 0x81, 0x8D, 0x8F, 0x90, 0x9D map to themselves


_C1 = {v: _win1252(v) for v in range(0x80, 0xA0)}


def named_decodes(name: str, semicolon: bool) -> bool:
    """Whether jsoup decodes ``&name`` (``semicolon``: followed by ``;``)."""
    return name in BASE_NAMES or (semicolon and name in FULL_NAMES)


def numeric_value(digits: str, hexadecimal: bool) -> str:
    """The text jsoup gives a numeric reference."""
    value = int(digits, 16 if hexadecimal else 10)
    if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        return "\ufffd"
    return _C1.get(value) or chr(value)


def _decode(m: re.Match[str]) -> str:
    letters = m.group(1)
    if letters is not None:
        name = letters + m.group(2)
        semicolon = bool(m.group(3))
        if not named_decodes(name, semicolon):
            return m.group(0)
        return HTML5[name + ";"] if name in FULL_NAMES else HTML5[name]
    if m.group(4) is not None:
        return numeric_value(m.group(4), True)
    return numeric_value(m.group(5), False)


def jsoup_ref_text(text: str) -> str:
    """``text`` (character data outside tags) with its references decoded as jsoup does."""
    return REFERENCE.sub(_decode, text) if "&" in text else text
