"""``gold import --snap``: reference texts of another extractor snapped onto stored pages.

The references are BeautifulSoup's ``get_text()`` of a bundled corpus page (line breaks
where jsoup's ``text()`` has single spaces); the expected span of each is where its
whitespace-collapsed form stands in the stored (jsoup) text, found with ``str.find``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from labeler.cli import main
from labeler.store import list_audit, open_store

pytestmark = pytest.mark.backends("sqlite", "postgresql")

CORPUS = Path(__file__).parents[3] / "corpora" / "sqlite-docs"
PAGE = "about.html"


def _references() -> list[str]:
    """Paragraphs of BeautifulSoup's text of the page that hold a line break."""
    html = (CORPUS / PAGE).read_text(encoding="utf-8")
    text = BeautifulSoup(html, "html.parser").get_text()
    return [p.strip() for p in re.split(r"\n\s*\n", text) if len(p.strip()) > 80]


def _ingest(tmp_path: Path, db: str) -> str:
    (tmp_path / PAGE).write_bytes((CORPUS / PAGE).read_bytes())
    assert main(["ingest", str(tmp_path / PAGE), "--db", db]) == 0
    with open_store(db).session() as session:
        from labeler.store.goldsets import page_texts

        return page_texts(session, [PAGE])[PAGE]


def _export(tmp_path: Path, db: str, name: str) -> list[dict[str, object]]:
    out = tmp_path / f"{name}.jsonl"
    assert main(["gold", "export", "--gold-set", name, "-o", str(out), "--db", db]) == 0
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, *objs: object) -> Path:
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return path


