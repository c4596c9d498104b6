"""A session's TUI process ends when the ``labeler serve`` process that started it does.

The server puts its process id in the child's environment (:data:`PARENT_ENV`); the child's
``labeler tui`` calls :func:`watch_parent` first thing. Two watches, so that no signal, the
OOM killer's SIGKILL included, leaves a TUI process holding the database open:

* on Linux, ``prctl(PR_SET_PDEATHSIG, SIGTERM)`` (through ctypes): the kernel sends the
  child SIGTERM the moment its parent dies;
* everywhere, a daemon thread that compares ``os.getppid()`` with the parent's id every
  :data:`POLL_SECONDS` (a dead parent's children are handed to another process): on a
  change it sends the process SIGTERM and, should that not end it within
  :data:`GRACE_SECONDS`, leaves with ``os._exit``.

A parent already gone before the watch starts ends the child at once. Every label is
committed when it is made, so ending the process loses nothing. Standard library only: the
TUI pays nothing for it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

#: the environment variable holding the server's process id
PARENT_ENV = "LABELER_SERVE_PARENT"
#: how often the portable watch looks at the parent
POLL_SECONDS = 0.5
#: how long SIGTERM may take before the process leaves without cleaning up
GRACE_SECONDS = 1.0
#: exit status of a child whose server died
ORPHANED = 75
_PR_SET_PDEATHSIG = 1


def set_death_signal() -> bool:
    """Ask the Linux kernel for SIGTERM when the parent dies; False where there is no
    ``prctl`` (not Linux, no libc) or it refused."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _leave() -> None:
    with contextlib.suppress(OSError):
        os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(GRACE_SECONDS)
    os._exit(ORPHANED)


def _poll(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    _leave()


def watch_parent(parent: int, *, death_signal: bool = True) -> None:
    """End this process when process ``parent`` (its parent) ends: the kernel's death
    signal when ``death_signal`` and available, and the polling thread always. Returns at
    once; a parent that is already gone (``os.getppid() != parent``) ends the process
    now."""
    if death_signal:
        set_death_signal()
    if os.getppid() != parent:  # died before the watch was set: nothing would signal it
        os._exit(ORPHANED)
    threading.Thread(target=_poll, args=(parent,), name="labeler-parent-watch", daemon=True).start()


def watch_from_environment() -> None:
    """:func:`watch_parent` of :data:`PARENT_ENV`'s process id, when it is set to one."""
    value = os.environ.get(PARENT_ENV, "")
    if value.isascii() and value.isdigit():
        watch_parent(int(value))
