"""retrieval_correctness (docs/metrics.md, Retrieval correctness): worked example, config,
schemas."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from scoring import (
    ConfigError,
    CorrectnessConfig,
    CorrectnessRow,
    RowError,
    config_json_schema,
    match_chunk,
    result_json_schema,
    retrieval_correctness,
    row_json_schema,
)

REFS = [
    "Exceptions are approved by the data owner.",
    "Backups run nightly at 02:00 UTC.",
    "Passwords rotate every 90 days.",
]
MATCH_1 = "Exceptions are approved by the data owner."  # stage 1 (ratio 100)
NOISE = "The cafeteria opens at noon on weekdays."
MATCH_2 = "Storage policy: backups run nightly at 02:00 UTC and are kept for thirty days."


def row(chunks: list[str], refs: list[str] | None = None) -> CorrectnessRow:
    return CorrectnessRow(
        "r1", "prompt", tuple(REFS if refs is None else refs), "answer", tuple(chunks)
    )


def test_worked_example() -> None:
    # chunks [match, noise, match] matching two of three references:
    # precision = (1/1 + 2/3) / 2 ≈ 0.83, recall = 2/3, score = (0.83 + 0.67) / 2 = 0.75
    result = retrieval_correctness(row([MATCH_1, NOISE, MATCH_2]))
    assert result.precision == pytest.approx((1 + 2 / 3) / 2)
    assert result.recall == pytest.approx(2 / 3)
    assert result.score == pytest.approx(0.75)
    assert result.matched_references == (0, 1)
    assert result.matched_chunks == (0, 2)
    assert [(m.chunk, m.reference, m.stage) for m in result.matches] == [(0, 0, 1), (2, 1, 2)]
    assert result.explanation.startswith("2 of 3 reference contexts were retrieved")


@pytest.mark.parametrize(
    ("language", "needle"),
    [("en", "recall 0.67"), ("de", "Recall 0,67"), ("fr", "rappel 0,67")],
)
def test_explanation_languages(language: str, needle: str) -> None:
    cfg = CorrectnessConfig(language=language)
    result = retrieval_correctness(row([MATCH_1, NOISE, MATCH_2]), cfg)
    assert needle in result.explanation
    assert result.language == language


def test_nothing_retrieved() -> None:
    result = retrieval_correctness(row([]))
    assert (result.score, result.precision, result.recall) == (0.0, 0.0, 0.0)
    assert "Nothing" in result.explanation


def test_weights() -> None:
    cfg = CorrectnessConfig(weight_precision=0.75, weight_recall=0.25)
    result = retrieval_correctness(row([MATCH_1, NOISE, MATCH_2]), cfg)
    # (0.75 · precision + 0.25 · recall) / (0.75 + 0.25), precision (1 + 2/3)/2, recall 2/3
    assert result.score == pytest.approx(0.75 * (1 + 2 / 3) / 2 + 0.25 * 2 / 3)


def test_stage_two_needs_coverage() -> None:
    reference = "alpha beta gamma delta epsilon zeta eta theta iota kappa"
    chunk = "xx alpha beta gamma"  # aligns well (91), but covers 16 of 56 code points
    assert match_chunk(chunk, reference, CorrectnessConfig()) is None
    found = match_chunk(chunk, reference, CorrectnessConfig(coverage=0.25))
    assert found is not None and found[0] == 2


def test_short_reference_in_long_chunk_matches_in_stage_two() -> None:
    found = match_chunk(MATCH_2, REFS[1], CorrectnessConfig())
    assert found is not None
    stage, score, coverage = found
    assert stage == 2 and score >= 65 and coverage == 1.0


def test_empty_texts_never_match() -> None:
    assert match_chunk("", "", CorrectnessConfig()) is None
    assert match_chunk("abc", "", CorrectnessConfig()) is None


def test_metadata_carried() -> None:
    cfg = CorrectnessConfig(metric_name="rc", min=0, max=10, weight=2, inverted=True)
    data = retrieval_correctness(row([MATCH_1]), cfg).to_dict()
    assert (data["metric_name"], data["min"], data["max"], data["weight"], data["inverted"]) == (
        "rc",
        0.0,
        10.0,
        2.0,
        True,
    )


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"coverage": 1.5}, "coverage"),
        ({"coverage": -0.1}, "coverage"),
        ({"t1": "0.7"}, "t1"),
        ({"t2": float("nan")}, "t2"),
        ({"t1": True}, "t1"),
        ({"weight_precision": -1}, "weight_precision"),
        ({"weight_precision": 1.5}, "weight_precision"),  # the card: at most 1.0
        ({"weight_recall": float("inf")}, "weight_recall"),
        ({"weight_precision": 0, "weight_recall": 0}, "weight_precision"),
        ({"language": "es"}, "language"),
        ({"metric_name": ""}, "metric_name"),
        ({"min": 1, "max": 1}, "max"),
        ({"max": "1"}, "max"),
        ({"weight": -2}, "weight"),
        ({"inverted": "no"}, "inverted"),
    ],
)
def test_invalid_config_rejected(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError) as info:
        CorrectnessConfig(**kwargs)
    assert info.value.field == field
    assert repr(field) in str(info.value)
    assert isinstance(info.value, ValueError)


def test_config_from_mapping() -> None:
    cfg = CorrectnessConfig.from_mapping(
        {"t1": 0.8, "language": "de", "metadata": {"metric_name": "x", "inverted": True}}
    )
    assert (cfg.t1, cfg.language, cfg.metric_name, cfg.inverted) == (0.8, "de", "x", True)
    assert CorrectnessConfig.from_mapping(cfg.to_dict()) == cfg
    with pytest.raises(ConfigError, match="'threshold'"):
        CorrectnessConfig.from_mapping({"threshold": 0.5})
    with pytest.raises(ConfigError, match=r"metadata\.colour"):
        CorrectnessConfig.from_mapping({"metadata": {"colour": "red"}})


def test_row_contract() -> None:
    data = {
        "input_id": "7",
        "prompt": "p",
        "reference_contexts": ["a"],
        "sut_response": "s",
        "retrieved_context": ["a", "b"],
    }
    parsed = CorrectnessRow.from_mapping(data)
    assert parsed.retrieved_context == ("a", "b")
    with pytest.raises(RowError, match="'retrieved_context'"):
        CorrectnessRow.from_mapping({**data, "retrieved_context": "a"})
    with pytest.raises(RowError, match="'prompt'"):
        CorrectnessRow.from_mapping({k: v for k, v in data.items() if k != "prompt"})
    with pytest.raises(RowError, match="'extra'"):
        CorrectnessRow.from_mapping({**data, "extra": 1})


# --- JSON schemas: a tiny validator for the keywords the schemas use --------------------------


def validate(value: Any, schema: dict[str, Any], path: str = "$") -> None:
    if "enum" in schema:
        assert value in schema["enum"], path
    kind = schema.get("type")
    if kind == "object":
        assert isinstance(value, dict), path
        for key in schema.get("required", []):
            assert key in value, f"{path}.{key} required"
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is False:
            assert set(value) <= set(props), f"{path}: extra {set(value) - set(props)}"
        for key, sub in props.items():
            if key in value:
                validate(value[key], sub, f"{path}.{key}")
    elif kind == "array":
        assert isinstance(value, list), path
        for i, item in enumerate(value):
            validate(item, schema.get("items", {}), f"{path}[{i}]")
    elif kind in ("number", "integer"):
        assert isinstance(value, int | float) and not isinstance(value, bool), path
        if kind == "integer":
            assert isinstance(value, int), path
        assert math.isfinite(value), path
        assert value >= schema.get("minimum", -math.inf), path
        assert value <= schema.get("maximum", math.inf), path
    elif kind == "string":
        assert isinstance(value, str), path
        assert len(value) >= schema.get("minLength", 0), path
    elif kind == "boolean":
        assert isinstance(value, bool), path


def test_schemas_describe_the_values() -> None:
    cfg = CorrectnessConfig(language="fr")
    validate(cfg.to_dict(), config_json_schema())
    result = retrieval_correctness(row([MATCH_1, NOISE, MATCH_2]), cfg).to_dict()
    validate(result, result_json_schema())
    assert set(result) == set(result_json_schema()["required"])
    validate(
        {
            "input_id": "1",
            "prompt": "p",
            "reference_contexts": [],
            "sut_response": "",
            "retrieved_context": ["c"],
        },
        row_json_schema(),
    )
    json.dumps([config_json_schema(), result_json_schema(), row_json_schema()])


def test_schema_defaults_match_config() -> None:
    props = config_json_schema()["properties"]
    default = CorrectnessConfig().to_dict()
    assert set(props) == set(default)
    for key, sub in props.items():
        assert sub["default"] == default[key]
    assert default["coverage"] == 0.5 and default["t1"] == 0.7 and default["t2"] == 0.65
