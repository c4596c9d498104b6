"""``-`` as a file name reads standard input for every importer (the Unix convention).

Each importer runs as a real ``labeler`` process with its input piped in: a good input is
read whole, a bad one is refused with a message that names ``<stdin>`` and the line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _db_dump import dump
from _import_inputs import (
    CHUNK_OK,
    DOCCANO_OK,
    GOLD_OK,
    RAGAS_OK,
    ROW_OK,
    RUN_OK,
    command,
    ls_file,
    ls_task,
    seed,
)

from labeler.cli import main

BROKEN = '{"query_id": "q2" "x"}'

# (importer, good input, what its stdout or output file shows, bad input, expected error)
CASES = [
    ("gold", GOLD_OK + "\n",
     "imported gold set 'new': 1 question, 1 element", GOLD_OK + "\n" + BROKEN + "\n",
     "<stdin>:2: broken JSON: Expecting ',' delimiter (column 19)"),
    ("labelstudio", "[" + ls_task() + "]",
     "imported gold set 'new' from labelstudio: 1 question (one per label), 1 element",
     ls_file('{"id": 6}'), "<stdin>: task 2 (id 6): missing object 'data'"),
    ("doccano", DOCCANO_OK + "\n",
     "imported gold set 'new' from doccano: 1 question (one per label), 1 element",
     DOCCANO_OK + "\n\n[]\n", "<stdin>:3: expected a JSON object, got list"),
    ("run", RUN_OK + "\n" + RAGAS_OK.replace("{", '{"query_id": "q2", ', 1) + "\n",
     "imported run 'new': 2 questions, 2 results", RUN_OK + '\n{"query_id": "q2"}\n',
     "<stdin>:2: neither 'results' (run v1) nor 'retrieved_contexts' (Ragas) present"),
    ("audit", CHUNK_OK + "\n", "elements whole 1   cut 0   uncovered 0",
     CHUNK_OK + '\n{"doc": "policy.txt", "text": ""}\n', "<stdin>:2: field 'text' is empty"),
    ("trec", CHUNK_OK + "\n", "q1 0 policy.txt#7-13 1",
     CHUNK_OK + '\n{"doc": "nowhere.txt", "text": "x"}\n', "<stdin>:2: unknown document 'nowhere.txt'"),
    ("correctness", ROW_OK + "\n", '"score": 1.0',
     ROW_OK + '\n{"prompt": "p"}\n', "<stdin>:2: "),
]  # fmt: skip


def labeler(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )


@pytest.mark.parametrize(
    ("importer", "good", "shown", "bad", "error"), [pytest.param(*c, id=c[0]) for c in CASES]
)
def test_dash_reads_standard_input(
    tmp_path: Path, db_path: Path, importer: str, good: str, shown: str, bad: str, error: str
) -> None:
    db = seed(tmp_path, str(db_path))
    out = tmp_path / "out.txt"
    before = dump(db)
    proc = labeler(command(importer, "-", db, out), bad)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(f"labeler: error: {error}"), proc.stderr
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert dump(db) == before
    proc = labeler(command(importer, "-", db, out), good)
    assert proc.returncode == 0, proc.stderr
    assert shown in (out.read_text(encoding="utf-8") if out.exists() else proc.stdout)


def test_run_from_standard_input_is_recorded_as_stdin(
    tmp_path: Path, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = seed(tmp_path, str(db_path))
    proc = labeler(["run", "import", "-", "--name", "piped", "--db", db], RUN_OK + "\n")
    assert proc.returncode == 0, proc.stderr
    capsys.readouterr()
    assert main(["run", "list", "--db", db]) == 0
    runs = {r["name"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    assert runs["piped"]["source_file"] == "<stdin>"
    assert (runs["piped"]["queries"], runs["piped"]["results"]) == (1, 1)
