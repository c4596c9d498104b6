"""JSON Schemas (draft 2020-12) of the retrieval-correctness config, row and result."""

from __future__ import annotations

from typing import Any

from scoring.correctness._config import LANGUAGES, METADATA_FIELDS, CorrectnessConfig
from scoring.correctness._match import EXACT_LIMIT

__all__ = ["config_json_schema", "result_json_schema", "row_json_schema"]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _unit(description: str, default: float) -> dict[str, Any]:
    return {
        "type": "number",
        "minimum": 0.0,
        "maximum": 1.0,
        "default": default,
        "description": description,
    }


def config_json_schema() -> dict[str, Any]:
    """Schema of ``CorrectnessConfig.to_dict()`` in the metric card's form, defaults included.

    The card's configuration schema (title ``RetrievalCorrectnessConfig``) is flat: the five
    metadata fields sit at the top level, each marked ``"x-aip-param-role":
    "scoring_metadata"`` (they are carried into the result, not used to score), and both
    weights are at most 1.0. ``CorrectnessConfig.from_mapping`` also accepts the older
    nested form (those five under ``"metadata"``). Cross-field rules a schema cannot say:
    the two weights must not both be 0, and ``min < max``; ``CorrectnessConfig`` enforces
    them.
    """
    d = CorrectnessConfig()
    metadata: dict[str, dict[str, Any]] = {
        "metric_name": {"type": "string", "minLength": 1, "default": d.metric_name},
        "min": {"type": "number", "default": d.min},
        "max": {"type": "number", "default": d.max},
        "weight": {"type": "number", "minimum": 0, "default": d.weight},
        "inverted": {"type": "boolean", "default": d.inverted},
    }
    assert tuple(metadata) == METADATA_FIELDS
    return {
        "$schema": _DRAFT,
        "title": "RetrievalCorrectnessConfig",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "coverage": _unit("share of a reference a stage-2 alignment must cover", d.coverage),
            "t1": _unit("stage-1 fuzz.ratio threshold (fraction of 100)", d.t1),
            "t2": _unit("stage-2 partial_ratio_alignment threshold (fraction of 100)", d.t2),
            "weight_precision": _unit("weight of precision in the score", d.weight_precision),
            "weight_recall": _unit("weight of recall in the score", d.weight_recall),
            "language": {"enum": list(LANGUAGES), "default": d.language},
            **{
                name: {**sub, "x-aip-param-role": "scoring_metadata"}
                for name, sub in metadata.items()
            },
        },
    }


def row_json_schema() -> dict[str, Any]:
    """Schema of one input row (docs/formats.md, Correctness rows)."""
    strings = {"type": "array", "items": {"type": "string"}}
    return {
        "$schema": _DRAFT,
        "title": "retrieval_correctness row",
        "type": "object",
        "additionalProperties": False,
        "required": [
            "input_id",
            "prompt",
            "reference_contexts",
            "sut_response",
            "retrieved_context",
        ],
        "properties": {
            "input_id": {"type": "string"},
            "prompt": {"type": "string"},
            "reference_contexts": {**strings, "description": "expected element texts"},
            "sut_response": {"type": "string"},
            "retrieved_context": {**strings, "description": "chunks in rank order"},
        },
    }


def result_json_schema() -> dict[str, Any]:
    """Schema of ``CorrectnessResult.to_dict()``."""
    unit = {"type": "number", "minimum": 0, "maximum": 1}
    indices = {"type": "array", "items": {"type": "integer", "minimum": 0}}
    match = {
        "type": "object",
        "additionalProperties": False,
        "required": ["chunk", "reference", "stage", "score", "coverage"],
        "properties": {
            "chunk": {"type": "integer", "minimum": 0},
            "reference": {"type": "integer", "minimum": 0},
            "stage": {"enum": [1, 2]},
            "score": {"type": "number", "minimum": 0, "maximum": 100},
            "coverage": unit,
        },
    }
    properties: dict[str, Any] = {
        "input_id": {"type": "string"},
        "metric_name": {"type": "string"},
        "score": unit,
        "precision": unit,
        "recall": unit,
        "matched_references": {**indices, "description": "0-based reference indices"},
        "matched_chunks": {**indices, "description": "0-based chunk ranks"},
        "matches": {"type": "array", "items": match},
        "explanation": {"type": "string"},
        "language": {"enum": list(LANGUAGES)},
        "min": {"type": "number"},
        "max": {"type": "number"},
        "weight": {"type": "number", "minimum": 0},
        "inverted": {"type": "boolean"},
        "truncated": {
            "type": "boolean",
            "description": (
                "stage 2 of some (chunk, reference) pair was approximated: on the first "
                f"{EXACT_LIMIT} code points of both texts, or with a bounded window search"
            ),
        },
    }
    return {
        "$schema": _DRAFT,
        "title": "retrieval_correctness result",
        "type": "object",
        "additionalProperties": False,
        "required": list(properties),
        "properties": properties,
    }
