"""``plural``: a count with its noun in the right number."""

from __future__ import annotations

from pathlib import Path

import pytest
from _import_inputs import CHUNK_OK, RUN_OK, seed

from labeler.cli import main
from labeler.report import plural


@pytest.mark.parametrize(
    ("n", "word", "many", "expected"),
    [
        (1, "element", None, "1 element"),  # exactly one: the singular
        (0, "element", None, "0 elements"),  # English says "0 elements"
        (2, "question", None, "2 questions"),
        (-1, "question", None, "-1 questions"),  # only +1 is singular
        (1, "query", "queries", "1 query"),
        (3, "query", "queries", "3 queries"),
        (1000, "chunk", None, "1000 chunks"),  # no thousands separator
    ],
)
def test_plural(n: int, word: str, many: str | None, expected: str) -> None:
    assert plural(n, word, many) == expected


def test_cli_counts_of_one_are_singular(
    tmp_path: Path, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``run import`` and ``chunks audit`` on one question with one element, one chunk and
    one result say so in the singular."""
    db = seed(tmp_path, str(db_path))  # gold set 'keep': q1 with one element on FR-001
    capsys.readouterr()
    run = tmp_path / "run.jsonl"
    run.write_text(RUN_OK + "\n", encoding="utf-8")
    assert main(["run", "import", "-q", str(run), "--name", "one", "--db", db]) == 0
    assert capsys.readouterr().out.startswith("imported run 'one': 1 question, 1 result in ")
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_text(CHUNK_OK + "\n", encoding="utf-8")
    assert main(["chunks", "audit", str(chunks), "--gold-set", "keep", "--db", db]) == 0
    assert "gold set 'keep': 1 question, 1 element; 1 chunk\n" in capsys.readouterr().out
