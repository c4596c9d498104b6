"""Chunks that carry their offsets: placed where they are, not at their text's first copy.

Expected values are worked out by hand on a page that repeats a sentence, and, for the span
metrics, by an independent computation on sets of code points (no interval arithmetic,
no page index).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import Chunk, GoldElement, GoldQuestion, score_run

# "Beta one." is at 7..16 and again at 24..33; the element "Beta one. Delta" is at 24..39.
PAGE = "Alpha. Beta one. Gamma. Beta one. Delta end."
ELEMENT = GoldElement("p", "Beta one. Delta", start=24, end=39)
GOLD = [GoldQuestion("q", "where is beta?", (ELEMENT,))]


def test_the_hand_worked_page() -> None:
    assert PAGE[7:16] == PAGE[24:33] == "Beta one."
    assert PAGE[24:39] == ELEMENT.text
    assert PAGE.count(ELEMENT.text) == 1


def test_a_chunk_at_the_second_copy_scores_there_in_every_metric() -> None:
    # 9 of the element's 15 code points: Partial (0.6 >= 0.5), not Full; the chunk is all
    # inside the element: span precision 1
    result = score_run(GOLD, {"p": PAGE}, {"q": [Chunk("Beta one.", "p", 1.0, 24, 33)]}, ks=[1])
    (row,) = result.queries
    assert row.value("hit", 1) == 0.0
    assert row.value("partial", 1) == 1.0
    assert row.value("span_recall", 1) == 9 / 15
    assert row.value("span_precision", 1) == 1.0
    assert row.value("span_iou", 1) == 9 / 15
    assert row.diagnoses[1].best_coverage == 9 / 15
    assert (row.flags.chunk_repeated, row.flags.offset_mismatch, row.flags.fallback) == (0, 0, 0)


def test_a_repeated_element_is_held_by_either_copy_but_spans_are_positional() -> None:
    # the element is the second "Beta one." (24..33). By the classification rule a chunk
    # holding any copy of the element's text holds the element (its text is flagged
    # repeated), so the element metrics are 1 at either copy; the span metrics count code
    # points, so the chunk at 24..33 has all 9 and the chunk at 7..16 none.
    element = GoldElement("p", "Beta one.", start=24, end=33)
    gold = [GoldQuestion("q", "where is the second beta?", (element,))]
    by_element = ["hit", "partial", "mrr", "recall", "partial_recall", "precision",
                  "context_precision", "ndcg"]  # fmt: skip
    by_span = ["span_recall", "span_precision", "span_iou"]
    for (start, end), spans in (((24, 33), 1.0), ((7, 16), 0.0)):
        chunk = Chunk("Beta one.", "p", 1.0, start, end)
        result = score_run(gold, {"p": PAGE}, {"q": [chunk]}, ks=[1])
        metrics = {name: result.metrics[f"{name}@1"] for name in by_element + by_span}
        assert metrics == {**dict.fromkeys(by_element, 1.0), **dict.fromkeys(by_span, spans)}
        assert (result.flags.repeated, result.flags.offset_mismatch) == (1, 0)
        assert result.flags.chunk_repeated == 0  # its offsets place it


def test_without_offsets_the_chunk_is_at_the_first_copy_and_gives_nothing() -> None:
    result = score_run(GOLD, {"p": PAGE}, {"q": [Chunk("Beta one.", "p", 1.0)]}, ks=[1])
    (row,) = result.queries
    assert row.value("partial", 1) == 0.0
    assert row.value("span_recall", 1) == 0.0
    assert row.value("span_precision", 1) == 0.0
    assert row.flags.chunk_repeated == 1


def test_offsets_that_miss_the_text_are_placed_by_text_and_counted() -> None:
    # 0..9 is "Alpha. Be": another extractor's offsets; the chunk goes to its first copy
    chunk = Chunk("Beta one.", "p", 1.0, 0, 9)
    result = score_run(GOLD, {"p": PAGE}, {"q": [chunk, chunk._replace(start=24, end=34)]}, ks=[2])
    (row,) = result.queries
    assert row.value("partial", 2) == 0.0
    assert row.value("span_recall", 2) == 0.0
    assert (row.flags.offset_mismatch, row.flags.chunk_repeated) == (2, 2)
    assert result.flags.offset_mismatch == 2
    assert result.to_dict()["flags"]["offset_mismatch"] == 2


def test_offsets_into_another_page_leave_this_page_to_the_text() -> None:
    # the chunk says it is on page "o"; on the element's page it is placed by its text
    pages = {"p": PAGE, "o": "Beta one."}
    result = score_run(GOLD, pages, {"q": [Chunk("Beta one.", "o", 1.0, 0, 9)]}, ks=[1])
    (row,) = result.queries
    assert row.value("partial", 1) == 0.0
    assert (row.flags.offset_mismatch, row.flags.chunk_repeated) == (0, 1)


def test_a_question_scored_twice_gives_the_same_flags() -> None:
    # the per-question mismatch set is not shared between questions
    gold = [*GOLD, GoldQuestion("r", "again", (ELEMENT,))]
    run = {qid: [Chunk("Beta one.", "p", None, 0, 9)] for qid in ("q", "r")}
    result = score_run(gold, {"p": PAGE}, run, ks=[1])
    assert [q.flags.offset_mismatch for q in result.queries] == [1, 1]
    assert result.flags.offset_mismatch == 2


# --- span metrics against sets of code points ----------------------------------------------


@st.composite
def repeating_case(
    draw: st.DrawFn,
) -> tuple[dict[str, str], list[GoldElement], list[Chunk]]:
    """Pages made of a few repeated pieces, elements at random spans of them, and chunks at
    random slices with their offsets (so most chunk texts occur more than once)."""
    pieces = draw(
        st.lists(st.text(alphabet="ab. ", min_size=1, max_size=6), min_size=1, max_size=3)
    )
    pages = {}
    for doc in ("d0", "d1"):
        order = draw(st.lists(st.integers(0, len(pieces) - 1), min_size=2, max_size=8))
        pages[doc] = "".join(pieces[i] for i in order)
    elements = []
    for doc, text in pages.items():
        for _ in range(draw(st.integers(1, 2))):
            start = draw(st.integers(0, len(text) - 1))
            end = draw(st.integers(start + 1, len(text)))
            elements.append(GoldElement(doc, text[start:end], start=start, end=end))
    chunks = []
    for _ in range(draw(st.integers(1, 12))):
        doc = draw(st.sampled_from(sorted(pages)))
        text = pages[doc]
        start = draw(st.integers(0, len(text) - 1))
        end = draw(st.integers(start + 1, len(text)))
        chunks.append(Chunk(text[start:end], doc, None, start, end))
    return pages, elements, chunks


def position_sets(
    elements: list[GoldElement], chunks: list[Chunk], k: int
) -> tuple[float, float, float]:
    """Chroma's three ratios from sets of (page, code point): G the elements' points, R the
    top-k chunks' points at their own offsets; precision's denominator sums the lengths."""
    gold = {(e.doc, i) for e in elements for i in range(e.start or 0, e.end or 0)}
    top = chunks[:k]
    retrieved = {(c.doc, i) for c in top for i in range(c.start or 0, c.end or 0)}
    covered = len(gold & retrieved)
    size = sum(len(c.text or "") for c in top)
    union = size + len(gold - retrieved)
    return covered / len(gold), covered / size, covered / union


@settings(max_examples=300, deadline=None)
@given(repeating_case())
def test_span_metrics_with_offsets_equal_the_position_sets(
    case: tuple[dict[str, str], list[GoldElement], list[Chunk]],
) -> None:
    pages, elements, chunks = case
    gold = [GoldQuestion("q", "?", tuple(elements))]
    ks = [1, 3, 5, 10]
    (row,) = score_run(gold, pages, {"q": chunks}, ks=ks).queries
    for k in ks:
        expected = position_sets(elements, chunks, k)
        got = (
            row.value("span_recall", k),
            row.value("span_precision", k),
            row.value("span_iou", k),
        )
        assert got == expected, k
    assert row.flags.offset_mismatch == 0
