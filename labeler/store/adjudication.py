"""What annotators chose on a question, grouped for adjudication, and the automatic rules.

Only the labels of annotators who marked the question *done* count: a half-labelled
question says nothing yet. Spans are grouped where they coincide exactly (same page, start
and end); overlapping but different spans are different groups (a boundary disagreement the
adjudicator settles).

Automatic rules (:func:`auto_decision`), with n = the number of done annotators (n ≥ 2):

* ``unanimous``: accept a span all n chose;
* ``majority``: accept a span more than n/2 chose.

A question is settled automatically only when nothing is left in dispute: every span some
annotator chose is accepted (so ``unanimous`` settles identical span sets, including all
annotators done with no answer). Otherwise the accepted spans go into the final layer and
the question waits for a person.

Key clauses (an element's ``key_start``/``key_end``): a span group carries the keys its
annotators set (:attr:`SpanGroup.keys`), and an accepted span takes the group's
:attr:`SpanGroup.key`, the key only when it is unambiguous: every annotator of the group who
set a key set the same one (annotators who set none do not count against it; a group of one
annotator carries that annotator's key). When two of them set different keys the span is
accepted *without* a key and the disagreement is reported (:meth:`SpanGroup.key_conflict`),
never settled by picking one; the adjudicator sets the key by hand (``K`` on the
adjudication screen).

Grades: an accepted span takes the grade most of its annotators gave; a tie takes the lowest
of the tied grades (:func:`final_grade`, the one rule every path uses; :func:`tie_words`
says it where it applies).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, select

from labeler.store.models import LAYER_ANNOTATOR, LAYER_FINAL, Element, QuestionDone

RULES = ("unanimous", "majority")


#: the tie rule in words, as the adjudication screen, the CLI and docs/team.md say it
TIE_RULE = "ties take the lower grade"


def tied_grades(grades: Sequence[int]) -> tuple[int, ...]:
    """The grades given most often when two or more are given equally often (highest
    first: ``(3, 3, 2, 2, 1)`` → ``(3, 2)``); empty when one grade is given most often or
    there are no grades."""
    counts = Counter(grades)
    if not counts:
        return ()
    best = max(counts.values())
    tied = sorted((g for g, n in counts.items() if n == best), reverse=True)
    return tuple(tied) if len(tied) > 1 else ()


def final_grade(grades: Sequence[int]) -> int:
    """The grade a span accepted into the final layer takes from its annotators' grades:
    the one given most often; on a tie, the lowest of the tied grades (``(3, 2)`` → 2,
    ``(3, 3, 2, 2, 1)`` → 2, ``(3, 2, 1)`` → 1); 1 when there are none.

    The one rule for every path that picks a final grade (the adjudication screen's ``a``
    and ``U``, ``adjudicate --auto``). Why the lower: a grade weighs a span in graded
    metrics (nDCG), and on an even split no more annotators stand behind the higher grade
    than behind the lower, so taking the higher would let a disagreement raise scores;
    every tied annotator judged the span worth at least the lower grade. The adjudication
    screen shows the tie (:func:`tie_words`) and ``1``-``3`` change the grade."""
    counts = Counter(grades)
    if not counts:
        return 1
    best = max(counts.values())
    return min(g for g, n in counts.items() if n == best)


def tie_words(grades: Sequence[int]) -> str:
    """``grades 3, 2 tie: final 2 (ties take the lower grade)``; empty without a tie."""
    tied = tied_grades(grades)
    if not tied:
        return ""
    return f"grades {', '.join(str(g) for g in tied)} tie: final {final_grade(grades)} ({TIE_RULE})"


@dataclass(frozen=True)
class SpanGroup:
    """One exact span of a page and who chose it.

    ``annotators``: the done annotators who labelled exactly this span (sorted); ``grades``:
    their grades in the same order; ``final``: the span is in the final layer already;
    ``keys``: their key spans (page offsets, None where they set none) in the same order.
    """

    document_id: str
    start: int
    end: int
    text: str
    annotators: tuple[str, ...]
    grades: tuple[int, ...]
    final: bool
    keys: tuple[tuple[int, int] | None, ...] = ()

    @property
    def key(self) -> tuple[int, int] | None:
        """The key an accepted span takes: the one key every annotator who set a key set;
        None when nobody set one or when they disagree (:meth:`key_conflict`)."""
        distinct = {k for k in self.keys if k is not None}
        return next(iter(distinct)) if len(distinct) == 1 else None

    def key_conflict(self) -> tuple[tuple[str, tuple[int, int]], ...]:
        """(annotator, key) of every annotator who set a key, when two or more different keys
        were set (the span is then accepted without one); empty when the key is unambiguous."""
        set_by = tuple((a, k) for a, k in zip(self.annotators, self.keys, strict=False) if k)
        if len({k for _, k in set_by}) < 2:
            return ()
        return set_by

    def key_conflict_words(self) -> str:
        """The key disagreement in words (``keys differ: ana 130–150, bob 132–150``); empty
        when there is none."""
        conflict = self.key_conflict()
        if not conflict:
            return ""
        return "keys differ: " + ", ".join(f"{a} {s}–{e}" for a, (s, e) in conflict)

    @property
    def grade(self) -> int:
        """The grade an accepted span takes: :func:`final_grade` of its annotators' grades."""
        return final_grade(self.grades)

    def tie_words(self) -> str:
        """The grade tie in words (:func:`tie_words`); empty when there is none."""
        return tie_words(self.grades)


