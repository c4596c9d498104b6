"""Plain-text and Markdown tables from header + rows (values formatted for reading)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from scoring.intervals import Estimate

# the line boundaries of str.splitlines
_LINE_BREAK = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def cell(value: Any) -> str:
    """A table cell: floats to 3 decimals, an ``Estimate`` as ``0.571 [0.446, 0.696]``,
    booleans as yes/no, None as a dash."""
    if isinstance(value, Estimate):
        return format(value, ".3f")
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def text_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    """Columns padded to their widest cell; numbers right-aligned, text left-aligned."""
    cells = [[cell(v) for v in header], *[[cell(v) for v in row] for row in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    numeric = [
        all(
            isinstance(row[i], (int, float, Estimate)) and not isinstance(row[i], bool)
            for row in rows
        )
        and bool(rows)
        for i in range(len(header))
    ]
    lines = []
    for n, r in enumerate(cells):
        parts = [
            c.rjust(w) if numeric[i] else c.ljust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_text(text: str) -> str:
    r"""``text`` safe in Markdown prose, headings and table cells (GitHub-flavoured).

    ``&``, ``<`` and ``>`` become ``&amp;``, ``&lt;`` and ``&gt;`` (a name like
    ``<script>`` is shown, never run or swallowed as HTML); ``\`` and ``|`` are
    backslash-escaped (a ``|`` would split a table cell); every line break (those of
    ``str.splitlines``: ``\n``, ``\r\n``, U+2028...) becomes ``<br>`` (a row is one line).
    """
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = out.replace("\\", "\\\\").replace("|", "\\|")
    return _LINE_BREAK.sub("<br>", out)


def markdown_table(header: Sequence[Any], rows: Sequence[Sequence[Any]]) -> str:
    """A GitHub-flavoured Markdown table; every cell through :func:`markdown_text`."""

    def esc(value: Any) -> str:
        return markdown_text(cell(value))

    out = ["| " + " | ".join(esc(h) for h in header) + " |"]
    out.append("|" + "|".join("---" for _ in header) + "|")
    out += ["| " + " | ".join(esc(v) for v in row) + " |" for row in rows]
    return "\n".join(out)
