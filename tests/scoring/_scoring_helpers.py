"""Shared builders and Hypothesis strategies for the scoring tests."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring import Chunk, GoldElement, GoldQuestion

# A tiny alphabet makes repeats, overlaps and fallback chunks common.
ALPHABET = "ab c"


def question(qid: str, *elements: tuple[str, str] | tuple[str, str, int]) -> GoldQuestion:
    """A question from ``(doc, text[, grade])`` tuples."""
    built = tuple(GoldElement(e[0], e[1], e[2] if len(e) == 3 else 1) for e in elements)
    return GoldQuestion(qid, f"question {qid}", built)


def chunks(*texts: str) -> list[Chunk]:
    """Chunks from plain texts, in rank order."""
    return [Chunk(t) for t in texts]


@st.composite
def substring_of(draw: st.DrawFn, text: str, min_size: int = 0) -> str:
    """A (possibly empty) substring of ``text``."""
    if len(text) < max(min_size, 1):
        return text[:0] if min_size == 0 else text
    start = draw(st.integers(0, len(text) - max(min_size, 1)))
    end = draw(st.integers(start + min_size, len(text)))
    return text[start:end]


pages_text = st.text(alphabet=ALPHABET, min_size=0, max_size=40)
free_text = st.text(alphabet=ALPHABET, min_size=0, max_size=20)


@st.composite
def element_or_chunk(draw: st.DrawFn, page: str) -> str:
    """Either a substring of ``page`` or free text (exercises rule 3)."""
    if draw(st.booleans()):
        return draw(substring_of(page))
    return draw(free_text)


thresholds = st.one_of(
    st.sampled_from([0.5, 1.0, 0.7, 0.25, 1e-9]),
    st.floats(min_value=1e-6, max_value=1.0, allow_nan=False),
)


@st.composite
def scoring_case(
    draw: st.DrawFn, in_page_only: bool = False, max_questions: int = 4
) -> tuple[list[GoldQuestion], dict[str, str], dict[str, list[Chunk]]]:
    """Random gold set, pages and run. With ``in_page_only`` each question's elements share
    one page and every chunk is a non-empty substring of it (rule 3 never applies)."""
    n_docs = draw(st.integers(1, 3))
    pages = {
        f"d{i}": draw(st.text(alphabet=ALPHABET, min_size=1, max_size=40)) for i in range(n_docs)
    }
    docs = sorted(pages)
    questions: list[GoldQuestion] = []
    run: dict[str, list[Chunk]] = {}
    for q in range(draw(st.integers(1, max_questions))):
        elements = []
        home = draw(st.sampled_from(docs))
        for _ in range(draw(st.integers(1, 4))):
            doc = home if in_page_only else draw(st.sampled_from(docs))
            text = draw(substring_of(pages[doc], min_size=1))
            elements.append(GoldElement(doc, text, draw(st.integers(1, 3))))
        qid = f"q{q}"
        questions.append(GoldQuestion(qid, "?", tuple(elements)))
        if draw(st.integers(0, 9)) == 0:
            continue  # missing from the run
        ranked: list[Chunk] = []
        for _ in range(draw(st.integers(0, 7))):
            doc = draw(st.sampled_from([e.doc for e in elements]))
            if in_page_only:
                ranked.append(Chunk(draw(substring_of(pages[doc], min_size=1))))
            else:
                ranked.append(Chunk(draw(element_or_chunk(pages[doc]))))
        run[qid] = ranked
    return questions, pages, run
