"""Files written with ``-o`` (and the BEIR folder's files) get the permissions a new file
gets from the user's umask, as a shell's ``>`` would give them, not the 0600 of a temporary
file; an existing file keeps its own. Each case is a real ``labeler`` process started with
the umask under test."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest


def labeler(*args: str, umask: int, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        cwd=cwd,
        umask=umask,
        capture_output=True,
        text=True,
    )


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(
    ("umask", "expected"),
    [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)],
    ids=["umask022", "umask077", "umask002"],
)
def test_new_output_file_follows_the_umask(tmp_path: Path, umask: int, expected: int) -> None:
    out = tmp_path / "schemas.json"
    proc = labeler("correctness", "--schema", "-o", str(out), umask=umask, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8").startswith("{")
    assert mode(out) == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == ["schemas.json"]  # no temp file left


def test_relative_output_path_in_the_working_folder(tmp_path: Path) -> None:
    proc = labeler("correctness", "--schema", "-o", "s.json", umask=0o022, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert mode(tmp_path / "s.json") == 0o644


def test_replaced_output_file_keeps_its_mode(tmp_path: Path) -> None:
    out = tmp_path / "schemas.json"
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o640)
    proc = labeler("correctness", "--schema", "-o", str(out), umask=0o022, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text(encoding="utf-8") != "old\n"
    assert mode(out) == 0o640


def test_beir_folder_files_follow_the_umask(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from labeler.formats.beir import write_beir\n"
        "from labeler.formats.qrels import Projection\n"
        "write_beir(sys.argv[1], Projection([], [], {}, []))\n"
    )
    folder = tmp_path / "beir"
    proc = subprocess.run(
        [sys.executable, "-c", code, str(folder)], umask=0o022, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    files = [folder / "corpus.jsonl", folder / "queries.jsonl", folder / "qrels" / "test.tsv"]
    assert [mode(f) for f in files] == [0o644, 0o644, 0o644]
    assert os.listdir(folder / "qrels") == ["test.tsv"]
