"""partial_alignment gives rapidfuzz's fuzz.partial_ratio_alignment, spans and ties included."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from scoring.correctness._align import bounded_alignment, partial_alignment


def rapidfuzz_says(s1: str, s2: str, cutoff: float) -> tuple[float, int, int, int, int] | None:
    found = fuzz.partial_ratio_alignment(s1, s2, score_cutoff=cutoff)
    if found is None:
        return None
    return found.score, found.src_start, found.src_end, found.dest_start, found.dest_end


def ours(s1: str, s2: str, cutoff: float) -> tuple[float, int, int, int, int] | None:
    found = partial_alignment(s1, s2, cutoff)
    return None if found is None else tuple(found)


small = st.text(alphabet="ab c", max_size=30)
cutoffs = st.one_of(st.sampled_from([0.0, 50.0, 65.0, 100.0]), st.floats(0, 100))


@st.composite
def pairs(draw: st.DrawFn) -> tuple[str, str]:
    """Two texts: unrelated, or one with a piece of the other inside, either way round,
    repeated to make periodic texts (many tied windows)."""
    a = draw(small) * draw(st.sampled_from([1, 1, 3, 6]))
    if draw(st.booleans()):
        b = draw(small) * draw(st.sampled_from([1, 2, 5]))
    else:
        i = draw(st.integers(0, len(a)))
        j = draw(st.integers(i, len(a)))
        b = draw(small) + a[i:j] + draw(small)
    return (a, b) if draw(st.booleans()) else (b, a)


@settings(max_examples=3000, deadline=None)
@given(pairs(), cutoffs)
def test_same_alignment_as_rapidfuzz(pair: tuple[str, str], cutoff: float) -> None:
    s1, s2 = pair
    assert ours(s1, s2, cutoff) == rapidfuzz_says(s1, s2, cutoff)


def test_same_alignment_on_longer_prose() -> None:
    # a few hundred code points of word-like text: half overlapping, edited inside a longer
    # text, unrelated; rapidfuzz itself is still quick at this size
    rng = random.Random(11)
    vocab = ["".join(rng.choices("etaoinshrdlu", k=rng.randint(2, 8))) for _ in range(300)]

    def prose(size: int) -> str:
        return " ".join(rng.choices(vocab, k=size))[:size]

    def edited(text: str) -> str:
        return "".join(c if rng.random() > 0.1 else "x" for c in text)

    for size in (200, 400, 700):
        a = prose(size)
        cases = [
            (a, a[size // 2 :] + prose(size // 2)),
            (a, prose(2 * size) + edited(a) + prose(size)),
            (prose(size), prose(size)),
            (prose(3 * size) + a[: size // 3], a),
        ]
        for s1, s2 in cases:
            for cutoff in (0.0, 65.0):
                assert ours(s1, s2, cutoff) == rapidfuzz_says(s1, s2, cutoff)


def test_window_search_stops_at_its_budget_with_a_real_window() -> None:
    # a repeated sentence (1,300 code points, a few letters edited) in a longer repetition:
    # every shift by the period scores alike, so the bisection needs many probes
    rng = random.Random(5)
    sentence = "the cat sat. "
    s1 = "".join(c if rng.random() > 0.02 else "x" for c in sentence * 100)
    s2 = "".join(c if rng.random() > 0.02 else "x" for c in sentence * 1000)
    exact = rapidfuzz_says(s1, s2, 65.0)
    assert exact is not None
    assert bounded_alignment(s1, s2, 65.0, float("inf")) == (partial_alignment(s1, s2, 65.0), False)
    assert ours(s1, s2, 65.0) == exact
    found, stopped = bounded_alignment(s1, s2, 65.0, 3)
    assert stopped is True
    assert found is not None
    # the score is that of the window it names, recomputed independently, and no better
    # than the exact search's
    window = fuzz.ratio(s1[found.src_start : found.src_end], s2[found.dest_start : found.dest_end])
    assert found.score == window
    assert found.score <= exact[0]
