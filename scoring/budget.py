"""Token budgets: every metric at a context cost instead of a chunk count.

Hit@k and Partial@k reward big chunks: k chunks of 800 tokens carry more text than k chunks
of 100. With ``tokens(c)`` the caller's token count of chunk ``c`` (definitions of this tool,
issue 13; the budget-prefix rule mirrors how a RAG prompt is filled):

* ``<metric>@<B>t`` = ``<metric>@d`` with d = max{d : Σ_{r≤d} tokens(c_r) ≤ B}, the longest
  prefix of the ranking within B tokens (d = 0, no chunk, scores 0 on every metric);
* ``tokens@k`` = Σ_{r≤k} tokens(c_r), the context a reader needs to weigh a precision
  figure, and ``tokens@<B>t`` the tokens the budget's prefix holds (means over questions).

Scoring does not tokenize by itself: the caller passes a ``Tokenizer`` (a name, for the
report, and a function counting the tokens of a text).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

__all__ = ["TOKENS", "Tokenizer", "budget_key", "check_budgets", "prefix_within"]

TOKENS = "tokens"
"""Name of the token-count row: ``tokens@k`` = tokens in the top k chunks."""


class Tokenizer(NamedTuple):
    """A named token counter: ``count(text)`` = number of tokens of ``text`` (≥ 0)."""

    name: str
    count: Callable[[str], int]


def budget_key(name: str, budget: int) -> str:
    """The flat key of a metric at a token budget, e.g. ``budget_key("hit", 500) ==
    "hit@500t"``."""
    return f"{name}@{budget}t"


def check_budgets(budgets: Iterable[int]) -> tuple[int, ...]:
    """Validate token budgets (integers ≥ 1); return them sorted without duplicates (an
    empty tuple for none)."""
    out = set()
    for b in budgets:
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise ValueError(f"a token budget must be an integer >= 1, got {b!r}")
        out.add(b)
    return tuple(sorted(out))


def prefix_within(tokens: Sequence[int], budget: int) -> int:
    """Length of the longest prefix of ``tokens`` (per-chunk counts in rank order) whose
    sum is ≤ ``budget``; 0 when the first chunk alone exceeds it."""
    total = 0
    for i, n in enumerate(tokens):
        total += n
        if total > budget:
            return i
    return len(tokens)
