"""Say in words how a failed snapshot differs from the stored one.

A snapshot failure in CI leaves its HTML report on the machine that ran it; this puts the
difference in the test's own output instead: the screen's text row by row, and when the text
is the same, which rows' styles differ.
"""

from __future__ import annotations

import html
import re

_TEXT = re.compile(r'<text class="([^"]*)" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>')
_TERMINAL_ID = re.compile(r"terminal-\d+-")
#: the width of one cell in Rich's SVG export
_CELL = 12.2


def screen_rows(svg: str) -> list[tuple[str, str]]:
    """The picture's rows, top to bottom: (text, the style classes along it)."""
    svg = _TERMINAL_ID.sub("terminal-", svg)
    rows: dict[float, list[tuple[float, str, str]]] = {}
    for m in _TEXT.finditer(svg):
        style, x, y, text = m.group(1), float(m.group(2)), float(m.group(3)), m.group(4)
        rows.setdefault(y, []).append((x, html.unescape(text).replace("\xa0", " "), style))
    out = []
    for y in sorted(rows):
        line = ""
        styles = []
        for x, text, style in sorted(rows[y]):
            line = line.ljust(round(x / _CELL)) + text
            styles.append(f"{round(x / _CELL)}:{style}")
        out.append((line, " ".join(styles)))
    return out


def describe(expected: str, actual: str, *, limit: int = 12) -> str:
    """The rows that differ between two pictures (text first, then styles)."""
    want, got = screen_rows(expected), screen_rows(actual)
    lines = []
    if len(want) != len(got):
        lines.append(f"rows: {len(want)} stored, {len(got)} now")
    for number, (w, g) in enumerate(zip(want, got, strict=False)):
        if w[0] != g[0]:
            lines += [f"row {number} stored: {w[0]!r}", f"row {number} now:    {g[0]!r}"]
        elif w[1] != g[1]:
            lines += [
                f"row {number} (same text {w[0].strip()[:60]!r}) styles differ:",
                f"  stored: {w[1]}",
                f"  now:    {g[1]}",
            ]
        if len(lines) >= limit * 2:
            lines.append("…")
            break
    if not lines and _TERMINAL_ID.sub("terminal-", expected) != _TERMINAL_ID.sub(
        "terminal-", actual
    ):
        lines.append("the text and styles of every row agree; the style sheet differs")
    return "\n".join(lines)
