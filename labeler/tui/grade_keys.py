"""What the grades 1–3 mean, in the words the readout, the review list and F1 help use.

A grade is the gain of an element in nDCG (linear): the higher, the more the element
matters to answering the question. Every element is relevant; the grade says how much.
"""

from __future__ import annotations

#: grade → its meaning, as shown to the annotator
GRADE_MEANING: dict[int, str] = {
    1: "relevant: supports or completes the answer",
    2: "important: a main part of the answer",
    3: "essential: answers the question on its own",
}

#: one line for readouts and hints
GRADE_LEGEND = "1 relevant · 2 important · 3 essential"


def grade_meaning(grade: int) -> str:
    """``g2 important: a main part of the answer``; grades above 3 (imported) say so."""
    meaning = GRADE_MEANING.get(grade, "above the 1–3 scale (imported)")
    return f"g{grade} {meaning}"
