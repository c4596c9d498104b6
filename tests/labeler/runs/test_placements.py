"""Chunk placements stored at run import: right, used, and never able to change a score.

Expected placements are worked out with plain ``str.find`` (not the page index scoring
uses); scores with and without stored placements are compared through the CLI.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from _scoring_db import build
from sqlalchemy import delete, func, select

from labeler.cli import main
from labeler.evaluation import load_gold
from labeler.runs import decode, text_key
from labeler.store import open_store
from labeler.store.fastread import SqliteReader
from labeler.store.models import RunPlacement


def score_json(db: str, capsys: pytest.CaptureFixture[str], run: str = "a") -> dict[str, object]:
    capsys.readouterr()
    args = ["score", "--gold-set", "g", "--run", run, "--k", "1,3,10", "--format", "json"]
    assert main([*args, "--db", db, "--jobs", "1"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


def sql(db: str, statement: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute(statement, params).fetchall()
        conn.commit()
        return rows


@pytest.fixture()
def db(tmp_path: Path) -> str:
    return build(tmp_path)


def test_import_stores_where_each_chunk_is_on_each_labelled_page(db: str) -> None:
    reader = SqliteReader(Path(db))
    questions, pages, _ = load_gold(reader, "g")
    chunks = reader.run_rows("a")
    stored = reader.placements("a")
    reader.close()
    checked = 0
    for q in questions:
        docs = {e.doc for e in q.elements}
        if q.query_id not in chunks or not docs:
            assert q.query_id not in stored
            continue
        assert set(stored[q.query_id]) == {text_key(pages[d]) for d in docs}
        for doc in docs:
            page = pages[doc]
            labels = [e.text for e in q.elements if e.doc == doc]
            placement = decode(stored[q.query_id][text_key(page)], labels)
            for r, (text, *_) in enumerate(chunks[q.query_id]):
                start = page.find(text)
                twice = start >= 0 and page.find(text, start + 1) >= 0
                assert (placement.starts[r], bool(placement.repeated[r])) == (start, twice)
                checked += 1
            assert set(placement.occurrences) == set(labels)
            for label in labels:
                every = [i for i in range(len(page)) if page.startswith(label, i)]
                assert list(placement.occurrences[label]) == every
    assert checked > 500
    assert "extra-a" not in stored  # not in any gold set: nothing to place


def test_scores_are_the_same_without_stored_placements(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with_placements = score_json(db, capsys)
    sql(db, "DELETE FROM run_placement")
    assert score_json(db, capsys) == with_placements


def test_stored_placements_are_what_scoring_reads(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Say every chunk occurs twice on every page: the repeated-chunk flag counts follow
    # (proof that the stored rows are read, not worked out again).
    before = score_json(db, capsys)
    sql(db, "UPDATE run_placement SET repeated = replace(repeated, '0', '1')")
    after = score_json(db, capsys)
    assert after["flags"]["chunk_repeated"] > before["flags"]["chunk_repeated"]  # type: ignore[index]
    assert after["metrics"] == before["metrics"]


def test_chunks_found_everywhere_are_read_without_text(db: str) -> None:
    # located = 1 exactly for chunks found on every page their question's labels cite;
    # the lean read leaves out those texts and nothing else.
    reader = SqliteReader(Path(db))
    questions, pages, _ = load_gold(reader, "g")
    full = reader.run_rows("a")
    lean = reader.lean_run_rows("a")
    reader.close()
    docs = {q.query_id: {e.doc for e in q.elements} for q in questions}
    omitted = 0
    for qid, ranked in full.items():
        for (text, doc, score, _, _), (lean_text, lean_doc, lean_score, _, _) in zip(
            ranked, lean[qid], strict=True
        ):
            cited = docs.get(qid, set())
            everywhere = bool(cited) and bool(text) and all(text in pages[d] for d in cited)
            assert lean_text == (None if everywhere else text)
            assert (lean_doc, lean_score) == (doc, score)
            omitted += everywhere
    assert omitted > 100


def test_a_label_on_a_new_page_reads_the_texts_again(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A question whose labels now cite a page the import did not place its chunks on needs
    # every chunk's text (to locate them there): scores equal a run imported afterwards.
    (qid,) = sql(
        db,
        "SELECT r.query_external_id FROM run_result r JOIN run ON run.id = r.run_id "
        "WHERE run.name = 'a' AND r.located = 1 LIMIT 1",
    )[0]
    reader = SqliteReader(Path(db))
    _, pages, _ = load_gold(reader, "g")
    reader.close()
    cited = {
        d
        for (d,) in sql(
            db,
            "SELECT e.document_id FROM element e JOIN query q ON q.id = e.query_id "
            "WHERE q.external_id = ?",
            (qid,),
        )
    }
    other = next(d for d in sorted(pages) if d not in cited) if len(cited) < len(pages) else None
    if other is None:  # every page is cited: pick a page with no label at all
        other = "lang_select.html"
    text = sql(db, "SELECT text FROM document WHERE id = ?", (other,))[0][0]
    label = {
        "query_id": qid,
        "query": "more",
        "elements": [{"doc": other, "text": str(text)[100:160]}],
    }
    extra = tmp_path / "extra.jsonl"
    extra.write_text(json.dumps(label) + "\n")
    assert main(["gold", "import", str(extra), "--gold-set", "g2", "--db", db]) == 0
    # gold set g2 holds only that question, on the new page
    capsys.readouterr()
    args = ["score", "--gold-set", "g2", "--run", "a", "--format", "json", "--jobs", "1"]
    assert main([*args, "--db", db]) == 0
    scored = json.loads(capsys.readouterr().out)
    sql(db, "DELETE FROM run_placement")
    sql(db, "UPDATE run_result SET located = 0")
    assert main([*args, "--db", db]) == 0
    assert json.loads(capsys.readouterr().out) == scored


def test_a_changed_page_is_located_again(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Re-ingest a labelled page with text added at its start: every offset on it moves, the
    # labels are re-anchored, and the placements made on the old text no longer apply.
    page = tmp_path / "docs" / "wal.html"
    html = page.read_text(encoding="utf-8")
    page.write_text(html.replace("<body>", "<body><p>A new first paragraph.</p>", 1), "utf-8")
    assert main(["ingest", str(tmp_path / "docs"), "--db", db, "-q"]) == 0
    keys = {k for (k,) in sql(db, "SELECT page_sha256 FROM run_placement")}
    reader = SqliteReader(Path(db))
    _, pages, _ = load_gold(reader, "g")
    reader.close()
    assert text_key(pages["wal.html"]) not in keys  # stale rows stay but match nothing
    scored = score_json(db, capsys)
    sql(db, "DELETE FROM run_placement")
    assert score_json(db, capsys) == scored


def test_run_imported_before_its_gold_set_scores_the_same(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "late").mkdir()
    late = build(tmp_path / "late", runs_first=True)
    assert sql(late, "SELECT count(*) FROM run_placement") == [(0,)]
    assert score_json(late, capsys) | {"run": "a"} == score_json(db, capsys)


def test_replacing_a_run_replaces_its_placements(db: str, tmp_path: Path) -> None:
    (count,) = sql(db, "SELECT count(*) FROM run_placement WHERE run_id = 1")[0]
    assert count
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps({"query_id": "q001", "results": [{"text": "x"}]}) + "\n")
    assert main(["run", "import", str(one), "--name", "a", "--replace", "--db", db, "-q"]) == 0
    rows = sql(
        db,
        "SELECT p.query_external_id FROM run_placement p JOIN run r ON r.id = p.run_id "
        "WHERE r.name = 'a'",
    )
    assert rows and set(rows) == {("q001",)}


@pytest.mark.backends("sqlite", "postgresql")
def test_both_backends_store_and_use_placements(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(tmp_path, db=db_url)
    with_placements = score_json(db_url, capsys)
    store = open_store(db_url)
    try:
        with store.write() as session:
            stored = session.execute(select(func.count()).select_from(RunPlacement)).scalar()
            session.execute(delete(RunPlacement))
    finally:
        store.close()
    assert stored and stored > 100
    assert score_json(db_url, capsys) == with_placements


def test_stored_label_occurrences_are_read_and_an_edited_label_is_searched(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = score_json(db, capsys)
    # Claim every label occurs twice on its page: the "repeated" flag counts follow,
    # so the stored occurrences are what scoring reads ...
    for qid, key, occurrences in sql(
        db, "SELECT query_external_id, page_sha256, occurrences FROM run_placement"
    ):
        doubled = {k: [*v, v[0] + 1] for k, v in json.loads(str(occurrences)).items()}
        sql(
            db,
            "UPDATE run_placement SET occurrences = ? "
            "WHERE query_external_id = ? AND page_sha256 = ?",
            (json.dumps(doubled), qid, key),
        )
    doubled_flags = score_json(db, capsys)["flags"]
    assert doubled_flags["repeated"] > before["flags"]["repeated"]  # type: ignore[index]
    # ... and a label whose text changed since (here: all of them, one character shorter)
    # has no stored occurrences, so it is searched for again.
    sql(db, 'UPDATE element SET "end" = "end" - 1, text = substr(text, 1, length(text) - 1)')
    edited = score_json(db, capsys)
    sql(db, "DELETE FROM run_placement")
    assert score_json(db, capsys) == edited


@pytest.mark.backends("sqlite", "postgresql")
def test_run_place_works_placements_out_again_for_the_current_labels(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build(tmp_path, db=db_url)
    # A second gold set labels every question's first page again and one more page, which
    # the import placed nothing on.
    store = open_store(db_url)
    try:
        with store.session() as session:
            before = session.execute(select(func.count()).select_from(RunPlacement)).scalar()
    finally:
        store.close()
    extra = tmp_path / "g2.jsonl"
    rows = [
        {"query_id": "q002", "query": "again", "elements": [
            {"doc": "lang_select.html", "text": "SELECT"},
            {"doc": "wal.html", "text": "WAL"},
        ]},
    ]  # fmt: skip
    extra.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["gold", "import", str(extra), "--gold-set", "g2", "--db", db_url]) == 0
    capsys.readouterr()
    args = ["score", "--gold-set", "g2", "--run", "a", "--format", "json", "--db", db_url]
    assert main(args) == 0
    scored = json.loads(capsys.readouterr().out)
    assert main(["run", "place", "--name", "a", "--db", db_url]) == 0
    assert "placed run 'a'" in capsys.readouterr().out
    store = open_store(db_url)
    try:
        with store.session() as session:
            after = session.execute(select(func.count()).select_from(RunPlacement)).scalar()
            pages_of_q002 = (
                session.execute(
                    select(RunPlacement.page_sha256).where(RunPlacement.query_external_id == "q002")
                )
                .scalars()
                .all()
            )
    finally:
        store.close()
    assert after is not None and before is not None and after >= before
    reader_pages = {
        d: t for d, t in zip(["lang_select.html", "wal.html"], page_texts(db_url), strict=True)
    }
    assert {text_key(t) for t in reader_pages.values()} <= set(pages_of_q002)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == scored


def page_texts(db_url: str) -> list[str]:
    store = open_store(db_url)
    try:
        with store.session() as session:
            from labeler.store.goldsets import page_texts as load

            found = load(session, ["lang_select.html", "wal.html"])
    finally:
        store.close()
    return [found["lang_select.html"], found["wal.html"]]


def test_run_place_of_an_unknown_run_is_an_error(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", "place", "--name", "nope", "--db", db]) == 1
    assert "no run 'nope'" in capsys.readouterr().err
