"""Pure scoring of retrieval runs against exact-span gold sets (DESIGN §6).

Typical use::

    from scoring import Chunk, GoldElement, GoldQuestion, score_run, compare_runs

    result = score_run(questions, pages, run, ks=(1, 3, 5, 10), threshold=0.5,
                       gold_set="demo", run_name="bm25")
    result.to_dict()                 # Score JSON (DESIGN §5)
    compare_runs(result, other)      # per-question deltas and paired tests

Only the standard library is imported here; rapidfuzz is imported when retrieval
correctness is first computed and numpy (optional) only by large randomization tests.
"""

from __future__ import annotations

from scoring.classify import DEFAULT_THRESHOLD, PageIndex, classify
from scoring.compare import GroupMovement, Movement, QueryDelta, RunComparison, compare_runs
from scoring.correctness import (
    ChunkMatch,
    CorrectnessResult,
    CorrectnessRow,
    match_chunk,
    retrieval_correctness,
)
from scoring.correctness_config import ConfigError, CorrectnessConfig, RowError
from scoring.correctness_schema import config_json_schema, result_json_schema, row_json_schema
from scoring.grades import Classification, Grade
from scoring.inputs import Chunk, GoldElement, GoldQuestion, Pages, Run
from scoring.metrics import (
    METRIC_NAMES,
    Judgement,
    context_precision_at,
    hit_at,
    metrics_at,
    mrr_at,
    ndcg_at,
    partial_at,
    partial_recall_at,
    precision_at,
    recall_at,
)
from scoring.report import (
    comparison_table,
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
    QueryScore,
    RunScore,
    metric_key,
    n_gold_group,
)
from scoring.score import DEFAULT_KS, aggregate, score_questions, score_run
from scoring.stats import DEFAULT_PERMUTATIONS, PairedTest, paired_randomization_test

__all__ = [
    "DEFAULT_KS",
    "DEFAULT_PERMUTATIONS",
    "DEFAULT_THRESHOLD",
    "METRIC_NAMES",
    "Chunk",
    "ChunkMatch",
    "Classification",
    "ConfigError",
    "CorrectnessConfig",
    "CorrectnessResult",
    "CorrectnessRow",
    "Diagnosis",
    "DiagnosisKind",
    "Flags",
    "GoldElement",
    "GoldQuestion",
    "Grade",
    "GroupMovement",
    "GroupScore",
    "Judgement",
    "Movement",
    "PageIndex",
    "Pages",
    "PairedTest",
    "QueryDelta",
    "QueryScore",
    "RowError",
    "Run",
    "RunComparison",
    "RunScore",
    "aggregate",
    "classify",
    "compare_runs",
    "comparison_table",
    "config_json_schema",
    "context_precision_at",
    "group_table",
    "hit_at",
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
    "result_json_schema",
    "retrieval_correctness",
    "row_json_schema",
    "score_json",
    "score_questions",
    "score_run",
    "worst_table",
]
