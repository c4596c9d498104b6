"""Text drawn with hanging indents: a wrapped line goes on under its own text, not at the
pane's left edge, so a numbered command that is wider than the pane still reads as one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

#: a line's indent: its leading spaces and, if it has one, a list marker ("1. ", "- ")
_INDENT = re.compile(r" *(?:\d+\. |- )?")


class Hanging:
    """``text`` line by line, each wrapped at spaces to the width it is drawn at, its
    continuation rows indented as far as the line's text begins (after leading spaces
    and a ``1.``/``-`` marker). A line whose indent leaves fewer than 20 columns wraps at
    the full width instead. ``str()`` is the plain text, unwrapped."""

    MIN_BODY = 20

    def __init__(self, text: Text) -> None:
        self.text = text

    def __str__(self) -> str:
        return self.text.plain

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        width = options.max_width
        for line in self.text.split("\n", allow_blank=True):
            match = _INDENT.match(line.plain)
            indent = match.end() if match else 0
            if width - indent < self.MIN_BODY:
                indent = 0
            head, body = line[:indent], line[indent:]
            for n, row in enumerate(body.wrap(console, width - indent)):
                row.rstrip()
                yield (head if n == 0 else Text(" " * indent)) + row

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)
