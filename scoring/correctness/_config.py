"""Validated configuration of retrieval correctness, and its errors."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["LANGUAGES", "METADATA_FIELDS", "ConfigError", "CorrectnessConfig", "RowError"]

LANGUAGES: tuple[str, ...] = ("en", "de", "fr")


class ConfigError(ValueError):
    """An invalid retrieval-correctness config value; ``field`` names the culprit."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"retrieval_correctness config: {field!r} {message}")


class RowError(ValueError):
    """An invalid retrieval-correctness row; ``field`` names the culprit."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"retrieval_correctness row: {field!r} {message}")


def _number(name: str, value: object) -> float:
    """``value`` as a finite float; integers too large for a float are rejected, not an
    ``OverflowError``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(name, f"must be a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:
        raise ConfigError(name, "is too large a number") from None
    if not math.isfinite(number):
        raise ConfigError(name, f"must be a finite number, got {value!r}")
    return number


def _unit(name: str, value: object) -> float:
    number = _number(name, value)
    if not 0.0 <= number <= 1.0:
        raise ConfigError(name, f"must be between 0 and 1, got {value!r}")
    return number


@dataclass(frozen=True, slots=True)
class CorrectnessConfig:
    """Retrieval-correctness settings (defaults: docs/metrics.md, Retrieval correctness),
    validated on creation.

    Attributes:
        coverage: share of a reference the stage-2 alignment must cover, in [0, 1].
        t1: stage-1 ``fuzz.ratio`` threshold as a fraction, in [0, 1].
        t2: stage-2 ``partial_ratio_alignment`` threshold as a fraction, in [0, 1].
        weight_precision, weight_recall: weights in [0, 1], not both 0.
        language: explanation language, one of ``en``, ``de``, ``fr``.
        metric_name, min, max, weight, inverted: metadata carried into the result;
            ``metric_name`` non-empty, ``min < max``, ``weight ≥ 0``, ``inverted`` a bool.

    Raises:
        ConfigError: (a ``ValueError``) naming the first invalid field.
    """

    coverage: float = 0.5
    t1: float = 0.7
    t2: float = 0.65
    weight_precision: float = 0.5
    weight_recall: float = 0.5
    language: str = "en"
    metric_name: str = "retrieval_correctness"
    min: float = 0.0
    max: float = 1.0
    weight: float = 1.0
    inverted: bool = False

    def __post_init__(self) -> None:
        for name in ("coverage", "t1", "t2"):
            object.__setattr__(self, name, _unit(name, getattr(self, name)))
        for name in ("weight_precision", "weight_recall"):  # the card: at most 1.0
            object.__setattr__(self, name, _unit(name, getattr(self, name)))
        weight = _number("weight", self.weight)
        if weight < 0:
            raise ConfigError("weight", f"must be >= 0, got {weight!r}")
        object.__setattr__(self, "weight", weight)
        if self.weight_precision + self.weight_recall <= 0:
            raise ConfigError("weight_precision", "and 'weight_recall' must not both be 0")
        if self.language not in LANGUAGES:
            raise ConfigError("language", f"must be one of en, de, fr, got {self.language!r}")
        if not isinstance(self.metric_name, str) or not self.metric_name.strip():
            raise ConfigError(
                "metric_name", f"must be a non-empty string, got {self.metric_name!r}"
            )
        low = _number("min", self.min)
        high = _number("max", self.max)
        if not low < high:
            raise ConfigError("max", f"must be greater than 'min' ({low!r}), got {high!r}")
        object.__setattr__(self, "min", low)
        object.__setattr__(self, "max", high)
        if not isinstance(self.inverted, bool):
            raise ConfigError("inverted", f"must be true or false, got {self.inverted!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> CorrectnessConfig:
        """Build a config from a JSON object in the card's flat form (every field at the top
        level); absent keys take defaults, unknown keys and invalid values raise
        ``ConfigError``. The older nested form is accepted too: a ``"metadata"`` object
        holding ``metric_name``, ``min``, ``max``, ``weight`` and ``inverted`` (a field
        given both there and at the top level is an error). Anything but a mapping raises
        ``ConfigError`` too."""
        if not isinstance(data, Mapping):
            raise ConfigError("config", f"must be an object, got {type(data).__name__}")
        flat = dict(data)
        metadata = flat.pop("metadata", None)
        if metadata is not None:
            if not isinstance(metadata, Mapping):
                raise ConfigError("metadata", "must be an object")
            for key, value in metadata.items():
                if key not in _METADATA:
                    raise ConfigError(f"metadata.{key}", "is not a metadata field")
                if key in flat:
                    raise ConfigError(key, "is given both at the top level and in 'metadata'")
                flat[key] = value
        names = {f.name for f in fields(cls)}
        for key in flat:
            if key not in names:
                raise ConfigError(str(key), "is not a config field")
        return cls(**flat)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping in the card's flat form (``config_json_schema``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


#: the fields the card marks ``"x-aip-param-role": "scoring_metadata"``
METADATA_FIELDS: tuple[str, ...] = ("metric_name", "min", "max", "weight", "inverted")
_METADATA = METADATA_FIELDS
