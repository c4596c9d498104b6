"""Deterministic retrieval correctness per row, no LLM: the config, the match of a chunk
against a reference, the per-row score and explanation, and the JSON Schemas.

:func:`retrieval_correctness` scores a :class:`CorrectnessRow` (the rule in
:mod:`scoring.correctness._correctness`) under a :class:`CorrectnessConfig`
(:mod:`scoring.correctness._config`); :func:`match_chunk` decides one chunk against one
reference (:mod:`scoring.correctness._match`, with rapidfuzz's partial alignment in
:mod:`scoring.correctness._align`); the explanation texts are in
:mod:`scoring.correctness._explain`, the schemas in :mod:`scoring.correctness._schema`.
``EXACT_LIMIT`` is the longest shorter text (code points) compared exactly.

Each name loads its module on first use (PEP 562), so reading a config does not load the
matching code; rapidfuzz is imported only when a match is first computed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scoring.correctness._config import ConfigError, CorrectnessConfig, RowError
    from scoring.correctness._correctness import (
        ChunkMatch,
        CorrectnessResult,
        CorrectnessRow,
        match_chunk,
        retrieval_correctness,
    )
    from scoring.correctness._match import EXACT_LIMIT
    from scoring.correctness._schema import (
        config_json_schema,
        result_json_schema,
        row_json_schema,
    )

__all__ = [
    "EXACT_LIMIT",
    "ChunkMatch",
    "ConfigError",
    "CorrectnessConfig",
    "CorrectnessResult",
    "CorrectnessRow",
    "RowError",
    "config_json_schema",
    "match_chunk",
    "result_json_schema",
    "retrieval_correctness",
    "row_json_schema",
]

_HOMES: dict[str, str] = {
    "EXACT_LIMIT": "scoring.correctness._match",
    "ChunkMatch": "scoring.correctness._correctness",
    "ConfigError": "scoring.correctness._config",
    "CorrectnessConfig": "scoring.correctness._config",
    "CorrectnessResult": "scoring.correctness._correctness",
    "CorrectnessRow": "scoring.correctness._correctness",
    "RowError": "scoring.correctness._config",
    "config_json_schema": "scoring.correctness._schema",
    "match_chunk": "scoring.correctness._correctness",
    "result_json_schema": "scoring.correctness._schema",
    "retrieval_correctness": "scoring.correctness._correctness",
    "row_json_schema": "scoring.correctness._schema",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'scoring.correctness' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
