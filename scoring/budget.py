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

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from scoring.metrics import METRIC_NAMES, metric_table

if TYPE_CHECKING:
    from scoring.inputs import Chunk
    from scoring.metrics import Judgement
    from scoring.spans import SpanPrefix

__all__ = [
    "TOKENS",
    "Tokenizer",
    "at_budgets",
    "budget_key",
    "check_budgets",
    "depth_and_tokens",
    "prefix_within",
]

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


def check_budgets(budgets: Iterable[object]) -> tuple[int, ...]:
    """Validate token budgets (integers ≥ 1); return them sorted without duplicates (an
    empty tuple for none)."""
    out: set[int] = set()
    for b in budgets:  # each an ``object``: compiled, an ``int`` would take True as 1 unchecked
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


def depth_and_tokens(
    chunks: Sequence[Chunk], top: int, budgets: tuple[int, ...], tokenizer: Tokenizer
) -> tuple[int, list[int]]:
    """Ranks to score (``top``, or more when the largest budget's prefix is longer) and the
    token count of each of them."""
    count = tokenizer.count
    limit = budgets[-1] if budgets else 0
    tokens: list[int] = []
    total = 0
    for r, c in enumerate(chunks):
        if r >= top and total > limit:
            break
        if c.text is None:
            raise ValueError("counting tokens needs every chunk's text")
        n = count(c.text)
        tokens.append(n)
        total += n
    depth = max(top, max((prefix_within(tokens, b) for b in budgets), default=0))
    return min(depth, len(chunks)), tokens


def at_budgets(
    judgement: Judgement, spans: SpanPrefix, token_prefix: Sequence[int], budgets: tuple[int, ...]
) -> list[Sequence[float]]:
    """Every metric at every budget (name-major, as ``value_keys`` orders them): the ranks
    of the budget's prefix, whose tokens sum to at most the budget."""
    depths = [bisect_right(token_prefix, b) - 1 for b in budgets]  # prefix sums ascend
    positive = sorted({d for d in depths if d > 0})
    table = metric_table(judgement, positive) if positive else [[] for _ in METRIC_NAMES]
    at = {d: x for x, d in enumerate(positive)}
    columns: list[Sequence[float]] = [
        [row[at[d]] if d > 0 else 0.0 for d in depths] for row in table
    ]
    columns += spans.columns(depths)
    columns.append([float(token_prefix[d]) for d in depths])
    return columns
