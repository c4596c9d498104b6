"""Scoring a stored run in ranges of query id gives the figures of scoring it all at once.

The reference is :func:`scoring.score_run` on the whole run read at once (the pure scorer,
no ranges, no table); the ranged loop reads the run through the fast SQLite reader range by
range (with the placements stored at import, or without them, with chunk offsets, with
token budgets) and keeps its rows in a ``QueryTable``. Every figure must be the same, the
bootstrap intervals included, for ranges of 1, 2 and 7 questions and for one range.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _scoring_db import build

from labeler.evaluation import load_gold, load_run
from labeler.evaluation._ranges import range_ids, range_reader, score_ranges
from labeler.runs import page_keys
from labeler.store.fastread import SqliteReader
from scoring import RunScore, aggregate, score_run
from scoring.bootstrap import with_intervals
from scoring.budget import Tokenizer
from scoring.querytable import QueryTable

KS = (1, 3, 5, 10)
WORDS = Tokenizer("words", lambda text: len(text.split()))


@pytest.fixture(scope="module", params=["placed", "offsets", "runs-first"])
def reader(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> SqliteReader:
    folder = tmp_path_factory.mktemp(request.param)
    db = build(folder, offsets=request.param == "offsets", runs_first=request.param == "runs-first")
    source = SqliteReader(Path(db))
    request.addfinalizer(source.close)
    return source


def ranged(
    reader: SqliteReader,
    size: int,
    *,
    lean: bool,
    budgets: tuple[int, ...] = (),
    listed: bool = False,
) -> RunScore:
    """The run scored in ranges of ``size``; ``listed``: each range's results read only
    between its first and last question, the run's ids listed from its index."""
    questions, pages, _ = load_gold(reader, "g")
    read = range_reader(reader, "a", page_keys(pages), lean=lean)
    tokenizer = WORDS if budgets else None
    table, ids = score_ranges(
        questions,
        pages,
        read,
        ks=KS,
        threshold=0.5,
        budgets=budgets,
        tokenizer=tokenizer,
        size=size,
        run_ids=range_ids(reader, "a") if listed else None,
    )
    assert isinstance(table, QueryTable)
    return aggregate(
        questions,
        table,
        ids,
        ks=KS,
        budgets=budgets,
        tokenizer=tokenizer.name if tokenizer else None,
    )


def whole(reader: SqliteReader, budgets: tuple[int, ...] = ()) -> RunScore:
    questions, pages, _ = load_gold(reader, "g")
    tokenizer = WORDS if budgets else None
    return score_run(
        questions, pages, load_run(reader, "a"), ks=KS, budgets=budgets, tokenizer=tokenizer
    )


@pytest.mark.parametrize("size", [1, 2, 7, 10_000])
@pytest.mark.parametrize("lean", [True, False])
@pytest.mark.parametrize("listed", [False, True])
def test_ranges_give_the_figures_of_one_pass(
    reader: SqliteReader, size: int, lean: bool, listed: bool
) -> None:
    expected = whole(reader)
    got = ranged(reader, size, lean=lean, listed=listed)
    assert got.to_dict() == expected.to_dict()
    assert list(got.queries) == list(expected.queries)
    assert [q.judgement for q in got.queries] == [q.judgement for q in expected.queries]
    assert got.worst_first(5)[:] == tuple(expected.worst_first(5))
    assert with_intervals(got, resamples=300).ci == with_intervals(expected, resamples=300).ci


@pytest.mark.parametrize("size", [1, 7, 10_000])
def test_ranges_with_budgets(reader: SqliteReader, size: int) -> None:
    expected = whole(reader, budgets=(50, 200))
    got = ranged(reader, size, lean=False, budgets=(50, 200))
    assert got.to_dict() == expected.to_dict()


def test_the_data_reaches_every_path(reader: SqliteReader) -> None:
    data = whole(reader).to_dict()
    assert data["missing_from_run"]["count"] > 0
    assert data["unknown_in_run"]["query_ids"] == ["extra-a"]
    assert data["without_elements"]["count"] > 0
    assert set(data["by_n_gold"]) == {"1", "2", "3+"}
    assert data["flags"]["repeated"] + data["flags"]["chunk_repeated"] > 0


def test_a_range_size_below_one_is_refused(reader: SqliteReader) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        ranged(reader, 0, lean=True)


def test_text_reads_go_in_smaller_ranges(
    reader: SqliteReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Scoring with token budgets reads every chunk's text, in ranges of
    ``TEXT_RANGE_QUESTIONS`` (a quarter of the lean ranges): what a range holds while it is
    scored stays a few megabytes. Shown with ranges shrunk to fit this small gold set."""
    from labeler.evaluation import ScoreRequest, _evaluate, score

    spans: list[tuple[str | None, str | None]] = []
    read = SqliteReader.run_rows

    def spied(self: SqliteReader, run: str, **bounds: str | None) -> object:
        spans.append((bounds.get("since"), bounds.get("until")))
        return read(self, run, **bounds)

    monkeypatch.setattr(SqliteReader, "run_rows", spied)
    monkeypatch.setattr(_evaluate, "RANGE_QUESTIONS", 40)
    monkeypatch.setattr(_evaluate, "TEXT_RANGE_QUESTIONS", 10)
    request = ScoreRequest("g", "a", ks=KS, budgets=(50,), tokenizer=WORDS, processes=1)
    got = score(str(reader.path), request).evaluation.result
    scored = len(got.queries)
    assert len(spans) == -(-scored // 10), (len(spans), scored)
    expected = whole(reader, budgets=(50,)).to_dict() | {"gold_set": "g", "run": "a"}
    assert got.to_dict() == expected
