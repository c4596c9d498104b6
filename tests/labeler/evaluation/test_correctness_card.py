"""The retrieval-correctness config schema against the metric card's own contract.

The card's configuration schema is transcribed below from what issue 13 states of it
(title ``RetrievalCorrectnessConfig``; ``metric_name``, ``min``, ``max``, ``weight`` and
``inverted`` at the top level marked ``"x-aip-param-role": "scoring_metadata"``; both
weights at most 1.0) with the defaults and bounds of docs/metrics.md (coverage 0.5, t1 0.7,
t2 0.65, weights 0.5, language en|de|fr, min 0, max 1, weight 1, inverted false). It is
written out by hand, not built from the code, so a drift in either shows here.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from labeler.cli import main
from scoring import ConfigError, CorrectnessConfig, config_json_schema

META = {"x-aip-param-role": "scoring_metadata"}
CARD: dict[str, Any] = {
    "title": "RetrievalCorrectnessConfig",
    "type": "object",
    "properties": {
        "coverage": {"type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.5},
        "t1": {"type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.7},
        "t2": {"type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.65},
        "weight_precision": {"type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.5},
        "weight_recall": {"type": "number", "minimum": 0.0, "maximum": 1.0, "default": 0.5},
        "language": {"enum": ["en", "de", "fr"], "default": "en"},
        "metric_name": {"type": "string", "default": "retrieval_correctness", **META},
        "min": {"type": "number", "default": 0.0, **META},
        "max": {"type": "number", "default": 1.0, **META},
        "weight": {"type": "number", "minimum": 0.0, "default": 1.0, **META},
        "inverted": {"type": "boolean", "default": False, **META},
    },
}
COMPARED = ("type", "enum", "default", "minimum", "maximum", "x-aip-param-role")


def printed_config_schema(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["correctness", "--schema"]) == 0
    schema: dict[str, Any] = json.loads(capsys.readouterr().out)["config"]
    return schema


def test_printed_schema_is_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    printed = printed_config_schema(capsys)
    assert printed == config_json_schema()
    assert printed["title"] == CARD["title"] and printed["type"] == CARD["type"]
    assert list(printed["properties"]) == list(CARD["properties"])  # flat, nothing nested
    for name, card in CARD["properties"].items():
        ours = printed["properties"][name]
        for word in COMPARED:
            assert ours.get(word) == card.get(word), (name, word)
    marked = [n for n, p in printed["properties"].items() if "x-aip-param-role" in p]
    assert marked == ["metric_name", "min", "max", "weight", "inverted"]


def test_config_round_trips_in_the_flat_form_and_accepts_the_nested_one() -> None:
    flat = {"t1": 0.8, "metric_name": "x", "inverted": True, "weight_recall": 1.0}
    cfg = CorrectnessConfig.from_mapping(flat)
    assert cfg.to_dict() == {**CorrectnessConfig().to_dict(), **flat}
    assert set(cfg.to_dict()) == set(CARD["properties"])
    nested = {"t1": 0.8, "weight_recall": 1.0, "metadata": {"metric_name": "x", "inverted": True}}
    assert CorrectnessConfig.from_mapping(nested) == cfg
    with pytest.raises(ConfigError, match="'metric_name' is given both"):
        CorrectnessConfig.from_mapping({"metric_name": "a", "metadata": {"metric_name": "b"}})
    for weight in ("weight_precision", "weight_recall"):
        with pytest.raises(ConfigError, match=f"'{weight}' must be between 0 and 1"):
            CorrectnessConfig.from_mapping({weight: 1.01})
    CorrectnessConfig.from_mapping({"weight_precision": 1.0, "weight_recall": 0.0})
