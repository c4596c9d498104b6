"""Gold and run imports write in batches (multi-row statements, a stage read back a batch at
a time) and stay all or nothing, on both backends: a bad line after the first batches, and
a write that fails in its second batch, leave the database as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _db_dump import dump
from sqlalchemy import create_engine, make_url

from labeler.errors import InputError
from labeler.gold import import_gold_file
from labeler.runs import import_run_file
from labeler.store import Store
from labeler.store.goldstage import BATCH

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = " ".join(f"Sentence {s} is here." for s in range(50))
#: more questions than two batches of the write
QUESTIONS = 2 * BATCH + 100


@pytest.fixture
def seeded(tmp_path: Path, store: Store, db_url: str) -> tuple[Store, str]:
    from labeler.pages import ingest_paths

    page = tmp_path / "page.txt"
    page.write_text(PAGE, encoding="utf-8")
    ingest_paths(store, [page])
    return store, db_url


def gold_lines(count: int) -> list[str]:
    return [
        json.dumps(
            {
                "query_id": f"q{q}",
                "query": f"Question {q}?",
                "elements": [{"doc": "page.txt", "text": f"Sentence {q % 50} is here."}],
            }
        )
        for q in range(count)
    ]


def test_a_bad_last_line_after_many_batches_writes_nothing(
    tmp_path: Path, seeded: tuple[Store, str]
) -> None:
    store, db = seeded
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join([*gold_lines(QUESTIONS), '{"query_id": "x"}']) + "\n")
    before = dump(db)
    with pytest.raises(InputError, match=f":{QUESTIONS + 1}: missing field 'elements'"):
        import_gold_file(store, gold, "g", annotator="ana")
    assert dump(db) == before
    gold.write_text("\n".join(gold_lines(QUESTIONS)) + "\n")
    import_gold_file(store, gold, "g", annotator="ana")
    run = tmp_path / "run.jsonl"
    lines = [
        json.dumps({"query_id": f"q{q}", "results": [f"Sentence {q % 50} is here."]})
        for q in range(QUESTIONS)
    ]
    run.write_text("\n".join([*lines, lines[5]]) + "\n")  # q5 twice, the last line
    before = dump(db)
    with pytest.raises(InputError, match=f":{QUESTIONS + 1}: query_id 'q5' appears twice"):
        import_run_file(store, run, "r")
    assert dump(db) == before
    run.write_text("\n".join(lines) + "\n")
    report = import_run_file(store, run, "r")
    assert (report.questions, report.results) == (QUESTIONS, QUESTIONS)
    after = dump(db)
    assert sum(row[0] == "run_result" for row in after) == QUESTIONS
    assert sum(row[0] == "query" for row in after) == QUESTIONS
    assert sum(row[0] == "element" for row in after) == QUESTIONS


def _fail_on(db: str, external_id: str) -> None:
    """A trigger making the database refuse question ``external_id`` (a write failing in the
    middle of the import, past the checks the import makes itself)."""
    url = make_url(db) if "://" in db else make_url(f"sqlite:///{db}")
    if url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")
    engine = create_engine(url)
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON query "
                f"WHEN NEW.external_id = '{external_id}' "
                "BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
            )
        else:
            conn.exec_driver_sql(
                "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN "
                f"IF NEW.external_id = '{external_id}' THEN "
                "RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$ "
                "LANGUAGE plpgsql"
            )
            conn.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON query FOR EACH ROW EXECUTE FUNCTION refuse()"
            )
    engine.dispose()


def test_a_write_failing_in_its_second_batch_writes_nothing(
    tmp_path: Path, seeded: tuple[Store, str]
) -> None:
    store, db = seeded
    gold = tmp_path / "gold.jsonl"
    gold.write_text("\n".join(gold_lines(QUESTIONS)) + "\n")
    _fail_on(db, f"q{BATCH + 50}")  # in the second batch: the first one is written by then
    before = dump(db)
    with pytest.raises(Exception, match="refused by the test"):
        import_gold_file(store, gold, "g", annotator="ana")
    assert dump(db) == before
