"""Extraction never crashes on deep pages, and one bad file never hides the others.

Deep pages are compared with the real jsoup 1.15.3 jar (one JVM for all of them). The CLI
tests run real processes over a folder mixing good pages, a 100,000-deep page and files
that cannot be read.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from labeler.errors import ExtractError
from labeler.extract.depth import (
    MAX_HTML5LIB_DEPTH,
    block_depth,
    element_depth,
)
from labeler.extract.jsoup import jsoup_body_text
from labeler.store import list_documents, open_store
from labeler.store.browse import page_text

ROOT = Path(__file__).resolve().parents[3]
DEEP = 100_000


def test_html5lib_gives_up_past_its_budget_with_a_clear_error() -> None:
    """240 ``<p><b id=N>x`` (480 open tags: under html5lib's depth bound, so html5lib
    parses it): html5lib clones every open ``<b>`` into each new paragraph (about 29,000
    elements); with a budget of 1 ms it stops and says which engine to use."""
    page = "".join(f"<p><b id={i}>x" for i in range(240)).encode()
    with pytest.raises(ExtractError, match=r"gave up after 0.001 CPU s .*default engine \(jsoup\)"):
        jsoup_body_text(page, "html5lib", budget=0.001)
    # with its normal budget it finishes: 240 paragraphs of "x", one space between each
    assert jsoup_body_text(page, "html5lib") == " ".join(["x"] * 240)


def test_html5lib_hands_deep_misnesting_to_the_jsoup_engine() -> None:
    """2,000 ``<p><b id=N>x`` would take html5lib over 100 s (2 million cloned elements);
    past its depth bound the page goes to the jsoup engine, so even a 1 ms budget holds."""
    page = "".join(f"<p><b id={i}>x" for i in range(2000)).encode()
    assert jsoup_body_text(page, "html5lib", budget=0.001) == " ".join(["x"] * 2000)


@pytest.mark.parametrize(
    ("page", "blocks", "elements"),
    [
        # hand-counted: running count of open tags, the deepest value it reaches
        ("<div>x</div>" * 30_000, 1, 1),  # closed containers never add up
        ("<!--" + "<div>" * 30_000 + "-->y", 0, 0),  # in a comment: not tags
        ("<script>" + "<div>" * 30_000 + "</script>z", 0, 0),  # script text: not tags
        ("<div><span>" * 15_000, 15_000, 30_000),  # spans count only as elements
        ("<p><br><img>" * 30_000, 0, 30_000),  # void elements never open; p is not a container
        ("<div>" * 10 + "</div>" * 20 + "<div>" * 5_001, 5_001, 5_001),  # never below zero
        # pre and listing close an open p in button scope too, searching the whole stack:
        # lexbor took 30 s for 100,000 nested <pre> (the fast path parsed it)
        ("<pre>x" * 12_000 + "<listing>" * 3_000, 15_000, 15_000),
    ],
)
def test_depth_estimates(page: str, blocks: int, elements: int) -> None:
    assert block_depth(page, bound=100) == blocks
    assert element_depth(page, bound=100) == elements


def test_depth_estimates_skip_the_scan_for_pages_with_few_tags() -> None:
    page = "<div>" * MAX_HTML5LIB_DEPTH
    assert block_depth(page) == 0 and element_depth(page) == 0  # not over either bound
    assert block_depth(page, bound=10) == MAX_HTML5LIB_DEPTH


def test_block_depth_skips_the_scan_for_pages_with_few_container_start_tags() -> None:
    """Many tags but at most ``bound`` container start tags: 0 without the scan (the
    scan gives 50 here); counted on the lower-cased text, so upper case still counts, and
    a character re.I matches to an ASCII letter (``ı`` to ``i``) forces the scan."""
    assert block_depth("<div>" * 50 + "<span>" * 200, bound=100) == 0
    assert block_depth("<DIV>" * 150 + "<span>" * 200, bound=100) == 150
    assert block_depth("<d\u0131v>" * 150, bound=100) == 150
    assert block_depth("<SECTION>" * 101, bound=100) == 101


# ---- the CLI: each file on its own ----

GOOD = {"a.html": b"<p>first page</p>", "c.html": b"<h1>third</h1><p>page</p>"}


@pytest.fixture
def mixed_folder() -> Iterator[Path]:
    """Good pages, two 100,000-deep pages, a locked file, a dangling link.

    World-writable, so the CLI can run as ``nobody`` when the suite runs as root (file
    modes do not stop root).
    """
    work = Path(tempfile.mkdtemp(prefix="labeler-mixed-"))
    try:
        work.chmod(0o777)
        pages = work / "pages"
        pages.mkdir()
        pages.chmod(0o777)
        for name, data in GOOD.items():
            (pages / name).write_bytes(data)
        (pages / "b-deep.html").write_bytes(("<div>" * DEEP + "deep").encode())
        (pages / "d-spans.html").write_bytes(("<span>" * DEEP + "spans").encode())
        locked = pages / "e-locked.html"
        locked.write_bytes(b"<p>secret</p>")
        locked.chmod(0)
        (pages / "f-dangling.html").symlink_to(pages / "gone.html")
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    return subprocess.run(
        [*(drop if os.geteuid() == 0 else []), sys.executable, "-m", "labeler", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(cwd)},
    )


def test_cli_extract_reports_each_failure_and_prints_the_rest(mixed_folder: Path) -> None:
    pages = mixed_folder / "pages"
    files = sorted(str(p) for p in pages.iterdir())
    proc = _run(["extract", "--format", "jsonl", *files], mixed_folder)
    assert proc.returncode == 1
    printed = [json.loads(line) for line in proc.stdout.splitlines()]
    assert printed == [
        {"file": str(pages / "a.html"), "text": "first page"},
        {"file": str(pages / "b-deep.html"), "text": "deep"},
        {"file": str(pages / "c.html"), "text": "third page"},
        {"file": str(pages / "d-spans.html"), "text": "spans"},
    ]
    errors = proc.stderr.splitlines()
    assert errors == [
        f"labeler: {pages / 'e-locked.html'}: cannot read: Permission denied",
        f"labeler: {pages / 'f-dangling.html'}: no such file",
    ], proc.stderr


def test_cli_extract_text_format_separates_only_printed_files(mixed_folder: Path) -> None:
    pages = mixed_folder / "pages"
    files = [pages / "e-locked.html", pages / "a.html", pages / "c.html"]
    proc = _run(["extract", *map(str, files)], mixed_folder)
    assert proc.returncode == 1
    assert proc.stdout == "first page\nthird page"


def test_cli_ingest_stores_the_rest_and_lists_failures(mixed_folder: Path) -> None:
    pages = mixed_folder / "pages"
    db = mixed_folder / "l.db"
    proc = _run(["ingest", str(pages), "--db", str(db), "-q"], mixed_folder)
    assert proc.returncode == 1, proc.stderr
    assert "added 4, updated 0, unchanged 0, skipped 0, failed 2;" in proc.stdout
    failures = [line for line in proc.stderr.splitlines() if line.startswith("labeler: ")]
    assert [line.split(": ")[1] for line in failures] == [
        str(pages / "e-locked.html"),
        str(pages / "f-dangling.html"),
    ]
    store = open_store(str(db))
    with store.session() as session:
        ids = sorted(d.id for d in list_documents(session))
        assert page_text(session, "b-deep.html") == "deep"
    assert ids == ["a.html", "b-deep.html", "c.html", "d-spans.html"]


def test_cli_extract_unknown_engine_is_a_usage_error(tmp_path: Path) -> None:
    """An engine the profile does not have is refused before any file is read (exit 2)."""
    page = tmp_path / "a.html"
    page.write_bytes(GOOD["a.html"])
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", "extract", "--engine", "nope", str(page)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert (
        "unknown engine 'nope' for profile jsoup-1.15.3; known: jsoup, lexbor, html5lib"
        in proc.stderr
    )
