"""``--max-line-bytes``: every reader of input lines refuses a longer line, naming the file
and line, in bounded memory, from a file, standard input and a FIFO.

Each reader runs as a real ``labeler`` process. The bounded-memory cases run it under an
address-space limit (``RLIMIT_AS``) far below what reading the stream whole would take:
before the limit existed, ``gold import /dev/zero`` ended in ``internal error:
MemoryError`` (exit 70).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process
from _db_dump import dump
from _import_inputs import (
    CHUNK_OK,
    DOCCANO_OK,
    GOLD_OK,
    ROW_OK,
    RUN_OK,
    command,
    ls_task,
    seed,
)

#: the longest line of the boundary cases (bytes, the newline not counted)
LIMIT = 1000

# importer, a good line of it (JSONL readers), the line's number in the file that is long
JSONL = [
    ("gold", GOLD_OK),
    ("doccano", DOCCANO_OK),
    ("run", RUN_OK),
    ("audit", CHUNK_OK),
    ("trec", CHUNK_OK),
    ("correctness", ROW_OK),
]

#: address space for a process reading an endless stream (the interpreter with its
#: libraries maps a few hundred MB; 64 MiB lines fit, the stream does not)
ADDRESS_SPACE = 1536 * 1024 * 1024


def labeler(
    args: list[str], *, stdin: int | None = None, memory: int | None = None
) -> subprocess.CompletedProcess[str]:
    """``labeler args``: in this process, unless it reads a file descriptor as its standard
    input or runs under a memory limit (those need a process of their own)."""
    if stdin is None and memory is None:
        return labeler_in_process(*args)

    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        preexec_fn=limit,
        timeout=300,
    )


def padded(line: str, size: int) -> str:
    """``line`` padded with spaces (JSON whitespace) to exactly ``size`` bytes."""
    assert len(line.encode()) <= size
    return line + " " * (size - len(line.encode()))


@pytest.mark.parametrize(("importer", "good"), JSONL, ids=[c[0] for c in JSONL])
def test_a_line_at_the_limit_is_read_one_past_it_is_refused(
    tmp_path: Path, db_path: Path, importer: str, good: str
) -> None:
    db = seed(tmp_path, str(db_path))
    out = tmp_path / "out.txt"
    limit = ["--max-line-bytes", str(LIMIT)]
    # a good line padded to one byte past the limit, on line 2 (a good line 1): refused
    past = tmp_path / "past.jsonl"
    past.write_text(
        good.replace("q1", "q0") + "\n" + padded(good, LIMIT + 1) + "\n{}\n", encoding="utf-8"
    )
    before = dump(db)
    proc = labeler([*command(importer, str(past), db, out), *limit])
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == (
        f"labeler: error: {past}:2: line longer than 1,000 bytes "
        "(raise the limit with --max-line-bytes)\n"
    )
    assert dump(db) == before
    at_limit = tmp_path / "at.jsonl"
    # the same line exactly LIMIT bytes long before its newline: read
    at_limit.write_text(padded(good, LIMIT) + "\n", encoding="utf-8")
    proc = labeler([*command(importer, str(at_limit), db, out), *limit])
    assert proc.returncode == 0, proc.stderr


def test_a_label_studio_export_is_one_line(tmp_path: Path, db_path: Path) -> None:
    db = seed(tmp_path, str(db_path))
    export = tmp_path / "ls.json"
    export.write_text(padded("[" + ls_task() + "]", LIMIT + 1), encoding="utf-8")
    before = dump(db)
    args = command("labelstudio", str(export), db, tmp_path / "out")
    proc = labeler([*args, "--max-line-bytes", str(LIMIT)])
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == (
        f"labeler: error: {export}: input longer than 1,000 bytes "
        "(raise the limit with --max-line-bytes)\n"
    )
    assert dump(db) == before
    proc = labeler([*args, "--max-line-bytes", str(LIMIT + 1)])
    assert proc.returncode == 0, proc.stderr


def test_extract_refuses_a_file_past_the_limit_and_prints_the_others(tmp_path: Path) -> None:
    small = tmp_path / "small.html"
    small.write_text("<p>kept</p>", encoding="utf-8")
    large = tmp_path / "large.html"
    large.write_text("<p>" + "x" * LIMIT + "</p>", encoding="utf-8")
    proc = labeler(["extract", str(large), str(small), "--max-line-bytes", str(LIMIT)])
    assert proc.returncode == 1
    assert proc.stdout == "kept"
    assert proc.stderr == (
        f"labeler: {large}: input longer than 1,000 bytes (raise the limit with --max-line-bytes)\n"
    )


READERS = ["gold", "labelstudio", "doccano", "run", "audit", "trec", "correctness", "extract"]


def _args(importer: str, path: str, db: str, out: Path) -> list[str]:
    return ["extract", path] if importer == "extract" else command(importer, path, db, out)


@pytest.mark.parametrize("importer", READERS)
def test_standard_input_without_newlines_is_refused_in_bounded_memory(
    tmp_path: Path, db_path: Path, importer: str
) -> None:
    db = seed(tmp_path, str(db_path))
    before = dump(db)
    path = "/dev/zero" if importer == "extract" else "-"  # extract reads files, not stdin
    with open("/dev/zero", "rb") as zeros:
        proc = labeler(_args(importer, path, db, tmp_path / "out"), stdin=zeros.fileno(),
                       memory=ADDRESS_SPACE)  # fmt: skip
    name = "/dev/zero" if importer == "extract" else "<stdin>"
    line = "" if importer in ("labelstudio", "extract") else ":1"
    what = "input" if line == "" else "line"
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.endswith(
        f"{name}{line}: {what} longer than 67,108,864 bytes (raise the limit with --max-line-bytes)\n"
    ), proc.stderr
    assert dump(db) == before


def _flood(fifo: Path, stop: threading.Event) -> None:
    """Write to ``fifo`` without a newline until the reader goes away."""
    block = b"x" * (1 << 20)
    try:
        with open(fifo, "wb") as out:
            while not stop.is_set():
                out.write(block)
    except (BrokenPipeError, OSError):
        pass


@pytest.mark.parametrize("importer", READERS)
def test_a_fifo_that_never_ends_its_line_is_refused_in_bounded_memory(
    tmp_path: Path, db_path: Path, importer: str
) -> None:
    db = seed(tmp_path, str(db_path))
    before = dump(db)
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)
    stop = threading.Event()
    writer = threading.Thread(target=_flood, args=(fifo, stop), daemon=True)
    writer.start()
    try:
        proc = labeler(_args(importer, str(fifo), db, tmp_path / "out"), memory=ADDRESS_SPACE)
    finally:
        stop.set()
        if writer.is_alive():  # the reader failed before opening the FIFO: unblock the writer
            with open(fifo, "rb"):
                pass
        writer.join(10)
    line = "" if importer in ("labelstudio", "extract") else ":1"
    what = "input" if line == "" else "line"
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.endswith(
        f"{fifo}{line}: {what} longer than 67,108,864 bytes (raise the limit with --max-line-bytes)\n"
    ), proc.stderr
    assert dump(db) == before
