"""``labeler pool`` and not-relevant judgements through the store, the CLI, gold JSONL and
undo, on both backends, on a hand-worked example (the pure computation's own example,
tests/scoring/test_pooling.py, now through real imports and a real database).

The page ``p.txt`` holds 100 distinct characters, so each chunk's text occurs once and its
place is known by hand. Run A: rank 1 = P[10:30] (with its offsets), rank 2 = P[50:60]
(text only), rank 3 = P[0:5]. Run B: rank 1 = P[25:40] (text only), rank 2 = P[60:70] with
offsets that miss it (0-10: placed by its text at 60), rank 3 a text not on the page. q1 has
an element at [20, 28) and ana's judgement that [65, 70) is not relevant. At depth 2 the
pool of q1 is [28, 40) (A, B; best rank 1), [50, 65) (A, B; best 2), [10, 20) (A; best 1);
run A has 30 characters in its top 2, 22 unjudged; run B 25 and 17.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from _cli_in_process import labeler_in_process

from labeler.store import (
    Store,
    add_query,
    attach_element,
    create_gold_set,
    mark_not_relevant,
    question_judgements,
    redo_change,
    undo_change,
    upsert_document,
    withdraw_not_relevant,
)

P = "".join(chr(0x100 + i) for i in range(100))

pytestmark = pytest.mark.backends("sqlite", "postgresql")


def labeler(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return labeler_in_process(*args, stdin=stdin)


def fill(store: Store, db_url: str, tmp_path: Path) -> int:
    """The page, gold set g (q1 with its element, q2 with nothing), runs A and B through
    ``run import``, ana's judgement of [65, 70); returns q1's id."""
    with store.write() as s:
        upsert_document(s, doc_id="p.txt", source_path="p.txt", sha256="x", profile="t", text=P)
        gs = create_gold_set(s, "g", "")
        q = add_query(s, gs, "q1", "Which part?", actor="t")
        add_query(s, gs, "q2", "Nothing retrieved", actor="t")
        assert q.id is not None
        attach_element(s, q.id, "p.txt", 20, 28, annotator="t")
        qid = q.id
    runs = {
        "A": [
            {"text": P[10:30], "doc": "p.txt", "start": 10, "end": 30},
            {"text": P[50:60], "doc": "p.txt"},
            {"text": P[0:5], "doc": "p.txt"},
        ],
        "B": [
            {"text": P[25:40], "doc": "p.txt"},
            {"text": P[60:70], "doc": "p.txt", "start": 0, "end": 10},
            {"text": "zzzzzzz", "doc": "p.txt"},
        ],
    }
    for name, results in runs.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps({"query_id": "q1", "results": results}) + "\n", "utf-8")
        done = labeler("run", "import", str(path), "--name", name, "--db", db_url)
        assert done.returncode == 0, done.stderr
    mark_not_relevant(store, qid, "p.txt", 65, 70, annotator="ana")
    return qid


def pool(db_url: str, *extra: str) -> list[dict[str, object]]:
    done = labeler(
        "pool", "--gold-set", "g", "--run", "A", "--run", "B", "--depth", "2",
        "--format", "jsonl", "--db", db_url, *extra,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def regions(lines: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [
        (x["query_id"], x["doc"], x["start"], x["end"], tuple(x["runs"]), x["best_rank"])  # type: ignore[arg-type]
        for x in lines
        if x["kind"] == "region"
    ]


def test_pool_of_the_hand_worked_example(store: Store, db_url: str, tmp_path: Path) -> None:
    fill(store, db_url, tmp_path)
    lines = pool(db_url)
    assert regions(lines) == [
        ("q1", "p.txt", 28, 40, ("A", "B"), 1),
        ("q1", "p.txt", 50, 65, ("A", "B"), 2),
        ("q1", "p.txt", 10, 20, ("A",), 1),
    ]
    first = next(x for x in lines if x["kind"] == "region")
    assert first["text"] == P[28:40]
    runs = {x["run"]: x for x in lines if x["kind"] == "run"}
    assert {k: runs["A"][k] for k in ("chunks", "unjudged_chunks", "chars", "unjudged_chars")} == {
        "chunks": 2,
        "unjudged_chunks": 2,
        "chars": 30,
        "unjudged_chars": 22,
    }
    assert (runs["B"]["chars"], runs["B"]["unjudged_chars"], runs["B"]["unplaced"]) == (25, 17, 0)
    # depth 3: A's rank 3 at [0, 5) joins last; B's third chunk is not on its page
    deeper = labeler(
        "pool", "--gold-set", "g", "--run", "A", "--run", "B", "--depth", "3",
        "--format", "jsonl", "--db", db_url,
    )  # fmt: skip
    out = [json.loads(line) for line in deeper.stdout.splitlines()]
    assert regions(out)[-1] == ("q1", "p.txt", 0, 5, ("A",), 3)
    b = next(x for x in out if x.get("run") == "B")
    assert (b["chars"], b["unjudged_chars"], b["unplaced"]) == (32, 24, 1)
    table = labeler(
        "pool", "--gold-set", "g", "--run", "A", "--run", "B", "--depth", "2", "--db", db_url
    )
    assert table.returncode == 0, table.stderr
    assert "q1: 3 unjudged regions" in table.stdout
    assert "q2: 0 unjudged regions" in table.stdout
    assert "A\t2\t2\t30\t22 (73.3%)\t0" in table.stdout


def test_judgements_undo_redo_and_blind_layers(store: Store, db_url: str, tmp_path: Path) -> None:
    qid = fill(store, db_url, tmp_path)
    (mine,) = question_judgements(store, qid, "ana")
    assert (mine.document_id, mine.start, mine.end, mine.layer) == ("p.txt", 65, 70, "final")
    # undo takes ana's judgement back: [50, 70) is one unjudged region again
    assert undo_change(store, actor="ana") == (
        "undone: add not-relevant judgement of q1 by ana (p.txt 65–70)"
    )
    assert ("q1", "p.txt", 50, 70, ("A", "B"), 2) in regions(pool(db_url))
    assert redo_change(store, actor="ana") is not None
    assert ("q1", "p.txt", 50, 65, ("A", "B"), 2) in regions(pool(db_url))
    # the same region twice by the same annotator is refused, by name
    from labeler.errors import IntegrityError, NotFoundError

    with pytest.raises(IntegrityError, match="judged not relevant by ana already"):
        mark_not_relevant(store, qid, "p.txt", 65, 70, annotator="ana")
    with pytest.raises(IntegrityError, match="not a region of the page"):
        mark_not_relevant(store, qid, "p.txt", 90, 101, annotator="ana")
    (again,) = question_judgements(store, qid, "ana")
    withdraw_not_relevant(store, again.id, annotator="ana")
    assert question_judgements(store, qid, "ana") == []
    with pytest.raises(NotFoundError):
        withdraw_not_relevant(store, again.id, annotator="ana")


def test_gold_export_and_import_carry_judgements(store: Store, db_url: str, tmp_path: Path) -> None:
    fill(store, db_url, tmp_path)
    exported = labeler("gold", "export", "--gold-set", "g", "--db", db_url)
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in exported.stdout.splitlines()]
    assert lines[0]["judged_not_relevant"] == [
        {"doc": "p.txt", "start": 65, "end": 70, "annotator": "ana"}
    ]
    assert "judged_not_relevant" not in lines[1]  # q2 has none: the field is not written
    path = tmp_path / "g.jsonl"
    path.write_text(exported.stdout, "utf-8")
    done = labeler("gold", "import", str(path), "--gold-set", "g2", "--db", db_url)
    assert done.returncode == 0, done.stderr
    again = labeler("gold", "export", "--gold-set", "g2", "--db", db_url)
    assert again.stdout == exported.stdout
    copied = labeler(
        "pool", "--gold-set", "g2", "--run", "A", "--run", "B", "--depth", "2",
        "--format", "jsonl", "--db", db_url,
    )  # fmt: skip
    assert [json.loads(x) for x in copied.stdout.splitlines()] == pool(db_url)


BAD = [
    ('"judged_not_relevant": [{"doc": "p.txt", "start": 5, "end": 5}]', "needs 0 <= start < end"),
    ('"judged_not_relevant": [{"doc": "p.txt", "start": "5", "end": 9}]', "'start'"),
    ('"judged_not_relevant": [{"doc": "nope.txt", "start": 1, "end": 9}]', "unknown document"),
    ('"judged_not_relevant": [{"doc": "p.txt", "start": 1, "end": 101}]', "ends past the page"),
    ('"judged_not_relevant": {"doc": "p.txt"}', "'judged_not_relevant'"),
    (
        '"judged_not_relevant": [{"doc": "p.txt", "start": 1, "end": 9}, '
        '{"doc": "p.txt", "start": 1, "end": 9}]',
        "repeats judged_not_relevant[0]",
    ),
    ('"judged_not_relevant": [{"doc": "p.txt", "start": 1, "end": 9, "x": 1}]', "unknown field"),
]


@pytest.mark.parametrize(("field", "message"), BAD)
def test_bad_judgements_are_refused_by_line(
    store: Store, db_url: str, tmp_path: Path, field: str, message: str
) -> None:
    fill(store, db_url, tmp_path)
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"query_id": "ok", "query": "fine", "elements": []}\n'
        f'{{"query_id": "b", "query": "bad", "elements": [], {field}}}\n',
        "utf-8",
    )
    done = labeler("gold", "import", str(path), "--gold-set", "g3", "--db", db_url)
    assert done.returncode != 0
    assert "bad.jsonl:2: " in done.stderr and message in done.stderr
    assert "Traceback" not in done.stderr
    listed = labeler("gold", "export", "--gold-set", "g3", "--db", db_url)
    assert listed.returncode != 0  # all or nothing: the gold set was never made


def test_bad_pool_input(store: Store, db_url: str, tmp_path: Path) -> None:
    fill(store, db_url, tmp_path)
    unknown = labeler(
        "pool", "--gold-set", "g", "--run", "A", "--run", "C", "--depth", "2", "--db", db_url
    )
    assert unknown.returncode == 1
    assert "no run named 'C' (runs stored: A, B)" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    for depth in ("0", "-3"):
        bad = labeler("pool", "--gold-set", "g", "--run", "A", "--depth", depth, "--db", db_url)
        assert bad.returncode == 2
        assert f"--depth must be a whole number of at least 1, got {depth}" in bad.stderr
    word = labeler("pool", "--gold-set", "g", "--run", "A", "--depth", "ten", "--db", db_url)
    assert word.returncode == 2 and "invalid int value" in word.stderr
    twice = labeler(
        "pool", "--gold-set", "g", "--run", "A", "--run", "A", "--depth", "2", "--db", db_url
    )
    assert twice.returncode == 2 and "run named more than once: A" in twice.stderr
    gold = labeler("pool", "--gold-set", "nope", "--run", "A", "--depth", "2", "--db", db_url)
    assert gold.returncode == 1 and "nope" in gold.stderr


def test_score_reports_judged_at_k(store: Store, db_url: str, tmp_path: Path) -> None:
    """Run A on q1, by hand: at k = 1 its chunk [10, 30) holds 8 judged characters (the
    element [20, 28)) of 20, 0.4; at k = 2 also [50, 60), none judged: 8 of 30. More than a
    tenth unjudged: the score says its figures are a lower bound. Once [10, 20), [28, 40)
    and [50, 65) are judged not relevant, all 30 are judged and the warning goes."""
    qid = fill(store, db_url, tmp_path)
    rows = tmp_path / "rows.jsonl"
    done = labeler(
        "score", "--gold-set", "g", "--run", "A", "--k", "1,2", "--format", "json",
        "--per-query", str(rows), "--db", db_url,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    judged = json.loads(done.stdout)["judged_at_k"]
    assert judged["k"] == {
        "1": {"judged": 8, "chars": 20, "share": 0.4},
        "2": {"judged": 8, "chars": 30, "share": pytest.approx(8 / 30)},
    }
    assert judged["per_query"] == {"q1": {"1": 0.4, "2": pytest.approx(8 / 30)}}
    warning = (
        "73.3 % of what this run retrieves at 2 was never judged: its scores are a lower bound"
    )
    assert judged["warning"] == warning
    assert f"labeler: A: {warning}" in done.stderr
    (q1,) = [json.loads(x) for x in rows.read_text("utf-8").splitlines() if '"q1"' in x]
    assert q1["judged@k"] == {"1": 0.4, "2": pytest.approx(8 / 30)}
    table = labeler("score", "--gold-set", "g", "--run", "A", "--k", "1,2", "--db", db_url)
    assert table.returncode == 0, table.stderr
    assert warning in table.stdout
    assert "judged@1" in table.stdout and "0.400" in table.stdout and "0.267" in table.stdout
    for a, b in ((10, 20), (28, 40), (50, 65)):
        mark_not_relevant(store, qid, "p.txt", a, b, annotator="ana")
    again = labeler(
        "score", "--gold-set", "g", "--run", "A", "--k", "1,2", "--format", "json", "--db", db_url
    )
    assert json.loads(again.stdout)["judged_at_k"]["k"]["2"] == {
        "judged": 30,
        "chars": 30,
        "share": 1.0,
    }
    assert json.loads(again.stdout)["judged_at_k"]["warning"] is None
    assert "never judged" not in again.stderr


def test_the_python_api_pools_and_reports_judged_at_k(
    store: Store, db_url: str, tmp_path: Path
) -> None:
    """``GoldSet.pool`` is ``labeler pool`` and ``GoldSet.score`` carries the run's judged@k
    (a stored run, and the same chunks in memory), both by hand as above: the pool of q1 at
    depth 2 and run A's 8 judged characters of 20 at k = 1, of 30 at k = 2. A chunk naming
    no page is looked for on q1's judged pages (as scoring looks for it on the pages q1
    cites): P[60:70] at rank 2 holds ana's judgement [65, 70), so judged@2 is 13 of 30 (8 of
    30 were it left unplaced)."""
    import labeler as api

    fill(store, db_url, tmp_path)
    with api.open(db_url, create=False) as db:
        gold = db.gold_set("g")
        report = gold.pool(["A", "B"], depth=2)
        stored = gold.score("A", k=(1, 2))
        memory = gold.score(
            {"q1": [{"text": P[10:30], "doc": "p.txt", "start": 10, "end": 30},
                    {"text": P[50:60], "doc": "p.txt"}]},
            k=(1, 2), name="A",
        )  # fmt: skip
        docless = gold.score(
            {"q1": [{"text": P[10:30], "doc": "p.txt", "start": 10, "end": 30}, P[60:70]]},
            k=(1, 2),
        )
        with pytest.raises(api.errors.UsageError, match="at least 1"):
            gold.pool(["A"], depth=0)
    got = [
        (q.query_id, g.doc, g.start, g.end, tuple(g.runs), g.best_rank)
        for q in report.questions
        for g in q.regions
    ]
    assert got == [
        ("q1", "p.txt", 28, 40, ("A", "B"), 1),
        ("q1", "p.txt", 50, 65, ("A", "B"), 2),
        ("q1", "p.txt", 10, 20, ("A",), 1),
    ]
    assert [(t.run, t.chars, t.unjudged_chars) for t in report.totals] == [
        ("A", 30, 22),
        ("B", 25, 17),
    ]
    for ev in (stored, memory):
        judged = ev.to_dict()["judged_at_k"]
        assert judged["k"]["1"] == {"judged": 8, "chars": 20, "share": 0.4}
        assert judged["k"]["2"]["judged"] == 8 and judged["k"]["2"]["chars"] == 30
        assert ev.judged is not None and ev.judged.warning() is not None
    assert docless.to_dict()["judged_at_k"]["k"]["2"] == {
        "judged": 13,
        "chars": 30,
        "share": pytest.approx(13 / 30),
    }
