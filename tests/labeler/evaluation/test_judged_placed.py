"""judged@k's one-loop path for rows the placements answer (``_judged_placed``), against
figures worked out by hand from the placements and judged ranges below."""

from __future__ import annotations

from labeler.evaluation._judged_at_k import _judged_placed
from scoring import Placement

# judged ranges per page, merged (disjoint, sorted)
MERGED = {"a": [(0, 15), (25, 55)], "b": [(100, 200)]}
ANYWHERE = ["a", "b"]


def rows(*texts: str | None) -> list[tuple[str, int, str | None, None, None, None]]:
    return [("q", r, text, None, None, None) for r, text in enumerate(texts, 1)]


def test_each_row_is_counted_on_the_first_page_holding_it() -> None:
    placed = {
        # rank 1 at 10 on a (length 20): [10, 30) keeps 5 of (0, 15) and 5 of (25, 55);
        # rank 2 is on neither page; rank 3 is not on a, at 190 on b: [190, 200) of 12;
        # rank 4 at 50 on a and 0 on b: a comes first, [50, 60) keeps 5;
        # rank 5 is empty (length 0): never placed
        "a": Placement([10, -1, -1, 50, 3], [0] * 5, lengths=[20, 5, 12, 10, 0]),
        "b": Placement([-1, -1, 190, 0, -1], [0] * 5),
    }
    got = _judged_placed(rows(None, None, None, None, None), MERGED, ANYWHERE, placed)
    assert got == [(1, 10, 20), (2, 0, 5), (3, 10, 12), (4, 5, 10), (5, 0, 0)]


def test_a_row_with_its_text_takes_the_text_s_length() -> None:
    placed = {
        "a": Placement([26, 0], [0, 0], lengths=[99, 99]),
        "b": Placement([-1, -1], [0, 0]),
    }
    # rank 1: "xyz" at 26 -> [26, 29) all judged; rank 2 at 0, 99 long -> 15 + 30 judged
    assert _judged_placed(rows("xyz", None), MERGED, ANYWHERE, placed) == [
        (1, 3, 3),
        (2, 45, 99),
    ]


def test_rows_the_placements_do_not_answer_go_the_long_way() -> None:
    full = {"a": Placement([1, 2], [0, 0], lengths=[4, 4]), "b": Placement([1, 2], [0, 0])}
    assert _judged_placed(rows(None, None), MERGED, ANYWHERE, full) is not None
    # a page with judged ranges and no placement; a placement short of the ranks
    assert _judged_placed(rows(None, None), MERGED, ANYWHERE, {"a": full["a"]}) is None
    short = {"a": Placement([1], [0], lengths=[4]), "b": full["b"]}
    assert _judged_placed(rows(None, None), MERGED, ANYWHERE, short) is None
    # a row naming its page; ranks not 1, 2, ...; no length for a row without its text
    named = [("q", 1, None, "a", 1, 5), ("q", 2, None, None, None, None)]
    assert _judged_placed(named, MERGED, ANYWHERE, full) is None
    skipped = [("q", 2, "x", None, None, None)]
    assert _judged_placed(skipped, MERGED, ANYWHERE, full) is None
    unsized = {"a": Placement([1, 2], [0, 0], lengths=[4]), "b": full["b"]}
    assert _judged_placed(rows(None, None), MERGED, ANYWHERE, unsized) is None
    assert _judged_placed(rows("x", None), MERGED, ANYWHERE, {}) is None
