"""BM25 against a tiny example worked by hand, and the run file it writes."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import pytest

from labeler.chunks import Chunk
from labeler.errors import InputError
from labeler.evaluation import build_index, retrieve, scores, tokenize, write_run
from labeler.formats.run_jsonl import read_run

# Three chunks; "the" is a stop word, so the token counts are 3, 3 and 1:
#   c0 "SQLite database engine"  → sqlite, database, engine   dl = 3
#   c1 "sqlite sqlite index"     → sqlite, sqlite, index      dl = 3
#   c2 "The cat"                 → cat                        dl = 1
# N = 3, avgdl = 7/3.
CHUNKS = [
    Chunk("a.html", 0, 22, "SQLite database engine"),
    Chunk("b.html", 0, 19, "sqlite sqlite index"),
    Chunk("c.html", 0, 7, "The cat"),
]
# idf(sqlite), df = 2: ln(1 + (3 - 2 + 0.5) / (2 + 0.5)) = ln(1.6)   = 0.4700036
# idf(index),  df = 1: ln(1 + (3 - 1 + 0.5) / (1 + 0.5)) = ln(8/3)   = 0.9808293
# length norm for dl = 3: k1·(1 − b + b·dl/avgdl) = 1.5·(0.25 + 0.75·9/7) = 1.8214286
# c0: sqlite tf 1: 0.4700036 · 1/(1 + 1.8214286)                            = 0.1665835
# c1: sqlite tf 2: 0.4700036 · 2/(2 + 1.8214286) = 0.4700036 · 0.5233645    = 0.2459832
#     index  tf 1: 0.9808293 · 1/(1 + 1.8214286) = 0.9808293 · 0.3544304    = 0.3476357
#     total                                                                 = 0.5936189
# c2 shares no term with the query: not returned.
NORM = 1.5 * (0.25 + 0.75 * 3 / (7 / 3))
IDF_SQLITE = math.log(1.6)
IDF_INDEX = math.log(8 / 3)


def test_tokenize_lowercases_and_drops_stop_words_and_single_letters() -> None:
    assert tokenize("How do I enable WAL mode?") == ["enable", "wal", "mode"]
    assert tokenize("x = sqlite3_open(db)") == ["sqlite3_open", "db"]


def test_scores_match_the_hand_computed_example() -> None:
    index = build_index(CHUNKS)
    assert index.avgdl == pytest.approx(7 / 3)
    assert index.idf("sqlite") == pytest.approx(0.4700036, abs=1e-7)
    assert index.idf("index") == pytest.approx(0.9808293, abs=1e-7)
    assert round(NORM, 7) == 1.8214286
    got = scores(index, "sqlite index")
    assert got == {0: pytest.approx(0.1665835, abs=1e-7), 1: pytest.approx(0.5936189, abs=1e-7)}
    assert got[1] == pytest.approx(IDF_SQLITE * 2 / (2 + NORM) + IDF_INDEX / (1 + NORM))


def test_retrieve_ranks_best_first_and_returns_only_matching_chunks() -> None:
    index = build_index(CHUNKS)
    ranked = retrieve(index, "sqlite index", 3)
    assert [c.doc for c, _ in ranked] == ["b.html", "a.html"]
    assert retrieve(index, "sqlite index", 1)[0][0] is CHUNKS[1]
    assert retrieve(index, "what is the", 5) == []  # stop words only
    assert retrieve(build_index([]), "sqlite", 5) == []
    with pytest.raises(ValueError):
        retrieve(index, "sqlite", 0)


def test_ties_keep_index_order() -> None:
    same = [Chunk(f"{i}.html", 0, 6, "sqlite") for i in range(3)]
    assert [c.doc for c, _ in retrieve(build_index(same), "sqlite", 3)] == [
        "0.html",
        "1.html",
        "2.html",
    ]


@dataclass(frozen=True)
class Q:
    query_id: str
    query: str


def test_write_run_writes_run_jsonl_v1(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    count = write_run([Q("q1", "sqlite index"), Q("q2", "the")], CHUNKS, 5, path)
    assert count == 2
    first, second = (json.loads(line) for line in path.read_text().splitlines())
    assert first["query_id"] == "q1"
    assert [r["doc"] for r in first["results"]] == ["b.html", "a.html"]
    assert first["results"][0]["text"] == "sqlite sqlite index"
    assert first["results"][0]["score"] == pytest.approx(0.5936189, abs=1e-6)
    assert second == {"query_id": "q2", "results": []}
    lines = list(read_run(path))
    assert [len(line.chunks) for line in lines] == [2, 0]


def test_write_run_names_an_unwritable_path(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot write"):
        write_run([Q("q1", "x")], CHUNKS, 1, tmp_path / "missing" / "run.jsonl")
