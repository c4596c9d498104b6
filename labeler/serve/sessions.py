"""The open browser sessions of one ``labeler serve`` process: cap, idle time, revocation.

A session is one websocket and the TUI process behind it. :class:`Sessions` admits at most
``limit`` at once (:meth:`Sessions.open` returns None beyond that), and
:meth:`Sessions.expired` names, at each periodic check, those to end: whose token is no
longer an active annotator's (revoked, or replaced by ``rotate``) or whose last input is
more than ``idle_timeout`` seconds old. Times are the event loop's monotonic clock.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field

#: memory budgeted per TUI process (one measured 78 MB resident on a two-page database;
#: the rest is room for long pages and their elements)
SESSION_MEMORY = 150 * 1024 * 1024
#: sessions per CPU: a labelling session idles between key presses
SESSIONS_PER_CPU = 4


def default_max_sessions() -> int:
    """``SESSIONS_PER_CPU`` per CPU, fewer when available memory (``MemAvailable`` of
    /proc/meminfo, where there is one) holds fewer sessions of ``SESSION_MEMORY``; at
    least 2."""
    by_cpu = SESSIONS_PER_CPU * (os.cpu_count() or 1)
    by_memory = by_cpu
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    by_memory = int(line.split()[1]) * 1024 // SESSION_MEMORY
                    break
    except (OSError, ValueError, IndexError):
        pass
    return max(2, min(by_cpu, by_memory))


@dataclass(eq=False)
class Session:
    """One open session: who, with which token (its hash), and its last input."""

    annotator: str
    token_hash: str
    last_input: float
    #: ends the session: tells the browser why (a ``/ended?why=`` reason), closes the socket
    end: Callable[[str], Awaitable[None]] | None = None
    ending: bool = field(default=False)


class Sessions:
    """The open sessions, at most ``limit`` of them."""

    def __init__(self, limit: int, idle_timeout: float) -> None:
        if limit < 1:
            raise ValueError("limit must be at least 1")
        self.limit = limit
        self.idle_timeout = idle_timeout
        self._open: list[Session] = []

    def __len__(self) -> int:
        return len(self._open)

    @property
    def full(self) -> bool:
        """True when no other session may open."""
        return len(self._open) >= self.limit

    def open(self, annotator: str, token_hash: str, now: float) -> Session | None:
        """A new session, or None when :attr:`full`."""
        if self.full:
            return None
        session = Session(annotator, token_hash, now)
        self._open.append(session)
        return session

    def close(self, session: Session) -> None:
        """Forget ``session`` (again: nothing happens)."""
        if session in self._open:
            self._open.remove(session)

    def all(self) -> list[Session]:
        """The open sessions, oldest first."""
        return list(self._open)

    def expired(self, active_hashes: Collection[str], now: float) -> list[tuple[Session, str]]:
        """The sessions to end now, each with its reason: ``revoked`` when its token hash is
        not in ``active_hashes``, else ``idle`` when ``now - last_input > idle_timeout``.
        Sessions already ending are left out."""
        out: list[tuple[Session, str]] = []
        for session in self._open:
            if session.ending:
                continue
            if session.token_hash not in active_hashes:
                out.append((session, "revoked"))
            elif now - session.last_input > self.idle_timeout:
                out.append((session, "idle"))
        return out
