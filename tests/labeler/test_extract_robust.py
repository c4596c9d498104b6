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
from jsoup_ref import runner

from labeler.errors import ExtractError
from labeler.extract.depth import MAX_BLOCK_DEPTH
from labeler.extract.jsoup import ENGINES, jsoup_body_text
from labeler.store import list_documents, open_store

ROOT = Path(__file__).resolve().parents[2]
DEEP = 100_000
HTML5LIB_DEEP = 2_000  # twice the old recursion limit; html5lib is quadratic in depth


def deep_pages(depth: int) -> dict[str, str]:
    """``depth`` nested elements of several kinds (each opens inside the previous one)."""
    block = min(depth, MAX_BLOCK_DEPTH)  # block containers: as deep as the bound lets through
    return {
        "span": "<body>" + "<span>b" * depth + "</span>" * 10 + "c",
        "b": "<b>x" * depth,
        "i-u": "<i><u>" * (depth // 2) + "q",
        "template": "<body>" + "<template>t" * depth,
        "table": "<table><tr><td>" * depth + "z",
        "object": "<object>o" * depth,
        "svg": "<svg><g>" * (depth // 2) + "s",
        "font": "<font size=1>f" * depth,
        "div": "<div>a" * block,
        "ul-li": "<ul><li>k" * (block // 2),
    }


# html5lib (with bs4) is quadratic in nested formatting elements: 800 nested <b> take it
# about 10 s (addFormattingElement compares each new one with the whole list), so those
# kinds are the default engine's; its time budget stops the parse (tested below).
FORMATTING = frozenset({"b", "i-u", "font"})
CASES = [("lexbor", name, page) for name, page in deep_pages(DEEP).items()] + [
    ("html5lib", name, page)
    for name, page in deep_pages(HTML5LIB_DEEP).items()
    if name not in FORMATTING
]


@pytest.fixture(scope="module")
def deep_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("deep")
    paths = []
    for engine, name, page in CASES:
        path = folder / f"{engine}-{name}.html"
        path.write_text(page, encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def deep_reference(deep_files: list[Path]) -> list[str]:
    try:
        return runner.run(deep_files)  # one JVM for every page
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")


@pytest.mark.jsoup
@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{e}-{n}" for e, n, _ in CASES])
def test_deep_page_matches_jsoup(
    deep_files: list[Path], deep_reference: list[str], index: int
) -> None:
    engine = CASES[index][0]
    assert jsoup_body_text(deep_files[index].read_bytes(), engine) == deep_reference[index]


def test_html5lib_gives_up_on_quadratic_input_with_a_clear_error() -> None:
    """2,000 ``<p><b id=N>x``: html5lib clones every open ``<b>`` into each new paragraph
    (2 million elements); with a 1 s budget it stops and says which engine to use."""
    page = "".join(f"<p><b id={i}>x" for i in range(2000)).encode()
    with pytest.raises(ExtractError, match=r"gave up after 1 CPU s .*default engine \(lexbor\)"):
        jsoup_body_text(page, "html5lib", budget=1.0)
    # the default engine's text: 2,000 paragraphs of "x", separated by one space each
    assert jsoup_body_text(page, "lexbor") == " ".join(["x"] * 2000)


@pytest.mark.parametrize("engine", [e for e in ENGINES if e != "jsoup"])
def test_too_deep_block_nesting_is_refused_on_the_whatwg_engines(engine: str) -> None:
    """lexbor and html5lib are quadratic in block depth; the jsoup port is not (its deep
    pages are compared with the jar in test_extract_deep.py)."""
    page = ("<div>" * DEEP + "x").encode()
    with pytest.raises(ExtractError, match=r"nested about 100,000 deep \(more than 10,000\)"):
        jsoup_body_text(page, engine)


def test_depth_bound_counts_only_open_containers() -> None:
    """Closed containers, comments and script text do not count toward the bound."""
    closed = ("<div>x</div>" * (3 * MAX_BLOCK_DEPTH)).encode()
    commented = ("<!--" + "<div>" * DEEP + "-->y").encode()
    scripted = ("<script>" + "<div>" * DEEP + "</script>z").encode()
    assert jsoup_body_text(closed) == " ".join(["x"] * (3 * MAX_BLOCK_DEPTH))
    assert jsoup_body_text(commented) == "y"
    assert jsoup_body_text(scripted) == "z"


# ---- the CLI: each file on its own ----

GOOD = {"a.html": b"<p>first page</p>", "c.html": b"<h1>third</h1><p>page</p>"}


@pytest.fixture
def mixed_folder() -> Iterator[Path]:
    """Good pages, a too-deep page, a deep page that is fine, a locked file, a dangling link.

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
        {"file": str(pages / "c.html"), "text": "third page"},
        {"file": str(pages / "d-spans.html"), "text": "spans"},
    ]
    errors = proc.stderr.splitlines()
    assert len(errors) == 3, proc.stderr
    assert errors[0].startswith(f"labeler: {pages / 'b-deep.html'}: cannot extract text: ")
    assert "nested about 100,000 deep" in errors[0]
    assert errors[1] == f"labeler: {pages / 'e-locked.html'}: cannot read: Permission denied"
    assert errors[2] == f"labeler: {pages / 'f-dangling.html'}: no such file"


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
    assert "added 3, updated 0, unchanged 0, skipped 0, failed 3;" in proc.stdout
    failures = [line for line in proc.stderr.splitlines() if line.startswith("labeler: ")]
    assert [line.split(": ")[1] for line in failures] == [
        str(pages / "b-deep.html"),
        str(pages / "e-locked.html"),
        str(pages / "f-dangling.html"),
    ]
    store = open_store(str(db))
    with store.session() as session:
        ids = sorted(d.id for d in list_documents(session))
    assert ids == ["a.html", "c.html", "d-spans.html"]


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
        "unknown engine 'nope' for profile jsoup-1.15.3; known: lexbor, html5lib, jsoup"
        in proc.stderr
    )
