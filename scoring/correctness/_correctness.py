"""Deterministic retrieval correctness per row (docs/metrics.md, Retrieval correctness), no LLM.

A chunk matches a reference context in two stages with rapidfuzz: (1) ``fuzz.ratio`` ≥
100·t1; else (2) ``fuzz.partial_ratio_alignment`` score ≥ 100·t2 and the aligned part of
the reference covers ≥ ``coverage`` of its length. Precision is rank-weighted over the
matching chunks, recall is the share of references matched, the score their weighted mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.correctness._config import CorrectnessConfig, RowError
from scoring.correctness._explain import explain
from scoring.correctness._match import match_pair

__all__ = [
    "ChunkMatch",
    "CorrectnessResult",
    "CorrectnessRow",
    "match_chunk",
    "retrieval_correctness",
]


@dataclass(frozen=True, slots=True)
class CorrectnessRow:
    """One evaluation row: the fields of docs/formats.md, Correctness rows."""

    input_id: str
    prompt: str
    reference_contexts: tuple[str, ...]
    sut_response: str
    retrieved_context: tuple[str, ...]

    def __post_init__(self) -> None:
        for name in ("input_id", "prompt", "sut_response"):
            if not isinstance(getattr(self, name), str):
                raise RowError(name, "must be a string")
        for name in ("reference_contexts", "retrieved_context"):
            value = getattr(self, name)
            if isinstance(value, str) or not isinstance(value, Sequence):
                raise RowError(name, "must be a list of strings")
            if not all(isinstance(v, str) for v in value):
                raise RowError(name, "must be a list of strings")
            object.__setattr__(self, name, tuple(value))

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> CorrectnessRow:
        """Build a row from a JSON object; missing or unknown keys raise ``RowError``."""
        fields = ("input_id", "prompt", "reference_contexts", "sut_response", "retrieved_context")
        for name in fields:
            if name not in data:
                raise RowError(name, "is required")
        unknown = sorted(set(data) - set(fields))
        if unknown:
            raise RowError(unknown[0], "is not a field of the row contract")
        return cls(**{name: data[name] for name in fields})


@dataclass(frozen=True, slots=True)
class ChunkMatch:
    """A (chunk, reference) match: 0-based indices, the stage (1 or 2) and its figures.

    ``score`` is the stage's rapidfuzz score (0–100); ``coverage`` the share of the
    reference covered by the alignment (1.0 for stage 1).
    """

    chunk: int
    reference: int
    stage: int
    score: float
    coverage: float

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {
            "chunk": self.chunk,
            "reference": self.reference,
            "stage": self.stage,
            "score": self.score,
            "coverage": self.coverage,
        }


@dataclass(frozen=True, slots=True)
class CorrectnessResult:
    """The result of one row, with the config's metadata carried along.

    ``truncated`` is true when stage 2 of at least one (chunk, reference) pair was
    approximated: both texts longer than ``EXACT_LIMIT`` code points, decided on their
    beginnings, or a window search stopped after its budget (see
    ``scoring.correctness._match.match_pair``); the explanation then says so.
    """

    input_id: str
    score: float
    precision: float
    recall: float
    matched_references: tuple[int, ...]
    matched_chunks: tuple[int, ...]
    matches: tuple[ChunkMatch, ...]
    explanation: str
    language: str
    metric_name: str
    min: float
    max: float
    weight: float
    inverted: bool
    truncated: bool = False

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping (validates against ``result_json_schema()``)."""
        return {
            "input_id": self.input_id,
            "metric_name": self.metric_name,
            "score": self.score,
            "precision": self.precision,
            "recall": self.recall,
            "matched_references": list(self.matched_references),
            "matched_chunks": list(self.matched_chunks),
            "matches": [m.to_dict() for m in self.matches],
            "explanation": self.explanation,
            "language": self.language,
            "min": self.min,
            "max": self.max,
            "weight": self.weight,
            "inverted": self.inverted,
            "truncated": self.truncated,
        }


def match_chunk(
    chunk: str, reference: str, config: CorrectnessConfig
) -> tuple[int, float, float] | None:
    """Match one chunk against one reference; ``(stage, score, coverage)`` or ``None``.

    Stage 1: ``fuzz.ratio(chunk, reference) ≥ 100·t1`` (coverage reported as 1.0).
    Stage 2: ``a = fuzz.partial_ratio_alignment(reference, chunk)`` with
    ``a.score ≥ 100·t2`` and ``min(a.src_end − a.src_start, a.dest_end − a.dest_start) ÷
    |reference| ≥ coverage``. rapidfuzz slides the shorter string over the longer one and,
    at the edges, may align a whole short reference with a shorter piece of the chunk, so
    the covered length is the shorter of the two aligned spans. Empty texts never match.
    ``match_pair`` (scoring.correctness._match) computes it, with exact shortcuts and, for
    two texts both longer than ``EXACT_LIMIT``, a stage 2 on their beginnings it reports.
    """
    return match_pair(chunk, reference, config).found


def retrieval_correctness(
    row: CorrectnessRow, config: CorrectnessConfig | None = None
) -> CorrectnessResult:
    """Score one row's retrieved chunks against its reference contexts.

    - A chunk *matches* when it matches at least one reference (``match_chunk``).
    - precision = ``Σ_{matching rank r} (matching chunks at ranks ≤ r) / r`` ÷ number of
      matching chunks; 0 when no chunk matches (and when nothing was retrieved).
    - recall = references matched by at least one chunk ÷ references; 0 without references.
    - score = ``(w_p·precision + w_r·recall) / (w_p + w_r)``.

    Worked example: three references, chunks [match, noise, match] matching two of them →
    precision (1/1 + 2/3)/2 ≈ 0.83, recall 2/3, score 0.75 with equal weights.
    """
    cfg = config if config is not None else CorrectnessConfig()
    matches: list[ChunkMatch] = []
    matched_chunks: list[int] = []
    matched_refs: set[int] = set()
    precision_sum = 0.0
    truncated = False
    for r, chunk in enumerate(row.retrieved_context):
        hit = False
        for i, reference in enumerate(row.reference_contexts):
            pair = match_pair(chunk, reference, cfg)
            truncated = truncated or pair.truncated
            found = pair.found
            if found is not None:
                stage, score, share = found
                matches.append(ChunkMatch(r, i, stage, score, share))
                matched_refs.add(i)
                hit = True
        if hit:
            matched_chunks.append(r)
            precision_sum += len(matched_chunks) / (r + 1)
    precision = precision_sum / len(matched_chunks) if matched_chunks else 0.0
    n_refs = len(row.reference_contexts)
    recall = len(matched_refs) / n_refs if n_refs else 0.0
    w_p, w_r = cfg.weight_precision, cfg.weight_recall
    score = (w_p * precision + w_r * recall) / (w_p + w_r)
    references = tuple(sorted(matched_refs))
    text = explain(
        cfg.language,
        score=score,
        precision=precision,
        recall=recall,
        matched_references=len(references),
        references=n_refs,
        matched_chunks=len(matched_chunks),
        chunks=len(row.retrieved_context),
        truncated=truncated,
    )
    return CorrectnessResult(
        input_id=row.input_id,
        score=score,
        precision=precision,
        recall=recall,
        matched_references=references,
        matched_chunks=tuple(matched_chunks),
        matches=tuple(matches),
        explanation=text,
        language=cfg.language,
        metric_name=cfg.metric_name,
        min=cfg.min,
        max=cfg.max,
        weight=cfg.weight,
        inverted=cfg.inverted,
        truncated=truncated,
    )
