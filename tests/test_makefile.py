"""The Makefile's install steps, read with ``make -n`` (print, do not run) in a copy of the
repository's Makefile and pyproject.toml: `make run` installs the runtime dependencies
only, `make test` adds the test extras, each once."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = "pip install -q -e ."
EXTRAS = "pip install -q -e '.[test]'"


def native_sources() -> list[str]:
    """The sources the compiled modules are built from (make rebuilds them when one
    changes), and what builds them."""
    listed = subprocess.run(
        ["python3", "scripts/build_native.py", "--list"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return ["scripts/build_native.py", "scoring/_native.py", *listed]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    for name in ("Makefile", "pyproject.toml", *native_sources()):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    os.utime(tmp_path / "pyproject.toml", (1_000_000_000, 1_000_000_000))  # 2001
    return tmp_path


def dry_run(where: Path, target: str) -> list[str]:
    """The commands ``make TARGET`` would run there (``make -n``), one per line."""
    # Under `make test` the outer make's settings reach this one (its level makes it print
    # "Entering/Leaving directory" lines): run it as if started from a shell.
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    out = subprocess.run(
        ["make", "--no-print-directory", "-n", target],
        cwd=where,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return out.stdout.splitlines()


def installs(lines: list[str]) -> list[str]:
    return [line.split("/bin/python -m ", 1)[1] for line in lines if "pip install -q -e" in line]


def test_run_on_a_fresh_checkout_installs_the_runtime_dependencies_only(checkout: Path) -> None:
    lines = dry_run(checkout, "run")
    assert installs(lines) == [RUNTIME]
    assert any(line.endswith("-m venv .venv") for line in lines)
    assert lines[-1] == ".venv/bin/labeler"


def test_test_on_a_fresh_checkout_installs_the_runtime_then_the_extras(checkout: Path) -> None:
    assert installs(dry_run(checkout, "test")) == [RUNTIME, EXTRAS]


def test_test_after_run_installs_the_extras_once(checkout: Path) -> None:
    venv = checkout / ".venv"
    venv.mkdir()
    (venv / ".installed").touch()  # what `make run` leaves behind
    lines = dry_run(checkout, "test")
    assert installs(lines) == [EXTRAS]
    assert not any("-m venv" in line for line in lines)
    (venv / ".installed-test").touch()  # ... and what that `make test` leaves
    assert installs(dry_run(checkout, "test")) == []
    assert installs(dry_run(checkout, "run")) == []


def test_lint_and_bench_have_the_test_extras(checkout: Path) -> None:
    # ruff, mypy and the reference scorers are test extras
    for target in ("lint", "bench"):
        assert installs(dry_run(checkout, target)) == [RUNTIME, EXTRAS], target


def test_ci_installs_the_test_extras_before_it_lints() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    make_stamp = next(i for i, line in enumerate(script) if line.startswith("make .venv/"))
    assert script[make_stamp].split()[1] == ".venv/.installed-test"
    ruff = next(i for i, line in enumerate(script) if line.startswith(".venv/bin/ruff"))
    assert make_stamp < ruff


def test_test_installs_the_test_profile_plugin_after_the_extras(checkout: Path) -> None:
    """The entry-point test needs its small plugin package installed (not editable: it is
    found through its distribution's metadata, as a real plugin is)."""
    lines = dry_run(checkout, "test")
    plugin = [i for i, line in enumerate(lines) if "pip install -q ./tests/plugins/" in line]
    extras = next(i for i, line in enumerate(lines) if EXTRAS in line)
    assert len(plugin) == 1 and plugin[0] > extras
    assert lines[plugin[0]].endswith("pip install -q ./tests/plugins/labeler_test_profile")
    assert (ROOT / "tests" / "plugins" / "labeler_test_profile" / "pyproject.toml").is_file()


def test_run_and_test_build_the_compiled_modules_after_installing(checkout: Path) -> None:
    for target in ("run", "test"):
        lines = dry_run(checkout, target)
        build = [i for i, line in enumerate(lines) if "scripts/build_native.py --stamp" in line]
        runtime = next(i for i, line in enumerate(lines) if RUNTIME in line)
        assert len(build) == 1 and build[0] > runtime, target
    venv = checkout / ".venv"
    venv.mkdir()
    for stamp in (".installed", ".installed-test", ".native"):
        (venv / stamp).touch()
    assert not any("build_native" in line for line in dry_run(checkout, "test"))
    # a source of a compiled module changed: built again
    changed = checkout / native_sources()[-1]
    future = (venv / ".native").stat().st_mtime + 10
    os.utime(changed, (future, future))
    assert any("build_native.py --stamp" in line for line in dry_run(checkout, "test"))
