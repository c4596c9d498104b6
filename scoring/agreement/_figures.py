"""The result values of :func:`scoring.agreement.agreement`: per pair, per question, overall.

Figures and their edge cases are defined in :mod:`scoring.agreement._agreement`'s docstring.
Table formats order pairs and questions lowest agreement first (:func:`sorted` with
``sort_key``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

__all__ = ["Agreement", "OverallAgreement", "PairAgreement", "QuestionAgreement"]


def _order_key(alpha: float | None, exact: float, partial: float) -> tuple[float, float, float]:
    """Lowest agreement first: by α (undefined α, which holds no disagreement, last), then
    exact F1, then partial F1."""
    return (math.inf if alpha is None else alpha, exact, partial)


@dataclass(frozen=True, slots=True)
class PairAgreement:
    """Annotators ``a`` and ``b`` over the ``questions`` both marked done.

    Each of those questions falls in exactly one of: ``identical`` (the same span set, both
    empty included), ``disjoint`` (no character in both; one side empty included),
    ``nested`` (not identical, and every character of one side lies in the other's spans: a
    boundary disagreement), ``overlapping`` (the rest).
    """

    a: str
    b: str
    questions: int
    exact_f1: float
    partial_f1: float
    char_alpha: float | None
    identical: int
    disjoint: int
    nested: int
    overlapping: int

    def sort_key(self) -> tuple[float, float, float]:
        """Lowest agreement first (:func:`sorted` key)."""
        return _order_key(self.char_alpha, self.exact_f1, self.partial_f1)

    def relations(self) -> tuple[int, int, int, int]:
        """``(identical, nested, overlapping, disjoint)``: they add up to ``questions``."""
        return (self.identical, self.nested, self.overlapping, self.disjoint)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {
            "a": self.a,
            "b": self.b,
            "questions": self.questions,
            "exact_f1": self.exact_f1,
            "partial_f1": self.partial_f1,
            "char_alpha": self.char_alpha,
            "identical": self.identical,
            "disjoint": self.disjoint,
            "nested": self.nested,
            "overlapping": self.overlapping,
        }


@dataclass(frozen=True, slots=True)
class QuestionAgreement:
    """One question: the chosen annotators who marked it done (2+), α over them, and the F1
    figures averaged over their pairs."""

    query_id: str
    annotators: tuple[str, ...]
    exact_f1: float
    partial_f1: float
    char_alpha: float | None

    def sort_key(self) -> tuple[float, float, float]:
        """Lowest agreement first (:func:`sorted` key)."""
        return _order_key(self.char_alpha, self.exact_f1, self.partial_f1)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {
            "query_id": self.query_id,
            "annotators": list(self.annotators),
            "exact_f1": self.exact_f1,
            "partial_f1": self.partial_f1,
            "char_alpha": self.char_alpha,
        }


@dataclass(frozen=True, slots=True)
class OverallAgreement:
    """Every pair's F1 counts summed, α over all annotators; all None without questions."""

    exact_f1: float | None
    partial_f1: float | None
    char_alpha: float | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready mapping."""
        return {
            "exact_f1": self.exact_f1,
            "partial_f1": self.partial_f1,
            "char_alpha": self.char_alpha,
        }


@dataclass(frozen=True, slots=True)
class Agreement:
    """The agreement of ``annotators`` on gold set ``gold_set``.

    ``pairs`` in annotator order (pairs sharing no question left out), ``per_question`` in
    input order; :meth:`worst_pairs` and :meth:`worst_questions` order them lowest first.
    """

    gold_set: str
    annotators: tuple[str, ...]
    overall: OverallAgreement
    pairs: tuple[PairAgreement, ...]
    per_question: tuple[QuestionAgreement, ...]

    @property
    def questions(self) -> int:
        """Questions marked done by two or more of the annotators."""
        return len(self.per_question)

    def worst_pairs(self) -> list[PairAgreement]:
        """Pairs, lowest agreement first (stable: ties keep annotator order)."""
        return sorted(self.pairs, key=PairAgreement.sort_key)

    def worst_questions(self) -> list[QuestionAgreement]:
        """Questions, lowest agreement first (stable: ties keep input order)."""
        return sorted(self.per_question, key=QuestionAgreement.sort_key)

    def to_dict(self) -> dict[str, Any]:
        """The agreement JSON (issue 12)."""
        return {
            "gold_set": self.gold_set,
            "annotators": list(self.annotators),
            "questions": self.questions,
            "overall": self.overall.to_dict(),
            "pairs": [p.to_dict() for p in self.pairs],
            "per_question": [q.to_dict() for q in self.per_question],
        }
