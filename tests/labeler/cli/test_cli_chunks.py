"""``labeler chunks make|audit`` end to end on real SQLite files and corpus pages."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from labeler.cli import main
from labeler.extract import page_text

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
PAGES = ["lang_transaction.html", "wal.html"]
HAND = "<h1>Title</h1><p>alpha beta gamma delta epsilon zeta eta theta</p>"


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in PAGES:
        shutil.copy(CORPUS / name, folder / name)
    (folder / "hand.html").write_text(HAND, encoding="utf-8")
    return folder


@pytest.fixture()
def db(tmp_path: Path, docs: Path) -> str:
    path = str(tmp_path / "labels.db")
    assert main(["ingest", str(docs), "--db", path, "-q"]) == 0
    return path


def read(path: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_make_writes_exact_slices(db: str, tmp_path: Path, docs: Path) -> None:
    pages = {n: page_text((docs / n).read_bytes()) for n in [*PAGES, "hand.html"]}
    for chunker, extra in [("fixed", ["--size", "60", "--overlap", "20"]), ("structure", [])]:
        out = tmp_path / f"{chunker}.jsonl"
        args = ["chunks", "make", "--chunker", chunker, *extra, "-o", str(out), "--db", db]
        assert main(args) == 0
        rows = read(out)
        assert {r["doc"] for r in rows} == set(pages)
        for r in rows:
            assert pages[str(r["doc"])][int(str(r["start"])) : int(str(r["end"]))] == r["text"]
    structure = [r["text"] for r in read(tmp_path / "structure.jsonl") if r["doc"] == "hand.html"]
    assert structure == ["Title alpha beta gamma delta epsilon zeta eta theta"]  # packed
    out = tmp_path / "small.jsonl"
    args = ["chunks", "make", "--chunker", "structure", "--max-chars", "20", "--docs", "hand*"]
    assert main([*args, "-o", str(out), "--db", db]) == 0
    assert [r["text"] for r in read(out)] == [
        "Title", "alpha beta gamma", "delta epsilon zeta", "eta theta"
    ]  # fmt: skip


def test_make_errors(
    db: str, tmp_path: Path, docs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "x.jsonl")
    base = ["chunks", "make", "-o", out, "--db", db]
    assert main([*base, "--chunker", "fixed", "--size", "5", "--overlap", "5"]) == 2
    assert "overlap must be" in capsys.readouterr().err
    assert main([*base, "--chunker", "fixed", "--docs", "nothing*"]) == 2
    assert "no stored document matches" in capsys.readouterr().err
    forget_blocks(db)  # pages stored without block starts read their source file
    (docs / "hand.html").write_text(HAND + "<p>changed</p>", encoding="utf-8")
    assert main([*base, "--chunker", "structure"]) == 1
    err = capsys.readouterr().err
    assert "document 'hand.html': the source file changed since it was ingested" in err
    (docs / "hand.html").unlink()
    assert main([*base, "--chunker", "structure", "--docs", "hand.html"]) == 1
    assert "document 'hand.html': cannot read its source file" in capsys.readouterr().err
    assert not Path(out).exists()  # a failed run leaves no half file


def forget_blocks(db: str) -> None:
    """Make the stored pages look as if ingested before block starts were stored."""
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE document SET blocks = NULL")
    conn.close()


def test_structure_chunks_from_stored_blocks_equal_those_from_the_files(
    db: str, tmp_path: Path, docs: Path
) -> None:
    """One definition: the stored block starts give the chunks the source files give."""
    stored = tmp_path / "stored.jsonl"
    args = ["chunks", "make", "--chunker", "structure", "--max-chars", "300", "--db", db]
    shutil.rmtree(docs)  # stored blocks: no source file needed
    assert main([*args, "-o", str(stored)]) == 0
    forget_blocks(db)  # now from the files, as before block starts were stored
    docs.mkdir()
    for name in PAGES:
        shutil.copy(CORPUS / name, docs / name)
    (docs / "hand.html").write_text(HAND, encoding="utf-8")
    computed = tmp_path / "computed.jsonl"
    assert main([*args, "-o", str(computed)]) == 0
    assert len(read(stored)) > 20
    assert stored.read_bytes() == computed.read_bytes()


def test_structure_chunks_of_a_deeply_nested_page_from_stored_blocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.html"
    deep.write_bytes(("<p>top</p>" + "<span>" * 5000 + "deep").encode())
    db = str(tmp_path / "deep.db")
    assert main(["ingest", str(deep), "--db", db, "-q"]) == 0
    assert "no block boundaries stored" not in capsys.readouterr().err
    deep.unlink()  # the stored blocks are enough: the source file is not read again
    out = tmp_path / "c.jsonl"
    assert main(["chunks", "make", "--chunker", "structure", "-o", str(out), "--db", db]) == 0
    chunks = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert "".join(c["text"] for c in chunks) == "topdeep"


def test_audit_reports_cut_elements(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "gold.jsonl"
    rows = [
        {"query_id": "q1", "query": "cut", "elements": [{"doc": "hand.html", "text": "gamma delta epsilon"}]},
        {"query_id": "q2", "query": "whole", "elements": [{"doc": "hand.html", "text": "beta gamma", "grade": 2}]},
        {"query_id": "q3", "query": "wal", "elements": [{"doc": "wal.html", "text": "WAL is significantly faster in most scenarios."}]},
    ]  # fmt: skip
    gold.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db]) == 0
    chunks = tmp_path / "c.jsonl"
    # "Title alpha beta gamma" | "delta epsilon zeta eta" | "theta": q1's element cut in two
    args = ["chunks", "make", "--chunker", "fixed", "--size", "4", "--docs", "hand.html"]
    assert main([*args, "-o", str(chunks), "--db", db]) == 0
    capsys.readouterr()
    audit = ["chunks", "audit", str(chunks), "--gold-set", "g", "--db", db]
    assert main([*audit, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["elements"] == {"elements": 3, "whole": 1, "cut": 1, "uncovered": 1, "kept": 2}
    assert report["hit_ceiling"] == pytest.approx(1 / 3)
    assert 0 < report["iou_omega"] <= report["precision_omega"] <= 1
    assert report["partial_ceiling"] == pytest.approx(
        2 / 3
    )  # "delta epsilon": 13 of 19 in one piece
    cut = report["cut_elements"][0]
    assert (cut["query_id"], cut["pieces"], cut["status"]) == ("q1", 2, "cut")
    assert cut["best_share"] == pytest.approx(round(13 / 19, 4))
    assert report["by_doc"]["wal.html"] == {
        "elements": 1, "whole": 0, "cut": 0, "uncovered": 1, "kept": 0
    }  # fmt: skip
    assert main([*audit, "--threshold", "0.7"]) == 0
    table = capsys.readouterr().out
    assert "ceiling  Hit@k 0.33   Partial@k 0.33" in table
    assert f"precision_omega {report['precision_omega']:.3f}" in table
    assert "q1  hand.html" in table and "2 piece(s)  best 0.68" in table
    assert main([*audit, "--threshold", "0"]) == 2
    assert main(["chunks", "audit", str(chunks), "--gold-set", "nope", "--db", db]) == 1
    assert "no gold set 'nope'" in capsys.readouterr().err


def test_audit_places_chunks_without_offsets(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gold = tmp_path / "gold.jsonl"
    row = {"query_id": "q1", "query": "?", "elements": [{"doc": "hand.html", "text": "beta"}]}
    gold.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db]) == 0
    chunks = tmp_path / "c.jsonl"
    lines = [{"doc": "hand.html", "text": "alpha beta"}, {"doc": "hand.html", "text": "zzz"}]
    chunks.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    capsys.readouterr()
    assert main(["chunks", "audit", str(chunks), "--gold-set", "g", "--db", db]) == 0
    out, err = capsys.readouterr()
    assert "1 chunk(s) whose text is not on their page (lines 2)" in err
    assert "elements whole 1" in out and "(1 not found on their page)" in out


def test_structure_chunks_of_deeply_nested_pages(tmp_path: Path) -> None:
    """20,000 tables and 5,000 divs nested inside each other (the block walk recursed once
    per level: RecursionError, and no chunk of any page written): every page chunked. The
    texts are worked out by hand: each level holds one word, blocks are separated by one
    space. (Divs are fewer because lexbor parses nested divs in quadratic time: 100,000 take
    about two minutes, chunked fine by hand.)"""
    folder = tmp_path / "deep"
    folder.mkdir()
    depth = 20_000
    tables = "<table><tr><td>cell " * depth + "deep" + "</td></tr></table>" * depth
    divs = "<div>d " * 5000 + "deep" + "</div>" * 5000
    pages = {
        "tables.html": f"<p>Before tables.</p>{tables}<p>After tables.</p>",
        "divs.html": f"<p>Before divs.</p>{divs}<p>After divs.</p>",
        "normal.html": "<h1>Normal</h1><p>One paragraph.</p>",
    }
    for name, html in pages.items():
        (folder / name).write_text(html, encoding="utf-8")
    db = str(tmp_path / "labels.db")
    assert main(["ingest", str(folder), "--db", db, "-q"]) == 0
    out = tmp_path / "chunks.jsonl"
    assert main(["chunks", "make", "--chunker", "structure", "-o", str(out), "--db", db]) == 0
    texts: dict[str, list[str]] = {}
    for r in read(out):
        texts.setdefault(str(r["doc"]), []).append(str(r["text"]))
    assert texts["normal.html"] == ["Normal One paragraph."]
    # chunks are cut at block boundaries or spaces, each keeps its words whole
    assert " ".join(texts["tables.html"]) == (
        "Before tables. " + "cell " * depth + "deep After tables."
    )
    assert " ".join(texts["divs.html"]) == "Before divs. " + "d " * 5000 + "deep After divs."
    assert all(len(t) <= 2000 for ts in texts.values() for t in ts)


@pytest.mark.parametrize(("word", "kept"), [("epsilon", 1), ("gamma", 0)])
def test_audit_keeps_an_element_only_with_its_key(
    db: str, tmp_path: Path, docs: Path, word: str, kept: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Windows "Title alpha beta gamma" | "delta epsilon zeta eta" | "theta": the element
    "gamma delta epsilon" keeps 13 of 19 code points in the second piece. A key there
    ("epsilon") keeps it; a key in the first piece ("gamma", 5 of 19) does not."""
    page = page_text((docs / "hand.html").read_bytes())
    start = page.index("gamma delta epsilon")
    key = page.index(word)
    element = {
        "doc": "hand.html",
        "start": start,
        "end": start + 19,
        "text": "gamma delta epsilon",
        "key": {"start": key, "end": key + len(word)},
    }
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"query_id": "q1", "elements": [element]}) + "\n", "utf-8")
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db]) == 0
    chunks = tmp_path / "c.jsonl"
    args = ["chunks", "make", "--chunker", "fixed", "--size", "4", "--docs", "hand.html"]
    assert main([*args, "-o", str(chunks), "--db", db]) == 0
    capsys.readouterr()
    audit = ["chunks", "audit", str(chunks), "--gold-set", "g", "--db", db, "--format", "json"]
    assert main(audit) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["elements"]["kept"] == kept
    assert report["partial_ceiling"] == kept
