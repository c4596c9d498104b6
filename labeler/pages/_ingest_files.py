"""Ingest pages: files and directories → page text in the store, with change detection.

:func:`ingest_paths` walks the given paths (directories recursively, in sorted order),
extracts each page's text through the profile its suffix selects (``.html``/``.htm`` → the
default jsoup profile, ``.txt``/``.md`` → ``text``; anything else is skipped and counted) and
stores it under a document id:

* for a file inside a directory argument: its path relative to that directory, with ``/``;
* for a file argument: its name (a symbolic link given as a file argument is followed:
  the id is the link's name, the text its target's).

Inside a directory argument, a symbolic link to a file outside that directory is not
followed: it is counted as skipped, with a note; links to directories are not descended
(links to files inside the directory are read like the files they point at).

Behaviour worth knowing:

* A file whose sha256 and profile match the stored page is ``unchanged`` and not even
  extracted; nothing is written (``reextract=True`` extracts anyway and stores the text if
  the extractor now produces something else). Except: a page stored without block starts
  (ingested before schema version 6) gets them, and only them (``filled_ids``); that
  takes one block walk of the file checked against the stored text, once.
* Each stored page gets its block starts (:func:`labeler.extract.blocks.block_starts`:
  the structure chunker's boundaries, which the TUI's ``b``/``s`` keys follow too); a page
  whose block walk fails or does not reproduce its text is stored without them, with a note.
  The default profile (on its default engine) and ``bs4-get-text`` parse each page once for
  both its text and its blocks; another engine or a pipeline's own profile extracts the
  text, then walks the page again for its blocks (checked against that text).
* A changed file replaces the page text; its labelled elements are re-anchored by text and
  context (:mod:`labeler.anchoring`): moved ones and ones marked stale are listed in the
  report, and stale ones whose exact text is back at their offsets become ok again
  (``restored``); nothing is ever dropped.
* A document id already stored from *another* source file (another resolved path) with
  other bytes is not replaced: the file is listed in ``failed`` naming both paths, unless
  ``replace_source`` is true (e.g. the corpus folder moved). The same id from the same path
  is an ordinary update; identical bytes from another path are ``unchanged`` (with
  ``replace_source``: ``updated``, recording the new path).
* Each document is one short write transaction (all or nothing); a failure on one file
  (unreadable, not a regular file, too large, extraction error, duplicate id) is collected
  in ``failed`` with the reason and the walk goes on.
* A top-level path that does not exist raises :class:`~labeler.errors.InputError` before
  anything is written. Database errors other than invariant violations propagate as
  :class:`~labeler.errors.StoreError`.
* Memory: one file at a time; files above ``max_bytes`` are refused unread.
* Processes: the HTML pages that need extracting are extracted in up to ``jobs`` processes
  (:func:`labeler.extract.extract_many`: one per usable CPU by default), each page's text
  and blocks from one walk as ever; this process stores them one at a time, in order, so
  the report, the progress and the stored rows are the same with any number.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
import time
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

from labeler.errors import ExtractError, InputError, IntegrityError
from labeler.extract import (
    DEFAULT_PROFILE,
    HTML_SUFFIXES,
    TEXT_SUFFIXES,
    profile_for_path,
)
from labeler.extract.batch import (
    Extracted,
    PageError,
    extract_many,
    plan_processes,
    text_and_blocks,
)
from labeler.extract.blocks import block_starts, reports_blocks
from labeler.progress import Progress
from labeler.store import StaleElement, Store, document_fingerprint, upsert_document
from labeler.store.browse import page_text as stored_text
from labeler.store.document_table import Fingerprint, SourceConflict, same_source
from labeler.store.pageblocks import encode_blocks, fill_blocks
from labeler.store.recheck import MovedElement, RestoredElement

if TYPE_CHECKING:
    from sqlmodel import Session

ProgressFn = Progress
"""``progress(done, total, path)``, called once per file after it is handled."""

DEFAULT_MAX_BYTES = 128 * 1024 * 1024
_SUFFIXES = ", ".join(sorted(HTML_SUFFIXES | TEXT_SUFFIXES))


class IngestFailure(NamedTuple):
    """A file that could not be ingested, and why (for the user); unpacks as (path, reason)."""

    path: str
    reason: str


@dataclass(frozen=True)
class IngestReport:
    """What one ingest did.

    ``added``/``updated``/``unchanged``/``skipped`` are counts; the matching ``*_ids``
    (document ids) and ``skipped_paths`` say which. ``failed`` holds (path, reason) pairs,
    ``stale`` the elements newly marked stale, ``moved`` the elements re-anchored to new
    offsets, ``restored`` the stale elements ok again, ``empty`` the ids stored with empty
    text, ``filled_ids`` the unchanged pages that only got their block starts stored,
    ``notes`` remarks for the user (e.g. a directory with nothing to ingest), ``bytes`` the
    bytes read and ``seconds`` the wall time.
    """

    added_ids: tuple[str, ...] = ()
    updated_ids: tuple[str, ...] = ()
    unchanged_ids: tuple[str, ...] = ()
    skipped_paths: tuple[str, ...] = ()
    failed: tuple[IngestFailure, ...] = ()
    stale: tuple[StaleElement, ...] = ()
    empty: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    bytes: int = 0
    moved: tuple[MovedElement, ...] = ()
    seconds: float = 0.0
    restored: tuple[RestoredElement, ...] = ()
    filled_ids: tuple[str, ...] = ()

    @property
    def added(self) -> int:
        """Number of new documents."""
        return len(self.added_ids)

    @property
    def updated(self) -> int:
        """Number of documents whose file (and maybe text) changed."""
        return len(self.updated_ids)

    @property
    def unchanged(self) -> int:
        """Number of documents left as they were."""
        return len(self.unchanged_ids)

    @property
    def skipped(self) -> int:
        """Number of files with a suffix ingest does not take."""
        return len(self.skipped_paths)

    @property
    def files(self) -> int:
        """Every file seen: stored, unchanged, skipped or failed."""
        return self.added + self.updated + self.unchanged + self.skipped + len(self.failed)


@dataclass(frozen=True)
class _Candidate:
    path: Path
    doc_id: str
    profile: str | None


@dataclass
class _Tally:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[IngestFailure] = field(default_factory=list)
    stale: list[StaleElement] = field(default_factory=list)
    moved: list[MovedElement] = field(default_factory=list)
    restored: list[RestoredElement] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    filled: list[str] = field(default_factory=list)
    bytes_read: int = 0

    def fail(self, path: Path | str, reason: str) -> None:
        self.failed.append(IngestFailure(str(path), reason))


def _walk(root: Path, tally: _Tally) -> Iterable[_Candidate]:
    def on_error(exc: OSError) -> None:
        tally.fail(exc.filename or root, f"cannot list directory: {exc.strerror or exc}")

    inside = os.path.realpath(root)
    for dirpath, dirnames, filenames in os.walk(root, onerror=on_error):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath, name)
            profile = profile_for_path(name)
            if profile and path.is_symlink() and not _within(os.path.realpath(path), inside):
                # a link out of the folder would store a file the user did not give
                tally.skipped.append(str(path))
                tally.notes.append(
                    f"{path}: symbolic link to {os.path.realpath(path)}, outside {root}; "
                    "not followed (give the file itself to ingest it)"
                )
                continue
            yield _Candidate(path, path.relative_to(root).as_posix(), profile)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def collect(paths: Sequence[str | Path], tally: _Tally) -> list[_Candidate]:
    """Expand the arguments into files, in order, each file once.

    Raises :class:`InputError` for an argument that does not exist.
    """
    for arg in paths:
        if not os.path.lexists(arg):
            raise InputError(arg, "no such file or directory")
    found: list[_Candidate] = []
    for arg in paths:
        root = Path(arg)
        if root.is_dir():
            inside = list(_walk(root, tally))
            if not any(c.profile for c in inside):
                tally.notes.append(f"{arg}: no files to ingest ({_SUFFIXES}) in this directory")
            found.extend(inside)
        else:
            found.append(_Candidate(root, root.name, profile_for_path(root.name)))
    unique: dict[str, _Candidate] = {}
    for cand in found:
        unique.setdefault(os.path.abspath(cand.path), cand)
    return list(unique.values())


def _read(path: Path, max_bytes: int) -> bytes | str:
    """The file's bytes, or the reason they cannot be had."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file"
        if info.st_size > max_bytes:
            return f"too large ({info.st_size} bytes; the limit is {max_bytes})"
        with path.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if len(data) > max_bytes:
        return f"too large (more than {max_bytes} bytes)"
    return data


