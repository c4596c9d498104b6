"""Confidence-interval values carried by results and shown in tables (no computation here;
``scoring.bootstrap`` computes them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

__all__ = [
    "DEFAULT_CONFIDENCE",
    "DEFAULT_RESAMPLES",
    "Estimate",
    "Interval",
    "MetricIntervals",
    "check_confidence",
    "check_resamples",
]

DEFAULT_CONFIDENCE = 0.95
DEFAULT_RESAMPLES = 2000


class Interval(NamedTuple):
    """A confidence interval ``[low, high]`` (a JSON pair through ``list``)."""

    low: float
    high: float


class Estimate(NamedTuple):
    """A point value with its interval, as one table cell: ``0.571 [0.446, 0.696]``."""

    value: float
    interval: Interval

    def __format__(self, spec: str) -> str:
        spec = spec or ".3f"
        low, high = self.interval
        return f"{self.value:{spec}} [{low:{spec}}, {high:{spec}}]"


@dataclass(frozen=True, slots=True)
class MetricIntervals:
    """Percentile bootstrap intervals of a run's metric means over its questions.

    Attributes:
        level: confidence level in (0, 1), e.g. 0.95.
        resamples: bootstrap resamples drawn; ``seed``: the generator's seed.
        intervals: metric key → ``Interval``.
    """

    level: float
    resamples: int
    seed: int
    intervals: Mapping[str, Interval] = field(default_factory=dict)

    def settings(self) -> dict[str, Any]:
        """How the intervals were made, JSON-ready."""
        return {
            "method": "percentile bootstrap over questions",
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
        }

    def pairs(self) -> dict[str, list[float]]:
        """Metric key → ``[low, high]``, JSON-ready."""
        return {key: [iv.low, iv.high] for key, iv in self.intervals.items()}


def check_confidence(level: float) -> float:
    """``level`` if it is a confidence level in (0, 1), else ``ValueError``."""
    if isinstance(level, bool) or not isinstance(level, int | float) or not 0 < level < 1:
        raise ValueError(f"the confidence level must be in (0, 1), got {level!r}")
    return float(level)


def check_resamples(resamples: int) -> int:
    """``resamples`` if it is an integer ≥ 1, else ``ValueError``."""
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"the number of resamples must be an integer >= 1, got {resamples!r}")
    return resamples
