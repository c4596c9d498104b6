"""Many pages extracted in up to N processes, one result per page, in the order given.

:func:`extract_many` reads and extracts each file of a sequence through one profile and
yields, page by page and in input order, an :class:`Extracted` (its text, and its block
starts when asked) or a :class:`PageError` (what reading or extracting it raised). The
results are the same whatever the number of processes; only the time differs.

How the work is shared: the pages are handed out from both ends, one at a time, under a
lock (:class:`_Claims`): the calling process takes them from the front, in order, yielding
each as it is done (so the caller's own work on a result, such as storing it, happens
meanwhile), while the forked workers take them from the back; the two ends meet where the
work balances, whatever each page costs and whatever the caller does between pages. A
worker writes each result to an anonymous temporary file of its own (a length-prefixed
pickle record: nothing waits on a full pipe); once the ends have met, the calling process
waits for the workers (each finishes the page it holds) and reads their records back in
page order, one at a time, so memory holds one page of theirs at once. The forks happen
after the modules the profile's engine needs are imported (:func:`preload`), so a worker
pays no start-up. Anything but a regular file (a FIFO, ``/dev/stdin``, a file that cannot
be examined) is left to the calling process: reading it elsewhere would consume it.

Fallbacks, none of which changes a result:

* one process when ``jobs`` is 1, there is less than :data:`MIN_BYTES_PER_PROCESS` of pages
  per extra process (automatic ``jobs`` only), or forking is not safe here
  (:func:`labeler.workers.may_fork`: no ``os.fork``, one usable CPU, not the main thread,
  other threads running);
* a process that cannot be started: the others (or the calling process alone) do its share;
* a process that dies or exits non-zero: the pages it had written in full are taken, the
  page it held (and anything cut short or garbled) is extracted by the calling process;
* a page whose reading or extraction raised in a worker is done again by the calling
  process, so a :class:`PageError` always holds that process's own exception (the same type
  and message as without workers).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pickle
import stat
import struct
import tempfile
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import IO, Literal, NamedTuple

from labeler.extract._profile import DEFAULT_PROFILE
from labeler.workers import fork_writer, may_fork, stop, usable_cpus

__all__ = [
    "MIN_BYTES_PER_PROCESS",
    "Extracted",
    "PageError",
    "extract_many",
    "plan_processes",
    "preload",
    "text_and_blocks",
]

MIN_BYTES_PER_PROCESS = 256 * 1024
"""Automatic process counts give each process at least this many bytes of pages: below
that, the fork and the hand-over cost more than they save (a quarter megabyte is some
10-30 ms of extraction)."""

PathArg = str | os.PathLike[str]


class Extracted(NamedTuple):
    """One page's extraction: its ``text``; its ``blocks`` (sorted block starts) when they
    were asked for and can be had (see :func:`extract_many`), else None; the ``sha256``
    (hex) of the bytes extracted when asked for, else None."""

    text: str
    blocks: list[int] | None
    sha256: str | None


class PageError(NamedTuple):
    """A page that could not be had: ``error`` is what ``stage`` (``"read"``: the reader;
    ``"extract"``: the profile) raised, in the calling process."""

    error: Exception
    stage: Literal["read", "extract"]


Result = Extracted | PageError


def text_and_blocks(
    data: bytes, profile: str = DEFAULT_PROFILE, *, engine: str | None = None
) -> tuple[str, list[int] | None]:
    """The page text of ``data`` under ``profile`` and, where the profile's walk gives both
    from one parse, its block starts: the default profile on its default engine (the
    jsoup port's walk, :func:`labeler.extract.jsoup.jsoup_text_and_blocks`) and
    ``bs4-get-text`` (one soup, its walk checked against ``get_text()``). For the rest
    (another engine, a pipeline's own profile) and for a bs4 walk that fails its check:
    ``(page_text(data, profile, engine=engine), None)``; the caller then walks the page
    for its blocks on its own, checked against that text. Raises what the extraction
    raises."""
    from labeler.errors import ExtractError
    from labeler.extract import bs4text
    from labeler.extract.jsoup import DEFAULT_ENGINE, jsoup_text_and_blocks
    from labeler.extract.profiles import page_text, split_stored

    if profile == DEFAULT_PROFILE and engine in (None, DEFAULT_ENGINE):
        return jsoup_text_and_blocks(data)
    if engine is None and split_stored(profile)[0] == bs4text.NAME:
        try:
            return bs4text.bs4_blocks(data)
        except ExtractError:
            pass
    return page_text(data, profile, engine=engine), None


def preload(profile: str = DEFAULT_PROFILE, engine: str | None = None) -> None:
    """Import what extracting through ``profile`` on ``engine`` needs, so that processes
    forked afterwards start with it loaded. Never raises: a profile that cannot be found
    fails on each page, as it would without workers."""
    names = ["labeler.extract.profiles", "labeler.extract.blocks"]
    if profile == DEFAULT_PROFILE:
        names += ["labeler.extract.jsoup", "labeler.extract.jsoup_parser"]
        names.append("labeler.extract.jsoup_parser.text_walk")
        if engine in ("lexbor", "html5lib"):
            names += ["labeler.extract.prepass", f"labeler.extract.engine_{engine}"]
    for name in names:
        importlib.import_module(name)
    if profile != DEFAULT_PROFILE:
        from labeler.extract.profiles import get_profile

        with contextlib.suppress(Exception):  # reported per page, as without workers
            get_profile(profile)  # imports a pipeline's module, or bs4


def _read_file(path: PathArg) -> bytes:
    return Path(path).read_bytes()


def _one(
    path: PathArg,
    read: Callable[[PathArg], bytes],
    profile: str,
    engine: str | None,
    blocks: bool,
    digest: bool,
) -> Result:
    """Read and extract one page; whatever either raises is returned as a PageError."""
    from labeler.extract.profiles import page_text

    try:
        data = read(path)
    except Exception as exc:
        return PageError(exc, "read")
    sha = _sha256(data) if digest else None
    try:
        if blocks:
            text, starts = text_and_blocks(data, profile, engine=engine)
        else:
            text, starts = page_text(data, profile, engine=engine), None
    except Exception as exc:  # RecursionError and MemoryError included: one page's failure
        return PageError(exc, "extract")
    if blocks and starts is None:
        starts = _second_walk(data, profile, text)
    return Extracted(text, starts, sha)


def _second_walk(data: bytes, profile: str, text: str) -> list[int] | None:
    """The block starts of ``text`` from a walk of their own (checked against it); None
    when the profile reports none or the walk fails (the caller may walk again to learn
    why)."""
    from labeler.extract.blocks import block_starts, reports_blocks

    if not reports_blocks(profile):
        return None
    try:
        return block_starts(data, profile, text=text)
    except Exception:
        return None


def _sha256(data: bytes) -> str:
    import hashlib  # only when asked for: a few milliseconds of start-up otherwise

    return hashlib.sha256(data).hexdigest()


def _regular_size(path: PathArg) -> int | None:
    """The size of ``path`` when it is a regular file, else None (left to the caller's
    process)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def plan_processes(sizes: Sequence[int | None], jobs: int | None) -> int:
    """How many processes extract pages of these ``sizes`` (bytes; None for a page that
    must stay with the calling process), the calling one included.

    ``jobs``, or with ``jobs=None`` one per usable CPU but no more than one per
    :data:`MIN_BYTES_PER_PROCESS` bytes of pages with a size; never more than there are
    pages with a size; 1 where forking is not safe (:func:`~labeler.workers.may_fork`).
    """
    total = sum(s for s in sizes if s is not None)
    sized = sum(s is not None for s in sizes)
    wanted = usable_cpus() if jobs is None else jobs
    if jobs is None:
        wanted = min(wanted, total // MIN_BYTES_PER_PROCESS)
    parts = min(wanted, sized)
    return parts if parts >= 2 and may_fork() else 1


_COUNTERS = struct.Struct("<qq")  # the next page from the front, one past the last free
_HEADER = struct.Struct("<qq")  # a worker's record: page index, pickle length


class _Claims:
    """Pages ``0 .. n-1`` handed out from both ends, one at a time, to processes forked
    after it is made: :meth:`front` gives the lowest page not yet taken, :meth:`back` the
    highest, None once every page is taken. The two counters live in a shared memory map;
    a POSIX record lock on its file (held by one process at a time, unlike ``flock``,
    which a fork shares) makes each take atomic."""

    def __init__(self, n: int) -> None:
        import mmap

        self._file = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
        self._file.truncate(_COUNTERS.size)
        self._map = mmap.mmap(self._file.fileno(), _COUNTERS.size)
        _COUNTERS.pack_into(self._map, 0, 0, n)

    def _take(self, front: bool) -> int | None:
        import fcntl

        fd = self._file.fileno()
        fcntl.lockf(fd, fcntl.LOCK_EX)
        try:
            low, high = _COUNTERS.unpack_from(self._map, 0)
            if low >= high:
                return None
            if front:
                _COUNTERS.pack_into(self._map, 0, low + 1, high)
                return int(low)
            _COUNTERS.pack_into(self._map, 0, low, high - 1)
            return int(high - 1)
        finally:
            fcntl.lockf(fd, fcntl.LOCK_UN)

    def front(self) -> int | None:
        return self._take(True)

    def back(self) -> int | None:
        return self._take(False)

    def close(self) -> None:
        self._map.close()
        self._file.close()


class _Worker:
    """A forked process extracting pages it takes from the back into ``spool``."""

    def __init__(self, pid: int, pipe: int, spool: IO[bytes]) -> None:
        self.pid: int | None = pid
        self.pipe: int | None = pipe
        self.spool = spool

    def join(self) -> dict[int, tuple[int, int]]:
        """Wait for the process to end; where each page it wrote in full lies in its file:
        ``{page: (offset, length)}`` (a dead process's whole records count too: each was
        written whole before the next was begun)."""
        assert self.pid is not None and self.pipe is not None
        while os.read(self.pipe, 1 << 16):  # end of file: the process is gone
            pass
        os.close(self.pipe)
        self.pipe = None
        os.waitpid(self.pid, 0)
        self.pid = None
        found: dict[int, tuple[int, int]] = {}
        size = os.fstat(self.spool.fileno()).st_size
        self.spool.seek(0)
        offset = 0
        while offset + _HEADER.size <= size:
            index, length = _HEADER.unpack(self.spool.read(_HEADER.size))
            offset += _HEADER.size
            if length < 0 or offset + length > size:
                break  # cut short: the pages from here on are redone
            found[index] = (offset, length)
            offset += length
            self.spool.seek(offset)
        return found

    def record(self, where: tuple[int, int]) -> Extracted | None:
        """The result written at ``where``; None for a page the worker could not do (or a
        record that does not read back): the caller does it."""
        offset, length = where
        self.spool.seek(offset)
        try:
            payload = pickle.loads(self.spool.read(length))
        except Exception:
            return None
        return payload if isinstance(payload, Extracted) else None

    def close(self) -> None:
        """Stop the process if it still runs; drop its file."""
        if self.pid is not None:
            stop(self.pid, self.pipe)
            self.pid = self.pipe = None
        self.spool.close()


def _start(claims: _Claims, mine: set[int], one: Callable[[int], Result]) -> _Worker | None:
    """Fork a worker taking pages from the back of ``claims`` (those in ``mine`` are the
    caller's: taken, left unwritten, so the caller does them) into a temporary file of its
    own; None when none can be had (no temporary file, no process)."""
    try:
        spool = tempfile.TemporaryFile()  # noqa: SIM115 (the worker closes it)
    except OSError:
        return None
    parent = os.getpid()

    def child(pipe: int) -> int:
        with os.fdopen(os.dup(spool.fileno()), "wb") as out:
            while (index := claims.back()) is not None:
                if os.getppid() != parent:  # the caller is gone: nobody will read this
                    return 1
                if index in mine:
                    continue
                result = one(index)
                # a failed page is redone by the caller, whose own exception it reports
                payload = pickle.dumps(
                    result if isinstance(result, Extracted) else None,
                    protocol=pickle.HIGHEST_PROTOCOL,
                )
                out.write(_HEADER.pack(index, len(payload)))
                out.write(payload)
        os.close(pipe)
        return 0

    forked = fork_writer(child)
    if forked is None:
        spool.close()
        return None
    return _Worker(*forked, spool)


def extract_many(
    paths: Sequence[PathArg],
    profile: str = DEFAULT_PROFILE,
    *,
    engine: str | None = None,
    blocks: bool = False,
    digest: bool = False,
    read: Callable[[PathArg], bytes] | None = None,
    jobs: int | None = None,
) -> Generator[Extracted | PageError, None, None]:
    """Extract the files ``paths`` through ``profile`` (and ``engine``) in up to ``jobs``
    processes (None: one per usable CPU, see :func:`plan_processes`); yield one result per
    path, in the order given (see the module's text for how the work is shared).

    Each result is an :class:`Extracted` (``blocks=True``: with the block starts, from the
    same parse where the profile's walk gives them with the text, :func:`text_and_blocks`,
    else from a walk of their own checked against the text, None when the profile reports
    none or that walk fails; ``digest=True``: with the sha256 of the bytes read) or a
    :class:`PageError` holding what ``read(path)`` (default: the whole file) or the
    extraction raised; a failing page never stops the others. ``read`` runs in the process
    that extracts the page; it must not depend on state the caller changes while iterating.
    Forking, if any, happens at the first ``next()``; a generator closed early stops its
    processes.
    """
    names = list(paths)
    reader = read or _read_file

    def one(index: int) -> Result:
        return _one(names[index], reader, profile, engine, blocks, digest)

    sizes = [_regular_size(p) for p in names]
    processes = plan_processes(sizes, jobs)
    if processes < 2:
        for index in range(len(names)):
            yield one(index)
        return
    preload(profile, engine)
    claims = _Claims(len(names))
    mine = {i for i, size in enumerate(sizes) if size is None}
    workers = [w for _ in range(processes - 1) if (w := _start(claims, mine, one)) is not None]
    try:
        met = 0  # the pages before it are the caller's, the rest the workers'
        while (taken := claims.front()) is not None:
            met = taken + 1
            yield one(taken)
        written = [(w, w.join()) for w in workers]
        for index in range(met, len(names)):
            done = next((w.record(at[index]) for w, at in written if index in at), None)
            yield done if done is not None else one(index)
    finally:
        for worker in workers:
            worker.close()
        claims.close()