@dataclass(frozen=True)
class QuestionSpans:
    """A question's span groups (by page, start, end) and its done annotators (sorted)."""

    query_id: int
    done_by: tuple[str, ...]
    groups: tuple[SpanGroup, ...]


def question_spans(session: Session, query_id: int) -> QuestionSpans:
    """Group the done annotators' labels of question ``query_id`` with its final elements."""
    done_by = tuple(
        sorted(
            session.exec(
                select(QuestionDone.annotator).where(QuestionDone.query_id == query_id)
            ).all()
        )
    )
    done = set(done_by)
    chosen: dict[tuple[str, int, int], list[tuple[str, int, tuple[int, int] | None]]] = {}
    texts: dict[tuple[str, int, int], str] = {}
    final: set[tuple[str, int, int]] = set()
    rows = session.exec(
        select(Element).where(Element.query_id == query_id).order_by(col(Element.id))
    ).all()
    for element in rows:
        key = (element.document_id, element.start, element.end)
        if element.layer == LAYER_FINAL:
            final.add(key)
            texts.setdefault(key, element.text)
        elif element.layer == LAYER_ANNOTATOR and element.annotator in done:
            own_key = (
                None
                if element.key_start is None or element.key_end is None
                else (element.key_start, element.key_end)
            )
            chosen.setdefault(key, []).append((element.annotator, element.grade, own_key))
            texts.setdefault(key, element.text)
    groups = []
    for key in sorted(set(chosen) | final):
        who = sorted(chosen.get(key, []), key=lambda c: c[0])
        groups.append(
            SpanGroup(
                key[0],
                key[1],
                key[2],
                texts[key],
                tuple(a for a, _, _ in who),
                tuple(g for _, g, _ in who),
                key in final,
                tuple(k for _, _, k in who),
            )
        )
    return QuestionSpans(query_id, done_by, tuple(groups))


@dataclass(frozen=True)
class AutoDecision:
    """What an automatic rule does on one question: spans to accept, spans left in dispute,
    and whether the question is then settled."""

    accept: tuple[SpanGroup, ...]
    disputed: tuple[SpanGroup, ...]
    settles: bool


def auto_decision(spans: QuestionSpans, rule: str) -> AutoDecision | None:
    """Apply ``rule`` (``unanimous`` or ``majority``) to one question; None when fewer than
    two annotators marked it done (nothing to compare). Spans already final are neither
    accepted again nor disputed."""
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r} (one of {', '.join(RULES)})")
    n = len(spans.done_by)
    if n < 2:
        return None
    accept: list[SpanGroup] = []
    disputed: list[SpanGroup] = []
    for group in spans.groups:
        if group.final or not group.annotators:
            continue
        votes = len(group.annotators)
        agreed = votes == n if rule == "unanimous" else 2 * votes > n
        (accept if agreed else disputed).append(group)
    return AutoDecision(tuple(accept), tuple(disputed), not disputed)
