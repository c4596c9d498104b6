"""The scoring path compiled (``scoring._native``) scores exactly as its sources do, and
runs from its sources whenever the compiled modules might not be its sources' own.

The byte-for-byte comparison runs ``labeler score`` as two real processes on one database,
one with the compiled modules and one with ``LABELER_PURE_PYTHON`` set, over the options
that reach every compiled module (snapping, keys, offsets, budgets, intervals, per-question
rows, several processes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _scoring_db import build

from scoring import _native

REQUIRED = "LABELER_NATIVE_REQUIRED"  # set by `make test`, which builds them first


def run_score(db: str, *args: str, pure: bool, rows: Path) -> bytes:
    """What ``labeler score`` prints, and the per-question rows it writes to ``rows``
    where ``args`` ask for them (``--per-query ROWS``)."""
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV}
    if pure:
        env[_native.PURE_ENV] = "1"
    given = [str(rows) if arg == "ROWS" else arg for arg in args]
    cmd = [sys.executable, "-m", "labeler", "score", "--gold-set", "g", "--db", db, *given]
    done = subprocess.run(cmd, env=env, capture_output=True, check=True)
    return done.stdout + (rows.read_bytes() if "ROWS" in args else b"")


def in_use(pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != _native.PURE_ENV}
    if pure:
        env[_native.PURE_ENV] = "1"
    code = "import scoring.score as s, scoring._native as n; print(n.state().in_use, s.__file__)"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout


@pytest.fixture(scope="module")
def dbs(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str]:
    plain = build(tmp_path_factory.mktemp("native-plain"))
    offsets = build(tmp_path_factory.mktemp("native-offsets"), seed=5, offsets=True)
    return plain, offsets


@pytest.mark.parametrize(
    "args",
    [
        ("--run", "a", "--k", "1,3,5,10", "--format", "json"),
        ("--run", "b", "--per-query", "ROWS", "--format", "json", "--jobs", "2"),
        ("--run", "a", "--no-snap", "--threshold", "0.3", "--format", "json"),
        ("--run", "a", "--budget", "40,120", "--tokenizer", "words", "--format", "json"),
        ("--run", "b", "--ci", "0.9", "--bootstrap", "200", "--seed", "3"),
    ],
    ids=["json", "per-query", "no-snap", "budgets", "intervals"],
)
def test_compiled_and_source_score_the_same(
    dbs: tuple[str, str], args: tuple[str, ...], tmp_path: Path
) -> None:
    for db in dbs:
        compiled = run_score(db, *args, pure=False, rows=tmp_path / "compiled.jsonl")
        assert compiled == run_score(db, *args, pure=True, rows=tmp_path / "source.jsonl")
        assert compiled.strip()


def test_the_environment_variable_runs_the_sources() -> None:
    assert in_use(pure=True).split()[0] == "False"
    assert in_use(pure=True).split()[1].endswith("score.py")


def test_the_compiled_modules_are_in_use_after_make() -> None:
    """Under ``make test`` (which builds them where a C compiler is) they must be used: a
    build that failed, or one that no longer matches a source, is caught here."""
    if not os.environ.get(REQUIRED):
        pytest.skip(f"{REQUIRED} is set by make test, which builds the compiled modules")
    used, where = in_use(pure=False).split()
    assert used == "True", _native.state().reason
    assert not where.endswith(".py")


def _tree(*, built: bool, source_newer: bool) -> None:
    """The compiled modules' sources, and their extensions when ``built``, under
    ``_native._ROOT`` (a test's folder)."""
    suffix = _native.importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in _native.COMPILED:
        source = _native.source_path(name)
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
        if built:
            ext = source.with_suffix(suffix)
            ext.write_bytes(b"")
            stamp = time.time() - 100
            os.utime(ext, (stamp, stamp))
            os.utime(source, (stamp - 10, stamp - 10))
    if source_newer:
        last = _native.source_path(_native.COMPILED[-1])
        os.utime(last, None)  # now: after its extension


@pytest.mark.parametrize(
    ("built", "source_newer", "env", "reason"),
    [
        (True, False, "", None),
        (False, False, "", "not built"),
        (True, True, "", "changed since it was compiled"),
        (True, False, "1", "LABELER_PURE_PYTHON is set"),
    ],
)
def test_when_the_sources_run(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    built: bool,
    source_newer: bool,
    env: str,
    reason: str | None,
) -> None:
    monkeypatch.setattr(_native, "_ROOT", tmp_path)
    _tree(built=built, source_newer=source_newer)
    monkeypatch.setenv(_native.PURE_ENV, env)
    why = _native._why_not()
    if reason is None:
        assert why is None
    else:
        assert why is not None and reason in why
