"""Agreement between annotators who labelled the same questions (issue 12, "Agreement").

Input: per question, the annotators who marked it done and each one's spans
(:class:`AgreementInput`). Output: :class:`Agreement`, over the questions that two or more of
the chosen annotators marked done, with these figures (E_x(q) = x's set of
``(page, start, end)`` elements on question q):

- ``exact_f1`` = 2·Σ_q |E_a(q) ∩ E_b(q)| / Σ_q (|E_a(q)| + |E_b(q)|); 1 when both sums are 0.
- ``partial_f1`` = 2PR/(P + R): P = share of a's elements that overlap ONE element of b on
  the same page by at least half the a element's length (``2·overlap ≥ end − start``, the
  Partial of docs/metrics.md, θ = 0.5), R the same from b's side; 0 when P + R = 0; 1 when
  neither has any element (as ``exact_f1``).
- ``char_alpha``: Krippendorff's α, nominal. Units: every character of every page cited on
  q by any of the annotators considered; each annotator who marked q done codes 1 inside one
  of their spans for q and 0 elsewhere; the others are missing. Computed from span
  boundaries (:mod:`scoring.agreement._counts`). None (JSON null) when undefined: no
  character has two coders (the ``krippendorff`` package raises) or all coded the same
  value (zero expected disagreement; the package returns nan). Neither case holds a
  disagreement.

Scopes: a pair (a, b) uses the questions both marked done and the pages either cited, so its
figures equal ``agreement(data, [a, b]).overall``. ``overall`` sums the F1 counts of every
pair over their questions (P from the first-named annotator of each pair, R from the second),
and computes α over all chosen annotators at once. ``per_question``: α over the question's
annotators, F1s the mean over their pairs on that question.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from scoring.agreement._counts import (
    Coincidences,
    Interval,
    PairCounts,
    Relation,
    Span,
    coverage_histogram,
    merged,
    relation,
)
from scoring.agreement._figures import (
    Agreement,
    OverallAgreement,
    PairAgreement,
    QuestionAgreement,
)

__all__ = [
    "Agreement",
    "AgreementInput",
    "AgreementInputError",
    "OverallAgreement",
    "PairAgreement",
    "QuestionAgreement",
    "Span",
    "agreement",
]

Layer = frozenset[Span]
Coverage = dict[str, list[Interval]]


class AgreementInputError(ValueError):
    """An :class:`AgreementInput` that cannot be measured (the message names the question,
    the annotator and the span or page)."""


@dataclass(frozen=True, slots=True)
class AgreementInput:
    """What agreement needs from a gold set.

    Attributes:
        questions: query_id → annotator → that annotator's spans on the question, holding
            only annotators who marked the question done (done with no element: empty set).
            Question order is kept in ``per_question``.
        page_lengths: page id → length of its text in code points, for every page cited.

    Every span must satisfy ``0 ≤ start < end ≤ page_lengths[page]``
    (:class:`AgreementInputError` otherwise). Both mappings are copied (spans as
    :class:`Span`, so plain ``(page, start, end)`` tuples do too): later changes to the
    caller's dicts do not reach the input.
    """

    questions: Mapping[str, Mapping[str, Layer]]
    page_lengths: Mapping[str, int]

    def __post_init__(self) -> None:
        questions: dict[str, dict[str, Layer]] = {}
        for query_id, layers in self.questions.items():
            copied = questions[query_id] = {}
            for annotator, spans in layers.items():
                copied[annotator] = frozenset(Span(*span) for span in spans)
                for span in copied[annotator]:
                    length = self.page_lengths.get(span.page)
                    where = f"question {query_id!r}, annotator {annotator!r}"
                    if length is None:
                        raise AgreementInputError(f"{where}: no length for page {span.page!r}")
                    if not 0 <= span.start < span.end <= length:
                        raise AgreementInputError(
                            f"{where}: span {span.start}-{span.end} of page {span.page!r} "
                            f"needs 0 <= start < end <= {length}"
                        )
        object.__setattr__(self, "questions", questions)
        object.__setattr__(self, "page_lengths", dict(self.page_lengths))


def _coverage(spans: Layer) -> Coverage:
    by_page: dict[str, list[Interval]] = {}
    for span in spans:
        by_page.setdefault(span.page, []).append((span.start, span.end))
    return {page: merged(intervals) for page, intervals in by_page.items()}


def _coincidences(covers: Sequence[Coverage], lengths: Mapping[str, int]) -> Coincidences:
    """α counts of one question coded by ``covers`` (one per annotator who marked it done),
    over every page any of them cited."""
    pages = sorted({page for cover in covers for page in cover})
    total = Coincidences()
    for page in pages:
        layers = [cover.get(page, []) for cover in covers]
        total += Coincidences.from_histogram(coverage_histogram(layers, lengths[page]), len(covers))
    return total


@dataclass(slots=True)
class _PairTally:
    questions: int = 0
    counts: PairCounts = field(default_factory=PairCounts)
    alpha: Coincidences = field(default_factory=Coincidences)
    identical: int = 0
    disjoint: int = 0
    nested: int = 0
    overlapping: int = 0

    def add(self, kind: Relation) -> None:
        setattr(self, kind, getattr(self, kind) + 1)


def _selection(data: AgreementInput, annotators: Sequence[str] | None) -> tuple[str, ...]:
    if annotators is None:
        return tuple(sorted({a for layers in data.questions.values() for a in layers}))
    return tuple(dict.fromkeys(annotators))


def agreement(
    data: AgreementInput,
    annotators: Sequence[str] | None = None,
    *,
    gold_set: str = "",
    progress: Callable[[int, int | None, str], None] | None = None,
) -> Agreement:
    """Agreement of ``annotators`` (default: everyone in ``data``, sorted; given order is
    kept, repeats dropped) over the questions two or more of them marked done; formulas in
    the module docstring. ``gold_set`` is carried into the result. ``progress(done, total,
    query_id)`` is called as the questions of ``data`` are measured (each counted whether
    or not two of ``annotators`` marked it done), the last time with ``done == total``."""
    chosen = _selection(data, annotators)
    tallies = {pair: _PairTally() for pair in combinations(chosen, 2)}
    overall_alpha = Coincidences()
    rows: list[QuestionAgreement] = []
    total = len(data.questions)
    for seen, (query_id, layers) in enumerate(data.questions.items(), start=1):
        if progress is not None:
            progress(seen - 1, total, query_id)
        done = [a for a in chosen if a in layers]
        if len(done) < 2:
            continue
        covers = {a: _coverage(layers[a]) for a in done}
        q_alpha = _coincidences([covers[a] for a in done], data.page_lengths)
        overall_alpha += q_alpha
        exact_sum = partial_sum = 0.0
        for a, b in combinations(done, 2):
            tally = tallies[a, b]
            counts = PairCounts.of(layers[a], layers[b])
            tally.questions += 1
            tally.counts += counts
            tally.alpha += _coincidences([covers[a], covers[b]], data.page_lengths)
            tally.add("identical" if layers[a] == layers[b] else relation(covers[a], covers[b]))
            exact_sum += counts.exact_f1
            partial_sum += counts.partial_f1
        n_pairs = len(done) * (len(done) - 1) // 2
        rows.append(
            QuestionAgreement(
                query_id, tuple(done), exact_sum / n_pairs, partial_sum / n_pairs, q_alpha.alpha
            )
        )
    if progress is not None and total:
        progress(total, total, "")
    pairs = tuple(
        PairAgreement(
            a,
            b,
            t.questions,
            t.counts.exact_f1,
            t.counts.partial_f1,
            t.alpha.alpha,
            t.identical,
            t.disjoint,
            t.nested,
            t.overlapping,
        )
        for (a, b), t in tallies.items()
        if t.questions
    )
    if rows:
        summed = sum((t.counts for t in tallies.values()), PairCounts())
        overall = OverallAgreement(summed.exact_f1, summed.partial_f1, overall_alpha.alpha)
    else:
        overall = OverallAgreement(None, None, None)
    return Agreement(gold_set, chosen, overall, pairs, tuple(rows))
