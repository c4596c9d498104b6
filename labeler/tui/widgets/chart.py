"""Hit@k and Partial@k over k as paired horizontal bars: the gap is the chunking loss.

The chart is a Rich renderable laid out for the width it is given each time it is drawn
(``options.max_width``), so it follows the pane through every resize: the labels, values
and gaps keep their full text and only the bars grow or shrink.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.text import Text

from labeler.tui.bars import bar

#: the widest a bar is drawn (past this a wider bar only spreads the same eighths out)
MAX_BAR = 60
#: the narrowest bar; below ``fixed + MIN_BAR`` columns the lines are wider than the pane
MIN_BAR = 4
KINDS = ("Hit", "Partial")
HIT_STYLE, PARTIAL_STYLE = "green", "yellow"


def value_text(value: float) -> str:
    """A metric value as the metrics table shows it: three decimals (``0.571``)."""
    return f"{value:.3f}"


def gap_text(hit: float, partial: float) -> str:
    """``gap 0.018`` for Partial above Hit, or ``""`` when they agree to three decimals
    (Partial@k is never below Hit@k: a fully covered element is also partly covered)."""
    gap = partial - hit
    return f"gap {value_text(gap)}" if round(gap, 3) > 0 else ""


@dataclass(frozen=True)
class HitPartialChart:
    """One Hit and one Partial bar per k, each with its value, and the gap between them.

    A row at width ``W`` is ``label kind bar value  gap``: the label column is as wide as
    the longest ``k=K``, the kind column as ``Partial``, the value ``0.000``, the gap
    ``gap 0.000`` (only on Partial rows, blank when there is none); the bar gets the rest,
    ``W - fixed`` cells, at most :data:`MAX_BAR` and at least :data:`MIN_BAR`. A title line
    names the run and says what the gap means; it wraps at spaces if the pane is narrow.
    """

    run: str
    ks: tuple[int, ...]
    hit: tuple[float, ...]
    partial: tuple[float, ...]

    def __post_init__(self) -> None:
        if not len(self.ks) == len(self.hit) == len(self.partial):
            raise ValueError("a value of Hit and of Partial for each k")

    @property
    def label_width(self) -> int:
        return max((len(f"k={k}") for k in self.ks), default=0)

    @property
    def gap_width(self) -> int:
        gaps = (gap_text(h, p) for h, p in zip(self.hit, self.partial, strict=True))
        return max((len(g) for g in gaps), default=0)

    @property
    def fixed(self) -> int:
        """The columns of a row that are not the bar: label, kind, value and gap with the
        spaces between them."""
        kind = max(len(k) for k in KINDS)
        value = len(value_text(1.0))
        gap = 2 + self.gap_width if self.gap_width else 0
        return self.label_width + 1 + kind + 1 + 1 + value + gap

    def bar_width(self, width: int) -> int:
        """The bar's cells in a pane ``width`` columns wide."""
        return max(MIN_BAR, min(MAX_BAR, width - self.fixed))

    def rows(self, width: int) -> list[Text]:
        """The chart's bar rows for a pane ``width`` columns wide (no title)."""
        cells = self.bar_width(width)
        kind = max(len(k) for k in KINDS)
        out: list[Text] = []
        for k, h, p in zip(self.ks, self.hit, self.partial, strict=True):
            for name, value, style, label in (
                ("Hit", h, HIT_STYLE, f"k={k}"),
                ("Partial", p, PARTIAL_STYLE, ""),
            ):
                row = Text(label.rjust(self.label_width) + " ")
                row.append(name.ljust(kind), style=style)
                row.append(" ")
                row.append(bar(value, cells), style=style)
                row.append(" " + value_text(value))
                gap = gap_text(h, p) if name == "Partial" else ""
                if gap:
                    row.append("  " + gap, style=PARTIAL_STYLE)
                out.append(row)
        return out

    def title(self) -> Text:
        title = Text("Hit@k and Partial@k of ")
        title.append(self.run, style="bold")
        title.append(" (the gap is the chunking loss)")
        return title

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        yield self.title()
        for row in self.rows(options.max_width):
            row.no_wrap = True
            row.overflow = "crop"  # only below fixed + MIN_BAR columns; never an ellipsis
            yield row

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = self.fixed + MAX_BAR
        return Measurement(min(self.fixed + MIN_BAR, options.max_width), widest)


def hit_partial_chart(
    run: str, ks: Sequence[int], hit: Sequence[float], partial: Sequence[float]
) -> HitPartialChart:
    """The chart of one run's Hit@k and Partial@k (see :class:`HitPartialChart`)."""
    return HitPartialChart(run, tuple(ks), tuple(hit), tuple(partial))
