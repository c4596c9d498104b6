"""``labeler ARGS`` run in the test's own process, read like ``subprocess.run``'s result.

Tests that check what a command prints, its exit code and what it leaves in the database
need no process of their own: a fresh interpreter costs half a second of CPU (SQLAlchemy's
import alone is most of it), paid by every call. ``python -m labeler`` is
``labeler.cli.entry``, which runs :func:`labeler.cli.main` and exits with its code; this
calls ``main`` the same way, with standard input, output and error of its own and the
environment variables given, and returns what a process would have shown. Tests that need
a real process (signals, resource limits, a file descriptor's mode, the interpreter's exit)
keep ``subprocess``.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from labeler.cli import main


def labeler_in_process(
    *args: str,
    stdin: str | None = None,
    env: Mapping[str, str | None] | None = None,
    cwd: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``labeler *args`` through ``labeler.cli.main``: ``stdin`` as its standard input
    (empty when None), ``env`` set in the environment for the call (a None value removes the
    variable), in the working directory ``cwd`` (when given); its exit code (an argument
    error's ``SystemExit`` included), standard output and error as text."""
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", newline="", write_through=True)
    given = io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8")), encoding="utf-8")
    with _streams(given, stdout, stderr), _environment(env or {}), _directory(cwd):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse's usage errors, as the process would exit
            code = exit_.code if isinstance(exit_.code, int) else 1
        stdout.flush()
        stderr.flush()
    return subprocess.CompletedProcess(
        ["labeler", *args], code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8")
    )


@contextmanager
def _streams(
    stdin: io.TextIOWrapper, stdout: io.TextIOWrapper, stderr: io.TextIOWrapper
) -> Iterator[None]:
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


@contextmanager
def _environment(env: Mapping[str, str | None]) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in env}
    _set(env)
    try:
        yield
    finally:
        _set(saved)


def _set(env: Mapping[str, str | None]) -> None:
    for name, value in env.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@contextmanager
def _directory(cwd: Path | None) -> Iterator[None]:
    before = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(before)
