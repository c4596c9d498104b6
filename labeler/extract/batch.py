"""Many pages extracted in up to N processes, one result per page, in the order given.

:func:`extract_many` reads and extracts each file of a sequence through one profile and
yields, page by page and in input order, an :class:`Extracted` (its text, and its block
starts when asked) or a :class:`PageError` (what reading or extracting it raised). The
results are the same whatever the number of processes; only the time differs.

How the work is shared: the pages that are regular files are cut into contiguous runs of
about equal bytes (a page's size stands in for its work: extraction is about linear in the
page's length), one run per process. The calling process extracts the first run itself, as
the caller iterates, while one forked process per other run extracts its run into an
anonymous temporary file (one pickle record per page: nothing waits on a full pipe, and the
caller reads them back one at a time, so memory holds one page of theirs at once). When the
caller reaches a run, its process is waited for and its records read in order. The forks
happen after the modules the profile's engine needs are imported (:func:`preload`), so a
worker pays no start-up. Anything but a regular file (a FIFO, ``/dev/stdin``, a file that
cannot be examined) stays with the calling process: reading it elsewhere would consume it.

Fallbacks, none of which changes a result:

* one process when ``jobs`` is 1, there is less than :data:`MIN_BYTES_PER_PROCESS` of pages
  per extra process (automatic ``jobs`` only), or forking is not safe here
  (:func:`labeler.workers.may_fork`: no ``os.fork``, one usable CPU, not the main thread,
  other threads running);
* a process that cannot be started: its run is extracted by the caller's process;
* a process that dies, exits non-zero or leaves its file cut short or garbled: the pages
  of its run not yet yielded are extracted again by the caller's process;
* a page whose reading or extraction raised in a worker is done again by the caller's
  process, so a :class:`PageError` always holds that process's own exception (the same type
  and message as without workers).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import pickle
import stat
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
    "plan_owners",
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
    from labeler.extract.jsoup import DEFAULT_ENGINE, jsoup_text_and_blocks
    from labeler.extract.profiles import page_text, split_stored

    if profile == DEFAULT_PROFILE and engine in (None, DEFAULT_ENGINE):
        return jsoup_text_and_blocks(data)
    if engine is None and split_stored(profile)[0] == "bs4-get-text":
        from labeler.extract.bs4text import bs4_blocks

        try:
            return bs4_blocks(data)
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
    sha = hashlib.sha256(data).hexdigest() if digest else None
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


def _regular_size(path: PathArg) -> int | None:
    """The size of ``path`` when it is a regular file, else None (left to the caller's
    process)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def plan_owners(sizes: Sequence[int | None], jobs: int | None) -> list[int]:
    """Which process extracts each page: 0 the calling one, k ≥ 1 the k-th forked one.

    ``sizes[i]`` is page i's size in bytes, None for a page that must stay with the calling
    process. Processes: ``jobs``, or with ``jobs=None`` one per usable CPU but no more than
    one per :data:`MIN_BYTES_PER_PROCESS` bytes; never more than there are pages with a
    size, and 1 where forking is not safe (:func:`~labeler.workers.may_fork`). The pages
    with a size are cut into that many contiguous runs of about equal bytes: page i goes to
    ``floor((bytes before it + half its size) * processes / total)``, so run k holds the
    pages whose middle lies in the k-th slice of the total (each run within one page of its
    share; a run can be empty). Owners never decrease along the pages that have a size.
    """
    owners = [0] * len(sizes)
    total = sum(s for s in sizes if s is not None)
    sized = sum(s is not None for s in sizes)
    wanted = usable_cpus() if jobs is None else jobs
    if jobs is None:
        wanted = min(wanted, total // MIN_BYTES_PER_PROCESS)
    parts = min(wanted, sized)
    if parts < 2 or total <= 0 or not may_fork():
        return owners
    before = 0
    for i, size in enumerate(sizes):
        if size is None:
            continue
        owners[i] = min(parts - 1, (2 * before + size) * parts // (2 * total))
        before += size
    return owners


class _Worker:
    """A forked process extracting the pages ``run`` into ``spool``."""

    def __init__(self, pid: int, pipe: int, spool: IO[bytes]) -> None:
        self.pid: int | None = pid
        self.pipe: int | None = pipe
        self.spool = spool
        self.good = True  # False once it failed: the rest of its run is done by the caller

    def take(self, index: int) -> Extracted | None:
        """Page ``index``'s result from the worker's file, the worker waited for on the
        first call; None when the caller must extract that page itself."""
        if self.pid is not None:
            self._join()
        if not self.good:
            return None
        try:
            got, payload = pickle.load(self.spool)
        except Exception:  # cut short or garbled: the rest of the run is redone
            self.good = False
            return None
        if got != index or not (payload is None or isinstance(payload, Extracted)):
            self.good = False
            return None
        return payload

    def _join(self) -> None:
        assert self.pid is not None and self.pipe is not None
        while os.read(self.pipe, 1 << 16):  # end of file: the process is gone
            pass
        os.close(self.pipe)
        self.pipe = None
        _, status = os.waitpid(self.pid, 0)
        self.pid = None
        self.good = os.waitstatus_to_exitcode(status) == 0
        self.spool.seek(0)

    def close(self) -> None:
        """Stop the process if it still runs; drop its file."""
        if self.pid is not None:
            stop(self.pid, self.pipe)
            self.pid = self.pipe = None
        self.spool.close()


def _start(run: list[int], one: Callable[[int], Result]) -> _Worker | None:
    """Fork a process extracting the pages ``run`` (indexes, in order) into a temporary
    file of its own; None when none can be had (no temporary file, no process)."""
    try:
        spool = tempfile.TemporaryFile()  # noqa: SIM115 (the worker closes it)
    except OSError:
        return None
    parent = os.getpid()

    def child(pipe: int) -> int:
        with os.fdopen(os.dup(spool.fileno()), "wb") as out:
            for index in run:
                if os.getppid() != parent:  # the caller is gone: nobody will read this
                    return 1
                result = one(index)
                # a failed page is redone by the caller, whose own exception it reports
                payload = result if isinstance(result, Extracted) else None
                pickle.dump((index, payload), out, protocol=pickle.HIGHEST_PROTOCOL)
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
    processes (None: one per usable CPU, see :func:`plan_owners`); yield one result per
    path, in the order given (see the module's text for how the work is shared).

    Each result is an :class:`Extracted` (``blocks=True``: with the block starts, from the
    same parse where the profile's walk gives them with the text, :func:`text_and_blocks`,
    else from a walk of their own checked against the text, None when the profile reports
    none or that walk fails; ``digest=True``: with the sha256 of the bytes read) or a
    :class:`PageError` holding what ``read(path)``
    (default: the whole file) or the extraction raised; a failing page never stops the
    others. ``read`` runs in the process that extracts the page; it must not depend on
    state the caller changes while iterating. Forking, if any, happens at the first
    ``next()``; a generator closed early stops its processes.
    """
    names = list(paths)
    reader = read or _read_file

    def one(index: int) -> Result:
        return _one(names[index], reader, profile, engine, blocks, digest)

    owners = plan_owners([_regular_size(p) for p in names], jobs)
    workers: dict[int, _Worker] = {}
    if max(owners, default=0) > 0:
        preload(profile, engine)
        for k in sorted(set(owners) - {0}):
            worker = _start([i for i, o in enumerate(owners) if o == k], one)
            if worker is not None:
                workers[k] = worker
    try:
        for index, owner in enumerate(owners):
            worker = workers.get(owner) if owner else None
            done = worker.take(index) if worker is not None else None
            yield done if done is not None else one(index)
    finally:
        for worker in workers.values():
            worker.close()
