"""Hit@k and Partial@k over k as paired horizontal bars: the gap is the chunking loss."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from labeler.tui.bars import bar


def hit_partial_chart(
    ks: Sequence[int], hit: Sequence[float], partial: Sequence[float], width: int = 40
) -> Table:
    """A table with one Hit and one Partial bar per k and the gap between them."""
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right")
    table.add_column()
    table.add_column(width=width)
    table.add_column(justify="right")
    for k, h, p in zip(ks, hit, partial, strict=True):
        table.add_row(f"k={k}", "Hit", Text(bar(h, width), style="green"), f"{h:.2f}")
        gap = Text(f"{p:.2f}")
        if p - h > 0:
            gap.append(f"  gap {p - h:.2f}", style="yellow")
        table.add_row("", "Partial", Text(bar(p, width), style="yellow"), gap)
    return table
