"""Every engine on 100,000 nested elements of several kinds, against the real jar.

The ``jsoup`` engine (the parser port) bounds its stack searches like jsoup and takes any
depth in linear time; lexbor and html5lib are quadratic in depth, so they hand a page
nested past their bound (:mod:`labeler.extract.depth`) to it. Each page below nests 100,000
elements of one kind; the jar extracts all of them in one JVM. The same pages go through
``labeler extract`` and ``labeler ingest`` (real processes).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from jsoup_ref import runner

from labeler.extract.jsoup import ENGINES, jsoup_body_text
from labeler.store import open_store
from labeler.store.browse import page_text

ROOT = Path(__file__).resolve().parents[3]
DEEP = 100_000  # nested elements per page

PAGES = {
    "div": "<div>a" * DEEP + "</div>" * 10 + "tail",
    "dl-dd": "<dl><dd>k" * (DEEP // 2) + "</dd></dl>" * 5 + "end",
    "ul-li": "<ul><li>k" * (DEEP // 2),
    "template": "<body>" + "<template>t" * DEEP,
    "span": "<body>" + "<span>b" * DEEP + "</span>" * 10 + "c",
    "b": "<b>x" * DEEP,
    "i-u": "<i><u>" * (DEEP // 2) + "q",
    "font": "<font size=1>f" * DEEP,
    "object": "<object>o" * DEEP,
    "svg": "<svg><g>" * (DEEP // 2) + "s",
    "table": "<table><tr><td>" * (DEEP // 3) + "z",  # + an implied tbody: 4 per level
    "section": "<section>s" * DEEP + "<p>p",
}
NAMES = list(PAGES)


@pytest.fixture(scope="module")
def deep_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("deep-port")
    paths = []
    for name, page in PAGES.items():
        path = folder / f"{name}.html"
        path.write_text(page, encoding="utf-8")
        paths.append(path)
    return paths


@pytest.fixture(scope="module")
def deep_reference(deep_files: list[Path]) -> list[str]:
    try:
        return runner.run(deep_files)  # one JVM for every page
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(cwd)},
    )


def test_pages_are_as_deep_as_claimed() -> None:
    """Every page opens at least 100,000 elements (start tags, implied ones not counted)."""
    for page in PAGES.values():
        assert page.count("<") - page.count("</") >= DEEP - 2  # table: 3 tags per level


@pytest.mark.jsoup
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_deep_page_matches_jsoup(
    deep_files: list[Path], deep_reference: list[str], index: int, engine: str
) -> None:
    """Every engine: lexbor parses the inline kinds itself and hands the block kinds (div,
    dl-dd, ul-li, section: quadratic for it) to the jsoup engine; html5lib hands all of them
    over (quadratic in any nesting); jsoup parses all."""
    data = deep_files[index].read_bytes()
    assert jsoup_body_text(data, engine) == deep_reference[index]


@pytest.mark.jsoup
def test_cli_extract_deep_pages_with_the_port(
    deep_files: list[Path], deep_reference: list[str], tmp_path: Path
) -> None:
    proc = _run(
        ["extract", "--engine", "jsoup", "--format", "jsonl", *map(str, deep_files)], tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split("\n")[:-1]
    assert [json.loads(line) for line in lines] == [
        {"file": str(path), "text": text}
        for path, text in zip(deep_files, deep_reference, strict=True)
    ]


@pytest.mark.jsoup
def test_cli_ingest_folder_with_deep_pages_with_the_port(
    deep_files: list[Path], deep_reference: list[str], tmp_path: Path
) -> None:
    """A folder mixing a small page and the deep ones: every page stored, as the jar's text."""
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "a-small.html").write_bytes(b"<p>first page</p>")
    for name in ("div", "dl-dd", "section"):
        (folder / f"{name}.html").write_bytes(deep_files[NAMES.index(name)].read_bytes())
    db = tmp_path / "l.db"
    proc = _run(["ingest", str(folder), "--engine", "jsoup", "--db", str(db), "-q"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("added 4, updated 0, unchanged 0, skipped 0, failed 0;")
    store = open_store(str(db))
    with store.session() as session:
        stored = {name: page_text(session, f"{name}.html") for name in ("div", "dl-dd", "section")}
        assert page_text(session, "a-small.html") == "first page"
    assert stored == {name: deep_reference[NAMES.index(name)] for name in stored}


def test_cli_ingest_unknown_engine_is_refused_before_reading(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_bytes(b"<p>x</p>")
    proc = _run(
        ["ingest", str(tmp_path / "a.html"), "--engine", "nope", "--db", str(tmp_path / "l.db")],
        tmp_path,
    )
    assert proc.returncode == 2
    assert not (tmp_path / "l.db").exists()
    assert (
        "unknown engine 'nope' for profile jsoup-1.15.3; known: jsoup, lexbor, html5lib"
        in proc.stderr
    )
