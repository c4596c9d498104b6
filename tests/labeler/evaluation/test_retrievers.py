"""Retrievers called in the loop (``GoldSet.evaluate``, ``labeler evaluate``) on both backends.

The gold set: three questions, one element each (a sentence of a bundled page). Each test
retriever answers every question with ``[noise, the element's sentence]``, so by hand:
hit@1 = 0, hit@2 = 1, mrr@2 = 1/2 for an answered question, and 0 for a failed one.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import labeler
from labeler.cli import main
from labeler.evaluation import RetrieverError, takes_id
from labeler.extract import page_text
from labeler.store import open_store

pytestmark = pytest.mark.backends("sqlite", "postgresql")

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
PAGES = ("wal.html", "foreignkeys.html")
NOISE = "This chunk answers nothing at all."
REPO = Path(__file__).resolve().parents[3]


def _sentences() -> list[tuple[str, str]]:
    """(doc, sentence) for three sentences that occur once on their page."""
    picked = []
    for doc in PAGES:
        text = page_text((CORPUS / doc).read_bytes())
        for m in re.finditer(r"[A-Z][^.]{40,120}\.", text):
            if text.count(m.group()) == 1:
                picked.append((doc, m.group()))
                break
    text = page_text((CORPUS / PAGES[0]).read_bytes())
    found = [m.group() for m in re.finditer(r"[A-Z][^.]{40,120}\.", text)]
    picked.append((PAGES[0], next(s for s in found[5:] if text.count(s) == 1)))
    return picked


ELEMENTS = _sentences()
QUESTIONS = {f"q{i}": f"question {i}?" for i in (1, 2, 3)}
ANSWER = {text: ELEMENTS[i][1] for i, text in enumerate(QUESTIONS.values())}
SOURCE = {text: ELEMENTS[i][0] for i, text in enumerate(QUESTIONS.values())}


def seed_gold(folder: Path, db_url: str) -> None:
    """The two pages ingested and the three questions imported as gold set ``g``."""
    open_store(db_url).close()
    docs = folder / "docs"
    docs.mkdir()
    for name in PAGES:
        (docs / name).write_bytes((CORPUS / name).read_bytes())
    assert main(["ingest", str(docs), "--db", db_url, "-q"]) == 0
    gold = folder / "gold.jsonl"
    lines = [
        {"query_id": qid, "query": text, "elements": [{"doc": doc, "text": sentence}]}
        for (qid, text), (doc, sentence) in zip(QUESTIONS.items(), ELEMENTS, strict=True)
    ]
    gold.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db_url]) == 0


@pytest.fixture
def db_url(seeded_db: Callable[[str, Callable[[Path, str], object]], str]) -> str:
    """A copy of the database :func:`seed_gold` filled once per test process and backend
    (the fixtures ``db_url`` and ``db``, shared with the other retriever test modules)."""
    return seeded_db("retrievers-gold", seed_gold)


@pytest.fixture
def db(db_url: str) -> Iterator[labeler.api.Database]:
    with labeler.open(db_url) as database:
        yield database


# --- result shapes, as the frameworks make them (no framework imported) -----------------


class Document:  # LangChain's Document
    def __init__(self, page_content: str, metadata: dict[str, Any]) -> None:
        self.page_content = page_content
        self.metadata = metadata


class TextNode:  # LlamaIndex's TextNode
    def __init__(self, text: str, metadata: dict[str, Any]) -> None:
        self.text = text
        self.metadata = metadata

    def get_content(self) -> str:
        return self.text


class ContentNode:  # a node with get_content() only
    def __init__(self, text: str) -> None:
        self._text = text
        self.metadata: dict[str, Any] = {}

    def get_content(self) -> str:
        return self._text


class NodeWithScore:  # LlamaIndex's NodeWithScore
    def __init__(self, node: Any, score: float) -> None:
        self.node = node
        self.score = score


SHAPES: dict[str, Any] = {
    "strings": lambda t, d: t,
    "text-mapping": lambda t, d: {"text": t, "doc": d, "score": 2.5},
    "page-content-mapping": lambda t, d: {"page_content": t, "metadata": {"source": d}},
    "langchain-document": lambda t, d: Document(t, {"source": d}),
    "langchain-with-score": lambda t, d: (Document(t, {"source": d}), 2.5),
    "llamaindex-node": lambda t, d: TextNode(t, {"source": d}),
    "llamaindex-get-content": lambda t, d: ContentNode(t),
    "llamaindex-node-with-score": lambda t, d: NodeWithScore(TextNode(t, {"source": d}), 2.5),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_each_result_shape_scores_as_plain_strings(db: Any, shape: str) -> None:
    make = SHAPES[shape]

    def retrieve(text: str) -> list[Any]:
        return [make(NOISE, "none.html"), make(ANSWER[text], SOURCE[text])]

    gold = db.gold_set("g")
    result = gold.evaluate(retrieve, k=(1, 2), store_run=f"run-{shape}", label="x")
    # hand-worked: the element is at rank 2 for every question
    assert result.metrics["hit@1"] == 0.0
    assert result.metrics["hit@2"] == 1.0
    assert result.metrics["mrr@2"] == 0.5
    plain = {qid: [NOISE, ANSWER[text]] for qid, text in QUESTIONS.items()}
    expected = gold.score(plain, k=(1, 2), name=f"run-{shape}").to_dict()
    data = result.to_dict()
    assert (data.pop("retriever"), data.pop("failures")) == ("x", [])
    assert data.pop("latency")["questions"] == 3
    assert json.dumps(data) == json.dumps(expected)
    # stored with the docs and scores the shape carries
    stored = gold.score(f"run-{shape}", k=(1, 2)).to_dict()
    assert json.dumps(stored) == json.dumps(expected)
    with db.store.session() as session:
        from labeler.store.run_table import get_run, run_rows

        rows = run_rows(session, get_run(session, f"run-{shape}"))
    has_doc = shape not in ("strings", "llamaindex-get-content")
    has_score = shape.endswith("score") or shape == "text-mapping"
    assert rows["q1"][1][:3] == (
        ANSWER[QUESTIONS["q1"]],
        SOURCE[QUESTIONS["q1"]] if has_doc else None,
        2.5 if has_score else None,
    )


def test_a_coroutine_retriever_is_awaited_concurrency_at_a_time(db: Any) -> None:
    state = {"now": 0, "most": 0}
    seen: list[str] = []

    async def retrieve(text: str, query_id: str) -> list[str]:
        seen.append(query_id)
        state["now"] += 1
        state["most"] = max(state["most"], state["now"])
        await asyncio.sleep(0.05)  # every call in flight waits here
        state["now"] -= 1
        return [NOISE, ANSWER[text]]

    assert takes_id(retrieve)
    result = db.gold_set("g").evaluate(retrieve, k=(1, 2), concurrency=2)
    assert state["most"] == 2  # three questions, two at a time
    assert sorted(seen) == sorted(QUESTIONS)
    assert result.metrics["hit@2"] == 1.0
    state["most"] = 0
    db.gold_set("g").evaluate(retrieve, k=(1, 2), concurrency=1)
    assert state["most"] == 1


def test_plain_functions_run_concurrently_in_threads(db: Any) -> None:
    barrier = threading.Barrier(3, timeout=30)  # passes only when three calls overlap

    def retrieve(text: str) -> list[str]:
        barrier.wait()
        return [NOISE, ANSWER[text]]

    result = db.gold_set("g").evaluate(retrieve, k=(1, 2), concurrency=3)
    assert result.failures == ()
    assert result.metrics["hit@2"] == 1.0


def test_a_raising_question_is_failed_and_scored_as_missing(db: Any) -> None:
    def retrieve(text: str) -> list[str]:
        if text == QUESTIONS["q2"]:
            raise ValueError("index offline")
        return [NOISE, ANSWER[text]]

    gold = db.gold_set("g")
    result = gold.evaluate(retrieve, k=(1, 2), label="r")
    (failure,) = result.failures
    assert (failure.query_id, failure.error) == ("q2", "ValueError: index offline")
    data = result.to_dict()
    assert data["missing_from_run"] == {"count": 1, "query_ids": ["q2"]}
    assert data["metrics"]["hit@2"] == pytest.approx(2 / 3)  # q1, q3 hit; q2 scores 0
    assert data["failures"] == [failure.to_dict()]
    assert data["latency"]["questions"] == 2
    without_q2 = {q: [NOISE, ANSWER[t]] for q, t in QUESTIONS.items() if q != "q2"}
    expected = gold.score(without_q2, k=(1, 2), name="r").to_dict()
    assert {k: v for k, v in data.items() if k not in ("retriever", "failures", "latency")} == (
        expected
    )
    frame = result.to_pandas()
    assert frame["error"].isna().tolist() == [True, False, True]
    assert frame["error"][1] == "ValueError: index offline"
    assert frame["seconds"].isna().tolist() == [False, True, False]
    with pytest.raises(RetrieverError, match=r"question 'q2': ValueError: index offline"):
        gold.evaluate(retrieve, fail_fast=True)


def test_unreadable_results_fail_their_question(db: Any) -> None:
    def retrieve(text: str) -> Any:
        return None if text == QUESTIONS["q1"] else [42]

    result = db.gold_set("g").evaluate(retrieve)
    assert [(f.query_id, f.error) for f in result.failures] == [
        ("q1", "unreadable results: expected a list of results, got None"),
        (
            "q2",
            "unreadable results: result 1: a result of type int is none of: a string, "
            "a mapping with 'text' or 'page_content', an object with 'page_content', 'text', "
            "'get_content()' or a 'node' holding one",
        ),
        (
            "q3",
            "unreadable results: result 1: a result of type int is none of: a string, "
            "a mapping with 'text' or 'page_content', an object with 'page_content', 'text', "
            "'get_content()' or a 'node' holding one",
        ),
    ]


def test_hanging_retrievers_time_out(db: Any) -> None:
    release = threading.Event()

    def blocking(text: str) -> list[str]:
        if text == QUESTIONS["q2"]:
            release.wait(600)  # hangs until the test ends
        return [NOISE, ANSWER[text]]

    async def sleeping(text: str) -> list[str]:
        if text == QUESTIONS["q3"]:
            await asyncio.sleep(3600)
        return [NOISE, ANSWER[text]]

    try:
        gold = db.gold_set("g")
        result = gold.evaluate(blocking, k=(1, 2), timeout=0.3)
        assert [(f.query_id, f.error) for f in result.failures] == [("q2", "timed out after 0.3 s")]
        assert result.to_dict()["missing_from_run"]["query_ids"] == ["q2"]
        result = gold.evaluate(sleeping, k=(1, 2), timeout=0.3, concurrency=3)
        assert [(f.query_id, f.error) for f in result.failures] == [("q3", "timed out after 0.3 s")]
        assert result.metrics["hit@2"] == pytest.approx(2 / 3)
    finally:
        release.set()


def test_evaluate_from_inside_a_running_event_loop(db: Any) -> None:
    """A notebook runs an event loop; evaluate still works there."""

    async def notebook_cell() -> Any:
        return db.gold_set("g").evaluate(lambda t: [ANSWER[t]], k=(1,))

    assert asyncio.run(notebook_cell()).metrics["hit@1"] == 1.0


# --- the command line ------------------------------------------------------------------

RETRIEVER_MODULE = f"""
import asyncio, time
ANSWER = {ANSWER!r}
SOURCE = {SOURCE!r}

