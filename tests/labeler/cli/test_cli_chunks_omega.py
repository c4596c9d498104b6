"""``labeler chunks audit``: the Ω ceilings as Chroma's chunking evaluation defines them,
end to end on both database backends, with values worked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from labeler.cli import main

PAGE = "alpha beta gamma delta epsilon zeta eta theta"
# alpha 0-5 beta 6-10 gamma 11-16 delta 17-22 epsilon 23-30 zeta 31-35 eta 36-39 theta 40-45


@pytest.fixture()
def db(tmp_path: Path, db_url: str) -> str:
    (tmp_path / "p.txt").write_text(PAGE, encoding="utf-8")
    path = db_url
    assert main(["ingest", str(tmp_path / "p.txt"), "--db", path, "-q"]) == 0
    gold = [
        {"query_id": "q1", "query": "?", "elements": [
            {"doc": "p.txt", "start": 11, "end": 22, "text": "gamma delta"}]},
        {"query_id": "q2", "query": "?", "elements": [
            {"doc": "p.txt", "start": 40, "end": 45, "text": "theta"}]},
    ]  # fmt: skip
    file = tmp_path / "gold.jsonl"
    file.write_text("".join(json.dumps(r) + "\n" for r in gold), encoding="utf-8")
    assert main(["gold", "import", str(file), "--gold-set", "g", "--db", path]) == 0
    return path


def chunk_file(tmp_path: Path, spans: list[tuple[int, int]]) -> str:
    rows = [{"doc": "p.txt", "text": PAGE[a:b], "start": a, "end": b} for a, b in spans]
    path = tmp_path / "chunks.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


@pytest.mark.backends()
def test_audit_counts_touching_chunks_and_divides_by_their_union(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # q1 "gamma delta" [11, 22): [0, 11) touches it at 11, [6, 16) overlaps, [22, 30)
    # touches at 22, [23, 30) does not touch. U = [0, 16) + [22, 30) = 24 code points,
    # C = [11, 16) = 5, G ∖ U = [16, 22) = 6, Σ|r| = 11 + 10 + 8 = 29.
    # q2 "theta" [40, 45): [36, 45) "eta theta" and [31, 45) "zeta eta theta" overlap
    # (union 14, Σ 9 + 14 = 23) → 5/14, 5/14, 5/23.
    chunks = chunk_file(tmp_path, [(0, 11), (6, 16), (22, 30), (23, 30), (31, 45), (36, 45)])
    capsys.readouterr()
    audit = ["chunks", "audit", chunks, "--gold-set", "g", "--db", db]
    assert main([*audit, "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["precision_omega"] == pytest.approx((5 / 24 + 5 / 14) / 2)
    assert report["iou_omega"] == pytest.approx((5 / 30 + 5 / 14) / 2)
    assert report["precision_omega_paid"] == pytest.approx((5 / 29 + 5 / 23) / 2)
    assert report["omega_by_question"] == {
        "q1": {"precision_omega": 5 / 24, "iou_omega": 5 / 30, "precision_omega_paid": 5 / 29},
        "q2": {"precision_omega": 5 / 14, "iou_omega": 5 / 14, "precision_omega_paid": 5 / 23},
    }
    assert main(audit) == 0
    table = capsys.readouterr().out
    # (1/6 + 5/14)/2 = 0.2619, (5/24 + 5/14)/2 = 0.2827, (5/29 + 5/23)/2 = 0.1949
    assert "iou_omega 0.262   precision_omega 0.283   precision_omega_paid 0.195" in table
    assert "Chroma's Precision_Ω" in table
