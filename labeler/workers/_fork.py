"""Forked worker processes that send their result through a pipe: the plumbing shared by
run import and gold import (:mod:`labeler.runs`, :mod:`labeler.gold`: half of a large file
staged in another process, :mod:`labeler.workers._part`) and scoring
(:mod:`labeler.evaluation`, which scores ranges of questions in several).

A worker that cannot be started (no ``fork``, a process limit, no pipe) is not an error:
:func:`fork_writer` returns None and the caller does the work itself. Whatever a worker
raises ends it with status 1, never a traceback, so the caller's own redo reports it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable

__all__ = ["fork_writer", "may_fork", "stop", "usable_cpus"]


def usable_cpus() -> int:
    """CPUs this process may run on (its affinity mask where the system has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def may_fork() -> bool:
    """Whether forking is safe and worth it here: ``os.fork`` exists, two or more CPUs are
    usable, and the caller is the main thread with no other thread but daemon ones (a fork
    copies only the calling thread, so a lock another thread holds would stay held)."""
    if not hasattr(os, "fork") or usable_cpus() < 2:
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    return all(t.daemon or t is threading.main_thread() for t in threading.enumerate())


def fork_writer(child: Callable[[int], int]) -> tuple[int, int] | None:
    """Fork a process that runs ``child(write_fd)`` and exits with the status it returns
    (1 if it raises anything); ``(pid, read_fd)`` for the caller, who reads the pipe and
    waits for the process (or :func:`stop` s it). None when no pipe or process can be had."""
    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:  # e.g. a process limit
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the worker: never returns
        status = 1
        try:
            os.close(read_end)
            status = child(write_end)
        except BaseException:  # the parent redoes this work and reports any error itself
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    return pid, read_end


def stop(pid: int, fd: int | None) -> None:
    """Kill a worker whose result is no longer wanted, close its pipe and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    if fd is not None:
        os.close(fd)
    os.waitpid(pid, 0)
