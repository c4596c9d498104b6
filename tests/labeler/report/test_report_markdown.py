"""Markdown score and compare reports with hostile names: gold set, runs and query ids with
``|``, ``<``, ``>`` and ``&`` come out escaped, and every table row keeps its columns."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from labeler.cli import main
from labeler.report.text_tables import markdown_text

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
E1 = "WAL is significantly faster in most scenarios."
E2 = "WAL provides more concurrency as readers do not block writers and a writer does not block readers."
GOLD, RUN_A, RUN_B = "g|<b>", "r|a<i>", "r>b"
Q1, Q2 = "q|1<x>", "q&2>"


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def cells(line: str) -> list[str]:
    """The cells of a Markdown table row, honouring backslash escapes (GFM)."""
    out, cur, i = [], "", 1  # skip the leading "|"
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            cur += line[i : i + 2]
            i += 2
            continue
        if ch == "|":
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
        i += 1
    return out


def check_markdown(report: str) -> list[list[str]]:
    """No raw HTML (``<br>`` aside) and tables of even width; returns every row's cells."""
    assert "<" not in report.replace("<br>", "") and ">" not in report.replace("<br>", "")
    rows: list[list[str]] = []
    width = 0
    for line in report.splitlines():
        if not line.startswith("|"):
            width = 0
            continue
        row = cells(line)
        width = width or len(row)
        assert len(row) == width, line
        rows.append(row)
    return rows


@pytest.fixture()
def db(tmp_path: Path) -> str:
    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(CORPUS / "wal.html", docs / "wal.html")
    path = str(tmp_path / "labels.db")
    assert main(["ingest", str(docs), "--db", path, "-q"]) == 0
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {"query_id": Q1, "query": "a", "elements": [{"doc": "wal.html", "text": E1}]},
            {"query_id": Q2, "query": "b", "elements": [{"doc": "wal.html", "text": E2}]},
        ],
    )
    assert main(["gold", "import", str(gold), "--gold-set", GOLD, "--db", path]) == 0
    for name, q2 in [(RUN_A, "nothing like it"), (RUN_B, E2)]:
        rows = [
            {"query_id": Q1, "results": [{"text": E1}]},
            {"query_id": Q2, "results": [{"text": q2}]},
        ]
        run = write_jsonl(tmp_path / "run.jsonl", rows)
        assert main(["run", "import", str(run), "--name", name, "--db", path, "-q"]) == 0
    return path


def test_score_markdown_escapes_names(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    args = ["score", "--gold-set", GOLD, "--run", RUN_A, "--k", "1", "--format", "markdown"]
    assert main([*args, "--db", db]) == 0
    report = capsys.readouterr().out
    assert report.startswith("## r\\|a&lt;i&gt; on g\\|&lt;b&gt;\n")
    check_markdown(report)
    # the worst questions' table; the judged@k section after it lists questions too
    rows = check_markdown(report.split("\n## Judged")[0])
    worst = [r[0] for r in rows if r[0].startswith("q") and r[0] != "query_id"]
    assert worst == ["q&amp;2&gt;", "q\\|1&lt;x&gt;"]  # retrieval first, then full


def test_compare_markdown_escapes_names(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    args = ["compare", "--gold-set", GOLD, "--run", RUN_A, "--run", RUN_B, "--k", "1"]
    assert main([*args, "--format", "markdown", "--db", db]) == 0
    report = capsys.readouterr().out
    assert report.startswith("## r&gt;b vs r\\|a&lt;i&gt; on g\\|&lt;b&gt;\n")
    rows = check_markdown(report)
    # deltas (0, 1): a resample of the two questions averages 0, 0.5 or 1, and 0 and 1 each
    # come up a quarter of the time, so the 2.5th and 97.5th percentiles are 0 and 1
    assert ["hit@1", "0.500", "1.000", "0.500 [0.000, 1.000]", "1", "0", "1.000"] in rows


def test_markdown_text() -> None:
    assert markdown_text("plain name_1") == "plain name_1"
    assert markdown_text("a|b") == "a\\|b"
    assert markdown_text("<script>&amp;") == "&lt;script&gt;&amp;amp;"
    assert markdown_text("back\\slash|") == "back\\\\slash\\|"
    assert markdown_text("one\ntwo\r\nthree\u2028four") == "one<br>two<br>three<br>four"
