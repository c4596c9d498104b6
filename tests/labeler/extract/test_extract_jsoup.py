"""Conformance of the ``jsoup-1.15.3`` profile with the real jsoup jar, and engine agreement.

The jar runs once per session (one JVM over every corpus page, one over every snippet).
Without java or the jar these tests FAIL with what to install: CI installs libjsoup-java.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from jsoup_ref import runner
from jsoup_ref.snippets import KNOWN_DIFFERENCES, OPEN_QUIRKS, SNIPPETS

from labeler.extract import page_text
from labeler.extract.jsoup import ENGINES, jsoup_body_text

ROOT = Path(__file__).resolve().parents[3]
CORPUS_FILES = sorted((ROOT / "corpora").rglob("*.html"))
SNIPPET_IDS = [name for name, _ in SNIPPETS]


def _extract_all(engine: str, paths: list[Path]) -> list[str]:
    return [jsoup_body_text(p.read_bytes(), engine) for p in paths]


def _engine_outputs(paths: list[Path]) -> dict[str, list[str]]:
    # html5lib is pure Python (~15x slower than lexbor): spread it over the cores.
    workers = max(1, min(4, os.cpu_count() or 1))
    chunks = [paths[i::workers] for i in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        futures = [pool.submit(_extract_all, "html5lib", chunk) for chunk in chunks]
        results = {"lexbor": _extract_all("lexbor", paths), "jsoup": _extract_all("jsoup", paths)}
        merged: list[str] = [""] * len(paths)
        for i, future in enumerate(futures):
            merged[i::workers] = future.result()
    results["html5lib"] = merged
    return results


class _Reference:
    """jsoup's texts for a list of files, or the reason the jar could not run."""

    def __init__(self, paths: list[Path]) -> None:
        self.texts: list[str] | None = None
        self.error: str | None = None
        try:
            self._proc = runner.start(paths)
        except runner.JsoupUnavailable as exc:
            self.error = str(exc)
        self._count = len(paths)

    def finish(self) -> _Reference:
        if self.error is None:
            self.texts = runner.collect(self._proc, self._count)
        return self

    def text(self, index: int) -> str:
        if self.texts is None:
            pytest.fail(f"cannot run the jsoup reference: {self.error}")
        return self.texts[index]


@pytest.fixture(scope="session")
def corpus() -> Iterator[tuple[_Reference, dict[str, list[str]]]]:
    reference = _Reference(CORPUS_FILES)  # the JVM works while we extract
    ours = _engine_outputs(CORPUS_FILES)
    yield reference.finish(), ours


@pytest.fixture(scope="session")
def snippet_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("snippets")
    paths = []
    for name, data in SNIPPETS:
        path = folder / f"{name}.html"
        path.write_bytes(data)
        paths.append(path)
    return paths


@pytest.fixture(scope="session")
def snippet_reference(snippet_files: list[Path]) -> _Reference:
    return _Reference(snippet_files).finish()


def test_corpus_is_bundled() -> None:
    assert len(CORPUS_FILES) >= 766


@pytest.mark.jsoup
@pytest.mark.parametrize("index", range(len(CORPUS_FILES)), ids=lambda i: CORPUS_FILES[i].name)
def test_corpus_page_matches_jsoup(
    corpus: tuple[_Reference, dict[str, list[str]]], index: int
) -> None:
    reference, ours = corpus
    assert ours["lexbor"][index] == reference.text(index)


@pytest.mark.jsoup
def test_corpus_pages_match_jsoup_on_the_port(
    corpus: tuple[_Reference, dict[str, list[str]]],
) -> None:
    """The ``jsoup`` engine (the parser port) on every corpus page (one test: the per-page
    tests above are the default engine's)."""
    reference, ours = corpus
    mismatched = [
        CORPUS_FILES[i].name
        for i in range(len(CORPUS_FILES))
        if ours["jsoup"][i] != reference.text(i)
    ]
    assert mismatched == []


