"""``scripts/jsoup-diff`` (a real process) finds a real engine difference and shrinks it.

The lexbor engine still differs from the jar on the open quirks of
:data:`jsoup_ref.snippets.OPEN_QUIRKS`; the tool must report such an input and minimise
it to an input no longer than it that still differs, which the jar (run here on its own)
confirms.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import ModuleType

import pytest
from jsoup_ref import runner
from jsoup_ref.snippets import OPEN_QUIRKS

from labeler.extract.jsoup import jsoup_body_text

ROOT = Path(__file__).resolve().parents[3]
SCRIPT = ROOT / "scripts" / "jsoup-diff"
QUIRK = dict((name, data) for name, data, _, _ in OPEN_QUIRKS)["formatting-before-table"]
PADDED = b"<!-- padding comment -->" + QUIRK


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def _minimal_inputs(stdout: str) -> list[str]:
    """The reprs printed after "N minimal input(s):", one per minimal input."""
    _, _, tail = stdout.partition("minimal input(s):\n")
    return [
        ast.literal_eval(line.split("   (from ")[0])
        for line in tail.splitlines()
        if "   (from " in line
    ]


@pytest.mark.jsoup
def test_finds_and_minimises_a_lexbor_difference(tmp_path: Path) -> None:
    proc = _run(
        "--engine", "lexbor", "--minimise", "--snippet", QUIRK.decode(), "--snippet",
        PADDED.decode(), "--snippet", "<p>same on both</p>",
    )  # fmt: skip
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout.startswith("2/3 documents differ"), proc.stdout
    minimal = _minimal_inputs(proc.stdout)
    assert 1 <= len(minimal) <= 2, proc.stdout
    assert all(len(m) <= len(QUIRK) for m in minimal), minimal
    # confirmed independently: the jar and lexbor still disagree on each minimal input
    paths = []
    for i, text in enumerate(minimal):
        path = tmp_path / f"{i}.html"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    try:
        reference = runner.run(paths)
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")
    for text, jar_text in zip(minimal, reference, strict=True):
        assert jsoup_body_text(text.encode(), "lexbor") != jar_text


@pytest.mark.jsoup
def test_nothing_differs_exits_zero() -> None:
    proc = _run("--engine", "lexbor", "--minimise", "--snippet", "<p>a &amp; b</p>")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("0/1 documents differ"), proc.stdout
    assert "minimal" not in proc.stdout


def test_no_input_is_a_usage_error() -> None:
    proc = _run("--engine", "lexbor")
    assert proc.returncode == 2
    assert "nothing to compare" in proc.stderr


def _load_script() -> ModuleType:
    loader = SourceFileLoader("jsoup_diff", str(SCRIPT))
    module = ModuleType(loader.name)
    module.__file__ = str(SCRIPT)
    sys.modules[loader.name] = module  # its dataclasses look their module up
    loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("doc", "needed", "minimal"),
    [
        # "differs" while the text still holds "<b" and, after it, "x>": the shortest such
        # text is "<bx>" and nothing shorter keeps both pieces in order.
        ("<p>aa<b class=q>yy</b>zz x> tail</p>", ("<b", "x>"), "<bx>"),
        ("abc", ("abc",), "abc"),  # nothing can go
        ("q" * 1000 + "!", ("!",), "!"),
    ],
)
def test_shrink_is_one_minimal(doc: str, needed: tuple[str, ...], minimal: str) -> None:
    """The delta debugging itself, with an in-process predicate standing in for the jar:
    the result still satisfies it, and removing any single character breaks it."""
    shrink = _load_script().shrink

    def differs(text: str) -> bool:
        at = 0
        for piece in needed:
            at = text.find(piece, at)
            if at < 0:
                return False
            at += len(piece)
        return True

    gen = shrink(doc)
    try:
        batch = next(gen)
        while True:
            batch = gen.send([differs(c) for c in batch])
    except StopIteration as stop:
        result = stop.value
    assert result == minimal
    assert differs(result)
    assert not any(differs(result[:i] + result[i + 1 :]) for i in range(len(result)))