def _ingest_one(
    store: Store,
    cand: _Candidate,
    profile: str,
    tally: _Tally,
    *,
    engine: str | None,
    reextract: bool,
    max_bytes: int,
    replace_source: bool,
    ready: Extracted | None = None,
) -> None:
    """Ingest one file. ``ready`` is its text and blocks as a worker extracted them
    (:func:`_extracted`), used when its ``sha256`` is that of the bytes read here (a file
    rewritten meanwhile is extracted again)."""
    data = _read(cand.path, max_bytes)
    if isinstance(data, str):
        tally.fail(cand.path, data)
        return
    tally.bytes_read += len(data)
    sha = hashlib.sha256(data).hexdigest()
    source = os.path.abspath(cand.path)
    with store.session() as session:
        known = document_fingerprint(session, cand.doc_id)
    if known is not None:
        verdict = _verdict(known, sha, profile, source, reextract, replace_source)
        if verdict == "conflict":
            # refused before extracting; upsert_document checks again in its transaction
            tally.fail(cand.path, str(SourceConflict(cand.doc_id, known.source_path, source)))
            return
        if verdict == "unchanged":
            if not known.has_blocks and reports_blocks(profile):
                _fill_blocks(store, cand, data, sha, profile, tally)
            tally.unchanged.append(cand.doc_id)
            return
    try:
        if ready is not None and ready.sha256 == sha:  # made from these very bytes
            text, walked = ready.text, ready.blocks
        else:
            text, walked = text_and_blocks(data, profile, engine=engine)
    except Exception as exc:  # the extractor must never take the whole ingest down
        tally.fail(cand.path, f"cannot extract text ({profile}): {type(exc).__name__}: {exc}")
        return
    blocks: list[int] | None
    if walked is None:  # no blocks from the text's walk: a walk of their own, or a note
        blocks = _blocks(cand, data, profile, text, tally)
    else:
        blocks = walked if _storable_blocks(cand, walked, text, tally) else None
    del data
    try:
        with store.write() as session:
            result = upsert_document(
                session,
                doc_id=cand.doc_id,
                source_path=source,
                sha256=sha,
                profile=profile,
                text=text,
                replace_source=replace_source,
                blocks=blocks,
            )
    except IntegrityError as exc:
        tally.fail(cand.path, str(exc))
        return
    if result.blocks_written:
        tally.filled.append(cand.doc_id)
    by_outcome = {"added": tally.added, "updated": tally.updated, "unchanged": tally.unchanged}
    by_outcome[result.outcome].append(cand.doc_id)
    tally.stale.extend(result.stale)
    tally.moved.extend(result.moved)
    tally.restored.extend(result.restored)
    if not text and result.outcome != "unchanged":
        tally.empty.append(cand.doc_id)


