"""Several runs against one baseline: a paired comparison each, Holm-corrected p-values."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.compare import RunComparison, compare_runs
from scoring.intervals import DEFAULT_RESAMPLES
from scoring.result import RunScore
from scoring.stats import DEFAULT_PERMUTATIONS, holm

__all__ = ["MultiComparison", "compare_to_baseline"]


@dataclass(frozen=True, slots=True)
class MultiComparison:
    """Every other run compared with the baseline run (deltas are run − baseline).

    ``comparisons`` are in the order the other runs were given; with two or more, each
    one's ``p_holm`` holds its p-values corrected with Holm's method across the
    comparisons (per key); a lone comparison keeps ``p_holm`` empty.
    """

    gold_set: str
    baseline: str
    comparisons: tuple[RunComparison, ...]

    def to_dict(self, *, per_query: bool = True) -> dict[str, Any]:
        """Plain JSON-ready mapping: ``baseline``, ``runs`` (the others, in order),
        ``correction`` and one ``RunComparison.to_dict`` per other run."""
        return {
            "format": "goldlabeler-compare",
            "gold_set": self.gold_set,
            "baseline": self.baseline,
            "runs": [c.run_b for c in self.comparisons],
            "correction": "holm",
            "comparisons": [c.to_dict(per_query=per_query) for c in self.comparisons],
        }


def compare_to_baseline(
    results: Sequence[RunScore],
    *,
    baseline: int = 0,
    keys: Sequence[str] | None = None,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
    level: float = 0.0,
    resamples: int = DEFAULT_RESAMPLES,
) -> MultiComparison:
    """Compare every result with ``results[baseline]`` (``compare_runs``, B = the other
    run, A = the baseline; same seed, so each test draws the same sign vectors), then
    correct each key's p-values across the comparisons with Holm's method (``holm``): the
    family of a key is its m = len(results) − 1 tests, so a run is called better or worse
    than the baseline on that key with family-wise error ≤ α when ``p_holm`` ≤ α.

    Raises:
        ValueError: fewer than two results, ``baseline`` out of range, or whatever
            ``compare_runs`` refuses.
    """
    if len(results) < 2:
        raise ValueError(f"comparing needs at least two runs, got {len(results)}")
    if not 0 <= baseline < len(results):
        raise ValueError(f"baseline index {baseline} out of range")
    base = results[baseline]
    plain = [
        compare_runs(
            base,
            other,
            keys=keys,
            permutations=permutations,
            seed=seed,
            level=level,
            resamples=resamples,
        )
        for i, other in enumerate(results)
        if i != baseline
    ]
    adjusted: list[dict[str, float]] = [{} for _ in plain]
    for key in dict.fromkeys(key for c in plain for key in c.keys):
        tested = [i for i, c in enumerate(plain) if key in c.tests]
        for i, p in zip(tested, holm([plain[i].tests[key].p_value for i in tested]), strict=True):
            adjusted[i][key] = p
    if len(plain) == 1:  # a family of one: Holm changes nothing
        return MultiComparison(base.gold_set, base.run, tuple(plain))
    comparisons = tuple(
        dataclasses.replace(c, p_holm=adj) for c, adj in zip(plain, adjusted, strict=True)
    )
    return MultiComparison(base.gold_set, base.run, comparisons)
