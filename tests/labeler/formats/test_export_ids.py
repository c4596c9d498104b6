"""Query and chunk ids the TREC and BEIR exports cannot hold as they are (whitespace,
control characters, ``%``) are written ``%XX`` (UTF-8 bytes): distinct questions keep
distinct ids with their own grades, and decoding gives the originals back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytrec_eval

from labeler.chunks import chunk_id, id_restore, id_safe
from labeler.cli import main
from labeler.extract import page_text

SENTENCES = ["One alpha.", "Two beta.", "Three gamma.", "Four delta.", "Five epsilon."]
PAGE = "".join(f"<p>{s}</p>" for s in SENTENCES)
# (query id, grade of its one element, the sentence it is on); the four ids of the issue
# that the old export all wrote as "a_b", and "a%20b", which must not collide with "a b"
QUESTIONS = [("a b", 1, 0), ("a_b", 2, 1), ("a\tb", 3, 2), ("a\u2028b", 1, 3), ("a%20b", 2, 4)]
# worked by hand: space 20, tab 09, U+2028 is E2 80 A8 in UTF-8, "%" 25
EXPORTED = ["a%20b", "a_b", "a%09b", "a%E2%80%A8b", "a%2520b"]


@pytest.fixture()
def exported(tmp_path: Path) -> tuple[Path, Path, list[str]]:
    """A database with the five questions; the TREC file and the BEIR folder exported from
    a chunk file of one chunk per sentence; the chunk ids in page order."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.html").write_text(PAGE, encoding="utf-8")
    db = str(tmp_path / "labels.db")
    assert main(["ingest", str(docs), "--db", db, "-q"]) == 0
    text = page_text(PAGE.encode())
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        "".join(
            json.dumps(
                {
                    "query_id": qid,
                    "query": f"question {n}",
                    "elements": [{"doc": "a.html", "text": SENTENCES[n], "grade": grade}],
                }
            )
            + "\n"
            for qid, grade, n in QUESTIONS
        ),
        encoding="utf-8",
    )
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db]) == 0
    assert text == "One alpha. Two beta. Three gamma. Four delta. Five epsilon."
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_text(
        "".join(
            json.dumps(
                {"doc": "a.html", "text": s, "start": text.index(s), "end": text.index(s) + len(s)}
            )
            + "\n"
            for s in SENTENCES
        ),
        encoding="utf-8",
    )
    base = ["gold", "export", "--gold-set", "g", "--chunks", str(chunks), "--db", db]
    trec, beir = tmp_path / "qrels.txt", tmp_path / "beir"
    assert main([*base, "--format", "trec", "-o", str(trec)]) == 0
    assert main([*base, "--format", "beir", "-o", str(beir)]) == 0
    return (
        trec,
        beir,
        ["a.html#0-10", "a.html#11-20", "a.html#21-33", "a.html#34-45", "a.html#46-59"],
    )


def test_trec_query_ids_stay_distinct_and_decode(exported: tuple[Path, Path, list[str]]) -> None:
    trec, _beir, ids = exported
    with trec.open(encoding="utf-8") as lines:
        qrels = pytrec_eval.parse_qrel(lines)
    assert list(qrels) == EXPORTED
    for (qid, grade, n), written in zip(QUESTIONS, EXPORTED, strict=True):
        assert qrels[written] == {ids[n]: grade}
        assert id_restore(written) == qid
    # pytrec_eval scores each question on its own: a run retrieving the right chunk first
    # for every question gives reciprocal rank 1 everywhere
    run = {written: {ids[n]: 1.0} for (_q, _g, n), written in zip(QUESTIONS, EXPORTED, strict=True)}
    scores = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)
    assert {q: s["recip_rank"] for q, s in scores.items()} == dict.fromkeys(EXPORTED, 1.0)


def test_beir_query_ids_stay_distinct(exported: tuple[Path, Path, list[str]]) -> None:
    _trec, beir, ids = exported
    queries = [json.loads(x) for x in (beir / "queries.jsonl").read_text("utf-8").splitlines()]
    assert [q["_id"] for q in queries] == EXPORTED
    assert [q["text"] for q in queries] == [f"question {n}" for _q, _g, n in QUESTIONS]
    rows = [r.split("\t") for r in (beir / "qrels" / "test.tsv").read_text("utf-8").split("\n")]
    assert rows[-1] == [""]  # the file ends with a newline, and holds no other line break
    assert rows[1:-1] == [
        [written, ids[n], str(grade)]
        for (_q, grade, n), written in zip(QUESTIONS, EXPORTED, strict=True)
    ]


def test_id_safe_encodes_only_what_a_field_cannot_hold() -> None:
    for plain in ["q1", "a_b", "wal.html", "dir/x-y.html", "é™", "Q:1#2"]:
        assert id_safe(plain) == plain
    # NBSP C2 A0, U+3000 E3 80 80, NEL C2 85, unit separator 1F, NUL 00, DEL 7F
    assert id_safe("x\u00a0y\u3000z") == "x%C2%A0y%E3%80%80z"
    assert id_safe("\x85\x1f\x00\x7f%") == "%C2%85%1F%00%7F%25"
    assert chunk_id("my page\u2028.html", 0, 4) == "my%20page%E2%80%A8.html#0-4"
    for name in ["a b", "a%20b", "a\tb", "a\u2028b", "%%", "x\u00a0\x00y", "a%b"]:
        assert id_restore(id_safe(name)) == name
