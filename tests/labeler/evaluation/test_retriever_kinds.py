"""What stands for a retriever as it is, recognised by its methods (the frameworks' own
classes are in test_framework_retrievers.py), what is refused at once, and the offsets the
results carry.

The gold set is test_retrievers.py's: each retriever answers ``[noise, the element's
sentence]``, so by hand hit@1 = 0 and hit@2 = 1.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_retrievers import ANSWER, NOISE, QUESTIONS, SOURCE, Document, seed_gold

import labeler
from labeler.errors import UsageError
from labeler.extract import page_text

pytestmark = pytest.mark.backends("sqlite")


@pytest.fixture
def db_url(seeded_db: Callable[[str, Callable[[Path, str], object]], str]) -> str:
    """A copy of the database ``seed_gold`` filled once per test process."""
    return seeded_db("retrievers-gold", seed_gold)


@pytest.fixture
def db(db_url: str) -> Iterator[labeler.api.Database]:
    with labeler.open(db_url) as database:
        yield database


REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO / "corpora" / "sqlite-docs"


def answer(text: str) -> list[Any]:
    return [NOISE, {"text": ANSWER[text], "doc": SOURCE[text]}]


def refuse(*_: Any, **__: Any) -> Any:
    raise AssertionError("the wrong method was called")


class Invoke:  # a LangChain retriever or runnable
    def invoke(self, text: str) -> list[Any]:
        return answer(text)

    ainvoke = refuse  # the sync method is preferred


class AInvokeOnly:
    async def ainvoke(self, text: str) -> list[Any]:
        return answer(text)


class Retrieve:  # a LlamaIndex retriever
    def retrieve(self, text: str) -> list[Any]:
        return answer(text)


class ARetrieveOnly:
    async def aretrieve(self, text: str) -> list[Any]:
        return answer(text)


class Store:  # a LangChain vector store
    def __init__(self) -> None:
        self.asked: list[int] = []

    def similarity_search_with_score(self, text: str, k: int = 4) -> list[Any]:
        self.asked.append(k)
        return [(Document(t["text"] if isinstance(t, dict) else t, {}), 1.0) for t in answer(text)]

    as_retriever = refuse


class Index:  # a LlamaIndex index
    def as_retriever(self) -> Retrieve:
        return Retrieve()


class Everything:  # invoke comes first
    def invoke(self, text: str) -> list[Any]:
        return answer(text)

    retrieve = refuse
    similarity_search_with_score = refuse
    as_retriever = refuse
    __call__ = refuse


KINDS: dict[str, Any] = {
    "invoke": Invoke,
    "ainvoke-only": AInvokeOnly,
    "retrieve": Retrieve,
    "aretrieve-only": ARetrieveOnly,
    "similarity-search-with-score": Store,
    "as-retriever": Index,
    "several-methods": Everything,
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_is_asked_as_it_is(db: Any, kind: str) -> None:
    result = db.gold_set("g").evaluate(KINDS[kind](), k=(1, 2))
    assert result.failures == ()
    assert (result.metrics["hit@1"], result.metrics["hit@2"]) == (0.0, 1.0)


def test_a_vector_store_is_asked_for_the_deepest_cut_off(db: Any) -> None:
    store = Store()
    db.gold_set("g").evaluate(store, k=(1, 2))
    assert store.asked == [2, 2, 2]
    store.asked.clear()
    db.gold_set("g").evaluate(store)  # cut-offs 1, 3, 5, 10
    assert store.asked == [10, 10, 10]


class Rubbish:
    invoke = "not a method"


class MakesRubbish:
    def as_retriever(self) -> object:
        return object()


@pytest.mark.parametrize("thing", [object(), 42, Rubbish(), MakesRubbish()])
def test_anything_else_is_refused_before_any_question(db: Any, thing: Any) -> None:
    with pytest.raises(UsageError) as caught:
        db.gold_set("g").evaluate(thing)
    message = str(caught.value)
    assert message.startswith("retriever ")
    if isinstance(thing, MakesRubbish):
        assert "as_retriever() returned a object, which has no invoke/ainvoke" in message
    else:
        assert f"a {type(thing).__name__} is not a retriever; accepted: a callable" in message
        assert "invoke/ainvoke" in message and "as_retriever()" in message


MODULE = f"""
ANSWER = {ANSWER!r}
SOURCE = {SOURCE!r}
calls = []

class Retriever:
    def invoke(self, text):
        return [{{"text": ANSWER[text], "doc": SOURCE[text]}}]

