"""Agreement against independent computations on small pages.

α: the ``krippendorff`` package (an independent implementation) on the reliability matrix
written out one value per character: one row per annotator, one column per character of
every page cited on each question, 1 inside one of the annotator's spans for that question,
0 outside, nan where the annotator did not mark the question done. The package raises when no
character has two coders and returns nan when D_e = 0; ``agreement`` says None for both.

F1 and the pair relations: brute force over character sets and every pair of elements.
"""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import AgreementInput, Span
from scoring.agreement import agreement

krippendorff = pytest.importorskip("krippendorff")
np = pytest.importorskip("numpy")

Layers = dict[str, dict[str, frozenset[Span]]]


def package_alpha(data: AgreementInput, annotators: Sequence[str]) -> float | None:
    """α by the krippendorff package over the questions 2+ of ``annotators`` did."""
    columns: list[list[float]] = []
    for layers in data.questions.values():
        done = [a for a in annotators if a in layers]
        if len(done) < 2:
            continue
        pages = sorted({sp.page for a in done for sp in layers[a]})
        for page in pages:
            for x in range(data.page_lengths[page]):
                columns.append(
                    [
                        (
                            float(
                                any(sp.page == page and sp.start <= x < sp.end for sp in layers[a])
                            )
                            if a in layers
                            else math.nan
                        )
                        for a in annotators
                    ]
                )
    matrix = np.array(columns, dtype=float).T.reshape(len(annotators), len(columns))
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            value = krippendorff.alpha(
                reliability_data=matrix, value_domain=[0.0, 1.0], level_of_measurement="nominal"
            )
    except ValueError:  # "at least one unit with values assigned by at least two coders"
        return None
    return None if math.isnan(value) else float(value)


def chars(spans: frozenset[Span]) -> set[tuple[str, int]]:
    return {(sp.page, x) for sp in spans for x in range(sp.start, sp.end)}


def brute_pair(layers: Layers, a: str, b: str) -> tuple[float, float, tuple[int, int, int, int]]:
    """exact F1, partial F1 and (identical, nested, overlapping, disjoint) for a, b."""
    common = total_a = total_b = matched_a = matched_b = 0
    rel = [0, 0, 0, 0]
    for spans in layers.values():
        if a not in spans or b not in spans:
            continue
        ea, eb = spans[a], spans[b]
        common += len(ea & eb)
        total_a += len(ea)
        total_b += len(eb)

        def matched(xs: frozenset[Span], ys: frozenset[Span]) -> int:
            return sum(
                any(
                    x.page == y.page
                    and 2 * len(set(range(x.start, x.end)) & set(range(y.start, y.end)))
                    >= x.end - x.start
                    for y in ys
                )
                for x in xs
            )

        matched_a += matched(ea, eb)
        matched_b += matched(eb, ea)
        ca, cb = chars(ea), chars(eb)
        if ea == eb:
            rel[0] += 1
        elif not ca & cb:
            rel[3] += 1
        elif ca <= cb or cb <= ca:
            rel[1] += 1
        else:
            rel[2] += 1
    if total_a + total_b == 0:
        return 1.0, 1.0, (rel[0], rel[1], rel[2], rel[3])
    exact = 2 * common / (total_a + total_b)
    p = matched_a / total_a if total_a else 0.0
    r = matched_b / total_b if total_b else 0.0
    partial = 2 * p * r / (p + r) if p + r else 0.0
    return exact, partial, (rel[0], rel[1], rel[2], rel[3])


ANNOTATORS = ("ann", "bea", "cid", "dev")


@st.composite
def inputs(draw: st.DrawFn, max_len: int = 25) -> AgreementInput:
    n_pages = draw(st.integers(1, 3))
    lengths = {f"p{i}": draw(st.integers(1, max_len)) for i in range(n_pages)}
    pages = sorted(lengths)
    n_annotators = draw(st.integers(2, 4))
    questions: Layers = {}
    for qi in range(draw(st.integers(1, 4))):
        layers: dict[str, frozenset[Span]] = {}
        for ann in ANNOTATORS[:n_annotators]:
            if not draw(st.booleans()) and qi % 2:  # some annotators missing on some questions
                continue
            spans = set()
            for _ in range(draw(st.integers(0, 3))):
                page = draw(st.sampled_from(pages))
                start = draw(st.integers(0, lengths[page] - 1))
                end = draw(st.integers(start + 1, lengths[page]))
                spans.add(Span(page, start, end))
            layers[ann] = frozenset(spans)
        questions[f"q{qi}"] = layers
    return AgreementInput(questions, lengths)


