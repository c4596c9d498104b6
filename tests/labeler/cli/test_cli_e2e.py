"""End to end through the command line on bundled corpus pages: ingest, gold import/export,
run import, score, compare. Expected figures are worked by hand from how the run is built."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process
from _db_dump import dump

from labeler.cli import main
from labeler.extract import page_text

pytestmark = pytest.mark.backends("sqlite", "postgresql")

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
PAGES = ["lang_transaction.html", "foreignkeys.html", "wal.html"]
E1 = "No reads or writes occur except within a transaction."
E2 = "END TRANSACTION is an alias for COMMIT."
E3 = (
    "Section 2 describes the steps an application must take in order to enable foreign key "
    "constraints in SQLite (it is disabled by default)."
)
E4 = "WAL is significantly faster in most scenarios."
E5 = "WAL provides more concurrency as readers do not block writers and a writer does not block readers."


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {name: page_text((CORPUS / name).read_bytes()) for name in PAGES}


@pytest.fixture()
def db(tmp_path: Path, db_url: str) -> str:
    """The three pages ingested by ``labeler ingest``; the ``--db`` value."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in PAGES:
        shutil.copy(CORPUS / name, docs / name)
    proc = labeler_in_process("ingest", str(docs), "--db", db_url)
    assert proc.returncode == 0, proc.stderr
    assert "added 3" in proc.stdout
    return db_url


# Scoring runs on both backends: SQLite through the standard-library reader, PostgreSQL
# through the store (labeler.evaluation.open_source picks).
SCORING_BACKENDS = pytest.mark.backends("sqlite", "postgresql")


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def gold_rows() -> list[dict[str, object]]:
    return [
        {"query_id": "q1", "query": "When do reads happen?",
         "elements": [{"doc": "lang_transaction.html", "text": E1}]},
        {"query_id": "q2", "query": "How to enable foreign keys?",
         "elements": [{"doc": "foreignkeys.html", "text": E3, "grade": 2}]},
        {"query_id": "q3", "query": "Why WAL?",
         "elements": [{"doc": "wal.html", "text": E4}, {"doc": "wal.html", "text": E5}]},
        {"query_id": "q4", "query": "What is END?",
         "elements": [{"doc": "lang_transaction.html", "text": E2}], "notes": "alias"},
        {"query_id": "q5", "query": "Not labelled yet", "elements": []},
    ]  # fmt: skip


def run_rows(texts: dict[str, str]) -> list[dict[str, object]]:
    """q1: E1 whole at rank 1. q2: 60 % of E3 at rank 2 (a chunking loss). q3: E4 whole at
    rank 1, the first 20 % of E5 (which follows E4 on the page) alone at rank 3. q4: absent.
    'zz' is not in the gold set. The noise chunk is the page banner, far from every element."""
    tr, fk, wal = texts["lang_transaction.html"], texts["foreignkeys.html"], texts["wal.html"]
    noise = wal[0:40]

    def around(page: str, element: str, share: float, before: int = 30) -> str:
        start = page.index(element)
        return page[start - before : start + int(len(element) * share)]

    return [
        {"query_id": "q1", "results": [{"text": around(tr, E1, 1.0)}, {"text": noise}]},
        {"query_id": "q2", "results": [{"text": noise}, {"text": around(fk, E3, 0.6)}]},
        {"query_id": "q3", "results": [{"text": around(wal, E4, 1.0)}, {"text": noise},
                                       {"text": around(wal, E5, 0.2, before=0)}]},
        {"query_id": "zz", "results": [{"text": noise}]},
    ]  # fmt: skip


