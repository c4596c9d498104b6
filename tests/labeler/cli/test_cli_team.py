"""A team gold set end to end through ``labeler.cli.main``, on both backends: assign, import
two annotators' layers, progress, score while pending, ``adjudicate --auto``, exports of
every layer (and one read back), and scoring the final layer and each annotator's.

Every expected figure is worked by hand in the comments from the page below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from labeler.cli import main

pytestmark = pytest.mark.backends("sqlite", "postgresql")

#         0         1         2         3         4         5         6
#         0123456789012345678901234567890123456789012345678901234567890
PAGE = "Alpha beta. Gamma delta epsilon. Zeta eta. Theta iota kappa."
A = {"doc": "p.txt", "start": 0, "end": 11, "text": "Alpha beta."}
G = {"doc": "p.txt", "start": 12, "end": 32, "text": "Gamma delta epsilon."}
Z = {"doc": "p.txt", "start": 33, "end": 42, "text": "Zeta eta."}
T = {"doc": "p.txt", "start": 43, "end": 60, "text": "Theta iota kappa."}


def jsonl(path: Path, rows: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def line(qid: str, *elements: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"query_id": qid, "query": f"question {qid}", "elements": list(elements), **extra}


def run(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> str:
    got = main(list(argv))
    out, err = capsys.readouterr()
    assert got == code, err
    return out


def _seed(folder: Path, db: str) -> None:
    """p.txt ingested; gold set "team" with questions q1–q4 and no labels; run "r"."""
    page = folder / "p.txt"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["ingest", str(page), "--db", db, "-q"]) == 0
    gold = jsonl(folder / "gold.jsonl", [line(q) for q in ("q1", "q2", "q3", "q4")])
    assert main(["gold", "import", gold, "--gold-set", "team", "--db", db]) == 0
    chunks = {
        # rank 1 = [0, 23) holds 11 of G's 20 characters (Partial); rank 2 = [12, 42) holds G
        "q1": ["Alpha beta. Gamma delta", "Gamma delta epsilon. Zeta eta."],
        # rank 1 holds Z whole, rank 2 holds A whole
        "q2": ["Zeta eta.", "Alpha beta."],
        # [43, 53) holds 10 of T's 17 characters: Partial, never Full
        "q4": ["Theta iota"],
    }
    results = [{"query_id": q, "results": [{"text": c} for c in cs]} for q, cs in chunks.items()]
    run_file = jsonl(folder / "run.jsonl", results)
    assert main(["run", "import", run_file, "--name", "r", "--db", db, "-q"]) == 0


@pytest.fixture
def db(
    seeded_db: Callable[[str, Callable[[Path, str], object]], str],
    capsys: pytest.CaptureFixture[str],
) -> str:
    """A copy of the database :func:`_seed` filled once per test process and backend."""
    made = seeded_db("cli-team", _seed)
    capsys.readouterr()  # what seeding printed (in the first test only) is no test's output
    return made


def score(capsys: pytest.CaptureFixture[str], db: str, *extra: str) -> dict[str, Any]:
    out = run(
        capsys,
        "score",
        "--gold-set",
        "team",
        "--run",
        "r",
        "--k",
        "1,3",
        "--format",
        "json",
        "--db",
        db,
        *extra,
    )
    data: dict[str, Any] = json.loads(out)
    return data


def progress(capsys: pytest.CaptureFixture[str], db: str) -> dict[str, Any]:
    out = run(capsys, "gold", "progress", "--gold-set", "team", "--format", "json", "--db", db)
    data: dict[str, Any] = json.loads(out)
    return data


def test_team_gold_set_end_to_end(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Before any team work the set scores as a plain gold set: no element anywhere, so
    # nothing is scored and nothing is pending.
    plain = score(capsys, db)
    assert (plain["queries"], plain["pending"]["count"], plain["layer"]) == (0, 0, "final")

    # assign: 4 questions × 2 annotators out of 2 = every question to both (loads 4 and 4)
    out = run(
        capsys,
        "gold",
        "assign",
        "--gold-set",
        "team",
        "--annotators",
        "ana,bob",
        "--per-question",
        "2",
        "--actor",
        "lead",
        "--db",
        db,
    )
    assert "8 assignment(s) added over 4 question(s)" in out
    again = run(
        capsys,
        "gold",
        "assign",
        "--gold-set",
        "team",
        "--annotators",
        "ana,bob",
        "--per-question",
        "2",
        "--actor",
        "lead",
        "--db",
        db,
    )
    assert "0 assignment(s) added over 4 question(s) (4 had their 2 annotators already)" in again

    # ana did all four (q3: no answer); bob did q1–q3 (q3: no answer)
    ana = jsonl(
        tmp_path / "ana.jsonl", [line("q1", G), line("q2", A, Z), line("q3"), line("q4", T)]
    )
    bob = jsonl(tmp_path / "bob.jsonl", [line("q1", G), line("q2", A), line("q3")])
    out = run(
        capsys,
        "gold",
        "import",
        ana,
        "--gold-set",
        "team",
        "--annotator",
        "ana",
        "--layer",
        "--db",
        db,
    )
    assert "4 questions (0 created), 4 elements (0 earlier ones replaced), 4 marked done " in out
    run(
        capsys,
        "gold",
        "import",
        bob,
        "--gold-set",
        "team",
        "--annotator",
        "bob",
        "--layer",
        "--db",
        db,
    )
    counts = ("annotator", "assigned", "done", "no_answer", "remaining")
    people = {p["annotator"]: {k: p[k] for k in counts} for p in progress(capsys, db)["annotators"]}
    assert people == {
        "ana": {"annotator": "ana", "assigned": 4, "done": 4, "no_answer": 1, "remaining": 0},
        "bob": {"annotator": "bob", "assigned": 4, "done": 3, "no_answer": 1, "remaining": 1},
    }

    # Every question has team work and none is adjudicated: all four pending, none scored.
    pending = score(capsys, db)
    assert pending["queries"] == 0
    assert pending["pending"] == {"count": 4, "query_ids": ["q1", "q2", "q3", "q4"]}

    # adjudicate --auto unanimous (2 done annotators: a span needs both):
    #   q1: G by both → accepted, nothing disputed → adjudicated
    #   q2: A by both → accepted; Z by ana only → disputed → left for a person
    #   q3: both done with no answer → nothing disputed → adjudicated, no element
    #   q4: only ana done → waiting
    dry = run(
        capsys,
        "adjudicate",
        "--gold-set",
        "team",
        "--auto",
        "unanimous",
        "--dry-run",
        "--actor",
        "cleo",
        "--db",
        db,
    )
    assert "would accept 2 span(s); would settle 2 question(s)" in dry
    assert score(capsys, db)["pending"]["count"] == 4  # the dry run changed nothing
    out = run(
        capsys,
        "adjudicate",
        "--gold-set",
        "team",
        "--auto",
        "unanimous",
        "--actor",
        "cleo",
        "--db",
        db,
    )
    assert "accepted 2 span(s); settled (marked adjudicated) 2 question(s)" in out
    assert "left for a person: 1 question(s)" in out
    assert "  q2 (done by ana, bob): disputed\n    p.txt [33:42] 'Zeta eta.' (ana)\n" in out
    assert "waiting for a second annotator's done mark: 1 (q4)" in out
    assert progress(capsys, db)["adjudicated"] == 2

    # export --layer final: every question; pending ones say so; provenance on final elements
    final = [
        json.loads(x)
        for x in run(capsys, "gold", "export", "--gold-set", "team", "--db", db).splitlines()
    ]
    assert [(q["query_id"], q.get("adjudicated")) for q in final] == [
        ("q1", None),
        ("q2", False),
        ("q3", None),
        ("q4", False),
    ]
    assert final[0]["elements"] == [
        {**G, "grade": 1, "provenance": "unanimous", "annotator": "cleo"}
    ]
    assert [e["start"] for e in final[1]["elements"]] == [0]  # A, accepted; Z is not final
    assert final[3]["elements"] == []
    # the Ragas export is what scoring reads: q2's final A is left out while q2 is pending
    assert main(["gold", "export", "--gold-set", "team", "--format", "ragas", "--db", db]) == 0
    out, err = capsys.readouterr()
    assert [json.loads(x) for x in out.splitlines()] == [
        {"user_input": "question q1", "reference_contexts": [G["text"]]}
    ]
    assert "2 question(s) pending adjudication left out" in err

    # export --layer all: q2 with its final element and each annotator's own, accepted or not
    every = [
        json.loads(x)
        for x in run(
            capsys, "gold", "export", "--gold-set", "team", "--layer", "all", "--db", db
        ).splitlines()
    ]
    q2 = every[1]
    assert (q2["adjudicated"], q2["done_by"]) == (False, ["ana", "bob"])
    assert [
        (e["layer"], e["annotator"], e["start"], e["provenance"], e.get("accepted"))
        for e in q2["elements"]
    ] == [
        ("final", "cleo", 0, "unanimous", None),
        ("annotator", "ana", 0, "own", True),
        ("annotator", "ana", 33, "own", False),
        ("annotator", "bob", 0, "own", True),
    ]
    mine = [
        json.loads(x)
        for x in run(
            capsys, "gold", "export", "--gold-set", "team", "--layer", "annotator:bob", "--db", db
        ).splitlines()
    ]
    # bob labelled or finished q1–q3, and never q4
    assert [(q["query_id"], q["done"], len(q["elements"])) for q in mine] == [
        ("q1", True, 1),
        ("q2", True, 1),
        ("q3", True, 0),
    ]

    # The "all" export read back: as bob's layer of a new set it is bob's layer again
    # (q4: not done by bob, none of his elements: skipped); as a plain gold set, its final
    # layer (q1: G, q2: A) without the annotators' own labels, counted: q1 ana G, bob G;
    # q2 ana A, ana Z, bob A; q4 ana T = 6 annotator-layer elements.
    everything = tmp_path / "all.jsonl"
    run(
        capsys,
        "gold",
        "export",
        "--gold-set",
        "team",
        "--layer",
        "all",
        "-o",
        str(everything),
        "--db",
        db,
    )
    out = run(
        capsys,
        "gold",
        "import",
        str(everything),
        "--gold-set",
        "bobs",
        "--annotator",
        "bob",
        "--layer",
        "--db",
        db,
    )
    assert "3 questions (3 created), 2 elements" in out
    again = run(
        capsys, "gold", "export", "--gold-set", "bobs", "--layer", "annotator:bob", "--db", db
    )
    assert [json.loads(x) for x in again.splitlines()] == mine
    assert main(["gold", "import", str(everything), "--gold-set", "flat", "--db", db]) == 0
    assert "6 annotator-layer element(s) left out" in capsys.readouterr().err
    flat = run(capsys, "gold", "export", "--gold-set", "flat", "--db", db).splitlines()
    assert [[e["start"] for e in json.loads(x)["elements"]] for x in flat] == [[12], [0], [], []]

    # The final export read back as a new gold set keeps provenance and says what was pending
    exported = tmp_path / "final.jsonl"
    run(capsys, "gold", "export", "--gold-set", "team", "-o", str(exported), "--db", db)
    assert main(["gold", "import", str(exported), "--gold-set", "copy", "--db", db]) == 0
    assert '2 question(s) marked "adjudicated": false' in capsys.readouterr().err
    copy = run(capsys, "gold", "export", "--gold-set", "copy", "--db", db).splitlines()
    assert json.loads(copy[0])["elements"] == final[0]["elements"]

    # Score now: q1 and q3 adjudicated, but q3 has no element (not scored); q2, q4 pending.
    # q1 (G): rank 1 Partial, rank 2 Full → hit@1 0, partial@1 1, hit@3 1, mrr@3 1/2.
    per_query = tmp_path / "per_query.jsonl"
    now = score(capsys, db, "--per-query", str(per_query))
    assert now["queries"] == 1
    assert now["pending"] == {"count": 2, "query_ids": ["q2", "q4"]}
    assert now["without_elements"]["query_ids"] == ["q3"]
    m = now["metrics"]
    assert (m["hit@1"], m["partial@1"], m["hit@3"], m["mrr@3"]) == (0.0, 1.0, 1.0, 0.5)
    rows = [json.loads(x) for x in per_query.read_text().splitlines()]
    assert [(r["query_id"], r.get("pending")) for r in rows] == [
        ("q1", None),
        ("q2", True),
        ("q4", True),
    ]

    # bob finishes q4 with T too; a second unanimous pass settles it (T by both)
    bob_q4 = jsonl(tmp_path / "bob4.jsonl", [line("q4", T)])
    run(
        capsys,
        "gold",
        "import",
        bob_q4,
        "--gold-set",
        "team",
        "--annotator",
        "bob",
        "--layer",
        "--db",
        db,
    )
    out = run(
        capsys,
        "adjudicate",
        "--gold-set",
        "team",
        "--auto",
        "unanimous",
        "--actor",
        "cleo",
        "--db",
        db,
    )
    assert "accepted 1 span(s); settled (marked adjudicated) 1 question(s)" in out

    # Final layer: q1 as above; q4 (T): rank 1 holds 10 of 17 characters → Partial, no Full.
    #   hit@1 = (0 + 0)/2 = 0; partial@1 = (1 + 1)/2 = 1; hit@3 = (1 + 0)/2 = 0.5;
    #   mrr@3 = (1/2 + 0)/2 = 0.25; recall@3 = (1 + 0)/2 = 0.5. q2 still pending.
    last = score(capsys, db, "--layer", "each")
    m = last["metrics"]
    assert last["queries"] == 2 and last["pending"]["query_ids"] == ["q2"]
    assert (m["hit@1"], m["partial@1"], m["hit@3"], m["mrr@3"], m["recall@3"]) == (
        0.0,
        1.0,
        0.5,
        0.25,
        0.5,
    )
    # Each annotator's own labels on the questions they marked done (q3: no element):
    #   ana: q1 (G) as above; q2 (A, Z): rank 1 Full for Z, rank 2 Full for A → hit@1 1,
    #        mrr@3 1, recall@3 1; q4 (T) → 0, 0, 0.  hit@1 = 1/3, hit@3 = (1+1+0)/3 = 2/3,
    #        mrr@3 = (1/2 + 1 + 0)/3 = 1/2, recall@3 = (1 + 1 + 0)/3 = 2/3.
    #   bob: q1 as above; q2 (A): Full at rank 2 → hit@1 0, hit@3 1, mrr@3 1/2; q4 as ana's.
    #        hit@1 = 0, hit@3 = 2/3, mrr@3 = (1/2 + 1/2 + 0)/3 = 1/3, recall@3 = 2/3.
    layers = {x["layer"]: x for x in last["layers"]}
    assert list(layers) == ["final", "annotator:ana", "annotator:bob"]
    assert layers["final"]["metrics"] == m
    expected = {
        "annotator:ana": (3, 1 / 3, 2 / 3, 1 / 2, 2 / 3),
        "annotator:bob": (3, 0.0, 2 / 3, 1 / 3, 2 / 3),
    }
    for name, (queries, hit1, hit3, mrr3, recall3) in expected.items():
        got = layers[name]["metrics"]
        assert layers[name]["queries"] == queries
        assert got["hit@1"] == pytest.approx(hit1)
        assert got["hit@3"] == pytest.approx(hit3)
        assert got["mrr@3"] == pytest.approx(mrr3)
        assert got["recall@3"] == pytest.approx(recall3)
    assert (
        main(["score", "--gold-set", "team", "--run", "r", "--layer", "annotator:dan", "--db", db])
        == 2
    )
    assert "'dan' marked no question of gold set 'team' done (annotators who did: ana, bob)" in (
        capsys.readouterr().err
    )
    one = score(capsys, db, "--layer", "annotator:bob")
    assert (one["layer"], one["metrics"]) == ("annotator:bob", layers["annotator:bob"]["metrics"])

    # The table shows the pending question and the per-layer table
    table = run(
        capsys,
        "score",
        "--gold-set",
        "team",
        "--run",
        "r",
        "--k",
        "1,3",
        "--layer",
        "each",
        "--db",
        db,
    )
    assert "1 question(s) pending adjudication, not scored" in table
    assert "By layer (k = 3)" in table and "annotator:ana" in table
    for fmt, heading in (
        ("markdown", "## By layer (k = 3)"),
        ("html", "<h2>By layer (k = 3)</h2>"),
    ):
        out = run(
            capsys,
            "score",
            "--gold-set",
            "team",
            "--run",
            "r",
            "--k",
            "1,3",
            "--layer",
            "each",
            "--format",
            fmt,
            "--db",
            db,
        )
        assert heading in out and "pending adjudication, not scored" in out


def test_layer_import_replaces_and_is_all_or_nothing(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = jsonl(tmp_path / "a.jsonl", [line("q1", G), line("q9", Z)])
    out = run(
        capsys,
        "gold",
        "import",
        first,
        "--gold-set",
        "team",
        "--annotator",
        "ana",
        "--layer",
        "--db",
        db,
    )
    assert "2 questions (1 created)" in out  # q9 was not in the set
    again = jsonl(tmp_path / "b.jsonl", [line("q1", A, Z), line("q9", done=False)])
    out = run(
        capsys,
        "gold",
        "import",
        again,
        "--gold-set",
        "team",
        "--annotator",
        "ana",
        "--layer",
        "--db",
        db,
    )
    assert "2 elements (2 earlier ones replaced), 1 marked done (0 with no answer)" in out
    mine = run(
        capsys, "gold", "export", "--gold-set", "team", "--layer", "annotator:ana", "--db", db
    )
    assert [
        (q["query_id"], q["done"], [e["start"] for e in q["elements"]])
        for q in map(json.loads, mine.splitlines())
    ] == [("q1", True, [0, 33])]  # q9: neither labelled nor done by ana any more
    # a bad third line rejects the file, naming it; nothing of lines 1–2 is written
    bad = jsonl(
        tmp_path / "bad.jsonl",
        [line("q2", G), line("q3", T), line("q4", {"doc": "p.txt", "text": "not on the page"})],
    )
    assert (
        main(
            [
                "gold",
                "import",
                bad,
                "--gold-set",
                "team",
                "--annotator",
                "ana",
                "--layer",
                "--db",
                db,
            ]
        )
        == 1
    )
    assert f"{bad}:3: elements[0] in 'p.txt':" in capsys.readouterr().err
    assert mine == run(
        capsys, "gold", "export", "--gold-set", "team", "--layer", "annotator:ana", "--db", db
    )


def test_done_marks_from_the_command_line(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run(
        capsys,
        "gold",
        "done",
        "--gold-set",
        "team",
        "--query",
        "q1",
        "--query",
        "q2",
        "--annotator",
        "bob",
        "--db",
        db,
    )
    assert out == "2 question(s) marked done by bob in 'team'\n"
    assert (
        main(
            [
                "gold",
                "done",
                "--gold-set",
                "team",
                "--query",
                "q1",
                "--annotator",
                "bob",
                "--db",
                db,
            ]
        )
        == 1
    )
    assert "q1 is already marked done by bob" in capsys.readouterr().err
    out = run(
        capsys,
        "gold",
        "done",
        "--gold-set",
        "team",
        "--query",
        "q1",
        "--annotator",
        "bob",
        "--undo",
        "--db",
        db,
    )
    assert out == "1 question(s) unmarked by bob in 'team'\n"
    table = run(capsys, "gold", "progress", "--gold-set", "team", "--db", db)
    # bob: nothing assigned, q2 done with no label of his (no answer); q2 alone pending
    assert table.splitlines()[2].split()[:5] == ["bob", "0", "1", "1", "0"]
    assert "4 questions: 0 adjudicated, 1 pending" in table


def test_assign_a_sample_then_extend_it_balanced(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    def assigned() -> dict[str, int]:
        return {p["annotator"]: p["assigned"] for p in progress(capsys, db)["annotators"]}

    base = ["gold", "assign", "--gold-set", "team", "--annotators", "ana,bob,cleo", "--seed", "4"]
    # 3 sampled questions × 2 = 6 assignments over 3 annotators: 2 each
    out = run(capsys, *base, "--sample", "3", "--db", db)
    assert "6 assignment(s) added over 3 question(s)" in out
    assert assigned() == {"ana": 2, "bob": 2, "cleo": 2}
    # the same seed with --sample 4 keeps those 3 and adds the 4th question's 2: loads 3, 3, 2
    out = run(capsys, *base, "--sample", "4", "--db", db)
    assert "2 assignment(s) added over 4 question(s) (3 had their 2 annotators already)" in out
    assert sorted(assigned().values()) == [2, 3, 3]


def test_adjudicate_keeps_agreed_key_clauses_and_reports_disagreement(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # G's clause "epsilon." is PAGE[24:32]; A's "Alpha" PAGE[0:5], "beta." PAGE[6:11]
    assert (PAGE[24:32], PAGE[0:5], PAGE[6:11]) == ("epsilon.", "Alpha", "beta.")
    epsilon, alpha, beta = {"start": 24, "end": 32}, {"start": 0, "end": 5}, {"start": 6, "end": 11}
    # q1: both G with key "epsilon."; q2: both A, ana's key "Alpha", bob's "beta."
    ana = jsonl(
        tmp_path / "ana.jsonl", [line("q1", {**G, "key": epsilon}), line("q2", {**A, "key": alpha})]
    )
    bob = jsonl(
        tmp_path / "bob.jsonl", [line("q1", {**G, "key": epsilon}), line("q2", {**A, "key": beta})]
    )
    for who, path in (("ana", ana), ("bob", bob)):
        run(
            capsys,
            "gold",
            "import",
            path,
            "--gold-set",
            "team",
            "--annotator",
            who,
            "--layer",
            "--db",
            db,
        )
    out = run(
        capsys,
        "adjudicate",
        "--gold-set",
        "team",
        "--auto",
        "unanimous",
        "--actor",
        "cleo",
        "--db",
        db,
    )
    assert "  q1: +1 span(s) (1 with their key clause), adjudicated (done by ana, bob)\n" in out
    assert (
        "  q2: +1 span(s), adjudicated (done by ana, bob)\n"
        "    accepted without a key, keys differ: ana 0–5, bob 6–11 (q2 is settled; to set it, "
        "reopen it (labeler adjudicate --gold-set team --reopen q2, or s then r on the "
        "adjudication screen, F5), select the clause, K, and m to settle again): p.txt [0:11] "
        "'Alpha beta.' (ana, bob)\n"
    ) in out
    final = [
        json.loads(x)
        for x in run(capsys, "gold", "export", "--gold-set", "team", "--db", db).splitlines()
    ]
    assert [q["elements"] for q in final[:2]] == [
        [{**G, "grade": 1, "key": epsilon, "provenance": "unanimous", "annotator": "cleo"}],
        [{**A, "grade": 1, "provenance": "unanimous", "annotator": "cleo"}],
    ]
    # Scoring reads the final key: q1's rank-1 chunk [0, 23) holds 11 of G's 20 characters
    # but not "epsilon." (24–32), so the key turns that partial into a miss at k = 1 (without
    # the key, q1 would count Partial@1). q2's rank 1, "Zeta eta.", misses A anyway.
    scored = score(capsys, db)
    assert scored["keys"] == 1
    assert scored["key_lost"] == {"1": 1, "3": 0}
    assert scored["metrics"]["partial@1"] == 0.0


def test_progress_counts_questions_scored_from_final_labels_made_before_team_work(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Gold set "solo" labelled without team work: q1 A, q2 Z, q3 nothing, q4 T, all
    final. ``gold assign --sample 1 --seed 2`` gives q2 to ana (the seeded order's first of
    4 with seed 2 is the 2nd question: ``plan_assignments`` shuffles positions): q2 is
    pending, its Z left out; q1 and q4 are still scored from final labels ana does not
    see. A done mark by bob on q4 makes q4 pending too: 1 scored, 2 pending."""
    rows = [line("q1", A), line("q2", Z), line("q3"), line("q4", T)]
    solo = jsonl(tmp_path / "solo.jsonl", rows)
    run(capsys, "gold", "import", solo, "--gold-set", "solo", "--db", db)
    base = ["gold", "progress", "--gold-set", "solo", "--db", db]
    # no team work yet: nothing hidden, nothing said
    assert "final labels" not in run(capsys, *base)
    assign = ["gold", "assign", "--gold-set", "solo", "--annotators", "ana", "--per-question"]
    out = run(capsys, *assign, "1", "--sample", "1", "--seed", "2", "--db", db)
    assert out.splitlines()[-2:] == [
        "2 questions scored from final labels made before team work; labelling them (or a "
        "done mark) makes them pending until adjudicated",
        "1 pending question with final labels the annotators do not see: kept, left out of "
        "scores until adjudicated",
    ]
    data = json.loads(run(capsys, *base, "--format", "json"))
    assert (data["final_scored"], data["final_pending"], data["pending"]) == (2, 1, 1)
    exported = run(capsys, "gold", "export", "--gold-set", "solo", "--db", db)
    pending = [
        r["query_id"]
        for r in map(json.loads, exported.splitlines())
        if not r.get("adjudicated", True)
    ]
    assert pending == ["q2"]

    done = ["gold", "done", "--gold-set", "solo", "--query", "q4", "--annotator", "bob"]
    run(capsys, *done, "--db", db)
    table = run(capsys, *base)
    assert table.splitlines()[-2:] == [
        "1 question scored from final labels made before team work; labelling it (or a done "
        "mark) makes it pending until adjudicated",
        "2 pending questions with final labels the annotators do not see: kept, left out of "
        "scores until adjudicated",
    ]
    data = json.loads(run(capsys, *base, "--format", "json"))
    assert (data["final_scored"], data["final_pending"], data["pending"]) == (1, 2, 2)
