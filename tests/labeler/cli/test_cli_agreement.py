"""``labeler agreement`` on a team gold set, on both backends: figures worked by hand and α
checked against the ``krippendorff`` package (one value per character)."""

from __future__ import annotations

import json
from pathlib import Path

import krippendorff  # type: ignore[import-untyped]
import numpy as np
import pytest

from labeler.cli import main
from labeler.store import Store, add_query, create_gold_set, upsert_document
from labeler.store.labels import add_element
from labeler.store.models import LAYER_ANNOTATOR
from labeler.store.team import mark_done

pytestmark = pytest.mark.backends("sqlite", "postgresql")

#         0         1         2         3         4
#         0123456789012345678901234567890123456789012
PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta."

# q1: both chose 12–32 (identical). q2: ana 0–11, bob 0–5 (bob's inside ana's: nested).
# q3: only ana marked it done (not compared). cleo labelled q1 but never marked it done.
LABELS = {
    ("q1", "ana"): [(12, 32)],
    ("q1", "bob"): [(12, 32)],
    ("q2", "ana"): [(0, 11)],
    ("q2", "bob"): [(0, 5)],
    ("q3", "ana"): [(33, 42)],
    ("q1", "cleo"): [(0, 42)],
}
DONE = [("q1", "ana"), ("q1", "bob"), ("q2", "ana"), ("q2", "bob"), ("q3", "ana")]


def seed(store: Store) -> None:
    with store.write() as s:
        upsert_document(
            s, doc_id="w.html", source_path="w.html", sha256="x", profile="t", text=PAGE
        )
        gold = create_gold_set(s, "gold")
        ids = {}
        for name in ("q1", "q2", "q3"):
            q = add_query(s, gold, name, f"{name}?", actor="lead")
            ids[name] = q.id
        for (name, who), spans in LABELS.items():
            for start, end in spans:
                add_element(
                    s, ids[name], "w.html", start, end, annotator=who, layer=LAYER_ANNOTATOR
                )
        for name, who in DONE:
            mark_done(s, ids[name], who)


def alpha_by_package() -> float:
    """α from one value per character: 42 units for q1, 42 for q2, coders ana and bob."""
    rows = []
    for who in ("ana", "bob"):
        row = []
        for name in ("q1", "q2"):
            marks = np.zeros(len(PAGE))
            for start, end in LABELS[(name, who)]:
                marks[start:end] = 1
            row.extend(marks)
        rows.append(row)
    return float(
        krippendorff.alpha(reliability_data=np.array(rows), level_of_measurement="nominal")
    )


def test_agreement_json_equals_the_hand_worked_figures(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seed(store)
    per_question = tmp_path / "per-question.jsonl"
    code = main(
        [
            "agreement",
            "--gold-set",
            "gold",
            "--format",
            "json",
            "--per-question",
            str(per_question),
            "--db",
            db_url,
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert data["gold_set"] == "gold"
    assert data["annotators"] == ["ana", "bob"]  # cleo marked nothing done
    assert data["questions"] == 2  # q3 was done by ana alone
    overall = data["overall"]
    # exact: q1 shares 1 span, q2 none; 2·1 / ((1+1) + (1+1)) = 0.5
    assert overall["exact_f1"] == pytest.approx(0.5)
    # partial: ana's 12–32 matched; ana's 0–11 overlaps bob's 0–5 by 5 < 11/2: P = 1/2.
    # bob's 12–32 matched, bob's 0–5 lies inside ana's 0–11 (5 ≥ 5/2): R = 1. F1 = 2/3.
    assert overall["partial_f1"] == pytest.approx(2 / 3)
    # α by hand: 84 character units, 2 coders each. Coincidences: o11 = 2·20 + 2·5 = 50,
    # o00 = 2·22 + 2·31 = 106, o01 = o10 = 6 (chars 5–11 of q2); n = 168, n1 = 56, n0 = 112.
    # α = 1 − (n − 1)·(o01 + o10) / (2·n1·n0) = 1 − 167·12 / 12544
    assert overall["char_alpha"] == pytest.approx(1 - 167 * 12 / 12544)
    assert overall["char_alpha"] == pytest.approx(alpha_by_package())
    (pair,) = data["pairs"]
    assert (pair["a"], pair["b"], pair["questions"]) == ("ana", "bob", 2)
    assert (pair["identical"], pair["nested"], pair["disjoint"]) == (1, 1, 0)
    lines = [json.loads(line) for line in per_question.read_text().splitlines()]
    assert [(q["query_id"], q["exact_f1"]) for q in lines] == [("q1", 1.0), ("q2", 0.0)]


def test_table_lists_the_worst_question_first(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(store)
    assert main(["agreement", "--gold-set", "gold", "--db", db_url]) == 0
    out = capsys.readouterr().out
    questions = out[out.index("Questions, lowest agreement first") :]
    rows = [line.split()[0] for line in questions.splitlines() if line.startswith("q")][1:]
    assert rows == ["q2", "q1"]  # q2: α = 1 − 83·12/(2·16·68) = 0.542 by hand; q1: 1


def test_unknown_annotator_is_a_clear_error(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seed(store)
    code = main(["agreement", "--gold-set", "gold", "--annotators", "ana,zed", "--db", db_url])
    assert code != 0
    err = capsys.readouterr().err
    assert "zed marked no question of this gold set done" in err
    assert "ana, bob" in err
