"""Offsets kept from the chunker to the export: chunks make → BM25 run → import → export.

The page repeats a paragraph; the element is its second copy. BM25 ranks the two copies
alike and keeps chunk-file order, so the first copy is rank 1 and the second rank 2: with
the offsets kept, span recall is 0 at k = 1 and 1 at k = 3 (worked out by hand); placed by
their text, both copies would sit on the first and cover nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from labeler.cli import main
from labeler.evaluation import bm25_retriever, write_run

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PARAGRAPHS = [
    "Alpha opens the page.",
    "Beta repeats itself here.",
    "Gamma sits between.",
    "Beta repeats itself here.",
    "Delta closes the page.",
]
PAGE = "\n\n".join(PARAGRAPHS)
SECOND = PAGE.rindex(PARAGRAPHS[1])  # 23 + 25 + 2 + 19 + 2 = 71


@dataclass(frozen=True)
class Asked:
    query_id: str
    query: str


def lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture()
def page_db(db_url: str, tmp_path: Path) -> str:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "p.txt").write_text(PAGE, encoding="utf-8")
    assert main(["ingest", str(docs), "--db", db_url, "-q"]) == 0
    element = {
        "doc": "p.txt",
        "start": SECOND,
        "end": SECOND + len(PARAGRAPHS[1]),
        "text": PARAGRAPHS[1],
    }
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"query_id": "q", "query": "beta repeats", "elements": [element]}))
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db_url]) == 0
    return db_url


def test_the_hand_worked_page() -> None:
    assert SECOND == 71
    assert PAGE[SECOND : SECOND + 25] == PARAGRAPHS[1]
    assert PAGE.index(PARAGRAPHS[1]) == 23


def test_chunks_make_to_bm25_run_to_import_to_export_keeps_offsets(
    page_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chunk_file = tmp_path / "chunks.jsonl"
    args = ["chunks", "make", "--chunker", "structure", "--max-chars", "30"]
    assert main([*args, "-o", str(chunk_file), "--db", page_db]) == 0
    made = {(c["doc"], c["start"], c["end"]): c["text"] for c in lines(chunk_file)}
    assert made[("p.txt", 23, 48)] == made[("p.txt", SECOND, SECOND + 25)] == PARAGRAPHS[1]
    run_file = tmp_path / "bm25.jsonl"
    assert (
        write_run([Asked("q", "beta repeats")], bm25_retriever(chunk_file).index, 3, run_file) == 1
    )
    ((written,),) = [[line["results"]] for line in lines(run_file)]
    assert [(r["start"], r["end"]) for r in written] == [(23, 48), (SECOND, SECOND + 25)]
    assert main(["run", "import", str(run_file), "--name", "bm25", "--db", page_db, "-q"]) == 0
    exported = tmp_path / "exported.jsonl"
    assert main(["run", "export", "--name", "bm25", "-o", str(exported), "--db", page_db]) == 0
    assert lines(exported) == lines(run_file)
    capsys.readouterr()
    score = ["score", "--gold-set", "g", "--run", "bm25", "--k", "1,3", "--format", "json"]
    assert main([*score, "--db", page_db]) == 0
    metrics = json.loads(capsys.readouterr().out)["metrics"]
    assert (metrics["span_recall@1"], metrics["span_recall@3"]) == (0.0, 1.0)


def test_run_export_of_an_unknown_run_is_an_error(
    page_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "never.jsonl"
    assert main(["run", "export", "--name", "nope", "-o", str(out), "--db", page_db]) != 0
    assert "nope" in capsys.readouterr().err
    assert not out.exists()


def test_a_chunk_file_without_offsets_gives_results_without_them(tmp_path: Path) -> None:
    chunk_file = tmp_path / "chunks.jsonl"
    chunk_file.write_text(
        json.dumps({"doc": "p.txt", "text": "beta repeats"})
        + "\n"
        + json.dumps({"doc": "p.txt", "text": "beta again", "start": 5, "end": 15})
        + "\n"
    )
    results = bm25_retriever(chunk_file)("beta")
    assert [(r["text"], r.get("start"), r.get("end")) for r in results] == [
        ("beta repeats", None, None),
        ("beta again", 5, 15),
    ]


def test_evaluate_store_run_keeps_the_bm25_offsets(
    page_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chunk_file = tmp_path / "chunks.jsonl"
    args = ["chunks", "make", "--chunker", "structure", "--max-chars", "30"]
    assert main([*args, "-o", str(chunk_file), "--db", page_db]) == 0
    evaluate = [
        "evaluate",
        "--gold-set",
        "g",
        "--retriever",
        "labeler.evaluation:bm25_retriever",
        "--retriever-arg",
        f"chunks={chunk_file}",
        "--retriever-arg",
        "k=3",
        "--store-run",
        "ev",
        "--db",
        page_db,
    ]
    assert main(evaluate) == 0
    exported = tmp_path / "exported.jsonl"
    assert main(["run", "export", "--name", "ev", "-o", str(exported), "--db", page_db]) == 0
    ((results,),) = [[line["results"]] for line in lines(exported)]
    assert [(r.get("start"), r.get("end")) for r in results] == [(23, 48), (SECOND, SECOND + 25)]
