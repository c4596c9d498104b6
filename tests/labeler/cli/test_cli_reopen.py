"""``labeler adjudicate --reopen`` and the grade tie rule through ``labeler.cli.main``, on
both backends: a settled question reopened is pending again (left out of ``score``, counted
in ``gold progress``), undo settles it again as it was and redo reopens it; bad ids change
nothing; ``--auto`` and ``--reopen`` are one required choice; ``--auto majority`` says the
tie it breaks and stores the lower grade.

Every expected figure is worked by hand in the comments from the page below.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from labeler.cli import main
from labeler.store import open_store, redo_change, undo_change
from labeler.store.models import Query

pytestmark = pytest.mark.backends("sqlite", "postgresql")

#         0         1         2         3         4         5         6
#         0123456789012345678901234567890123456789012345678901234567890
PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta. Theta iota kappa."
A = {"doc": "p.txt", "start": 0, "end": 11, "text": "Alpha beta."}
G = {"doc": "p.txt", "start": 12, "end": 32, "text": "Gamma delta epsilon."}


def jsonl(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def line(qid: str, *elements: dict[str, Any]) -> dict[str, Any]:
    return {"query_id": qid, "query": f"question {qid}", "elements": list(elements)}


def run(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> tuple[str, str]:
    try:
        got = main(list(argv))
    except SystemExit as stop:  # argparse refuses a command line by exiting
        got = stop.code if isinstance(stop.code, int) else 1
    out, err = capsys.readouterr()
    assert got == code, err
    return out, err


def layer(capsys: pytest.CaptureFixture[str], db: str, path: str, who: str) -> None:
    run(capsys, "gold", "import", path, "--gold-set", "team", "--annotator", who, "--layer",
        "--db", db)  # fmt: skip


@pytest.fixture
def db(tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]) -> str:
    """p.txt ingested; gold set "team" with q1–q3; run "r" answering q1 and q2."""
    page = tmp_path / "p.txt"
    page.write_text(PAGE, encoding="utf-8")
    run(capsys, "ingest", str(page), "--db", db_url, "-q")
    gold = jsonl(tmp_path / "gold.jsonl", [line(q) for q in ("q1", "q2", "q3")])
    run(capsys, "gold", "import", gold, "--gold-set", "team", "--db", db_url)
    results = [
        {"query_id": "q1", "results": [{"text": "Gamma delta epsilon."}]},
        {"query_id": "q2", "results": [{"text": "Alpha beta."}]},
    ]
    run(capsys, "run", "import", jsonl(tmp_path / "run.jsonl", results), "--name", "r",
        "--db", db_url, "-q")  # fmt: skip
    return db_url


def score(capsys: pytest.CaptureFixture[str], db: str) -> dict[str, Any]:
    out, _ = run(capsys, "score", "--gold-set", "team", "--run", "r", "--k", "1",
                 "--format", "json", "--db", db)  # fmt: skip
    data: dict[str, Any] = json.loads(out)
    return data


def progress(capsys: pytest.CaptureFixture[str], db: str) -> tuple[int, int]:
    """(adjudicated, pending) of ``gold progress``."""
    out, _ = run(capsys, "gold", "progress", "--gold-set", "team", "--format", "json",
                 "--db", db)  # fmt: skip
    data = json.loads(out)
    return data["adjudicated"], data["pending"]


def marks(db: str) -> dict[str, tuple[str | None, Any]]:
    """external id → (adjudicated_by, adjudicated_at) of every question."""
    store = open_store(db)
    try:
        with store.session() as s:
            return {
                q.external_id: (q.adjudicated_by, q.adjudicated_at)
                for q in s.exec(select(Query)).all()
            }
    finally:
        store.close()


def settled_both(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    """ana and bob both chose G on q1 and A on q2 (done); cleo settles both unanimously."""
    for who in ("ana", "bob"):
        layer(capsys, db, jsonl(tmp_path / f"{who}.jsonl", [line("q1", G), line("q2", A)]), who)
    out, _ = run(capsys, "adjudicate", "--gold-set", "team", "--auto", "unanimous",
                 "--actor", "cleo", "--db", db)  # fmt: skip
    assert "settled (marked adjudicated) 2 question(s)" in out


def test_reopen_makes_a_question_pending_and_undo_settles_it_again(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settled_both(capsys, db, tmp_path)
    # both settled: q1 and q2 scored (q3 has no team work and no element: neither)
    before = score(capsys, db)
    assert (before["queries"], before["pending"]["count"]) == (2, 0)
    assert progress(capsys, db) == (2, 0)
    was = marks(db)
    assert was["q2"][0] == "cleo" and was["q2"][1] is not None

    out, _ = run(capsys, "adjudicate", "--gold-set", "team", "--reopen", "q2",
                 "--actor", "lead", "--db", db)  # fmt: skip
    lines = out.splitlines()
    assert lines[0] == (
        "reopened 1 question of 'team' by lead: pending again (left out of scores) until "
        "settled again"
    )
    assert re.fullmatch(r"  q2: was settled by cleo at \d{4}-\d\d-\d\d \d\d:\d\d UTC", lines[1])
    assert lines[2] == (
        "change and settle again: labeler tui --gold-set team --annotator lead, F5 (K key "
        "clause, 1-3 grade, m settles); to undo: ctrl+z there, which settles each again as "
        "it was"
    )
    # q2 is pending: left out of scores and listed as pending, counted so in progress
    now = score(capsys, db)
    assert (now["queries"], now["pending"]) == (1, {"count": 1, "query_ids": ["q2"]})
    assert progress(capsys, db) == (1, 1)
    assert marks(db)["q2"] == (None, None)

    # undo (what ctrl+z does for lead) settles q2 again with the same by and at
    store = open_store(db)
    try:
        assert undo_change(store, actor="lead") == (
            "undone: change question q2, open → settled by cleo"
        )
        assert marks(db) == was
        assert progress(capsys, db) == (2, 0)
        assert score(capsys, db)["queries"] == 2
        assert redo_change(store, actor="lead") == (
            "redone: change question q2, settled by cleo → open"
        )
        assert marks(db)["q2"] == (None, None)
        assert progress(capsys, db) == (1, 1)
    finally:
        store.close()


def test_reopen_refuses_unknown_and_unsettled_ids_and_changes_nothing(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settled_both(capsys, db, tmp_path)
    was = marks(db)
    base = ("adjudicate", "--gold-set", "team", "--db", db)
    # q9 does not exist: nothing reopened, q2 (named too) included
    _, err = run(capsys, *base, "--reopen", "q2", "q9", code=1)
    assert (
        err
        == "labeler: error: cannot reopen: no question 'q9' in gold set 'team'; nothing reopened\n"
    )
    # q3 exists but was never settled
    _, err = run(capsys, *base, "--reopen", "q1", "q3", code=1)
    assert "cannot reopen q3: not settled" in err and "nothing reopened" in err
    _, err = run(capsys, "adjudicate", "--gold-set", "nope", "--reopen", "q1", "--db", db, code=1)
    assert "gold set 'nope'" in err
    assert marks(db) == was
    # one required choice: --auto or --reopen
    _, err = run(capsys, *base, code=2)
    assert "one of the arguments --auto --reopen is required" in err
    _, err = run(capsys, *base, "--auto", "unanimous", "--reopen", "q1", code=2)
    assert "not allowed with argument" in err
    _, err = run(capsys, *base, "--reopen", "q1", "--dry-run", code=2)
    assert "--dry-run goes with --auto" in err
    assert "Traceback" not in err
    assert marks(db) == was


def test_auto_key_conflict_on_a_settled_question_points_to_reopen(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """q1: both chose A, ana's key "Alpha" (0–5), bob's "beta." (6–11): settled without a
    key; the message leads to reopening, and following it lets the key be set."""
    ana = {**A, "key": {"start": 0, "end": 5}}
    bob = {**A, "key": {"start": 6, "end": 11}}
    layer(capsys, db, jsonl(tmp_path / "ana.jsonl", [line("q1", ana)]), "ana")
    layer(capsys, db, jsonl(tmp_path / "bob.jsonl", [line("q1", bob)]), "bob")
    out, _ = run(capsys, "adjudicate", "--gold-set", "team", "--auto", "unanimous", "--dry-run",
                 "--db", db)  # fmt: skip
    assert "q1 would be settled; to set it, reopen it" in out
    out, _ = run(capsys, "adjudicate", "--gold-set", "team", "--auto", "unanimous",
                 "--actor", "lead", "--db", db)  # fmt: skip
    assert (
        "    accepted without a key, keys differ: ana 0–5, bob 6–11 (q1 is settled; to set it, "
        "reopen it (labeler adjudicate --gold-set team --reopen q1, or s then r on the "
        "adjudication screen, F5), select the clause, K, and m to settle again): p.txt [0:11] "
        "'Alpha beta.' (ana, bob)\n"
    ) in out
    out, _ = run(capsys, "adjudicate", "--gold-set", "team", "--reopen", "q1", "--actor",
                 "lead", "--db", db)  # fmt: skip
    assert out.startswith("reopened 1 question of 'team' by lead")


def test_auto_majority_breaks_a_grade_tie_to_the_lower_grade(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """n = 3 done on q1: ana G g3, bob G g2, cleo nothing (no answer). G has 2 of 3 votes >
    3/2: majority accepts it; its grades 3 and 2 tie (one each): final 2. q1 is then settled
    (nothing else was chosen, so nothing is in dispute)."""
    layer(capsys, db, jsonl(tmp_path / "ana.jsonl", [line("q1", {**G, "grade": 3})]), "ana")
    layer(capsys, db, jsonl(tmp_path / "bob.jsonl", [line("q1", {**G, "grade": 2})]), "bob")
    layer(capsys, db, jsonl(tmp_path / "cleo.jsonl", [line("q1")]), "cleo")
    out, _ = run(capsys, "adjudicate", "--gold-set", "team", "--auto", "majority",
                 "--actor", "lead", "--db", db)  # fmt: skip
    assert "  q1: +1 span(s), adjudicated (done by ana, bob, cleo)\n" in out
    assert (
        "    accepted with grades 3, 2 tie: final 2 (ties take the lower grade): p.txt [12:32] "
        "'Gamma delta epsilon.' (ana, bob)\n"
    ) in out
    exported, _ = run(capsys, "gold", "export", "--gold-set", "team", "--db", db)
    first = json.loads(exported.splitlines()[0])
    assert [(e["start"], e["end"], e["grade"]) for e in first["elements"]] == [(12, 32, 2)]
