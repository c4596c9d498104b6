"""Extraction profiles: ``bs4-get-text`` against BeautifulSoup itself, third-party profiles
through ``package.module:function`` and the ``labeler.profiles`` entry points (the test
plugin in tests/plugins/labeler_test_profile, installed by the Makefile's test setup), the
profile and version stored with each page, and re-ingesting with another profile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import bs4
import pytest
from bs4 import BeautifulSoup
from jsoup_ref.snippets import SNIPPETS

from labeler.cli import main
from labeler.errors import ExtractError
from labeler.extract import page_text
from labeler.extract.blocks import block_starts
from labeler.pages import ingest_paths
from labeler.store import Store, get_document, open_store
from labeler.store.pageblocks import page_and_blocks

ROOT = Path(__file__).resolve().parents[3]
CORPUS_FILES = sorted((ROOT / "corpora").rglob("*.html"))
BS4 = f"bs4-get-text@{bs4.__version__}"


def reference(data: bytes) -> str:
    """What a Python pipeline's loader gets: BeautifulSoup itself, html.parser, get_text()."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return BeautifulSoup(data, "html.parser").get_text()


@pytest.mark.slow
def test_bs4_get_text_is_beautifulsoup_on_every_corpus_page() -> None:
    """Through the command line (``labeler extract --profile bs4-get-text``), every page
    of the bundled corpus against BeautifulSoup itself (computed here meanwhile)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "labeler", "extract", "--profile", "bs4-get-text",
         "--format", "jsonl", *map(str, CORPUS_FILES)],
        stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    expected = [reference(path.read_bytes()) for path in CORPUS_FILES]
    out, _ = proc.communicate(timeout=600)
    assert proc.returncode == 0
    lines = out.decode("utf-8").splitlines()
    assert len(lines) == len(CORPUS_FILES) >= 766
    differ = [
        path.name
        for path, line, text in zip(CORPUS_FILES, lines, expected, strict=True)
        if json.loads(line)["text"] != text
    ]
    assert differ == []


@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=lambda i: SNIPPETS[i][0])
def test_bs4_get_text_is_beautifulsoup_on_the_tricky_pages(index: int) -> None:
    _, data = SNIPPETS[index]
    text = page_text(data, "bs4-get-text")
    assert text == reference(data)
    blocks = block_starts(data, "bs4-get-text", text=text)  # the walk gives the same text
    assert all(not text[o].isspace() for o in blocks)


def test_bs4_block_offsets_by_hand() -> None:
    data = b"<h1>Title</h1>\n<div><p>One</p>\n<p> Two</p>tail</div><ul><li>i</li></ul>"
    # get_text(): "Title" + "\n" + "One" + "\n" + " Two" + "tail" + "i"
    #              0-4       5      6-8     9      10-13    14-17    18
    assert page_text(data, "bs4-get-text") == "Title\nOne\n Twotaili"
    # h1 at 0; div and its first p at 6; second p's first visible char "T" at 11; li at 18
    assert block_starts(data, "bs4-get-text") == [0, 6, 11, 18]


def test_ingest_records_the_profile_and_version_and_blocks(store: Store, tmp_path: Path) -> None:
    page = ROOT / "corpora" / "sqlite-docs" / "wal.html"
    report = ingest_paths(store, [page], profile="bs4-get-text")
    assert report.added_ids == ("wal.html",) and report.notes == ()
    with store.session() as s:
        doc = get_document(s, "wal.html")
        text, blocks = page_and_blocks(s, "wal.html") or ("", None)
    assert doc.profile == BS4
    assert text == reference(page.read_bytes())
    assert blocks and all(not text[o].isspace() for o in blocks)
    # ingesting again with the same profile changes nothing
    assert ingest_paths(store, [page], profile="bs4-get-text").unchanged_ids == ("wal.html",)


def test_another_profile_is_a_change_like_any_other(tmp_path: Path) -> None:
    """jsoup's text → bs4's: a label whose text and nearby words are on the new page moves
    with them; one whose text bs4 splits with a line break (jsoup makes it one space) goes
    stale, as after any edit of the page."""
    db = str(tmp_path / "labels.db")
    page = ROOT / "corpora" / "sqlite-docs" / "wal.html"
    assert main(["ingest", str(page), "--db", db, "-q"]) == 0
    kept = "WAL file will grow without bound."  # its words around it are the same in both
    split = "The default method by which SQLite implements atomic commit and rollback"
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        "".join(
            json.dumps(
                {"query_id": q, "query": "How?", "elements": [{"doc": "wal.html", "text": t}]}
            )
            + "\n"
            for q, t in (("q1", kept), ("q2", split))
        )
    )
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--db", db]) == 0
    with open_store(db) as store, store.session() as s:
        before = get_document(s, "wal.html").text
    assert main(["ingest", str(page), "--db", db, "-q", "--profile", "bs4-get-text"]) == 0
    with open_store(db) as store, store.session() as s:
        doc = get_document(s, "wal.html")
        from labeler.store.goldsets import export_gold_set

        ((moved,), (stale,)) = [q.elements for q in export_gold_set(s, "g")]
    assert doc.text != before and doc.profile == BS4
    assert before.index(kept) != doc.text.index(kept)
    assert (moved.start, moved.end, moved.stale) == (
        doc.text.index(kept), doc.text.index(kept) + len(kept), False
    )  # fmt: skip
    assert split in before and split not in doc.text and stale.stale
    out = tmp_path / "chunks.jsonl"
    assert main(["chunks", "make", "--chunker", "structure", "--db", db, "-o", str(out)]) == 0
    chunks = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(chunks) > 10 and all(doc.text[c["start"] : c["end"]] == c["text"] for c in chunks)


def test_an_entry_point_profile_without_blocks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "labels.db")
    page = tmp_path / "p.html"
    page.write_bytes(b"<p>Hello</p>\n\n\n\n<p>world</p>")
    assert main(["ingest", str(page), "--db", db, "-q", "--profile", "test-shout"]) == 0
    err = capsys.readouterr().err
    assert "profile 'test-shout@1.2.0' reports no block offsets" in err
    with open_store(db) as store, store.session() as s:
        doc = get_document(s, "p.html")
        assert page_and_blocks(s, "p.html") == ("<P>HELLO</P>\n\n\n\n<P>WORLD</P>", None)
    assert doc.profile == "test-shout@1.2.0"  # the plugin distribution's version
    code = main(["chunks", "make", "--chunker", "structure", "--db", db, "-o", str(tmp_path / "c")])
    assert code == 1
    assert "profile 'test-shout@1.2.0' reports no block offsets" in capsys.readouterr().err
    assert (
        main(["chunks", "make", "--chunker", "fixed", "--db", db, "-o", str(tmp_path / "c")]) == 0
    )


def test_an_entry_point_profile_with_blocks_and_its_own_version(tmp_path: Path) -> None:
    db = str(tmp_path / "labels.db")
    page = tmp_path / "notes.html"
    page.write_bytes(b"first para\n\n\n\nsecond para\n\nthird")
    assert main(["ingest", str(page), "--db", db, "-q", "--profile", "test-lines"]) == 0
    with open_store(db) as store, store.session() as s:
        assert get_document(s, "notes.html").profile == "test-lines@7"
        # "first para\n\nsecond para\n\nthird": paragraphs at 0, 12 and 25
        assert page_and_blocks(s, "notes.html") == (
            "first para\n\nsecond para\n\nthird",
            [0, 12, 25],
        )
    out = tmp_path / "chunks.jsonl"
    assert main(["chunks", "make", "--chunker", "structure", "--max-chars", "12",
                 "--db", db, "-o", str(out)]) == 0  # fmt: skip
    assert [json.loads(line)["text"] for line in out.read_text().splitlines()] == [
        "first para", "second para", "third",
    ]  # fmt: skip


def test_a_module_function_profile(tmp_path: Path) -> None:
    (tmp_path / "my_loader.py").write_text(
        "def extract(data):\n    return data.decode('utf-8').replace('<p>', '').replace('</p>', ' ')\n"
        "extract.version = '2024.1'\n"
    )
    (tmp_path / "page.html").write_bytes(b"<p>a</p><p>b</p>")
    db = str(tmp_path / "labels.db")
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", "ingest", "page.html", "--db", db, "--profile",
         "my_loader:extract"],
        cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "profile 'my_loader:extract@2024.1' reports no block offsets" in proc.stderr
    with open_store(db) as store, store.session() as s:
        doc = get_document(s, "page.html")
    assert (doc.profile, doc.text) == ("my_loader:extract@2024.1", "a b ")


def test_unknown_profiles_and_versions_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ExtractError, match=r"installed 'bs4-get-text' is version"):
        page_text(b"<p>x</p>", "bs4-get-text@0.0.1")
    db = str(tmp_path / "labels.db")
    (tmp_path / "p.html").write_bytes(b"<p>x</p>")
    assert main(["ingest", str(tmp_path / "p.html"), "--db", db, "--profile", "nope"]) == 1
    err = capsys.readouterr().err
    assert (
        "unknown profile 'nope'; known: bs4-get-text, jsoup-1.15.3, test-lines, test-shout, text"
        in err
    )
    assert main(["ingest", str(tmp_path / "p.html"), "--db", db, "--profile", "no_such_mod:f"]) == 1
    assert "profile 'no_such_mod:f': cannot import it" in capsys.readouterr().err