def _verdict(
    known: Fingerprint,
    sha: str,
    profile: str,
    source: str,
    reextract: bool,
    replace_source: bool,
) -> Literal["conflict", "unchanged", "extract"]:
    """What becomes of a file whose document id is stored (``known``): ``conflict`` (stored
    from another source file with other bytes, and no ``replace_source``), ``unchanged``
    (same bytes and profile, no ``reextract``, and no source to record) or ``extract``."""
    elsewhere = not same_source(known.source_path, source)
    if elsewhere and known.sha256 != sha and not replace_source:
        return "conflict"
    same = (known.sha256, known.profile) == (sha, profile)
    if same and not reextract and not (elsewhere and replace_source):
        return "unchanged"
    return "extract"


def _blocks(
    cand: _Candidate, data: bytes, profile: str, text: str, tally: _Tally
) -> list[int] | None:
    """The block starts of ``text`` (the page ``data`` gave), or None when the profile has
    none, or (with a note) when the block walk fails or does not reproduce ``text``: the
    page is still stored, and its users fall back to what they did without blocks."""
    if not reports_blocks(profile):
        return None
    try:
        blocks = block_starts(data, profile, text=text)
    except Exception as exc:  # a block walk bug must not cost the page its text
        tally.notes.append(f"{cand.path}: no block boundaries stored ({type(exc).__name__}: {exc})")
        return None
    return blocks if _storable_blocks(cand, blocks, text, tally) else None


def _storable_blocks(cand: _Candidate, blocks: list[int], text: str, tally: _Tally) -> bool:
    """Whether the store takes these offsets for ``text``; if not (a walk bug), a note says
    so and the page is stored without them."""
    try:
        encode_blocks(blocks, len(text))
    except Exception as exc:
        tally.notes.append(f"{cand.path}: no block boundaries stored ({type(exc).__name__}: {exc})")
        return False
    return True