@pytest.mark.jsoup
def test_cli_extract_matches_jsoup_on_every_corpus_page(
    corpus: tuple[_Reference, dict[str, list[str]]],
) -> None:
    """The acceptance check itself: ``labeler extract --format jsonl`` (a real process) over
    every corpus page, line by line against the jar."""
    reference, _ = corpus
    proc = subprocess.run(
        [sys.executable, "-m", "labeler", "extract", "--format", "jsonl", *map(str, CORPUS_FILES)],
        capture_output=True,
        check=True,
    )
    # split on "\n" only: a page text may hold U+2028, which splitlines() would cut at
    lines = proc.stdout.decode("utf-8").split("\n")[:-1]
    assert len(lines) == len(CORPUS_FILES)
    mismatched = [
        CORPUS_FILES[i].name
        for i, line in enumerate(lines)
        if json.loads(line) != {"file": str(CORPUS_FILES[i]), "text": reference.text(i)}
    ]
    assert mismatched == []


def test_corpus_engines_identical(corpus: tuple[_Reference, dict[str, list[str]]]) -> None:
    _, ours = corpus
    differing = [
        CORPUS_FILES[i].name
        for i in range(len(CORPUS_FILES))
        if len({ours[engine][i] for engine in ENGINES}) != 1
    ]
    assert differing == []


def _snippet_params() -> list[object]:
    params: list[object] = []
    for index, (name, _) in enumerate(SNIPPETS):
        marks = []
        if name in KNOWN_DIFFERENCES:
            marks.append(pytest.mark.xfail(reason=KNOWN_DIFFERENCES[name], strict=True))
        params.append(pytest.param(index, id=name, marks=marks))
    return params


def test_known_differences_are_few_and_real() -> None:
    assert len(KNOWN_DIFFERENCES) <= 3
    assert set(KNOWN_DIFFERENCES) <= set(SNIPPET_IDS)
    assert len(SNIPPETS) >= 60 and len(set(SNIPPET_IDS)) == len(SNIPPET_IDS)


@pytest.mark.jsoup
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("index", _snippet_params())
def test_snippet_matches_jsoup(snippet_reference: _Reference, index: int, engine: str) -> None:
    data = SNIPPETS[index][1]
    assert page_text(data, engine=engine) == snippet_reference.text(index)


@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=SNIPPET_IDS)
def test_snippet_engines_identical(index: int) -> None:
    data = SNIPPETS[index][1]
    assert len({jsoup_body_text(data, engine) for engine in ENGINES}) == 1


def test_missing_jar_fails_with_a_clear_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JSOUP_JAR", "/nonexistent/jsoup.jar")
    with pytest.raises(runner.JsoupUnavailable, match="libjsoup-java"):
        runner.check()


def test_compiled_harness_times_passes_of_the_same_texts(tmp_path: Path) -> None:
    """The benchmark's jar: the harness compiled once, run as a class; ``--passes N`` runs
    every file N times in one JVM and reports each pass with the texts' total length, which
    is the plain harness's (the one the conformance tests read) on the same files."""
    paths = []
    for name, data in SNIPPETS[:5]:
        path = tmp_path / f"{name}.html"
        path.write_bytes(data)
        paths.append(path)
    listing = "\n".join(str(p) for p in paths).encode()
    done = subprocess.run(
        runner.harness_command("--passes", "2"), input=listing, capture_output=True
    )
    assert done.returncode == 0, done.stderr.decode()
    lines = done.stdout.decode().splitlines()
    expected = sum(len(text) for text in runner.run(paths))
    assert [line.split()[0] for line in lines] == ["pass=1", "pass=2"]
    assert all(line.split()[3] == f"chars={expected}" for line in lines)


@pytest.fixture(scope="session")
def open_quirk_reference(tmp_path_factory: pytest.TempPathFactory) -> _Reference:
    folder = tmp_path_factory.mktemp("open-quirks")
    paths = []
    for name, data, _, _ in OPEN_QUIRKS:
        path = folder / f"{name}.html"
        path.write_bytes(data)
        paths.append(path)
    return _Reference(paths).finish()


def _open_quirk_params() -> list[object]:
    params: list[object] = []
    for index, (name, _, differing, why) in enumerate(OPEN_QUIRKS):
        for engine in ENGINES:
            marks = [pytest.mark.xfail(reason=why, strict=True)] if engine in differing else []
            params.append(pytest.param(index, engine, id=f"{name}-{engine}", marks=marks))
    return params


@pytest.mark.jsoup
@pytest.mark.parametrize(("index", "engine"), _open_quirk_params())
def test_open_quirk_against_jsoup(
    open_quirk_reference: _Reference, index: int, engine: str
) -> None:
    """Quirks not reproduced yet are listed with the engines that differ (strict xfail)."""
    data = OPEN_QUIRKS[index][1]
    assert page_text(data, engine=engine) == open_quirk_reference.text(index)
