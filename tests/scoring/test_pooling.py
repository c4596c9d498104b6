"""Pooling and judged@k on a hand-worked example (scoring.pooling, pure).

One page ``p`` (offsets only matter). Run A: rank 1 at [10, 30), rank 2 at [50, 60), rank 3
at [0, 5). Run B: rank 1 at [25, 40), rank 2 at [60, 70) (touching A's rank 2), rank 3 not
placed (7 characters). Run C: rank 1 at [21, 27), inside the element. Judged: an element at
[20, 28) and a not-relevant judgement at [65, 70).

Depth 2, worked by hand: the chunks' union is [10, 40) and [50, 70) (A's [50, 60) and B's
[60, 70) touch, so they merge); cutting [20, 28) and [65, 70) out leaves [10, 20) (A rank 1
only), [28, 40) (A rank 1 reaches 30, B rank 1: both, best rank 1) and [50, 65) (A rank 2,
B rank 2: both, best rank 2). Ordered by runs then best rank: [28, 40), [50, 65), [10, 20).
Run A: 30 characters (20 + 10), judged 8 ([20, 28) of [10, 30)), so 22 unjudged, 2 chunks
unjudged. Run B: 25 characters (15 + 10), judged 3 + 5 = 8, 17 unjudged, 2 chunks. Run C:
6 characters, all judged, no unjudged chunk.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.pooling import (
    JudgedCount,
    PlacedChunk,
    PoolRegion,
    RunPoolCounts,
    counts_at_ks,
    judged_at_k,
    judged_at_ks,
    pool_question,
    total_counts,
)


def placed(rank: int, start: int, end: int) -> PlacedChunk:
    return PlacedChunk(rank, "p", start, end, end - start)


RUNS = {
    "A": [placed(1, 10, 30), placed(2, 50, 60), placed(3, 0, 5)],
    "B": [placed(1, 25, 40), placed(2, 60, 70), PlacedChunk(3, "p", None, None, 7)],
    "C": [placed(1, 21, 27)],
}
JUDGED = {"p": [(20, 28), (65, 70)]}


def test_pool_at_depth_two() -> None:
    regions, counts = pool_question(RUNS, JUDGED, 2)
    assert regions == [
        PoolRegion("p", 28, 40, ("A", "B"), 1),
        PoolRegion("p", 50, 65, ("A", "B"), 2),
        PoolRegion("p", 10, 20, ("A",), 1),
    ]
    assert counts == [
        RunPoolCounts("A", 2, 2, 30, 22, 0),
        RunPoolCounts("B", 2, 2, 25, 17, 0),
        RunPoolCounts("C", 1, 0, 6, 0, 0),
    ]


def test_pool_at_depth_three_adds_a_region_and_the_unplaced_chunk() -> None:
    regions, counts = pool_question(RUNS, JUDGED, 3)
    # A's rank 3 at [0, 5) stands alone (it does not touch [10, 20)); B's rank 3 has no place
    assert regions[-1] == PoolRegion("p", 0, 5, ("A",), 3)
    assert len(regions) == 4
    assert counts[1] == RunPoolCounts("B", 3, 3, 32, 24, 1)
    assert total_counts(counts[:2], "A+B") == RunPoolCounts("A+B", 6, 6, 67, 51, 1)


def test_nothing_judged_pools_the_merged_union() -> None:
    regions, _ = pool_question({"A": RUNS["A"], "B": RUNS["B"]}, {}, 2)
    assert [(g.start, g.end, g.runs) for g in regions] == [
        (10, 40, ("A", "B")),
        (50, 70, ("A", "B")),
    ]


def test_judged_at_k() -> None:
    assert judged_at_k(RUNS["A"], JUDGED, 2) == JudgedCount(8, 30)
    assert judged_at_k(RUNS["B"], JUDGED, 1).share == pytest.approx(3 / 15)
    # the unplaced chunk's 7 characters count, never judged
    assert judged_at_k(RUNS["B"], JUDGED, 3) == JudgedCount(8, 32)
    assert judged_at_k(RUNS["C"], JUDGED, 10).share == 1.0
    assert judged_at_k([], JUDGED, 1).share is None


def test_judged_at_ks_gives_every_k_in_one_pass() -> None:
    """The same hand-worked figures at k = 3, 1, 2 in one call, in the order asked."""
    assert judged_at_ks(RUNS["B"], JUDGED, (3, 1, 2)) == [
        JudgedCount(8, 32),
        JudgedCount(3, 15),
        JudgedCount(8, 25),
    ]
    with pytest.raises(ValueError, match="k must be at least 1"):
        judged_at_ks(RUNS["A"], JUDGED, (1, 0))


def test_bad_depth() -> None:
    with pytest.raises(ValueError, match="depth must be at least 1"):
        pool_question(RUNS, JUDGED, 0)
    with pytest.raises(ValueError, match="k must be at least 1"):
        judged_at_k(RUNS["A"], JUDGED, 0)


@given(
    rows=st.lists(
        st.tuples(st.integers(1, 30), st.integers(0, 50), st.integers(0, 90)), max_size=25
    ),
    ks=st.lists(st.integers(1, 35), min_size=1, max_size=6, unique=True),
)
def test_counts_at_each_k_sum_the_rows_ranked_at_most_k(
    rows: list[tuple[int, int, int]], ks: list[int]
) -> None:
    """``counts_at_ks``: at each k (in the order given), the judged and all characters of
    the rows ranked ``<= k``, whatever the rows' order (ranks repeated or not)."""
    expected = [
        JudgedCount(sum(j for r, j, _ in rows if r <= k), sum(n for r, _, n in rows if r <= k))
        for k in ks
    ]
    assert counts_at_ks(rows, ks) == expected
    assert counts_at_ks(sorted(rows), ks) == expected
