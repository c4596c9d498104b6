"""``labeler gold progress`` as the lead's view, on both backends: every format over the team
gold set of ``_lead_support`` (built through the verbs, known audit times), with the
figures worked by hand there; bad arguments refused with one line and nothing changed.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest
from _lead_support import AS_OF, EXPECTED, close, seed_lead

from labeler.cli import main
from labeler.store import Store, list_audit

pytestmark = pytest.mark.backends("sqlite", "postgresql")

ARGS = ["gold", "progress", "--gold-set", "gold", "--as-of", "2026-03-02T11:00"]


def run(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> tuple[str, str]:
    got = main(list(argv))
    out, err = capsys.readouterr()
    assert got == code, err
    return out, err


@pytest.fixture
def db(store: Store, db_url: str) -> str:
    seed_lead(store)
    return db_url


def test_json_holds_every_figure(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, *ARGS, "--format", "json", "--db", db)
    data = json.loads(out)
    assert close({p["annotator"]: p for p in data.pop("annotators")}, EXPECTED)
    assert data == {
        "gold_set": "gold",
        "team": True,
        "as_of": AS_OF.isoformat(),
        "idle_minutes": 10.0,
        "questions": 3,
        "adjudicated": 2,
        "pending": 1,
        "final_scored": 0,
        "final_pending": 0,
    }
    # a zone given is kept (11:00 in UTC+1 is 10:00 UTC: ana's 2 done over 1 h → 2/h)
    out, _ = run(capsys, *ARGS[:-1], "2026-03-02T11:00+01:00", "--format", "json", "--db", db)
    ana = json.loads(out)["annotators"][0]
    assert (ana["pace_per_hour"], ana["done_by"]) == (2.0, "2026-03-02T10:30:00+00:00")


def test_table_rows_and_the_questions_that_differ_most(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = run(capsys, *ARGS, "--db", db)
    lines = out.splitlines()
    assert lines[0].split()[:6] == ["annotator", "assigned", "done", "no", "answer", "remaining"]
    # labels/h 5/420·3600 = 42.857, 6.0; α 0.7311, 0.7422 (see _lead_support)
    assert lines[2].split() == [
        "ana", "3", "2", "0", "1", "5", "42.9", "150", "2", "0.80", "0.80", "0.73",
        "2026-03-02", "12:00", "UTC",
    ]  # fmt: skip
    assert lines[3].split() == [
        "bob", "3", "2", "1", "1", "1", "6.0", "300", "2", "0.67", "0.67", "0.74",
        "2026-03-02", "11:55", "UTC",
    ]  # fmt: skip
    assert "3 questions: 2 adjudicated, 1 pending (not scored until adjudicated)" in out
    assert "  ana: q1 (exact 0.67, partial 0.67, α 0.46)" in lines
    assert "  bob: q2 (exact 0.00, partial 0.00, α -0.11)" in lines


class Balance(HTMLParser):
    """Checks that every opened element is closed in order (void elements excepted) and
    collects the text and any attribute that could fetch something."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.text: list[str] = []
        self.fetching: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.fetching += [f"{tag} {k}" for k, _ in attrs if k in ("src", "href")]
        if tag in ("script", "link", "img", "iframe"):
            self.fetching.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"</{tag}> does not close the open element")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_is_one_well_formed_page_with_the_figures(
    db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out, _ = run(capsys, *ARGS, "--format", "html", "--db", db)
    assert out.startswith("<!DOCTYPE html>")
    page = Balance()
    page.feed(out)
    page.close()
    assert (page.errors, page.stack, page.fetching) == ([], [], [])
    text = " ".join(page.text)
    for figure in ("42.9", "150", "0.80", "0.73", "2026-03-02 12:00 UTC", "6.0", "300", "0.74"):
        assert figure in text, figure
    assert "ana: differs most from the final layer" in text
    assert "bob: differs most from the final layer" in text


def test_bad_arguments_are_refused_and_change_nothing(
    db: str, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    with store.session() as s:
        before = len(list_audit(s))
    for extra, said in (
        (["--as-of", "yesterday"], "expected an ISO 8601 time"),
        (["--idle-minutes", "0"], "expected a number of minutes above 0"),
        (["--idle-minutes", "inf"], "expected a number of minutes above 0"),
        (["--format", "pdf"], "invalid choice"),
    ):
        with pytest.raises(SystemExit) as stopped:
            main(["gold", "progress", "--gold-set", "gold", *extra, "--db", db])
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err
    _, err = run(capsys, "gold", "progress", "--gold-set", "nope", "--db", db, code=1)
    assert "gold set" in err and "nope" in err and "Traceback" not in err
    with store.session() as s:
        assert len(list_audit(s)) == before
