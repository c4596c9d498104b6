"""Scoring in place: gold set, pages and a stored or in-memory run scored with :mod:`scoring`
through one entry point (:class:`ScoreRequest` and :func:`score`, which every front end
calls); the retrievers called in the loop, the BM25 baseline, ranked results in the shapes
pipelines produce, and scoring in several processes.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.evaluation._bm25 import (
        K1,
        STOPWORDS,
        B,
        BM25Index,
        BM25Retriever,
        Question,
        bm25_retriever,
        build_index,
        retrieve,
        run_lines,
        scores,
        tokenize,
        write_run,
    )
    from labeler.evaluation._entry import (
        IN_MEMORY,
        Intervals,
        QualityGateError,
        Scored,
        ScoreInputs,
        ScoreRequest,
        UnknownMetricError,
        compare,
        compare_many,
        evaluate,
        evaluate_in_memory,
        open_source,
        reading,
        runs_to_score,
        score,
        single_threaded_blas,
    )
    from labeler.evaluation._evaluate import (
        DEFAULT_KS,
        Evaluation,
        GateFailure,
        GoldLoad,
        ScoringSource,
        StoreSource,
        load_gold,
        load_gold_layer,
        load_run,
        per_query_frame,
    )
    from labeler.evaluation._gcpause import (
        gc_paused,
    )
    from labeler.evaluation._judged_at_k import (
        JudgedAtK,
        judged_of,
    )
    from labeler.evaluation._results import (
        ResultShapeError,
        run_from_mapping,
        to_chunk,
        to_chunks,
    )
    from labeler.evaluation._retrievers import (
        MAX_RESULTS,
        Answers,
        Failure,
        Latency,
        Retriever,
        RetrieverError,
        call_retriever,
        load_retriever,
        retriever_label,
        takes_id,
    )
    from labeler.evaluation._shards import (
        MIN_QUESTIONS_PER_PROCESS,
        Shard,
        ShardResult,
        plan_processes,
        score_in_processes,
        split_ids,
    )
    from labeler.workers import usable_cpus

_HOMES: dict[str, str] = {
    "Answers": "labeler.evaluation._retrievers",
    "B": "labeler.evaluation._bm25",
    "BM25Index": "labeler.evaluation._bm25",
    "BM25Retriever": "labeler.evaluation._bm25",
    "DEFAULT_KS": "labeler.evaluation._evaluate",
    "Evaluation": "labeler.evaluation._evaluate",
    "Failure": "labeler.evaluation._retrievers",
    "GateFailure": "labeler.evaluation._evaluate",
    "GoldLoad": "labeler.evaluation._evaluate",
    "IN_MEMORY": "labeler.evaluation._entry",
    "Intervals": "labeler.evaluation._entry",
    "JudgedAtK": "labeler.evaluation._judged_at_k",
    "K1": "labeler.evaluation._bm25",
    "Latency": "labeler.evaluation._retrievers",
    "MAX_RESULTS": "labeler.evaluation._retrievers",
    "MIN_QUESTIONS_PER_PROCESS": "labeler.evaluation._shards",
    "QualityGateError": "labeler.evaluation._entry",
    "Question": "labeler.evaluation._bm25",
    "ResultShapeError": "labeler.evaluation._results",
    "Retriever": "labeler.evaluation._retrievers",
    "RetrieverError": "labeler.evaluation._retrievers",
    "STOPWORDS": "labeler.evaluation._bm25",
    "ScoreInputs": "labeler.evaluation._entry",
    "ScoreRequest": "labeler.evaluation._entry",
    "Scored": "labeler.evaluation._entry",
    "ScoringSource": "labeler.evaluation._evaluate",
    "Shard": "labeler.evaluation._shards",
    "ShardResult": "labeler.evaluation._shards",
    "StoreSource": "labeler.evaluation._evaluate",
    "UnknownMetricError": "labeler.evaluation._entry",
    "bm25_retriever": "labeler.evaluation._bm25",
    "build_index": "labeler.evaluation._bm25",
    "call_retriever": "labeler.evaluation._retrievers",
    "compare": "labeler.evaluation._entry",
    "compare_many": "labeler.evaluation._entry",
    "evaluate": "labeler.evaluation._entry",
    "evaluate_in_memory": "labeler.evaluation._entry",
    "gc_paused": "labeler.evaluation._gcpause",
    "judged_of": "labeler.evaluation._judged_at_k",
    "load_gold": "labeler.evaluation._evaluate",
    "load_gold_layer": "labeler.evaluation._evaluate",
    "load_retriever": "labeler.evaluation._retrievers",
    "load_run": "labeler.evaluation._evaluate",
    "open_source": "labeler.evaluation._entry",
    "per_query_frame": "labeler.evaluation._evaluate",
    "plan_processes": "labeler.evaluation._shards",
    "reading": "labeler.evaluation._entry",
    "retrieve": "labeler.evaluation._bm25",
    "retriever_label": "labeler.evaluation._retrievers",
    "run_from_mapping": "labeler.evaluation._results",
    "run_lines": "labeler.evaluation._bm25",
    "runs_to_score": "labeler.evaluation._entry",
    "score": "labeler.evaluation._entry",
    "score_in_processes": "labeler.evaluation._shards",
    "scores": "labeler.evaluation._bm25",
    "single_threaded_blas": "labeler.evaluation._entry",
    "split_ids": "labeler.evaluation._shards",
    "takes_id": "labeler.evaluation._retrievers",
    "to_chunk": "labeler.evaluation._results",
    "to_chunks": "labeler.evaluation._results",
    "tokenize": "labeler.evaluation._bm25",
    "usable_cpus": "labeler.workers",
    "write_run": "labeler.evaluation._bm25",
}

__all__ = [
    "DEFAULT_KS",
    "IN_MEMORY",
    "K1",
    "MAX_RESULTS",
    "MIN_QUESTIONS_PER_PROCESS",
    "STOPWORDS",
    "Answers",
    "B",
    "BM25Index",
    "BM25Retriever",
    "Evaluation",
    "Failure",
    "GateFailure",
    "GoldLoad",
    "Intervals",
    "JudgedAtK",
    "Latency",
    "QualityGateError",
    "Question",
    "ResultShapeError",
    "Retriever",
    "RetrieverError",
    "ScoreInputs",
    "ScoreRequest",
    "Scored",
    "ScoringSource",
    "Shard",
    "ShardResult",
    "StoreSource",
    "UnknownMetricError",
    "bm25_retriever",
    "build_index",
    "call_retriever",
    "compare",
    "compare_many",
    "evaluate",
    "evaluate_in_memory",
    "gc_paused",
    "judged_of",
    "load_gold",
    "load_gold_layer",
    "load_retriever",
    "load_run",
    "open_source",
    "per_query_frame",
    "plan_processes",
    "reading",
    "retrieve",
    "retriever_label",
    "run_from_mapping",
    "run_lines",
    "runs_to_score",
    "score",
    "score_in_processes",
    "scores",
    "single_threaded_blas",
    "split_ids",
    "takes_id",
    "to_chunk",
    "to_chunks",
    "tokenize",
    "usable_cpus",
    "write_run",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.evaluation' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