def _fill_blocks(
    store: Store, cand: _Candidate, data: bytes, sha: str, profile: str, tally: _Tally
) -> None:
    """Store the block starts of an unchanged page that has none, and nothing else.

    The block walk is checked against the stored text (not a fresh extraction), so a page
    whose text the extractor would now make differently gets none rather than wrong ones.
    """
    with store.session() as session:
        text = stored_text(session, cand.doc_id)
    if text is None:
        return
    blocks = _blocks(cand, data, profile, text, tally)
    if blocks is None:
        return
    with store.write() as session:
        filled = fill_blocks(
            session, cand.doc_id, sha256=sha, profile=profile, blocks=blocks, length=len(text)
        )
    if filled:
        tally.filled.append(cand.doc_id)


def ingest_paths(
    store: Store,
    paths: Sequence[str | Path],
    *,
    progress: ProgressFn | None = None,
    reextract: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
    replace_source: bool = False,
    profile: str | None = None,
    engine: str | None = None,
    jobs: int | None = None,
) -> IngestReport:
    """Ingest files and directories into ``store``; see the module docstring.

    ``replace_source`` lets a file replace a page stored from another source file.
    ``profile`` extracts the HTML files through that profile instead of the default (a
    name, ``package.module:function`` or an entry-point name; see
    :mod:`labeler.extract.profiles`); pages record its stored name (``name@version``),
    and a page stored through another profile is a changed page like any other (its
    labels re-anchored, or stale). :class:`~labeler.errors.ExtractError` for an unknown
    profile, before anything is read. ``engine`` picks the HTML profile's parser (all
    engines of a profile give the same text, so pages record only the profile);
    ``ExtractError`` before anything is read when the profile has no such engine.

    ``jobs`` is how many processes extract the HTML pages (None: one per usable CPU when
    there is enough to share, see :func:`labeler.extract.batch.plan_processes`; 1: none
    forked). The report and the stored rows do not depend on it: the pages are still stored
    one at a time, in order, by this process.

    Raises :class:`InputError` when a path does not exist (before anything is written).
    ``progress(done, total, path)`` is called after each file, skipped ones included.
    """
    started = time.perf_counter()
    tally = _Tally()
    html_profile = DEFAULT_PROFILE
    if profile is not None:
        from labeler.extract.blocks import no_blocks_message
        from labeler.extract.profiles import get_profile

        html_profile = get_profile(profile).stored
        if not reports_blocks(html_profile):
            tally.notes.append(no_blocks_message(html_profile))
    if engine is not None:
        from labeler.extract.profiles import get_profile

        known = get_profile(html_profile).engines
        if engine not in known:
            raise ExtractError(
                f"unknown engine {engine!r} for profile {html_profile}; "
                f"known: {', '.join(known) or 'none'}"
            )
    candidates = collect(paths, tally)
    routes = _routes(candidates)
    total = len(candidates)
    ahead = _extracted(
        store,
        candidates,
        routes,
        html_profile,
        engine=engine,
        reextract=reextract,
        max_bytes=max_bytes,
        replace_source=replace_source,
        jobs=jobs,
    )
    try:
        for done, (cand, route) in enumerate(zip(candidates, routes, strict=True), start=1):
            if route == _SKIP:
                tally.skipped.append(str(cand.path))
            elif route != _INGEST:
                tally.fail(cand.path, route)
            else:
                html = cand.profile == DEFAULT_PROFILE
                _ingest_one(
                    store,
                    cand,
                    html_profile if html else str(cand.profile),
                    tally,
                    engine=engine if html else None,
                    reextract=reextract,
                    max_bytes=max_bytes,
                    replace_source=replace_source,
                    ready=ahead.get(done - 1),
                )
            if progress is not None:
                progress(done, total, str(cand.path))
    finally:
        ahead.close()
    return IngestReport(
        added_ids=tuple(tally.added),
        updated_ids=tuple(tally.updated),
        unchanged_ids=tuple(tally.unchanged),
        skipped_paths=tuple(tally.skipped),
        failed=tuple(tally.failed),
        stale=tuple(tally.stale),
        empty=tuple(tally.empty),
        notes=tuple(tally.notes),
        bytes=tally.bytes_read,
        seconds=time.perf_counter() - started,
        moved=tuple(tally.moved),
        restored=tuple(tally.restored),
        filled_ids=tuple(tally.filled),
    )


_SKIP = "skip"
_INGEST = "ingest"


