"""Command-line names in bytes that are not UTF-8 get a one-line error, never an internal one.

Python decodes such bytes to lone surrogates (``\\udcff``); the database cannot store them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from _db_dump import dump

from labeler.cli import main

GOLD = '{"query_id": "q1", "query": "Q?", "elements": []}\n'


def run_bytes(argv: list[bytes]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"labeler", *argv],
        capture_output=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("what", "argv"),
    [
        ("gold set name", [b"gold", b"import", b"GOLD", b"--gold-set", b"g\xff"]),
        ("run name", [b"run", b"import", b"RUN", b"--name", b"r\xff"]),
        ("annotator", [b"gold", b"import", b"GOLD", b"--gold-set", b"g", b"--annotator", b"a\xff"]),
    ],
)
def test_names_that_are_not_utf8(tmp_path: Path, what: str, argv: list[bytes]) -> None:
    db = tmp_path / "labels.db"
    gold = tmp_path / "gold.jsonl"
    gold.write_text(GOLD, encoding="utf-8")
    run = tmp_path / "run.jsonl"
    run.write_text('{"query_id": "q1", "results": [{"text": "x"}]}\n', encoding="utf-8")
    assert main(["gold", "import", str(gold), "--gold-set", "base", "--db", str(db)]) == 0
    before = dump(str(db))
    files = {b"GOLD": os.fsencode(gold), b"RUN": os.fsencode(run)}
    done = run_bytes([files.get(a, a) for a in argv] + [b"--db", os.fsencode(db)])
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1, (what, err)
    assert "internal error" not in err
    assert "not valid Unicode text" in err
    assert len(err.strip().splitlines()) == 1, err
    assert dump(str(db)) == before
