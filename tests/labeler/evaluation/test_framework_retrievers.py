"""The frameworks' own retrievers scored as they are, with no glue: the real packages.

The demo's structure chunks (``labeler demo``: its gold set of 56 questions, 1,133 chunks of
68 pages, each with its offsets in its page) go, unchanged, as LangChain ``Document``s
(``metadata`` ``source`` and ``start_index``) into langchain-community's ``BM25Retriever``
and an ``InMemoryVectorStore`` over langchain-core's ``DeterministicFakeEmbedding``, and as
LlamaIndex ``TextNode``s (``start_char_idx``/``end_char_idx``) into llama-index's
``BM25Retriever`` and a ``VectorStoreIndex`` over its ``MockEmbedding``. Each object is
handed to ``GoldSet.evaluate`` and to ``labeler evaluate --retriever module:attr`` as it is.

What can be asserted honestly: every question answered, every result carrying the offsets
of the chunk it is (the chunk file's, not found again by its text), as many results as
asked for, a BM25 that finds most elements (hit@10 over 0.5: the bundled BM25 has 0.929
over these chunks, a retriever returning chunks at random about 0.15), and where two routes
return the same ranked chunks for a question, the same figures for it. The figures of the
three BM25s differ because their tokenizers and idf do (rank_bm25's Okapi idf, bm25s with
a stemmer), so no equality across them is claimed beyond that.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import labeler
from labeler.cli import main
from labeler.evaluation import bm25_retriever, tokenize
from labeler.formats.chunks_jsonl import read_chunks

if TYPE_CHECKING:
    from langchain_core.documents import Document
    from llama_index.core.schema import TextNode

# The frameworks are imported by the tests that use them, not at collection: importing them
# takes seconds, and every parallel worker collects this module while one runs its tests.

pytestmark = [
    pytest.mark.backends("sqlite"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),  # langchain-community's notice
]

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--no-tui", "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module")
def chunks(demo: Path) -> list[Any]:
    return list(read_chunks(demo / "structure-chunks.jsonl"))


@pytest.fixture
def gold(demo: Path) -> Iterator[Any]:
    with labeler.open(str(demo / "demo.db")) as db:
        yield db.gold_set("demo")


def langchain_bm25() -> Any:
    """langchain-community's ``BM25Retriever`` (the package says at import that it is sunset)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from langchain_community.retrievers import BM25Retriever

    return BM25Retriever


def llamaindex_bm25() -> Any:
    """llama-index's ``BM25Retriever``."""
    from llama_index.retrievers.bm25 import BM25Retriever

    return BM25Retriever


def documents(chunks: list[Any]) -> list[Document]:
    from langchain_core.documents import Document

    return [Document(c.text, metadata={"source": c.doc, "start_index": c.start}) for c in chunks]


def nodes(chunks: list[Any]) -> list[TextNode]:
    from llama_index.core.schema import TextNode

    return [
        TextNode(
            text=c.text, metadata={"source": c.doc}, start_char_idx=c.start, end_char_idx=c.end
        )
        for c in chunks
    ]


def _offsets_arrive(result: Any, chunks: list[Any], depth: int) -> None:
    """Every question answered with ``depth`` results, each at its chunk's own offsets."""
    where = {(c.doc, c.text): (c.start, c.end) for c in chunks}
    assert result.failures == ()
    assert len(result.answers.run) == 56
    for ranked in result.answers.run.values():
        assert len(ranked) == depth
        for chunk in ranked:
            assert chunk.start is not None and chunk.doc is not None
            assert (chunk.start, chunk.end) == where[(chunk.doc, chunk.text)]


def test_langchain_bm25_as_it_is(gold: Any, chunks: list[Any]) -> None:
    retriever = langchain_bm25().from_documents(documents(chunks), k=10)
    result = gold.evaluate(retriever)
    _offsets_arrive(result, chunks, 10)
    assert result.metrics["hit@10"] > 0.5
    assert result.retriever == "langchain_community.retrievers.bm25:BM25Retriever"


def test_llamaindex_bm25_as_it_is(gold: Any, chunks: list[Any]) -> None:
    retriever = llamaindex_bm25().from_defaults(nodes=nodes(chunks), similarity_top_k=10)
    result = gold.evaluate(retriever)
    _offsets_arrive(result, chunks, 10)
    assert result.metrics["hit@10"] > 0.5
    for ranked in result.answers.run.values():  # NodeWithScore keeps its score
        scores = [c.score for c in ranked]
        assert all(s is not None for s in scores) and scores == sorted(scores, reverse=True)


def _per_query(result: Any) -> dict[str, dict[str, float]]:
    return {q.query_id: dict(q.values) for q in result.per_query}


def _ranked(result: Any) -> dict[str, list[tuple[str | None, str | None]]]:
    return {qid: [(c.doc, c.text) for c in run] for qid, run in result.answers.run.items()}