def _routes(candidates: Sequence[_Candidate]) -> list[str]:
    """What becomes of each candidate, in order: :data:`_SKIP` (a suffix ingest does not
    take), :data:`_INGEST`, or the reason it fails (a file name that is not UTF-8, a
    document id an earlier file took)."""
    seen: dict[str, Path] = {}
    routes: list[str] = []
    for cand in candidates:
        first = seen.get(cand.doc_id)
        if cand.profile is None:
            routes.append(_SKIP)
        elif not _utf8(cand.doc_id):
            routes.append("file name is not valid UTF-8")
        elif first is not None:
            routes.append(f"document id {cand.doc_id!r} is already taken by {first}")
        else:
            seen[cand.doc_id] = cand.path
            routes.append(_INGEST)
    return routes


class _Ahead:
    """The HTML pages extracted ahead in worker processes, handed out in candidate order:
    :meth:`get` gives candidate ``index``'s result (None for a page not extracted ahead,
    or one whose extraction failed: :func:`_ingest_one` then extracts it itself, reporting
    any error as it always does)."""

    def __init__(
        self, indexes: Sequence[int], results: Generator[Extracted | PageError, None, None]
    ) -> None:
        self._indexes = set(indexes)
        self._results = results

    def close(self) -> None:
        """Stop the workers (an ingest ended early, by an error)."""
        self._results.close()

    def get(self, index: int) -> Extracted | None:
        if index not in self._indexes:
            return None
        result = next(self._results)
        return result if isinstance(result, Extracted) else None


def _extracted(
    store: Store,
    candidates: Sequence[_Candidate],
    routes: Sequence[str],
    profile: str,
    *,
    engine: str | None,
    reextract: bool,
    max_bytes: int,
    replace_source: bool,
    jobs: int | None,
) -> _Ahead:
    """Start extracting, in up to ``jobs`` processes (:func:`labeler.extract.extract_many`,
    text and blocks from one walk, as :func:`_ingest_one` makes them), the HTML pages that
    will need it: a document not stored yet, or stored from other bytes or through another
    profile (:func:`_verdict`, from the stored fingerprint and the file's sha256). Nothing
    is extracted ahead when one process is asked for, there is too little to share (see
    :func:`labeler.extract.batch.plan_processes`) or forking is not safe here: the ingest then
    extracts each page as it comes, exactly as the workers do. A guess that turns out wrong (a file rewritten meanwhile) costs time, never a
    result: :func:`_ingest_one` only takes a text made from the bytes it read."""
    html = [
        i
        for i, (cand, route) in enumerate(zip(candidates, routes, strict=True))
        if route == _INGEST and cand.profile == DEFAULT_PROFILE
    ]
    # the workers extract no more than all of these: too little to share, no need to look
    if plan_processes([_size(candidates[i].path) for i in html], jobs) < 2:
        return _Ahead((), _nothing())
    with store.session() as session:  # one read transaction for every fingerprint
        wanted = [
            i
            for i in html
            if _needs_text(session, candidates[i], profile, reextract, max_bytes, replace_source)
        ]
    if not wanted:
        return _Ahead((), _nothing())
    results = extract_many(
        [candidates[i].path for i in wanted],
        profile,
        engine=engine,
        blocks=True,
        digest=True,
        read=functools.partial(_read_or_raise, max_bytes=max_bytes),
        jobs=jobs,
    )
    return _Ahead(wanted, results)


def _nothing() -> Generator[Extracted | PageError, None, None]:
    yield from ()


def _needs_text(
    session: Session,
    cand: _Candidate,
    profile: str,
    reextract: bool,
    max_bytes: int,
    replace_source: bool,
) -> bool:
    """Whether :func:`_ingest_one` will extract this file, as things stand now."""
    known = document_fingerprint(session, cand.doc_id)
    if known is None:
        return True
    data = _read(cand.path, max_bytes)
    if isinstance(data, str):
        return False
    sha = hashlib.sha256(data).hexdigest()
    source = os.path.abspath(cand.path)
    return _verdict(known, sha, profile, source, reextract, replace_source) == "extract"


def _size(path: Path) -> int | None:
    """The size of a regular file (a worker may read it), else None."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _read_or_raise(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """:func:`_read` for a worker: the file's bytes, or ``InputError`` with the reason."""
    data = _read(Path(path), max_bytes)
    if isinstance(data, str):
        raise InputError(str(path), data)
    return data


def _utf8(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
