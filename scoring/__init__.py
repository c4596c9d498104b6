"""Pure scoring of retrieval runs against exact-span gold sets (docs/metrics.md).

Typical use::

    from scoring import Chunk, GoldElement, GoldQuestion, score_run, compare_runs

    result = score_run(questions, pages, run, ks=(1, 3, 5, 10), threshold=0.5,
                       gold_set="demo", run_name="bm25")
    result.to_dict()                 # Score JSON (docs/formats.md)
    compare_runs(result, other)      # per-question deltas and paired tests

Only the standard library is imported here, and each name loads its module on first use
(PEP 562: ``labeler score`` loads the scoring path alone, not comparison or retrieval
correctness; the function ``agreement`` is imported from ``scoring.agreement``, whose package
name it shares); rapidfuzz is imported when retrieval
correctness is first computed and numpy (optional) only by large randomization tests.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# First: whether the compiled modules of the scoring path are used (scoring._native)
from scoring import _native  # noqa: F401

# Eager: the function ``classify`` shares its name with its module, and importing the
# module later would otherwise leave ``scoring.classify`` naming the module.
from scoring.classify import DEFAULT_THRESHOLD, PageIndex, classify

if TYPE_CHECKING:
    from scoring.agreement import (
        AGREEMENT_FORMATS,
        Agreement,
        AgreementInput,
        AgreementInputError,
        OverallAgreement,
        PairAgreement,
        QuestionAgreement,
        Span,
        render_agreement,
    )
    from scoring.bootstrap import bootstrap_mean_intervals, with_intervals
    from scoring.budget import Tokenizer, budget_key
    from scoring.compare import GroupMovement, Movement, QueryDelta, RunComparison, compare_runs
    from scoring.correctness import (
        ChunkMatch,
        ConfigError,
        CorrectnessConfig,
        CorrectnessResult,
        CorrectnessRow,
        RowError,
        config_json_schema,
        match_chunk,
        result_json_schema,
        retrieval_correctness,
        row_json_schema,
    )
    from scoring.grades import Classification, Grade
    from scoring.inputs import (
        Chunk,
        GoldElement,
        GoldQuestion,
        Pages,
        Placement,
        Placements,
        QuestionOutline,
        Run,
    )
    from scoring.intervals import Estimate, Interval, MetricIntervals
    from scoring.metrics import (
        METRIC_NAMES,
        Judgement,
        context_precision_at,
        hit_at,
        key_lost_at,
        metrics_at,
        mrr_at,
        ndcg_at,
        partial_at,
        partial_recall_at,
        precision_at,
        recall_at,
    )
    from scoring.multicompare import MultiComparison, compare_to_baseline
    from scoring.report import (
        comparison_table,
        gap_table,
        group_table,
        metric_table_rows,
        score_json,
        worst_table,
    )
    from scoring.result import (
        Diagnosis,
        DiagnosisKind,
        Flags,
        GroupScore,
        LayerScore,
        QueryScore,
        RunScore,
        metric_key,
        n_gold_group,
        score_names,
        value_keys,
    )
    from scoring.score import DEFAULT_KS, aggregate, score_questions, score_run
    from scoring.spans import SPAN_METRIC_NAMES
    from scoring.stats import DEFAULT_PERMUTATIONS, PairedTest, holm, paired_randomization_test

__all__ = [
    "AGREEMENT_FORMATS",
    "DEFAULT_KS",
    "DEFAULT_PERMUTATIONS",
    "DEFAULT_THRESHOLD",
    "METRIC_NAMES",
    "SPAN_METRIC_NAMES",
    "Agreement",
    "AgreementInput",
    "AgreementInputError",
    "Chunk",
    "ChunkMatch",
    "Classification",
    "ConfigError",
    "CorrectnessConfig",
    "CorrectnessResult",
    "CorrectnessRow",
    "Diagnosis",
    "DiagnosisKind",
    "Estimate",
    "Flags",
    "GoldElement",
    "GoldQuestion",
    "Grade",
    "GroupMovement",
    "GroupScore",
    "Interval",
    "Judgement",
    "LayerScore",
    "MetricIntervals",
    "Movement",
    "MultiComparison",
    "OverallAgreement",
    "PageIndex",
    "Pages",
    "PairAgreement",
    "PairedTest",
    "Placement",
    "Placements",
    "QueryDelta",
    "QueryScore",
    "QuestionAgreement",
    "QuestionOutline",
    "RowError",
    "Run",
    "RunComparison",
    "RunScore",
    "Span",
    "Tokenizer",
    "aggregate",
    "bootstrap_mean_intervals",
    "budget_key",
    "classify",
    "compare_runs",
    "compare_to_baseline",
    "comparison_table",
    "config_json_schema",
    "context_precision_at",
    "gap_table",
    "group_table",
    "hit_at",
    "holm",
    "key_lost_at",
    "match_chunk",
    "metric_key",
    "metric_table_rows",
    "metrics_at",
    "mrr_at",
    "n_gold_group",
    "ndcg_at",
    "paired_randomization_test",
    "partial_at",
    "partial_recall_at",
    "precision_at",
    "recall_at",
    "render_agreement",
    "result_json_schema",
    "retrieval_correctness",
    "row_json_schema",
    "score_json",
    "score_names",
    "score_questions",
    "score_run",
    "value_keys",
    "with_intervals",
    "worst_table",
]

_HOMES: dict[str, str] = {
    "AGREEMENT_FORMATS": "scoring.agreement",
    "Agreement": "scoring.agreement",
    "AgreementInput": "scoring.agreement",
    "AgreementInputError": "scoring.agreement",
    "Chunk": "scoring.inputs",
    "ChunkMatch": "scoring.correctness",
    "Classification": "scoring.grades",
    "ConfigError": "scoring.correctness",
    "CorrectnessConfig": "scoring.correctness",
    "CorrectnessResult": "scoring.correctness",
    "CorrectnessRow": "scoring.correctness",
    "DEFAULT_KS": "scoring.score",
    "DEFAULT_PERMUTATIONS": "scoring.stats",
    "Diagnosis": "scoring.result",
    "DiagnosisKind": "scoring.result",
    "Estimate": "scoring.intervals",
    "Flags": "scoring.result",
    "GoldElement": "scoring.inputs",
    "GoldQuestion": "scoring.inputs",
    "Grade": "scoring.grades",
    "GroupMovement": "scoring.compare",
    "GroupScore": "scoring.result",
    "Interval": "scoring.intervals",
    "Judgement": "scoring.metrics",
    "METRIC_NAMES": "scoring.metrics",
    "MetricIntervals": "scoring.intervals",
    "Movement": "scoring.compare",
    "OverallAgreement": "scoring.agreement",
    "Pages": "scoring.inputs",
    "PairAgreement": "scoring.agreement",
    "MultiComparison": "scoring.multicompare",
    "PairedTest": "scoring.stats",
    "Placement": "scoring.inputs",
    "Placements": "scoring.inputs",
    "QueryDelta": "scoring.compare",
    "LayerScore": "scoring.result",
    "QueryScore": "scoring.result",
    "QuestionAgreement": "scoring.agreement",
    "QuestionOutline": "scoring.inputs",
    "RowError": "scoring.correctness",
    "Run": "scoring.inputs",
    "RunComparison": "scoring.compare",
    "RunScore": "scoring.result",
    "Span": "scoring.agreement",
    "SPAN_METRIC_NAMES": "scoring.spans",
    "Tokenizer": "scoring.budget",
    "budget_key": "scoring.budget",
    "score_names": "scoring.result",
    "value_keys": "scoring.result",
    "aggregate": "scoring.score",
    "bootstrap_mean_intervals": "scoring.bootstrap",
    "compare_runs": "scoring.compare",
    "compare_to_baseline": "scoring.multicompare",
    "comparison_table": "scoring.report",
    "config_json_schema": "scoring.correctness",
    "context_precision_at": "scoring.metrics",
    "gap_table": "scoring.report",
    "group_table": "scoring.report",
    "hit_at": "scoring.metrics",
    "key_lost_at": "scoring.metrics",
    "holm": "scoring.stats",
    "match_chunk": "scoring.correctness",
    "metric_key": "scoring.result",
    "metric_table_rows": "scoring.report",
    "metrics_at": "scoring.metrics",
    "mrr_at": "scoring.metrics",
    "n_gold_group": "scoring.result",
    "ndcg_at": "scoring.metrics",
    "paired_randomization_test": "scoring.stats",
    "partial_at": "scoring.metrics",
    "partial_recall_at": "scoring.metrics",
    "precision_at": "scoring.metrics",
    "recall_at": "scoring.metrics",
    "render_agreement": "scoring.agreement",
    "result_json_schema": "scoring.correctness",
    "retrieval_correctness": "scoring.correctness",
    "row_json_schema": "scoring.correctness",
    "score_json": "scoring.report",
    "score_questions": "scoring.score",
    "score_run": "scoring.score",
    "with_intervals": "scoring.bootstrap",
    "worst_table": "scoring.report",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
