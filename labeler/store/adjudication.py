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
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlmodel import Session, col, select

from labeler.store.models import LAYER_ANNOTATOR, LAYER_FINAL, Element, QuestionDone

RULES = ("unanimous", "majority")


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
        """The grade most of its annotators gave (ties: the lower); 1 with none."""
        if not self.grades:
            return 1
        counts = Counter(self.grades)
        best = max(counts.values())
        return min(g for g, n in counts.items() if n == best)


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