@SCORING_BACKENDS
def test_score_end_to_end(
    db: str, tmp_path: Path, texts: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    gold = write_jsonl(tmp_path / "gold.jsonl", gold_rows())
    assert main(["gold", "import", str(gold), "--gold-set", "demo", "--db", db]) == 0
    run = write_jsonl(tmp_path / "run.jsonl", run_rows(texts))
    assert main(["run", "import", str(run), "--name", "bm25", "--db", db, "-q"]) == 0
    capsys.readouterr()
    assert (
        main(
            [
                "score",
                "--gold-set",
                "demo",
                "--run",
                "bm25",
                "--k",
                "1,4",
                "--format",
                "json",
                "--db",
                db,
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    m = data["metrics"]
    assert data["queries"] == 4  # q5 has no elements
    # by hand at k=4: hit q1 1, q2 0, q3 1, q4 0; partial 1, 1, 1, 0
    assert m["hit@4"] == pytest.approx(0.5)
    assert m["partial@4"] == pytest.approx(0.75)
    assert m["mrr@4"] == pytest.approx(0.5)
    assert m["recall@4"] == pytest.approx((1 + 0 + 0.5 + 0) / 4)
    assert m["precision@4"] == pytest.approx((1 / 4 + 1 / 4 + 1 / 4 + 0) / 4)
    # at k=1: q2's partial chunk is at rank 2, so partial@1 drops to 2/4
    assert m["hit@1"] == pytest.approx(0.5)
    assert m["partial@1"] == pytest.approx(0.5)
    assert data["missing_from_run"]["count"] == 1
    assert data["unknown_in_run"]["count"] == 1


@SCORING_BACKENDS
def test_table_markdown_and_html_reports(
    db: str, tmp_path: Path, texts: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    main(
        [
            "gold",
            "import",
            str(write_jsonl(tmp_path / "g.jsonl", gold_rows())),
            "--gold-set",
            "demo",
            "--db",
            db,
        ]
    )
    main(
        [
            "run",
            "import",
            str(write_jsonl(tmp_path / "r.jsonl", run_rows(texts))),
            "--name",
            "r",
            "--db",
            db,
            "-q",
        ]
    )
    capsys.readouterr()
    assert main(["score", "--gold-set", "demo", "--run", "r", "--k", "4", "--db", db]) == 0
    table = capsys.readouterr().out
    assert "Partial − Hit gap" in table and "chunking" in table
    assert "ranks with a chunk not found on an element's page" in table  # flags explained
    worst = table.split("Worst questions first")[1]
    assert worst.index("q4") < worst.index("q2") < worst.index("q1")  # retrieval, chunking, full
    assert (
        main(
            [
                "score",
                "--gold-set",
                "demo",
                "--run",
                "r",
                "--k",
                "4",
                "--format",
                "markdown",
                "--db",
                db,
            ]
        )
        == 0
    )
    assert "| metric | @4 |" in capsys.readouterr().out
    html = tmp_path / "report.html"
    assert (
        main(
            [
                "score",
                "--gold-set",
                "demo",
                "--run",
                "r",
                "--k",
                "1,4",
                "--format",
                "html",
                "-o",
                str(html),
                "--db",
                db,
            ]
        )
        == 0
    )
    page = html.read_text(encoding="utf-8")
    assert "<svg" in page and "Partial@k" in page
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org/2000/svg", "")


def test_gold_round_trip_is_identical(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(
        [
            "gold",
            "import",
            str(write_jsonl(tmp_path / "g.jsonl", gold_rows())),
            "--gold-set",
            "a",
            "--db",
            db,
        ]
    )
    first = tmp_path / "first.jsonl"
    assert main(["gold", "export", "--gold-set", "a", "-o", str(first), "--db", db]) == 0
    assert main(["gold", "import", str(first), "--gold-set", "b", "--db", db]) == 0
    second = tmp_path / "second.jsonl"
    assert main(["gold", "export", "--gold-set", "b", "-o", str(second), "--db", db]) == 0
    assert first.read_bytes() == second.read_bytes()
    lines = [json.loads(x) for x in first.read_text(encoding="utf-8").splitlines()]
    assert [x["query_id"] for x in lines] == ["q1", "q2", "q3", "q4", "q5"]
    element = lines[1]["elements"][0]
    assert element["grade"] == 2 and lines[1]["offset_unit"] == "codepoint"
    assert element["end"] - element["start"] == len(E3)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{broken", "broken JSON"),
        ('{"query_id": "x", "elements": [{"doc": "nope.html", "text": "a"}]}', "unknown document"),
        (
            '{"query_id": "x", "elements": [{"doc": "wal.html", "text": "not on this page at all"}]}',
            "does not occur",
        ),
        ('{"query_id": "x"}', "missing field 'elements'"),
    ],
)
def test_bad_gold_line_rejects_file_and_leaves_db(
    db: str, tmp_path: Path, line: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    main(
        [
            "gold",
            "import",
            str(write_jsonl(tmp_path / "ok.jsonl", gold_rows())),
            "--gold-set",
            "keep",
            "--db",
            db,
        ]
    )
    before = dump(db)
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(gold_rows()[0]) + "\n" + line + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["gold", "import", str(bad), "--gold-set", "new", "--db", db]) != 0
    err = capsys.readouterr().err
    assert f"{bad}:2:" in err and message in err
    assert dump(db) == before


def test_bad_run_line_rejects_file_and_leaves_db(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = dump(db)
    bad = tmp_path / "run.jsonl"
    bad.write_text(
        '{"query_id": "q1", "results": []}\n{"query_id": "q2", "results": [{"doc": "x"}]}\n',
        encoding="utf-8",
    )
    assert main(["run", "import", str(bad), "--name", "r", "--db", db, "-q"]) != 0
    assert f"{bad}:2:" in capsys.readouterr().err
    assert dump(db) == before


@SCORING_BACKENDS
def test_ragas_lines_match_questions_by_text(
    db: str, tmp_path: Path, texts: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    main(
        [
            "gold",
            "import",
            str(write_jsonl(tmp_path / "g.jsonl", gold_rows())),
            "--gold-set",
            "demo",
            "--db",
            db,
        ]
    )
    ragas = write_jsonl(
        tmp_path / "ragas.jsonl",
        [{"user_input": "When do reads happen?", "retrieved_contexts": [E1]}],
    )
    assert main(["run", "import", str(ragas), "--name", "ragas", "--db", db, "-q"]) == 0
    capsys.readouterr()
    main(
        [
            "score",
            "--gold-set",
            "demo",
            "--run",
            "ragas",
            "--k",
            "1",
            "--format",
            "json",
            "--db",
            db,
        ]
    )
    data = json.loads(capsys.readouterr().out)
    rows = {r["query_id"]: r for r in data["per_query"]}
    assert rows["q1"]["metrics"]["hit@1"] == 1.0
    unmatched = write_jsonl(
        tmp_path / "u.jsonl", [{"user_input": "Nobody asked this", "retrieved_contexts": []}]
    )
    assert main(["run", "import", str(unmatched), "--name", "u", "--db", db, "-q"]) != 0
    assert "no question has" in capsys.readouterr().err


@SCORING_BACKENDS
def test_compare_two_runs(
    db: str, tmp_path: Path, texts: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    main(
        [
            "gold",
            "import",
            str(write_jsonl(tmp_path / "g.jsonl", gold_rows())),
            "--gold-set",
            "demo",
            "--db",
            db,
        ]
    )
    rows = run_rows(texts)
    main(
        [
            "run",
            "import",
            str(write_jsonl(tmp_path / "a.jsonl", rows)),
            "--name",
            "a",
            "--db",
            db,
            "-q",
        ]
    )
    better = [dict(r) for r in rows]
    better[1] = {"query_id": "q2", "results": [{"text": E3}]}  # q2: chunking → full
    main(
        [
            "run",
            "import",
            str(write_jsonl(tmp_path / "b.jsonl", better)),
            "--name",
            "b",
            "--db",
            db,
            "-q",
        ]
    )
    capsys.readouterr()
    assert (
        main(
            [
                "compare",
                "--gold-set",
                "demo",
                "--run",
                "a",
                "--run",
                "b",
                "--k",
                "4",
                "--format",
                "json",
                "--db",
                db,
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["run_a"] == "a" and data["run_b"] == "b"
    assert "chunking→full" in json.dumps(data, ensure_ascii=False)
    assert main(["compare", "--gold-set", "demo", "--run", "a", "--db", db]) == 2


def test_unknown_names_are_clear_errors(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--gold-set", "nope", "--run", "x", "--db", db]) != 0
    assert "no gold set 'nope'" in capsys.readouterr().err
