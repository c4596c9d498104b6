"""The fast (chunk, reference) match gives the plain two-stage definition's answers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from scoring import CorrectnessConfig, CorrectnessRow, match_chunk, retrieval_correctness
from scoring.correctness import EXACT_LIMIT
from scoring.correctness._match import match_pair


def plain(chunk: str, reference: str, cfg: CorrectnessConfig) -> tuple[int, float, float] | None:
    """docs/metrics.md word for word: rapidfuzz called on the whole texts, no cutoffs, no
    shortcuts."""
    if not chunk or not reference:
        return None
    ratio = fuzz.ratio(chunk, reference)
    if ratio >= 100 * cfg.t1:
        return 1, ratio, 1.0
    a = fuzz.partial_ratio_alignment(reference, chunk)
    share = min(a.src_end - a.src_start, a.dest_end - a.dest_start) / len(reference)
    if a.score >= 100 * cfg.t2 and share >= cfg.coverage:
        return 2, a.score, share
    return None


texts = st.text(alphabet="ab c", max_size=40)
fillers = st.text(alphabet="abxyz ", max_size=120)  # long, to make chunks > 2x references
fractions = st.one_of(st.sampled_from([0.0, 0.5, 0.65, 0.7, 1.0]), st.floats(0, 1))


@st.composite
def pairs(draw: st.DrawFn) -> tuple[str, str]:
    """(chunk, reference) pairs: unrelated, edited, embedded, cut out of each other."""
    # repeated: long enough (up to 320) for scoring.correctness._align to do stage 2
    reference = draw(texts) * draw(st.sampled_from([1, 1, 1, 4, 8]))
    kind = draw(st.sampled_from(["unrelated", "edited", "embedded", "piece", "overlap", "edge"]))
    if kind == "unrelated":
        return draw(texts), reference
    if kind == "edited":
        chars = list(reference)
        for _ in range(draw(st.integers(0, 6))):
            if chars:
                chars[draw(st.integers(0, len(chars) - 1))] = draw(st.sampled_from("abcx "))
        return "".join(chars), reference
    if kind == "embedded":
        return draw(texts) + reference + draw(texts), reference
    if kind == "piece":
        start = draw(st.integers(0, len(reference)))
        return reference[start : draw(st.integers(start, len(reference)))], reference
    cut = draw(st.integers(0, len(reference)))
    if kind == "overlap":
        return reference[cut:] + draw(texts), reference
    # the reference's tail at the start or its head at the end of a long chunk
    filler = draw(fillers)
    return (
        reference[cut:] + filler if draw(st.booleans()) else filler + reference[:cut]
    ), reference


@settings(max_examples=2000, deadline=None)
@given(pairs(), fractions, fractions, fractions)
def test_fast_path_gives_the_plain_definitions_answers(
    pair: tuple[str, str], t1: float, t2: float, coverage: float
) -> None:
    chunk, reference = pair
    cfg = CorrectnessConfig(t1=t1, t2=t2, coverage=coverage)
    result = match_pair(chunk, reference, cfg)
    assert result.truncated is False
    assert result.found == plain(chunk, reference, cfg)


def test_reference_inside_a_chunk_is_a_full_stage_two_match() -> None:
    # the whole reference is a window of the chunk: partial ratio 100, all of it covered
    reference = "backups run nightly"
    chunk = "Storage policy: backups run nightly, kept for thirty days and then deleted."
    assert match_chunk(chunk, reference, CorrectnessConfig()) == (2, 100.0, 1.0)


def test_chunk_inside_a_reference_covers_its_share() -> None:
    reference = "alpha beta gamma delta epsilon"  # 30 code points
    chunk = "beta gamma delta"  # 16 of them, in one piece
    assert match_chunk(chunk, reference, CorrectnessConfig()) == (2, 100.0, 16 / 30)
    assert match_chunk(chunk, reference, CorrectnessConfig(coverage=0.6)) is None


def test_texts_beyond_the_limit_are_compared_on_their_beginnings() -> None:
    # reference = X + Y, chunk = X + Z: X 15,000 letters shared, Y letters and Z digits, so
    # nothing of Y or Z is common. Whole texts (30,000 each): ratio 2·15000/60000 = 50 < 70,
    # and the best window would be the chunk's first 15,000 against the reference:
    # 200·15000/45000 ≈ 66.7 covering 0.5. Both are longer than EXACT_LIMIT = 20,000, so
    # stage 2 runs on the first 20,000 of each: X + 5,000 of Y against X + 5,000 of Z, best
    # window again X: 200·15000/(20000+15000) ≈ 85.7, covering 15000/20000 = 0.75.
    assert EXACT_LIMIT == 20_000
    shared = ("lorem ipsum dolor sit amet " * 600)[:15_000]
    reference = shared + ("qwertyuiop" * 1500)
    chunk = shared + ("0123456789" * 1500)
    cfg = CorrectnessConfig()
    result = match_pair(chunk, reference, cfg)
    assert result.truncated is True
    assert result.found is not None
    stage, score, coverage = result.found
    assert (stage, coverage) == (2, 0.75)
    assert score == pytest.approx(200 * 15_000 / 35_000)
    row = CorrectnessRow("1", "p", (reference,), "a", (chunk,))
    scored = retrieval_correctness(row, cfg)
    assert scored.truncated is True and scored.to_dict()["truncated"] is True
    assert "compared approximately (on their first 20000 characters" in scored.explanation
    german = retrieval_correctness(row, CorrectnessConfig(language="de")).explanation
    assert "näherungsweise verglichen (über ihre ersten 20000 Zeichen" in german


def test_short_rows_are_not_truncated() -> None:
    row = CorrectnessRow("1", "p", ("a b c",), "a", ("a b c d",))
    result = retrieval_correctness(row)
    assert result.truncated is False
    assert "approximately" not in result.explanation