def test_where_rankings_coincide_the_figures_are_equal(
    gold: Any, chunks: list[Any], demo: Path
) -> None:
    """LangChain's BM25 given the bundled BM25's tokenizer ranks many questions' chunks as
    the bundled one does; those questions score the same through both routes."""
    langchain = gold.evaluate(
        langchain_bm25().from_documents(documents(chunks), k=10, preprocess_func=tokenize)
    )
    bundled = gold.evaluate(bm25_retriever(demo / "structure-chunks.jsonl"))
    a, b = _ranked(langchain), _ranked(bundled)
    va, vb = _per_query(langchain), _per_query(bundled)
    for k in (1, 3, 5, 10):  # where the top k coincide, every figure at k is the same
        same = [q for q in a if a[q][:k] == b[q][:k]]
        assert len(same) >= 5  # 52, 35, 25 and 7 questions here; enough to mean something
        at_k = [m for m in va[same[0]] if m.endswith(f"@{k}")]
        assert at_k and all(va[q][m] == vb[q][m] for q in same for m in at_k)
    assert langchain.metrics["hit@10"] > 0.5


def test_a_langchain_vector_store_and_its_retriever(gold: Any, chunks: list[Any]) -> None:
    from langchain_core.embeddings import DeterministicFakeEmbedding
    from langchain_core.vectorstores import InMemoryVectorStore

    store = InMemoryVectorStore.from_documents(
        documents(chunks), DeterministicFakeEmbedding(size=16)
    )
    searched = gold.evaluate(store, k=(1, 3))  # similarity_search_with_score, k = 3
    _offsets_arrive(searched, chunks, 3)
    assert all(c.score is not None for run in searched.answers.run.values() for c in run)
    retrieved = gold.evaluate(store.as_retriever(search_kwargs={"k": 3}), k=(1, 3))  # invoke
    _offsets_arrive(retrieved, chunks, 3)
    assert _ranked(searched) == _ranked(retrieved)  # the same search, two methods
    assert _per_query(searched) == _per_query(retrieved)


def test_a_llamaindex_index_through_as_retriever(gold: Any, chunks: list[Any]) -> None:
    from llama_index.core import VectorStoreIndex
    from llama_index.core.embeddings import MockEmbedding

    index = VectorStoreIndex(nodes(chunks), embed_model=MockEmbedding(embed_dim=8))
    result = gold.evaluate(index)  # as_retriever(): LlamaIndex's own depth, 2
    _offsets_arrive(result, chunks, 2)


class AsyncOnly:
    """A retriever with ``ainvoke`` alone (LangChain's async interface)."""

    def __init__(self, retriever: Any) -> None:
        self.inner = retriever

    async def ainvoke(self, text: str) -> list[Document]:
        return await self.inner.ainvoke(text)  # type: ignore[no-any-return]


def test_an_async_only_retriever(gold: Any, chunks: list[Any]) -> None:
    retriever = langchain_bm25().from_documents(documents(chunks), k=10)
    sync = gold.evaluate(retriever)
    asynchronous = gold.evaluate(AsyncOnly(retriever), concurrency=4)
    _offsets_arrive(asynchronous, chunks, 10)
    assert asynchronous.metrics == sync.metrics


def test_cli_takes_the_framework_retrievers_as_they_are(
    demo: Path, chunks: list[Any], tmp_path: Path
) -> None:
    (tmp_path / "framework_retrievers.py").write_text(
        f"CHUNKS = {str(demo / 'structure-chunks.jsonl')!r}\n"
        + """
import json
from langchain_core.documents import Document
from langchain_community.retrievers import BM25Retriever as LangChainBM25
from llama_index.core.schema import TextNode
from llama_index.retrievers.bm25 import BM25Retriever as LlamaIndexBM25

lines = [json.loads(line) for line in open(CHUNKS, encoding="utf-8")]
langchain = LangChainBM25.from_documents(
    [Document(c["text"], metadata={"source": c["doc"], "start_index": c["start"]}) for c in lines],
    k=10,
)
llamaindex = LlamaIndexBM25.from_defaults(
    nodes=[
        TextNode(text=c["text"], metadata={"source": c["doc"]},
                 start_char_idx=c["start"], end_char_idx=c["end"])
        for c in lines
    ],
    similarity_top_k=10,
)
"""
    )
    for name in ("langchain", "llamaindex"):
        proc = subprocess.run(
            [sys.executable, "-W", "ignore::DeprecationWarning", "-m", "labeler", "evaluate",
             "--gold-set", "demo", "--db", str(demo / "demo.db"),
             "--retriever", f"framework_retrievers:{name}", "--format", "json",
             "--store-run", f"cli-{name}", "--replace"],
            capture_output=True, text=True, cwd=tmp_path, timeout=300,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        data = json.loads(proc.stdout)
        assert data["failures"] == [] and data["metrics"]["hit@10"] > 0.5
    with labeler.open(str(demo / "demo.db")) as db:
        gold = db.gold_set("demo")
        bm25 = llamaindex_bm25().from_defaults(nodes=nodes(chunks), similarity_top_k=10)
        api = gold.evaluate(bm25)
        stored = gold.score("cli-llamaindex")
        assert stored.metrics["hit@10"] == api.metrics["hit@10"]
