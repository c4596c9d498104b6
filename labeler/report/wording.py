"""Words for what the TUI and the CLI print: counts with their noun in the right number."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` followed by ``word``, in the plural unless ``n`` is exactly 1.

    The plural is ``many`` when given, else ``word + "s"``: ``plural(1, "element")`` →
    ``"1 element"``, ``plural(0, "element")`` → ``"0 elements"``, ``plural(2, "query",
    "queries")`` → ``"2 queries"``. ``n`` is written as ``str(n)`` (no thousands separator).
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"