def close(ours: float | None, theirs: float | None) -> bool:
    if ours is None or theirs is None:
        return ours is theirs
    return math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=300, deadline=None)
@given(inputs())
def test_alpha_matches_the_krippendorff_package(data: AgreementInput) -> None:
    ag = agreement(data)
    everyone = list(ag.annotators)
    assert close(ag.overall.char_alpha, package_alpha(data, everyone))
    for pair in ag.pairs:
        assert close(pair.char_alpha, package_alpha(data, [pair.a, pair.b]))
    for q in ag.per_question:
        single = AgreementInput({q.query_id: data.questions[q.query_id]}, data.page_lengths)
        assert close(q.char_alpha, package_alpha(single, list(q.annotators)))


def test_alpha_matches_the_package_on_seeded_larger_pages() -> None:
    # 5 annotators, 6 questions, pages of 150–400 characters, about a third missing
    rng = random.Random(20261130)
    for _ in range(15):
        lengths = {f"p{i}": rng.randint(150, 400) for i in range(4)}
        questions: Layers = {}
        for qi in range(6):
            layers: dict[str, frozenset[Span]] = {}
            for ann in ("a", "b", "c", "d", "e"):
                if rng.random() < 0.35:
                    continue
                spans = set()
                for _ in range(rng.randint(0, 4)):
                    page = rng.choice(sorted(lengths))
                    start = rng.randrange(lengths[page] - 1)
                    spans.add(
                        Span(page, start, rng.randint(start + 1, min(start + 80, lengths[page])))
                    )
                layers[ann] = frozenset(spans)
            questions[f"q{qi}"] = layers
        data = AgreementInput(questions, lengths)
        ag = agreement(data)
        assert close(ag.overall.char_alpha, package_alpha(data, list(ag.annotators)))
        for pair in ag.pairs:
            assert close(pair.char_alpha, package_alpha(data, [pair.a, pair.b]))


@settings(max_examples=300, deadline=None)
@given(inputs())
def test_pairs_match_brute_force_and_are_symmetric(data: AgreementInput) -> None:
    ag = agreement(data)
    layers: Layers = {q: dict(v) for q, v in data.questions.items()}
    for pair in ag.pairs:
        exact, partial, rel = brute_pair(layers, pair.a, pair.b)
        assert pair.exact_f1 == pytest.approx(exact)
        assert pair.partial_f1 == pytest.approx(partial)
        assert pair.relations() == rel
        assert sum(rel) == pair.questions
        (swapped,) = agreement(data, [pair.b, pair.a]).pairs
        assert (swapped.a, swapped.b) == (pair.b, pair.a)
        assert (swapped.exact_f1, swapped.char_alpha, swapped.relations()) == (
            pair.exact_f1,
            pair.char_alpha,
            pair.relations(),
        )
        assert swapped.partial_f1 == pytest.approx(pair.partial_f1)
    for row in [*ag.pairs, *ag.per_question, ag.overall]:
        for value in (row.exact_f1, row.partial_f1):
            assert value is None or 0.0 <= value <= 1.0
        assert row.char_alpha is None or row.char_alpha <= 1.0 + 1e-12
    for q in ag.per_question:
        pairs = list(combinations(q.annotators, 2))
        brute = [brute_pair({q.query_id: layers[q.query_id]}, a, b) for a, b in pairs]
        assert q.exact_f1 == pytest.approx(sum(x[0] for x in brute) / len(pairs))
        assert q.partial_f1 == pytest.approx(sum(x[1] for x in brute) / len(pairs))


@settings(max_examples=200, deadline=None)
@given(inputs(), st.integers(2, 4))
def test_identical_codings_give_alpha_one(data: AgreementInput, copies: int) -> None:
    # every annotator copies the first question's first layer; α = 1 wherever some character
    # is inside and some outside the spans (else undefined: None)
    first = next(iter(data.questions.values()))
    spans = next(iter(first.values()))
    same = {"q": {ANNOTATORS[i]: spans for i in range(copies)}}
    ag = agreement(AgreementInput(same, data.page_lengths))
    covered = len(chars(spans))
    cited = sum(data.page_lengths[p] for p in {sp.page for sp in spans})
    expected = 1.0 if 0 < covered < cited else None
    assert ag.overall.char_alpha == expected
    assert ag.overall.exact_f1 == ag.overall.partial_f1 == 1.0
    assert all(p.identical == 1 for p in ag.pairs)
