"""The layers point one way (docs/architecture.md, Layers): headless modules never load
Textual, and the scoring package never loads the labeller, the ORM or any UI library."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEADLESS = [
    "labeler",
    "labeler.errors",
    "labeler.extract",
    "labeler.store",
    "labeler.ingest",
    "labeler.cli",
    "labeler.api",
    "labeler.retrievers",
]
UI = ("textual", "rich.live")


def loaded_after_import(module: str) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"importlib.import_module({module!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return set(json.loads(out))


@pytest.mark.parametrize("module", HEADLESS)
def test_headless_module_does_not_load_textual(module: str) -> None:
    loaded = loaded_after_import(module)
    assert module in loaded
    assert not {m for m in loaded if m.split(".")[0] == "textual"}


def test_scoring_loads_no_labeler_orm_or_ui() -> None:
    loaded = loaded_after_import("scoring")
    forbidden = {"labeler", "sqlmodel", "sqlalchemy", "textual", "rich", "click", "typer"}
    assert not {m for m in loaded if m.split(".")[0] in forbidden}


def test_extract_does_not_load_the_store() -> None:
    loaded = loaded_after_import("labeler.extract")
    assert not {m for m in loaded if m.split(".")[0] in {"sqlmodel", "sqlalchemy"}}


@pytest.mark.parametrize("package", ["labeler.store", "scoring"])
def test_lazy_exports_are_not_shadowed_by_submodules(package: str) -> None:
    """A lazily exported name equal to a submodule's name would resolve to the module once
    that submodule is imported (e.g. ``from labeler.store import undo``)."""
    code = (
        "import importlib, json, pkgutil, types\n"
        f"pkg = importlib.import_module({package!r})\n"
        "for m in pkgutil.iter_modules(pkg.__path__):\n"
        "    importlib.import_module(pkg.__name__ + '.' + m.name)\n"
        "bad = [n for n in pkg.__all__ if isinstance(getattr(pkg, n), types.ModuleType)]\n"
        "print(json.dumps(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert json.loads(out) == []


def test_scoring_path_loads_only_what_scoring_a_run_needs() -> None:
    """``labeler score`` is timed against pytrec_eval: comparing runs, retrieval correctness
    and the statistics are not on its path."""
    loaded = loaded_after_import("labeler.evaluate")
    assert not {m for m in loaded if m.split(".")[0] in {"sqlalchemy", "sqlmodel", "textual"}}
    off_path = {"scoring.compare", "scoring.correctness", "scoring.stats", "scoring.report"}
    off_path |= {"scoring.agreement", "scoring.agreement_report"}
    assert not off_path & loaded


def test_cli_start_loads_no_orm() -> None:
    """Every command pays for what ``labeler.cli`` imports; the score path is timed against
    pytrec_eval, so the parser must not pull in SQLAlchemy (commands import it when they run)."""
    loaded = loaded_after_import("labeler.cli")
    assert not {m for m in loaded if m.split(".")[0] in {"sqlalchemy", "sqlmodel", "textual"}}
