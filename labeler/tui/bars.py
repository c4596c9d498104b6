"""Hand-drawn horizontal bars (no plotting dependency; deterministic for snapshots)."""

from __future__ import annotations

from rich.text import Text

_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: float, width: int) -> str:
    """A bar of ``value`` in [0, 1] at most ``width`` cells wide, in eighth-cell steps."""
    value = min(max(value, 0.0), 1.0)
    eighths = round(value * width * 8)
    full, rest = divmod(eighths, 8)
    out = "█" * full + (_EIGHTHS[rest] if rest else "")
    return out.ljust(width)


def coverage_bar(coverage: float, width: int = 20) -> Text:
    """A coloured coverage bar with its percentage: green full, yellow partial, red none."""
    style = "green" if coverage >= 1.0 else "yellow" if coverage >= 0.5 else "red"
    text = Text(bar(coverage, width), style=style)
    text.append(f" {coverage:4.0%}")
    return text