def retrieve(text, query_id):
    if query_id == "q2":
        raise RuntimeError("backend down")
    return [{{"text": {NOISE!r}}}, {{"text": ANSWER[text], "doc": SOURCE[text], "score": 1.5}}]

async def hang(text):
    await asyncio.sleep(3600)

def make(prefix):
    return lambda text: [prefix + ANSWER[text]]
"""


def _cli(tmp_path: Path, db_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "my_retrievers.py").write_text(RETRIEVER_MODULE)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "labeler", "evaluate", "--gold-set", "g", "--db", db_url, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
    )


def test_cli_json_is_the_score_json_plus_failures_and_latency(
    db: Any, db_url: str, tmp_path: Path
) -> None:
    proc = _cli(
        tmp_path,
        db_url,
        "--retriever",
        "my_retrievers:retrieve",
        "--k",
        "1,2",
        "--format",
        "json",
        "--store-run",
        "loop",
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["retriever"] == "my_retrievers:retrieve"
    assert [(f["query_id"], f["error"]) for f in data.pop("failures")] == [
        ("q2", "RuntimeError: backend down")
    ]
    latency = data.pop("latency")
    assert latency["questions"] == 2 and 0 <= latency["p50"] <= latency["p95"] <= latency["max"]
    del data["retriever"]
    assert "1 question(s) failed and scored 0 (first: q2: RuntimeError: backend down)" in (
        proc.stderr
    )
    out = tmp_path / "score.json"
    assert (
        main(
            [
                "score",
                "--gold-set",
                "g",
                "--run",
                "loop",
                "--k",
                "1,2",
                "--db",
                db_url,
                "--format",
                "json",
                "-o",
                str(out),
                "--ci",
                "0",  # evaluate prints no bootstrap intervals
            ]
        )
        == 0
    )
    assert json.loads(out.read_text()) == data  # the stored run scores the same
    assert data["missing_from_run"]["query_ids"] == ["q2"]
    (run,) = [r for r in db.runs() if r.name == "loop"]
    assert (run.queries, run.results) == (2, 4)


def test_cli_table_timeout_fail_fast_and_factory(db: Any, db_url: str, tmp_path: Path) -> None:
    proc = _cli(
        tmp_path,
        db_url,
        "--retriever",
        "my_retrievers:hang",
        "--timeout",
        "0.2",
        "--concurrency",
        "3",
    )
    assert proc.returncode == 0, proc.stderr
    assert "Failed questions (3, scored 0)" in proc.stdout
    assert "timed out after 0.2 s" in proc.stdout
    assert "Latency of my_retrievers:hang" in proc.stdout
    proc = _cli(tmp_path, db_url, "--retriever", "my_retrievers:retrieve", "--fail-fast")
    assert proc.returncode == 1
    assert proc.stderr.strip().endswith(
        "question 'q2': RuntimeError: backend down (stopped: --fail-fast)"
    )
    assert "Traceback" not in proc.stderr
    proc = _cli(
        tmp_path,
        db_url,
        "--retriever",
        "my_retrievers:make",
        "--retriever-arg",
        "prefix=",
        "--format",
        "json",
        "--k",
        "1",
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["metrics"]["hit@1"] == 1.0
    proc = _cli(tmp_path, db_url, "--retriever", "my_retrievers:nope")
    assert proc.returncode == 2
    assert "--retriever my_retrievers:nope: 'my_retrievers' has no 'nope'" in proc.stderr
    proc = _cli(
        tmp_path,
        db_url,
        "--retriever",
        "my_retrievers:retrieve",
        "--store-run",
        "x",
        "--timeout",
        "0",
    )
    assert proc.returncode == 2 and "positive number of seconds" in proc.stderr


def test_bm25_retriever_as_a_real_one(db: Any, tmp_path: Path) -> None:
    """The bundled BM25 retriever over a chunk file of the pages: a question made of its
    element's words finds it first."""
    from labeler.evaluation import bm25_retriever

    chunks = tmp_path / "chunks.jsonl"
    assert main(["chunks", "make", "--chunker", "structure", "--db", db.db, "-o", str(chunks)]) == 0
    retriever = bm25_retriever(chunks, k="5")
    words = {qid: ANSWER[text] for qid, text in QUESTIONS.items()}

    def by_element_words(text: str, query_id: str) -> Any:
        return retriever(words[query_id])

    result = db.gold_set("g").evaluate(by_element_words, k=(1, 5))
    assert result.failures == ()
    assert result.metrics["partial@5"] == 1.0
    assert all(len(q.judgement.grades) <= 5 for q in result.per_query)


@pytest.mark.backends("sqlite")
def test_cli_factory_failures_are_one_line(db: Any, db_url: str, tmp_path: Path) -> None:
    proc = _cli(tmp_path, db_url, "--retriever", "my_retrievers:make", "--retriever-arg",
                "nope=1")  # fmt: skip
    assert proc.returncode == 2
    assert "--retriever my_retrievers:make: making the retriever failed: TypeError:" in (
        proc.stderr
    )
    proc = _cli(tmp_path, db_url, "--retriever", "labeler.evaluation:bm25_retriever",
                "--retriever-arg", "chunks=missing.jsonl")  # fmt: skip
    assert proc.returncode == 1
    assert "missing.jsonl" in proc.stderr and "Traceback" not in proc.stderr
