"""A forked process staging part of a file's lines into a staging file of its own: what gold
import and run import share when they read a large file in two halves.

The caller names the file (so that it removes it in every case) and says how a stage is
opened on it; the forked process opens its own database connections (the parent's are
kept, never used or closed there: closing one could end the parent's session), runs the
job, seals the stage and sends back, pickled, what the job returned. Anything it raises
ends it with status 1 and removes its file; the caller then does the job itself, so that
any error is reported as one process reports it. ``alive()``, which the job calls between
batches, ends the forked process once its parent is gone.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from labeler.workers._fork import fork_writer, stop

__all__ = ["Part", "fork_stage"]


class Stage(Protocol):
    """What the forked process does with the stage it filled: seal it, or close it."""

    def seal(self) -> None: ...

    def close(self) -> None: ...


class Engine(Protocol):
    """The part of a database engine a forked process replaces: its connection pool."""

    @property
    def pool(self) -> object: ...

    def dispose(self, close: bool = ...) -> None: ...


S = TypeVar("S", bound=Stage)
T = TypeVar("T")

#: connection pools of the parent, kept referenced (never closed) in a forked process
_INHERITED: list[object] = []


class Part(Generic[T]):
    """A forked process staging into ``path``."""

    def __init__(self, pid: int, pipe: int, path: Path) -> None:
        self.pid: int | None = pid
        self.pipe: int | None = pipe
        self.path = path

    def collect(self) -> T | None:
        """Wait for the process: what its job returned (its sealed staging file is
        :attr:`path`, removed by :meth:`discard`), or None when it did not finish cleanly."""
        assert self.pid is not None and self.pipe is not None
        with os.fdopen(self.pipe, "rb") as pipe:
            self.pipe = None
            payload = pipe.read()
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        if os.waitstatus_to_exitcode(status) != 0 or not payload:
            return None
        result: T = pickle.loads(payload)
        return result

    def discard(self) -> None:
        """Stop the process if it still runs and remove its staging file."""
        if self.pid is not None:
            stop(self.pid, self.pipe)
            self.pid = self.pipe = None
        elif self.pipe is not None:
            os.close(self.pipe)
            self.pipe = None
        self.path.unlink(missing_ok=True)


def fork_stage(
    engine: Engine,
    path: Path,
    open_stage: Callable[[Path], S],
    job: Callable[[S, Callable[[], None]], T],
) -> Part[T] | None:
    """Run ``job(open_stage(path), alive)`` in a forked process (see the module's text);
    None, ``path`` removed, when no process can be had (the caller then does the job)."""
    parent = os.getpid()

    def child(pipe: int) -> int:
        _INHERITED.append(engine.pool)
        engine.dispose(close=False)
        return _stage_here(open_stage, job, path, pipe, parent)

    forked = fork_writer(child)
    if forked is None:
        path.unlink(missing_ok=True)
        return None
    return Part(*forked, path)


def _stage_here(
    open_stage: Callable[[Path], S],
    job: Callable[[S, Callable[[], None]], T],
    path: Path,
    pipe: int,
    parent: int,
) -> int:
    def alive() -> None:
        if os.getppid() != parent:
            raise SystemExit(1)

    stage = None
    try:
        stage = open_stage(path)
        result = job(stage, alive)
        stage.seal()
        with os.fdopen(pipe, "wb") as out:
            out.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    except BaseException:  # the parent stages these lines again and reports any error
        if stage is not None:
            stage.close()
        path.unlink(missing_ok=True)
        return 1
    return 0
