"""Issue 12's acceptance story on both backends: assign, import two annotators' layers,
measure their agreement, adjudicate what they agree on automatically, the rest in the TUI's
adjudication screen (Pilot), and score the final layer, every figure worked by hand.

The page (60 characters) and the elements::

    0         1         2         3         4         5         6
    0123456789012345678901234567890123456789012345678901234567890
    Alpha beta. Gamma delta epsilon. Zeta eta. Theta iota kappa.
    A = [0, 11)  G = [12, 32)  Z = [33, 42)  T = [43, 60)

ana: q1 G; q2 A, Z; q3 nothing (done: no answer); q4 T.   bob: q1 G; q2 A; q3 nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import krippendorff  # type: ignore[import-untyped]
import numpy as np
import pytest
from sqlmodel import col, select
from textual.pilot import Pilot
from tui_support import run_app, settle

from labeler.cli import main
from labeler.store import open_store
from labeler.store.models import LAYER_FINAL, Element
from labeler.tui.app import LabelerApp
from labeler.tui.screens.adjudicate import AdjudicationScreen

PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta. Theta iota kappa."
SPANS = {"A": (0, 11), "G": (12, 32), "Z": (33, 42), "T": (43, 60)}
ANA = {"q1": "G", "q2": "AZ", "q3": "", "q4": "T"}
BOB = {"q1": "G", "q2": "A", "q3": ""}


def element(name: str) -> dict[str, Any]:
    start, end = SPANS[name]
    return {"doc": "p.txt", "start": start, "end": end, "text": PAGE[start:end]}


def jsonl(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def layer(path: Path, labels: dict[str, str]) -> str:
    rows = [
        {"query_id": q, "query": f"question {q}", "elements": [element(n) for n in names]}
        for q, names in labels.items()
    ]
    return jsonl(path, rows)


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def alpha_by_package() -> float:
    """α with one value per character: q1 and q2 (q3 cites no page: no units)."""
    rows = []
    for labels in (ANA, BOB):
        row: list[float] = []
        for q in ("q1", "q2"):
            marks = np.zeros(len(PAGE))
            for name in labels[q]:
                start, end = SPANS[name]
                marks[start:end] = 1
            row.extend(marks)
        rows.append(row)
    return float(
        krippendorff.alpha(reliability_data=np.array(rows), level_of_measurement="nominal")
    )


def test_team_gold_set_from_assignment_to_final_scores(
    any_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = any_db
    page = tmp_path / "p.txt"
    page.write_text(PAGE, encoding="utf-8")
    cli(capsys, "ingest", str(page), "--db", db, "-q")
    questions = [{"query_id": q, "query": f"question {q}", "elements": []} for q in ANA]
    cli(
        capsys,
        "gold",
        "import",
        jsonl(tmp_path / "q.jsonl", questions),
        "--gold-set",
        "demo",
        "--db",
        db,
    )
    run = {
        "q1": ["Alpha beta. Gamma delta", "Gamma delta epsilon. Zeta eta."],
        "q2": ["Zeta eta.", "Alpha beta."],
        "q4": ["Theta iota"],
    }
    lines = [{"query_id": q, "results": [{"text": c} for c in cs]} for q, cs in run.items()]
    cli(
        capsys, "run", "import", jsonl(tmp_path / "r.jsonl", lines), "--name", "r", "--db", db, "-q"
    )

    out = cli(
        capsys,
        "gold",
        "assign",
        "--gold-set",
        "demo",
        "--annotators",
        "ana,bob",
        "--per-question",
        "2",
        "--db",
        db,
    )
    assert "8 assignment(s) added over 4 question(s)" in out
    for who, labels in (("ana", ANA), ("bob", BOB)):
        file = layer(tmp_path / f"{who}.jsonl", labels)
        cli(
            capsys,
            "gold",
            "import",
            file,
            "--gold-set",
            "demo",
            "--annotator",
            who,
            "--layer",
            "--db",
            db,
        )

    # Agreement over q1–q3 (done by both; q4 by ana alone):
    # exact: shared G (q1) and A (q2); 2·2 / ((1+1) + (2+1) + 0) = 4/5
    # partial: ana's G, A matched, Z not: P = 2/3; bob's G, A matched: R = 1 → F1 = 0.8
    # α: 120 character units (q1, q2 on the 60-character page), 2 coders each:
    #   o11 = 2·20 (G) + 2·11 (A) = 62, o01 = o10 = 9 (Z), o00 = 2·40 + 2·40 = 160;
    #   n = 240, n1 = 71, n0 = 169; α = 1 − 239·18 / (2·71·169)
    data = json.loads(
        cli(capsys, "agreement", "--gold-set", "demo", "--format", "json", "--db", db)
    )
    assert (data["annotators"], data["questions"]) == (["ana", "bob"], 3)
    assert data["overall"]["exact_f1"] == pytest.approx(4 / 5)
    assert data["overall"]["partial_f1"] == pytest.approx(0.8)
    assert data["overall"]["char_alpha"] == pytest.approx(1 - 239 * 18 / (2 * 71 * 169))
    assert data["overall"]["char_alpha"] == pytest.approx(alpha_by_package())
    (pair,) = data["pairs"]
    # q1, q3 identical; q2: bob's {A} inside ana's {A, Z}
    assert (pair["identical"], pair["nested"], pair["disjoint"]) == (2, 1, 0)

    # unanimous: q1 (G) and q3 (no answer) settle; q2 keeps Z in dispute; q4 waits for bob
    out = cli(
        capsys,
        "adjudicate",
        "--gold-set",
        "demo",
        "--auto",
        "unanimous",
        "--actor",
        "lead",
        "--db",
        db,
    )
    assert "settled (marked adjudicated) 2 question(s)" in out

    # The rest in the TUI: q2 is the only question in lead's adjudication queue; Z accepted
    store = open_store(db)
    try:

        async def adjudicate(app: LabelerApp, pilot: Pilot[int]) -> None:
            await pilot.press("f5")
            await settle(app, pilot)
            screen = app.screen
            assert isinstance(screen, AdjudicationScreen)
            assert [w.external_id for w in screen.queue] == ["q2"]
            assert screen.state is not None
            groups = [(g.start, g.end, g.annotators, g.final) for g in screen.state.spans.groups]
            assert groups == [(0, 11, ("ana", "bob"), True), (33, 42, ("ana",), False)]
            for key in ("down", "a", "m"):
                await pilot.press(key)
                await settle(app, pilot)
            assert screen.queue == []

        run_app(store, adjudicate, annotator="lead")
        with store.session() as s:
            final = s.exec(
                select(Element.start, Element.provenance, Element.annotator)
                .where(Element.layer == LAYER_FINAL)
                .order_by(col(Element.query_id), col(Element.start))
            ).all()
        assert [tuple(f) for f in final] == [
            (12, "unanimous", "lead"),
            (0, "unanimous", "lead"),
            (33, "adjudicated", "lead"),
        ]
    finally:
        store.close()

    # Final layer: q1 {G}, q2 {A, Z}; q3 adjudicated with no element (nothing to score); q4
    # pending. recall@1: q1 0 (rank 1 holds 11 of G's 20 characters), q2 1/2 (Z) → 0.25;
    # recall@3: q1 1 (rank 2 holds G), q2 1 (A at rank 2) → 1; partial@1: q1 1, q2 1 → 1.
    scored = json.loads(
        cli(
            capsys,
            "score",
            "--gold-set",
            "demo",
            "--run",
            "r",
            "--k",
            "1,3",
            "--format",
            "json",
            "--ci",
            "0",
            "--db",
            db,
        )
    )
    assert scored["queries"] == 2
    assert scored["pending"] == {"count": 1, "query_ids": ["q4"]}
    assert scored["metrics"]["recall@1"] == pytest.approx(0.25)
    assert scored["metrics"]["recall@3"] == pytest.approx(1.0)
    assert scored["metrics"]["partial@1"] == pytest.approx(1.0)
