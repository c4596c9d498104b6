"""Gold set exports: TREC qrels and BEIR projected onto chunk files, Ragas; read back with tiny
parsers and cross-checked with pytrec_eval and the scoring package."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from labeler.cli import main
from labeler.extract import page_text
from scoring import Chunk as RunChunk
from scoring import GoldElement, GoldQuestion, score_run

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
A = "<p>Intro. FR-001: The index is never the source of record.</p><p>Outro. Owners approve.</p>"
B = "<h1>B page</h1><p>Only one sentence lives here.</p>"


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def db(tmp_path: Path) -> str:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.html").write_text(A, encoding="utf-8")
    (docs / "b page.html").write_text(B, encoding="utf-8")
    shutil.copy(CORPUS / "wal.html", docs / "wal.html")
    path = str(tmp_path / "labels.db")
    assert main(["ingest", str(docs), "--db", path, "-q"]) == 0
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {"query_id": "q1", "query": "Is the index the source of record?",
             "elements": [{"doc": "a.html", "text": "FR-001: The index is never the source of record.", "grade": 2}]},
            {"query_id": "q2", "query": "Who approves?",
             "elements": [{"doc": "a.html", "text": "Owners approve."},
                          {"doc": "b page.html", "text": "Only one sentence lives here."}]},
            {"query_id": "q3", "query": "Cut everywhere", "elements": [{"doc": "a.html", "text": "Intro. FR-001"}]},
            {"query_id": "q4", "query": "Not labelled yet", "elements": []},
        ],
    )  # fmt: skip
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", path]) == 0
    return path


def page(name: str) -> str:
    html = A if name == "a.html" else B
    return page_text(html.encode())


def chunk_file(tmp_path: Path) -> Path:
    a, b = page("a.html"), page("b page.html")
    # a: "Intro. FR-001: The index is never the source of record. Outro. Owners approve."
    e1 = a.index("FR-001")
    rows: list[dict[str, object]] = [
        {"doc": "a.html", "text": a[: e1 + 3], "start": 0, "end": e1 + 3},  # cuts q3's element
        {"doc": "a.html", "text": a[e1:], "start": e1, "end": len(a)},  # holds q1 and q2's first
        {"doc": "a.html", "text": a[e1 : a.index(" Outro")]},  # no offsets: placed by text
        {"doc": "b page.html", "text": b, "start": 99, "end": 120},  # wrong offsets
        {"doc": "b page.html", "text": "not on the page"},
    ]
    return write_jsonl(tmp_path / "chunks.jsonl", rows)


def read_trec(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        qid, zero, cid, grade = line.split()
        assert zero == "0"
        qrels.setdefault(qid, {})[cid] = int(grade)
    return qrels


def test_trec_qrels_from_a_chunk_file(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "qrels.txt"
    args = ["gold", "export", "--gold-set", "g", "--format", "trec", "--db", db]
    assert main([*args, "--chunks", str(chunk_file(tmp_path)), "-o", str(out)]) == 0
    a = page("a.html")
    e1, end1 = a.index("FR-001"), a.index(" Outro")
    whole = f"a.html#{e1}-{len(a)}"
    assert read_trec(out) == {
        "q1": {whole: 2, f"a.html#{e1}-{end1}": 2},
        "q2": {whole: 1, f"b%20page.html#0-{len(page('b page.html'))}": 1},
    }
    err = capsys.readouterr().err
    assert "1 question(s) have no chunk holding an element whole" in err and "q3" in err
    assert "not on their page (lines 5)" in err and "placed by text" in err


def test_beir_folder_round_trip(db: str, tmp_path: Path) -> None:
    folder = tmp_path / "beir"
    chunks = chunk_file(tmp_path)
    base = ["gold", "export", "--gold-set", "g", "--chunks", str(chunks), "--db", db]
    assert main([*base, "--format", "beir", "-o", str(folder)]) == 0
    assert main([*base, "--format", "trec", "-o", str(tmp_path / "q.txt")]) == 0
    corpus = [json.loads(x) for x in (folder / "corpus.jsonl").read_text().splitlines()]
    queries = [json.loads(x) for x in (folder / "queries.jsonl").read_text().splitlines()]
    rows = (folder / "qrels" / "test.tsv").read_text().splitlines()
    assert rows[0] == "query-id\tcorpus-id\tscore"
    qrels: dict[str, dict[str, int]] = {}
    for row in rows[1:]:
        qid, cid, score = row.split("\t")
        qrels.setdefault(qid, {})[cid] = int(score)
    assert qrels == read_trec(tmp_path / "q.txt")
    ids = [c["_id"] for c in corpus]
    assert len(ids) == len(set(ids)) == 5 and ids[-1] == "b%20page.html#line5"
    by_id = {c["_id"]: c for c in corpus}
    for c in corpus[:4]:
        meta = c["metadata"]
        assert c["title"] == ""
        assert page(meta["doc"])[meta["start"] : meta["end"]] == c["text"]
    assert by_id["b%20page.html#line5"]["metadata"]["start"] is None
    assert all(cid in by_id for q in qrels.values() for cid in q)
    assert [q["_id"] for q in queries] == ["q1", "q2", "q3"]  # q4 has no elements
    assert queries[0]["text"] == "Is the index the source of record?"


def test_ragas_dataset(db: str, tmp_path: Path) -> None:
    out = tmp_path / "ragas.jsonl"
    assert (
        main(["gold", "export", "--gold-set", "g", "--format", "ragas", "-o", str(out), "--db", db])
        == 0
    )
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert lines == [
        {"user_input": "Is the index the source of record?",
         "reference_contexts": ["FR-001: The index is never the source of record."]},
        {"user_input": "Who approves?",
         "reference_contexts": ["Owners approve.", "Only one sentence lives here."]},
        {"user_input": "Cut everywhere", "reference_contexts": ["Intro. FR-001"]},
    ]  # fmt: skip


def test_jsonl_stays_the_default(db: str, tmp_path: Path) -> None:
    plain, explicit = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["gold", "export", "--gold-set", "g", "-o", str(plain), "--db", db]) == 0
    args = ["gold", "export", "--gold-set", "g", "--format", "jsonl", "-o", str(explicit)]
    assert main([*args, "--db", db]) == 0
    assert plain.read_bytes() == explicit.read_bytes()
    assert json.loads(plain.read_text().splitlines()[0])["offset_unit"] == "codepoint"


def test_export_errors(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["gold", "export", "--gold-set", "g", "--db", db]
    assert main([*base, "--format", "trec"]) == 2
    assert "needs --chunks" in capsys.readouterr().err
    chunks = str(chunk_file(tmp_path))
    assert main([*base, "--format", "beir", "--chunks", chunks]) == 2
    assert "folder" in capsys.readouterr().err
    assert main([*base, "--format", "ragas", "--chunks", chunks]) == 2
    bad = write_jsonl(
        tmp_path / "bad.jsonl", [{"doc": "a.html", "text": "x"}, {"doc": "zz", "text": "y"}]
    )
    assert main([*base, "--format", "trec", "--chunks", str(bad)]) == 1
    assert "bad.jsonl:2: unknown document 'zz'" in capsys.readouterr().err


def test_projection_cross_checked_with_pytrec_eval(db: str, tmp_path: Path) -> None:
    """Fixed windows of a real page: pytrec_eval's reciprocal rank and success on the exported
    qrels equal the scoring package's MRR and Hit on the same ranking of chunk texts."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    chunks = tmp_path / "fixed.jsonl"
    make = ["chunks", "make", "--chunker", "fixed", "--size", "40", "--overlap", "15"]
    assert main([*make, "--docs", "wal.html", "-o", str(chunks), "--db", db]) == 0
    wal = page_text((CORPUS / "wal.html").read_bytes())
    texts = [
        "WAL is significantly faster in most scenarios.",
        "WAL provides more concurrency as readers do not block writers and a writer does not "
        "block readers.",
        "Reading and writing can proceed concurrently.",
    ]
    gold = write_jsonl(
        tmp_path / "wal_gold.jsonl",
        [
            {"query_id": f"w{i}", "query": t, "elements": [{"doc": "wal.html", "text": t}]}
            for i, t in enumerate(texts)
        ],
    )
    assert main(["gold", "import", str(gold), "--gold-set", "w", "--db", db]) == 0
    qrels_path = tmp_path / "w.qrels"
    args = ["gold", "export", "--gold-set", "w", "--format", "trec", "--chunks", str(chunks)]
    assert main([*args, "-o", str(qrels_path), "--db", db]) == 0
    qrels = read_trec(qrels_path)
    assert set(qrels) == {"w0", "w1", "w2"}
    rows = [json.loads(x) for x in chunks.read_text().splitlines()]
    ids = [f"wal.html#{r['start']}-{r['end']}" for r in rows]
    rng = random.Random(7)
    ranking = {}
    for qid in qrels:
        order = list(range(len(rows)))
        rng.shuffle(order)
        relevant = [i for i, cid in enumerate(ids) if cid in qrels[qid]]
        order.remove(relevant[0])
        order.insert(rng.randrange(8), relevant[0])  # a relevant chunk within the top 8
        ranking[qid] = order[:10]
    run = {q: {ids[i]: 10.0 - r for r, i in enumerate(order)} for q, order in ranking.items()}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank", "success"})
    trec = evaluator.evaluate(run)
    scored = score_run(
        [GoldQuestion(f"w{i}", t, (GoldElement("wal.html", t),)) for i, t in enumerate(texts)],
        {"wal.html": wal},
        {q: [RunChunk(rows[i]["text"], "wal.html") for i in order] for q, order in ranking.items()},
        ks=(1, 5, 10),
    )
    for q in scored.queries:
        assert q.values["mrr@10"] == pytest.approx(trec[q.query_id]["recip_rank"])
        assert q.values["hit@5"] == trec[q.query_id]["success_5"]
        assert q.values["hit@1"] == trec[q.query_id]["success_1"]
    assert sorted(q.values["mrr@10"] for q in scored.queries) != [1.0, 1.0, 1.0]  # not trivial