def test_ragas_references_of_another_extractor_snap_onto_their_spans(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    page = _ingest(tmp_path, db_url)
    refs = _references()
    assert len(refs) == 2 and all(r not in page for r in refs)  # not importable as they are
    expected = []
    for ref in refs:
        flat = " ".join(ref.split())
        start = page.find(flat)
        assert start >= 0
        expected.append((start, start + len(flat), flat))
    ragas = _write(
        tmp_path / "ragas.jsonl",
        {
            "user_input": "What is SQLite?",
            "reference_contexts": refs,
            "reference_context_ids": [PAGE, PAGE],
        },
    )
    # without --snap the file is refused, naming the line, and nothing is stored
    assert (
        main(["gold", "import", str(ragas), "--format", "ragas", "--gold-set", "r", "--db", db_url])
        == 1
    )
    assert "ragas.jsonl:1" in capsys.readouterr().err
    assert main(["gold", "list", "--db", db_url]) == 0
    assert "r" not in capsys.readouterr().out.split()
    assert (
        main(
            [
                "gold",
                "import",
                str(ragas),
                "--format",
                "ragas",
                "--gold-set",
                "r",
                "--snap",
                "--db",
                db_url,
            ]
        )
        == 0
    )
    captured = capsys.readouterr()
    assert "0 exact, 2 snapped, lowest score 1.000, 0 left to label" in captured.out
    assert f"snapped to {expected[0][0]}-{expected[0][1]}" in captured.err
    (line,) = _export(tmp_path, db_url, "r")
    assert line["query_id"] == "r1"
    got = [(e["start"], e["end"], e["text"], e.get("provenance")) for e in line["elements"]]
    assert got == [(s, e, t, "snapped") for s, e, t in expected]
    # the score is in each element's audit entry
    with open_store(db_url).session() as session:
        entries = list_audit(session, entity="element")
        assert [(a.after or {}).get("snap_score") for a in entries] == [1.0, 1.0]


def test_deleted_characters_snap_with_their_score_and_the_minimum_holds(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    page = _ingest(tmp_path, db_url)
    sentence = "SQLite is an in-process library that implements a self-contained, serverless, zero-configuration, transactional SQL database engine."
    start = page.find(sentence)
    assert start >= 0
    # 'p' of "in-process" and 'e' of "serverless" deleted: of the sentence's 118 characters
    # without spaces 116 are left, ratio 2 * 116 / (116 + 118) = 232 / 234 = 0.991
    damaged = sentence.replace("in-process", "in-rocess").replace("serverless", "servrless")
    assert damaged != sentence
    gold = _write(
        tmp_path / "gold.jsonl",
        {"query_id": "a", "query": "?", "elements": [{"doc": PAGE, "text": damaged}]},
        {
            "query_id": "b",
            "query": "?",
            "elements": [{"doc": PAGE, "text": "Nothing of the kind is on this page at all."}],
        },
    )
    # b is below the minimum: refused, naming its line
    assert main(["gold", "import", str(gold), "--gold-set", "g", "--snap", "--db", db_url]) == 1
    err = capsys.readouterr().err
    assert "gold.jsonl:2" in err and "below the snap minimum" in err
    # --snap-review: b imported without it, its text in the notes to label
    assert (
        main(
            [
                "gold",
                "import",
                str(gold),
                "--gold-set",
                "g",
                "--snap",
                "--snap-review",
                "--db",
                db_url,
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "0 exact, 1 snapped, lowest score 0.991, 1 left to label" in out
    a, b = _export(tmp_path, db_url, "g")
    ((s, e, text, prov),) = [
        (x["start"], x["end"], x["text"], x.get("provenance")) for x in a["elements"]
    ]
    assert (s, e, text, prov) == (start, start + len(sentence), sentence, "snapped")
    assert b["elements"] == []
    assert "Nothing of the kind is on this page at all." in str(b.get("notes"))
    # a higher minimum than 232/234 refuses a as well
    assert (
        main(
            [
                "gold",
                "import",
                str(gold),
                "--gold-set",
                "h",
                "--snap",
                "--snap-min",
                "0.995",
                "--db",
                db_url,
            ]
        )
        == 1
    )
    assert "gold.jsonl:1" in capsys.readouterr().err


def test_snap_flags_need_a_gold_import(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    _ingest(tmp_path, db_url)
    gold = _write(tmp_path / "g.jsonl", {"query_id": "a", "elements": []})
    assert (
        main(["gold", "import", str(gold), "--gold-set", "g", "--snap-review", "--db", db_url]) == 2
    )
    assert "--snap-review goes with --snap" in capsys.readouterr().err


def test_snapped_questions_filter_and_confirm_records_who(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from labeler.errors import IntegrityError
    from labeler.store import confirm_snap, get_gold_set, list_questions, undo
    from labeler.tui.screens.questions import question_filter

    page = _ingest(tmp_path, db_url)
    exact = (
        "SQLite is an in-process library that implements a self-contained, serverless, "
        "zero-configuration, transactional SQL database engine."
    )
    assert exact in page
    gold = _write(
        tmp_path / "gold.jsonl",
        {"query_id": "a", "query": "?", "elements": [{"doc": PAGE, "text": exact.upper()}]},
        {"query_id": "b", "query": "?", "elements": [{"doc": PAGE, "text": exact}]},
        {"query_id": "c", "query": "?", "elements": [{"doc": PAGE, "text": "Not on it, at all."}]},
    )
    args = ["gold", "import", str(gold), "--gold-set", "g", "--snap", "--snap-review"]
    assert main([*args, "--db", db_url, "--annotator", "imp"]) == 0
    store = open_store(db_url)
    with store.session() as s:
        rows = list_questions(s, get_gold_set(s, "g").id or 0)
    assert [(q.external_id, q.n_snapped) for q in rows] == [("a", 1), ("b", 0), ("c", 0)]
    keep = question_filter("is:snapped", "ana")
    assert [q.external_id for q in rows if keep(q)] == ["a", "c"]  # c: a text left to label
    # confirming records who did it; an exact element is no snapped one
    with store.session() as s:
        from sqlmodel import select

        from labeler.store.models import Element, Query

        pairs = s.exec(
            select(Query.external_id, Element.id, Element.provenance).join(Element)
        ).all()
    by_q = {q: (i, p) for q, i, p in pairs}
    a_id, b_id = by_q["a"][0], by_q["b"][0]
    assert (by_q["a"][1], by_q["b"][1]) == ("snapped", "single")
    with pytest.raises(IntegrityError, match="not a snapped one"):
        confirm_snap(store, b_id, actor="imp")
    confirm_snap(store, a_id, actor="imp")
    with store.session() as s:
        (entry,) = [
            e for e in list_audit(s, entity="element", entity_id=a_id) if e.action == "change"
        ]
        assert entry.actor == "imp"
        assert ((entry.before or {})["provenance"], (entry.after or {})["provenance"]) == (
            "snapped",
            "single",
        )
        rows = list_questions(s, get_gold_set(s, "g").id or 0)
    assert [q.external_id for q in rows if keep(q)] == ["c"]
    with store.write() as s:  # undo brings the snapped provenance back
        undo(s, actor="imp")
    with store.session() as s:
        rows = list_questions(s, get_gold_set(s, "g").id or 0)
    assert [q.n_snapped for q in rows] == [1, 0, 0]
