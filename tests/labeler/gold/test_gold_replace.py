"""``gold import --replace`` never drops an element silently, and stale elements survive an
export → import round trip (``"status": "stale"``).

One ``.txt`` page (the ``text`` profile keeps it exactly); offsets counted by hand:
``Alpha rule one.`` [0:15], ``Beta rule two.`` [16:30], ``Gamma rule three.`` [31:48].
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlmodel import col, select

from labeler.cli import main
from labeler.pages import ingest_paths
from labeler.store import ELEMENT_OK, ELEMENT_STALE, Element, list_audit, open_store
from labeler.store.postgres import with_driver

pytestmark = pytest.mark.backends("sqlite", "postgresql")

PAGE = "Alpha rule one. Beta rule two. Gamma rule three."
A, B, C = "Alpha rule one.", "Beta rule two.", "Gamma rule three."


def el(
    text: str, start: int | None = None, end: int | None = None, **extra: object
) -> dict[str, object]:
    item: dict[str, object] = {"doc": "rules.txt", "text": text, **extra}
    if start is not None:
        item.update(start=start, end=end)
    return item


def gold(path: Path, *questions: tuple[str, list[dict[str, object]]]) -> str:
    path.write_text(
        "".join(
            json.dumps({"query_id": q, "query": q, "elements": e}) + "\n" for q, e in questions
        ),
        encoding="utf-8",
    )
    return str(path)


@pytest.fixture()
def db(db_url: str, tmp_path: Path) -> str:
    """The page ingested and gold set ``g`` imported: q1 = A and B, q2 = C."""
    (tmp_path / "rules.txt").write_text(PAGE, encoding="utf-8")
    with open_store(db_url) as store:
        assert ingest_paths(store, [tmp_path / "rules.txt"]).added_ids == ("rules.txt",)
    first = gold(tmp_path / "first.jsonl", ("q1", [el(A, 0, 15), el(B, 16, 30)]), ("q2", [el(C)]))
    assert main(["gold", "import", first, "--gold-set", "g", "--db", db_url]) == 0
    return db_url


def dump(db: str) -> list[tuple[object, ...]]:
    """Every label row and audit entry, through a plain connection."""
    engine = create_engine(with_driver(make_url(db)) if "://" in db else f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            return [
                tuple(row)
                for table in ("gold_set", "query", "element", "audit_entry")
                for row in conn.exec_driver_sql(f"SELECT '{table}', * FROM {table} ORDER BY 2")
            ]
    finally:
        engine.dispose()


def stored(db: str) -> list[tuple[str, int, int, str]]:
    with open_store(db) as store, store.session() as s:
        rows = s.exec(select(Element).order_by(col(Element.id))).all()
        return [(e.text, e.start, e.end, e.status) for e in rows]


def test_replace_that_would_drop_elements_is_refused(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = dump(db)
    smaller = gold(tmp_path / "smaller.jsonl", ("q1", [el(A, 0, 15)]))
    capsys.readouterr()
    assert main(["gold", "import", smaller, "--gold-set", "g", "--replace", "--db", db]) == 1
    err = capsys.readouterr().err
    assert "replacing it would remove 2 element(s)" in err and "nothing was changed" in err
    assert "  q1 rules.txt [16:30] 'Beta rule two.'\n" in err
    assert "  q2 rules.txt [31:48] 'Gamma rule three.'\n" in err
    assert "Alpha" not in err and "--force" in err
    assert dump(db) == before
    # B regraded (same offsets), C without offsets (same text): nothing lost, no --force
    same = gold(
        tmp_path / "same.jsonl",
        ("q1", [el(A, 0, 15), el(B, 16, 30, grade=3)]),
        ("q2", [el(C)]),
        ("q3", [el(A)]),
    )
    assert main(["gold", "import", same, "--gold-set", "g", "--replace", "--db", db]) == 0
    assert [t for t, *_ in stored(db)] == [A, B, C, A]


def test_force_removes_and_lists_what_it_removed(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moved_q = gold(tmp_path / "other.jsonl", ("q2", [el(A, 0, 15)]), ("q1", [el(C)]))
    capsys.readouterr()
    args = ["gold", "import", moved_q, "--gold-set", "g", "--replace", "--force", "--db", db]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "--force: removed 3 element(s) of gold set 'g'" in err
    for line in ("q1 rules.txt [0:15] 'Alpha rule one.'", "q1 rules.txt [16:30] 'Beta rule two.'",
                 "q2 rules.txt [31:48] 'Gamma rule three.'"):  # fmt: skip
        assert f"labeler:   {line}\n" in err
    assert "audit log" in err
    assert stored(db) == [(A, 0, 15, ELEMENT_OK), (C, 31, 48, ELEMENT_OK)]
    with open_store(db) as store, store.session() as s:
        removals = [e for e in list_audit(s, entity="element") if e.action == "remove"]
    assert sorted(str(e.before["text"]) for e in removals if e.before) == sorted([A, B, C])


def test_force_without_replace_is_a_usage_error(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = gold(tmp_path / "x.jsonl", ("q1", [el(A)]))
    assert main(["gold", "import", other, "--gold-set", "h", "--force", "--db", db]) == 2
    assert "--force only makes sense with --replace" in capsys.readouterr().err


def test_stale_elements_round_trip_as_stale(db: str, tmp_path: Path) -> None:
    """A stale element's text need not be on the page: it is kept as written, offsets too."""
    lost = "Delta rule four."  # not on the page
    path = gold(
        tmp_path / "stale.jsonl",
        ("q1", [el(A, 0, 15), el(lost, 49, 65, status="stale")]),
        ("q2", [el(C, 31, 48, status="stale")]),
    )
    assert main(["gold", "import", path, "--gold-set", "s", "--db", db]) == 0
    assert stored(db)[-3:] == [
        (A, 0, 15, ELEMENT_OK),
        (lost, 49, 65, ELEMENT_STALE),
        (C, 31, 48, ELEMENT_STALE),
    ]
    out = tmp_path / "out.jsonl"
    assert main(["gold", "export", "--gold-set", "s", "-o", str(out), "--db", db]) == 0
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["elements"][0] == {
        "doc": "rules.txt",
        "start": 0,
        "end": 15,
        "text": A,
        "grade": 1,
    }
    assert lines[0]["elements"][1] == {
        "doc": "rules.txt", "start": 49, "end": 65, "text": lost, "grade": 1, "status": "stale"
    }  # fmt: skip
    assert lines[1]["elements"][0]["status"] == "stale"
    again = tmp_path / "again.jsonl"
    assert main(["gold", "import", str(out), "--gold-set", "s", "--replace", "--db", db]) == 0
    assert main(["gold", "export", "--gold-set", "s", "-o", str(again), "--db", db]) == 0
    assert again.read_bytes() == out.read_bytes()
