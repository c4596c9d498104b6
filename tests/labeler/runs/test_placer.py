"""The import's placer (per-page memos of chunk positions and label occurrences, offsets
checked once per line) stores for every question what ``encode`` works out from the page
index alone, whatever it remembers or forgets between questions: Hypothesis over pages of
repeating words, chunks cut from them or not, labels that are chunks or not, offsets that
hold or miss, and memo budgets
from a few characters (forgotten at nearly every question) to the default."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.runs import _placements
from labeler.runs._placements import Offsets, Placer, encode, holds, text_key
from scoring import PageIndex

WORDS = ["ab", "ab. ", "ba, ", "a", "b\n", "abab"]


@st.composite
def case(draw: st.DrawFn) -> dict[str, Any]:
    pages = {
        f"p{i}": "".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=30)))
        for i in range(3)
    }
    questions = []
    for _ in range(draw(st.integers(1, 6))):
        cited = draw(st.lists(st.sampled_from([*pages, "gone"]), max_size=2, unique=True))
        chunks: list[str] = []
        docs: list[str | None] = []
        offsets: list[Offsets] = []
        for _ in range(draw(st.integers(0, 5))):
            doc = draw(st.sampled_from([*pages, None, "gone"]))
            page = pages.get(doc or "", "abab")
            a = draw(st.integers(0, len(page)))
            b = draw(st.integers(a, min(len(page), a + 30)))
            chunks.append(draw(st.sampled_from([page[a:b], "", "nowhere"])))
            docs.append(doc)
            pinned = doc is not None and draw(st.booleans())
            offsets.append((a, b + draw(st.sampled_from([0, 0, 1]))) if pinned else None)
        # labels that are chunks too: their occurrences come from the chunks' positions
        texts = ["", "ab", "b, a", "zz", *chunks]
        labels = {doc: set(draw(st.lists(st.sampled_from(texts), max_size=2))) for doc in cited}
        questions.append((labels, chunks, docs, offsets))
    return {"pages": pages, "questions": questions}


def expected(
    pages: dict[str, str],
    labels: dict[str, set[str]],
    chunks: list[str],
    docs: list[str | None],
    offsets: list[Offsets],
) -> tuple[list[tuple[str, ...]], list[bool], int]:
    """What the placer should give, from ``encode`` on a fresh index of each page."""
    out: list[tuple[str, ...]] = []
    everywhere = [bool(c) for c in chunks] if labels else [False] * len(chunks)
    for doc in sorted(labels):
        if doc not in pages:
            everywhere = [False] * len(chunks)
            continue
        page = pages[doc]
        pins = {
            r: at for r, (d, at) in enumerate(zip(docs, offsets, strict=True)) if at and d == doc
        }
        stored = encode(PageIndex(page), chunks, labels[doc], pins)
        out.append((text_key(page), *stored))
        for r, c0 in enumerate(stored[0].split(",") if chunks else []):
            if c0 == "-1":
                everywhere[r] = False
    missed = sum(
        1
        for text, doc, at in zip(chunks, docs, offsets, strict=True)
        if at is not None and doc in pages and not holds(pages[doc], text, at)
    )
    return out, everywhere, missed


@settings(max_examples=300, deadline=None)
@given(data=case(), budget=st.sampled_from([1, 8, 64, _placements.MEMO_BUDGET]))
def test_the_placer_stores_what_encode_works_out(data: dict[str, Any], budget: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_placements, "MEMO_BUDGET", budget)
        check(data, budget)


def check(data: dict[str, Any], budget: int) -> None:
    pages = data["pages"]
    questions = data["questions"]
    placer = Placer(
        {f"q{i}": q[0] for i, q in enumerate(questions)},
        lambda ids: {d: pages[d] for d in ids if d in pages},
    )
    for i, (labels, chunks, docs, offsets) in enumerate(questions):
        want = expected(pages, labels, chunks, docs, offsets)
        placed, everywhere = placer.place(f"q{i}", chunks, docs, offsets)
        assert (placed, everywhere) == want[:2]
        assert placer.mismatched(chunks, docs, offsets) == want[2]
    assert placer._memo <= max(budget, sum(len(c) for q in questions for c in q[1]))