retriever = Retriever()
nothing = object()

def make(kind):
    return Retriever() if kind == "good" else object()
"""


def _cli(tmp_path: Path, db_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "kinds.py").write_text(MODULE)
    return subprocess.run(
        [sys.executable, "-m", "labeler", "evaluate", "--gold-set", "g", "--db", db_url, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )


def test_cli_takes_an_object_as_it_is_and_refuses_anything_else(
    db: Any, db_url: str, tmp_path: Path
) -> None:
    import json

    proc = _cli(tmp_path, db_url, "--retriever", "kinds:retriever", "--k", "1", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["metrics"]["hit@1"] == 1.0
    proc = _cli(tmp_path, db_url, "--retriever", "kinds:make", "--retriever-arg", "kind=good",
                "--k", "1", "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["metrics"]["hit@1"] == 1.0
    for args in (["kinds:nothing"], ["kinds:make", "--retriever-arg", "kind=bad"]):
        proc = _cli(tmp_path, db_url, "--retriever", *args)
        assert proc.returncode == 2, proc.stderr
        assert "is not a retriever; accepted: a callable" in proc.stderr
        assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_no_framework_is_imported_by_the_labeller(db: Any, db_url: str, tmp_path: Path) -> None:
    """The adapters recognise methods; they never import LangChain or LlamaIndex (both are
    installed here, so an import anywhere on the evaluate path would show in sys.modules)."""
    (tmp_path / "kinds.py").write_text(MODULE)
    code = (
        "import sys, labeler, kinds\n"
        f"db = labeler.open({db_url!r})\n"
        "result = db.gold_set('g').evaluate(kinds.retriever, k=(1,))\n"
        "print(result.metrics['hit@1'])\n"
        "print(sorted(m.split('.')[0] for m in sys.modules\n"
        "             if m.split('.')[0] in ('langchain', 'langchain_core', 'llama_index')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=120, check=True,
    )  # fmt: skip
    assert out.stdout.splitlines() == ["1.0", "[]"]


# --- offsets --------------------------------------------------------------------------


class TextNode:  # LlamaIndex's TextNode with its offsets
    def __init__(self, text: str, metadata: dict[str, Any], start: int, end: int) -> None:
        self.text, self.metadata = text, metadata
        self.start_char_idx, self.end_char_idx = start, end


class NodeWithScore:
    def __init__(self, node: Any, score: float) -> None:
        self.node, self.score = node, score


def _where(text: str) -> tuple[str, int, int]:
    doc = SOURCE[text]
    start = page_text((CORPUS / doc).read_bytes()).index(ANSWER[text])
    return doc, start, start + len(ANSWER[text])


def test_offsets_of_langchain_documents_and_llamaindex_nodes_arrive(db: Any) -> None:
    def langchain(text: str) -> list[Any]:
        doc, start, _ = _where(text)
        return [(Document(ANSWER[text], {"source": doc, "start_index": start}), 0.5)]

    def llamaindex(text: str) -> list[Any]:
        doc, start, end = _where(text)
        return [NodeWithScore(TextNode(ANSWER[text], {"source": doc}, start, end), 0.5)]

    for retriever in (langchain, llamaindex):
        result = db.gold_set("g").evaluate(retriever, k=(1,))
        assert result.failures == ()
        for qid, text in QUESTIONS.items():
            doc, start, end = _where(text)
            assert result.answers.run[qid] == [(ANSWER[text], doc, 0.5, start, end)]
        assert result.metrics["hit@1"] == 1.0


def test_offsets_without_a_document_id_fail_the_question(db: Any) -> None:
    def retriever(text: str) -> list[Any]:
        return [Document(ANSWER[text], {"start_index": 7})]

    result = db.gold_set("g").evaluate(retriever, k=(1,))
    assert [(f.query_id, f.error) for f in result.failures] == [
        (
            qid,
            f"unreadable results: result 1: offsets 7..{7 + len(ANSWER[text])} without a "
            "document id ('doc' or metadata['source']): offsets into which page?",
        )
        for qid, text in QUESTIONS.items()
    ]


def test_unreadable_offsets_fail_the_question(db: Any) -> None:
    def retriever(text: str) -> list[Any]:
        return [{"text": ANSWER[text], "doc": SOURCE[text], "start": 3}]

    result = db.gold_set("g").evaluate(retriever, k=(1,))
    assert {f.error for f in result.failures} == {
        "unreadable results: result 1: 'start' is given without 'end'"
    }
