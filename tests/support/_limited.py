"""Imports as real processes under an address-space limit (``RLIMIT_AS``): what the memory
tests of the store share (``test_import_memory.py``, ``test_layer_import_memory.py``)."""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

#: address space for one import: the interpreter with its libraries maps about 215 MB, and
#: each import here peaked at 215-221 MB of it (VmPeak); before, the gold import held 272 MB
#: resident (VmHWM) and mapped 355 MB, the run import mapped 265 MB
LIMIT = 256 * 1024 * 1024
QUESTIONS = 60_000
PAGES = 50
SENTENCES = 100


def sentence(d: int, s: int) -> str:
    return f"Page {d} sentence {s} is here."


def write_pages(folder: Path) -> None:
    """:data:`PAGES` pages of :data:`SENTENCES` sentences each, ``p00.txt`` on."""
    folder.mkdir()
    for d in range(PAGES):
        text = " ".join(sentence(d, s) for s in range(SENTENCES))
        (folder / f"p{d:02}.txt").write_text(text, encoding="utf-8")


def labeler(*args: str, memory: int | None = LIMIT) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        preexec_fn=limit,
        timeout=900,
    )
