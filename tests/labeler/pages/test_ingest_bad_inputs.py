"""Bad input never gives a traceback: a clear message naming the file, or a stored text."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

import pytest

from labeler.errors import InputError
from labeler.extract import DEFAULT_PROFILE, page_text
from labeler.pages import ingest_paths
from labeler.store import Store, get_document, list_documents

HTML = b"<html><body><p>fine</p></body></html>"


def doc_ids(store: Store) -> list[str]:
    with store.session() as s:
        return [d.id for d in list_documents(s)]


def test_missing_top_level_path_raises_before_writing(store: Store, tmp_path: Path) -> None:
    good = tmp_path / "good.html"
    good.write_bytes(HTML)
    missing = tmp_path / "nope"
    with pytest.raises(InputError, match="no such file or directory") as info:
        ingest_paths(store, [good, missing])
    assert info.value.path == str(missing)
    assert doc_ids(store) == []


def test_permission_denied_is_reported() -> None:
    """An unreadable file is reported by name and the rest is ingested. File modes do not
    stop root, so when the suite runs as root the real CLI runs as ``nobody``."""
    work = Path(tempfile.mkdtemp(prefix="labeler-perm-"))
    try:
        work.chmod(0o777)
        pages = work / "pages"
        pages.mkdir()
        pages.chmod(0o777)
        (pages / "ok.html").write_bytes(HTML)
        locked = pages / "locked.html"
        locked.write_bytes(HTML)
        locked.chmod(0)
        root = Path(__file__).resolve().parents[3]
        drop = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        proc = subprocess.run(
            [*(drop if os.geteuid() == 0 else []),
             sys.executable, "-m", "labeler", "ingest", str(pages), "--db", str(work / "l.db"), "-q"],
            capture_output=True, text=True, cwd=work,
            env={**os.environ, "PYTHONPATH": str(root), "HOME": str(work)},
        )  # fmt: skip
        assert proc.returncode == 1, proc.stderr
        assert f"labeler: {locked}: cannot read: Permission denied" in proc.stderr
        assert "added 1," in proc.stdout and "failed 1" in proc.stdout
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_unopenable_files_are_reported_and_the_walk_goes_on(store: Store, tmp_path: Path) -> None:
    """Root-proof unreadable files: a symlink loop and a dangling symlink."""
    (tmp_path / "loop.html").symlink_to(tmp_path / "loop.html")
    (tmp_path / "dangling.htm").symlink_to(tmp_path / "gone.htm")
    (tmp_path / "ok.html").write_bytes(HTML)
    report = ingest_paths(store, [tmp_path])
    assert report.added_ids == ("ok.html",)
    reasons = {Path(path).name: reason for path, reason in report.failed}
    assert reasons == {
        "loop.html": "cannot read: Too many levels of symbolic links",
        "dangling.htm": "cannot read: No such file or directory",
    }


def test_fifo_is_not_read(store: Store, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    report = ingest_paths(store, [fifo])  # would block forever if opened
    assert [(f.path, f.reason) for f in report.failed] == [(str(fifo), "not a regular file")]


@pytest.mark.parametrize("name", ["noise.html", "noise.txt"])
def test_random_bytes_are_stored_as_extracted(store: Store, tmp_path: Path, name: str) -> None:
    data = random.Random(7).randbytes(64 * 1024)
    assert b"\x00" in data
    (tmp_path / name).write_bytes(data)
    report = ingest_paths(store, [tmp_path / name])
    assert report.added_ids == (name,) and report.failed == ()
    profile = "text" if name.endswith(".txt") else DEFAULT_PROFILE
    with store.session() as s:
        assert get_document(s, name).text == page_text(data, profile)


@pytest.mark.parametrize("name", ["empty.html", "empty.txt"])
def test_empty_file_is_stored_and_flagged(store: Store, tmp_path: Path, name: str) -> None:
    (tmp_path / name).write_bytes(b"")
    report = ingest_paths(store, [tmp_path / name])
    assert report.added_ids == (name,) and report.empty == (name,)
    with store.session() as s:
        assert get_document(s, name).text == ""


def test_directory_without_pages(store: Store, tmp_path: Path) -> None:
    root = tmp_path / "in"
    (root / "sub").mkdir(parents=True)
    (root / "a.png").write_bytes(b"\x89PNG")
    (root / "sub" / "b.csv").write_text("x,y\n")
    (root / "empty").mkdir()
    report = ingest_paths(store, [root, root / "empty"])
    assert report.added_ids == () and len(report.skipped_paths) == 2 and report.failed == ()
    suffixes = ".htm, .html, .markdown, .md, .text, .txt, .xhtml"
    assert report.notes == (
        f"{root}: no files to ingest ({suffixes}) in this directory",
        f"{root / 'empty'}: no files to ingest ({suffixes}) in this directory",
    )
    assert doc_ids(store) == []


def test_file_over_the_size_limit_is_refused_unread(store: Store, tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_bytes(b"x" * 2048)
    report = ingest_paths(store, [big], max_bytes=1024)
    assert report.failed[0].path == str(big)
    assert report.failed[0].reason == "too large (2048 bytes; the limit is 1024)"
    assert report.bytes == 0


def test_undecodable_file_name_is_reported(store: Store, tmp_path: Path) -> None:
    name = os.fsdecode(b"caf\xe9.txt")  # Latin-1 byte in a file name: not UTF-8
    try:
        (tmp_path / name).write_bytes(b"text")
    except (OSError, UnicodeEncodeError):
        pytest.skip("file system refuses non-UTF-8 names")
    report = ingest_paths(store, [tmp_path])
    assert [f.reason for f in report.failed] == ["file name is not valid UTF-8"]


def _fifty_mb(path: Path, line: bytes) -> int:
    size = 50 * 1024 * 1024
    with path.open("wb") as handle:
        for _ in range(size // len(line) + 1):
            handle.write(line)
    return path.stat().st_size


def test_fifty_megabyte_text_page_memory_stays_sane(store: Store, tmp_path: Path) -> None:
    page = tmp_path / "huge.txt"
    size = _fifty_mb(page, "A line of text with a café in it, repeated many times.\n".encode())
    tracemalloc.start()
    try:
        report = ingest_paths(store, [page])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.added_ids == ("huge.txt",) and report.bytes == size
    # bytes + text + the UTF-8 copy SQLite binds, with headroom; never a multiple per line
    assert peak < 6 * size, f"peak {peak / 2**20:.0f} MiB for a {size / 2**20:.0f} MiB page"
    with store.session() as s:
        assert len(get_document(s, "huge.txt").text) == len(page.read_bytes().decode())


@pytest.mark.slow
def test_fifty_megabyte_html_page(store: Store, tmp_path: Path) -> None:
    page = tmp_path / "huge.html"
    _fifty_mb(page, b"<p>Paragraph with some <b>bold</b> words and more text.</p>\n")
    report = ingest_paths(store, [page])
    assert report.failed == () and report.added_ids == ("huge.html",)
    with store.session() as s:
        assert get_document(s, "huge.html").text.startswith("Paragraph with some bold words")
