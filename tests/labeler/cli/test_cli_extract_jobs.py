"""``labeler extract`` of many files: the same bytes on stdout and stderr, and the same exit
status, with one process and with two (real ``labeler`` processes, real forks); the files
that cannot be read are named in their place, whichever process had them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.extract.jsoup import jsoup_body_text
from labeler.workers import may_fork

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"


def labeler(args: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args], capture_output=True, timeout=600
    )


@pytest.mark.skipif(not may_fork(), reason="needs os.fork and two usable CPUs")
@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_one_and_two_processes_print_the_same(tmp_path: Path, fmt: str) -> None:
    pages = sorted(CORPUS.glob("*.html"))
    missing = tmp_path / "missing.html"
    files = [*pages[:10], missing, *pages[10:-3], tmp_path, *pages[-3:]]
    names = [str(p) for p in files]
    one = labeler(["extract", "--format", fmt, "--jobs", "1", *names])
    two = labeler(["extract", "--format", fmt, "--jobs", "2", *names])
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)
    assert one.returncode == 1
    assert one.stderr.decode() == (
        f"labeler: {missing}: no such file\n"
        f"labeler: {tmp_path}: is a directory (extract takes files; ingest takes folders)\n"
    )
    texts = [jsoup_body_text(p.read_bytes()) for p in files if p.is_file()]
    if fmt == "text":
        assert one.stdout.decode() == "\n".join(texts)
    else:
        lines = [json.loads(line) for line in one.stdout.decode().splitlines()]
        assert lines == [
            {"file": str(p), "text": t}
            for p, t in zip([p for p in files if p.is_file()], texts, strict=True)
        ]
