"""Cross-check against ranx on "document id" data (docs/metrics.md).

Each chunk is exactly one element's text (or a non-relevant token), every token is distinct
and no half of one token occurs in another, so classify gives Full for a chunk's own element
and None otherwise. Then hit, mrr, recall, precision and nDCG (graded, linear gain) must equal
ranx's hit_rate, mrr, recall, precision and ndcg. ranx's metrics are numba functions; they
run here as the Python they are written in (numba's ``DISABLE_JIT``), the same computation:
compiling them cost 26 s of CPU on a fresh checkout, where numba's cache is empty, and the
figures come out the same either way.
"""

from __future__ import annotations

import random
import string
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from scoring import Chunk, GoldElement, GoldQuestion, Run, score_run

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore")]

KS = [1, 2, 3, 5, 10, 20]
PAIRS = [
    ("hit", "hit_rate"),
    ("mrr", "mrr"),
    ("recall", "recall"),
    ("precision", "precision"),
    ("ndcg", "ndcg"),
]


@pytest.fixture(scope="module")
def ranx() -> Iterator[Any]:
    """ranx, imported with numba's JIT off (its functions stay Python, its typed containers
    plain dicts and lists); the setting is numba's again after the module."""
    numba_config = pytest.importorskip("numba.core.config")
    assert "ranx" not in sys.modules  # imported here, so every function under the setting
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NUMBA_DISABLE_JIT", "1")
        numba_config.reload_config()
        yield pytest.importorskip("ranx")
    numba_config.reload_config()


def _tokens(rng: random.Random, count: int) -> list[str]:
    seen: list[str] = []
    while len(seen) < count:
        token = "".join(rng.choice(string.ascii_letters) for _ in range(12))
        if all(token[:6] not in t and token[6:] not in t for t in seen) and all(
            t[:6] not in token and t[6:] not in token for t in seen
        ):
            seen.append(token)
    return seen


def document_id_case(
    seed: int, n_questions: int
) -> tuple[
    list[GoldQuestion], dict[str, str], Run, dict[str, dict[str, int]], dict[str, dict[str, float]]
]:
    rng = random.Random(seed)
    n_docs = 12
    per_doc = [rng.randint(3, 12) for _ in range(n_docs)]
    pool = _tokens(rng, sum(per_doc))
    docs: dict[str, list[str]] = {}
    at = 0
    for d, size in enumerate(per_doc):
        docs[f"doc{d}"] = pool[at : at + size]
        at += size
    pages = {doc: " ".join(tokens) for doc, tokens in docs.items()}
    questions: list[GoldQuestion] = []
    run: dict[str, list[Chunk]] = {}
    qrels: dict[str, dict[str, int]] = {}
    ranx_run: dict[str, dict[str, float]] = {}
    for q in range(n_questions):
        qid = f"q{q}"
        homes = rng.sample(sorted(docs), rng.choice([1, 1, 2]))
        candidates = [(doc, t) for doc in homes for t in docs[doc]]
        chosen = rng.sample(candidates, min(len(candidates), rng.randint(1, 5)))
        elements = tuple(GoldElement(doc, t, rng.randint(1, 3)) for doc, t in chosen)
        questions.append(GoldQuestion(qid, "?", elements))
        qrels[qid] = {e.text: e.grade for e in elements}
        noise = rng.sample(pool, rng.randint(0, 8))  # other tokens, possibly other pages
        ranked = list(dict.fromkeys([t for _, t in candidates] + noise))
        rng.shuffle(ranked)
        ranked = ranked[: rng.randint(1, 22)]
        run[qid] = [Chunk(t, score=float(len(ranked) - r)) for r, t in enumerate(ranked)]
        ranx_run[qid] = {t: float(len(ranked) - r) for r, t in enumerate(ranked)}
    return questions, pages, run, qrels, ranx_run


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_document_id_case_matches_ranx(ranx: Any, seed: int) -> None:
    questions, pages, run, qrels, ranx_run = document_id_case(seed, 150)
    ours = score_run(questions, pages, run, ks=KS)
    assert ours.flags.fallback > 0  # chunks from other pages go through rule 3 and miss
    r_qrels = ranx.Qrels(qrels)
    r_run = ranx.Run(ranx_run)
    metrics = [f"{theirs}@{k}" for _, theirs in PAIRS for k in KS]
    means = ranx.evaluate(r_qrels, r_run, metrics)
    for q in ours.queries:
        # document-id data: every relevant rank is a Full hit, so partial == hit
        for k in KS:
            assert q.value("partial", k) == q.value("hit", k)
            for name, theirs in PAIRS:
                expected = float(r_run.scores[f"{theirs}@{k}"][q.query_id])
                assert q.value(name, k) == pytest.approx(expected, abs=1e-12), (
                    q.query_id,
                    name,
                    k,
                )
    for k in KS:
        for name, theirs in PAIRS:
            assert ours.value(name, k) == pytest.approx(float(means[f"{theirs}@{k}"]), abs=1e-12)


def test_ranx_burges_ndcg_differs_from_linear(ranx: Any) -> None:
    # guard on the convention: with a grade-3 element, 2^rel − 1 ≠ rel
    questions, pages, run, qrels, ranx_run = document_id_case(7, 40)
    ours = score_run(questions, pages, run, ks=[10])
    burges = float(ranx.evaluate(ranx.Qrels(qrels), ranx.Run(ranx_run), "ndcg_burges@10"))
    linear = float(ranx.evaluate(ranx.Qrels(qrels), ranx.Run(ranx_run), "ndcg@10"))
    assert ours.value("ndcg", 10) == pytest.approx(linear, abs=1e-12)
    assert burges != pytest.approx(linear, abs=1e-6)
