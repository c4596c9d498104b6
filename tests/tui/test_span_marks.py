"""Word/sentence/block rules with a page's stored block starts (pure; offsets worked by hand)."""

from __future__ import annotations

from bisect import bisect_right

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.tui.span_marks import block_bounds, extend, sentence_bounds, shrink

# A jsoup-like page: <h2>2. Background</h2><p>In SQLite, table rows are stored. Each row
# has a rowid.</p><ul><li>one</li><li>two</li></ul>, one line, blocks joined by a space.
PAGE = "2. Background In SQLite, table rows are stored. Each row has a rowid. one two"
#       0  3         13 14                              47 48                   69 70  74
BLOCKS = [0, 14, 70, 74]
HEADING = (0, 13)
PARAGRAPH = (14, 69)


def test_hand_counted_offsets() -> None:
    assert len(PAGE) == 77
    assert PAGE[slice(*HEADING)] == "2. Background"
    assert PAGE[slice(*PARAGRAPH)] == "In SQLite, table rows are stored. Each row has a rowid."
    assert [PAGE[b : b + 3] for b in BLOCKS] == ["2. ", "In ", "one", "two"]


def test_block_is_the_element_not_the_whole_line() -> None:
    assert block_bounds(PAGE, 20, 20) == (0, 77)  # old rule: no line break, the whole page
    assert block_bounds(PAGE, 20, 20, BLOCKS) == PARAGRAPH
    assert block_bounds(PAGE, 5, 5, BLOCKS) == HEADING
    assert block_bounds(PAGE, 14, 14, BLOCKS) == PARAGRAPH  # cursor on a block's first char
    assert block_bounds(PAGE, 13, 13, BLOCKS) == HEADING  # the separator belongs before
    assert block_bounds(PAGE, 5, 20, BLOCKS) == (0, 69)  # across two blocks: both whole
    assert block_bounds(PAGE, 20, 70, BLOCKS) == (14, 70)  # ends at "one": kept
    assert block_bounds(PAGE, 75, 76, BLOCKS) == (74, 77)


def test_sentence_stops_at_block_boundaries() -> None:
    # without blocks the heading runs into the paragraph's first sentence
    assert sentence_bounds(PAGE, 5, 5) == (3, 47)
    assert sentence_bounds(PAGE, 5, 5, BLOCKS) == (3, 13)  # "Background"
    assert sentence_bounds(PAGE, 16, 16, BLOCKS) == (14, 47)  # "In SQLite, ... stored."
    assert sentence_bounds(PAGE, 50, 50, BLOCKS) == (48, 69)  # "Each row has a rowid."
    assert sentence_bounds(PAGE, 71, 71) == (70, 77)  # "one two": two list items
    assert sentence_bounds(PAGE, 71, 71, BLOCKS) == (70, 73)  # "one"
    assert sentence_bounds(PAGE, 16, 72, BLOCKS) == (14, 73)  # ends inside "one"


def test_extend_takes_the_next_unit_when_whole() -> None:
    assert extend(PAGE, 5, 5, "sentence", BLOCKS) == (3, 13)
    # pressed again on a whole sentence: the next one, which here is the paragraph's first
    assert extend(PAGE, 3, 13, "sentence", BLOCKS) == (3, 47)
    assert extend(PAGE, 20, 20, "block", BLOCKS) == PARAGRAPH
    assert extend(PAGE, *PARAGRAPH, "block", BLOCKS) == (14, 73)  # + "one"
    assert extend(PAGE, 74, 77, "block", BLOCKS) == (74, 77)  # the last block stays


def test_shrink_to_whole_blocks_and_sentences_inside() -> None:
    assert shrink(PAGE, 5, 75, "block", BLOCKS) == (14, 73)
    assert shrink(PAGE, 5, 75, "block") == (5, 75)  # no line break: nothing whole inside
    assert shrink(PAGE, 5, 60, "sentence", BLOCKS) == (14, 47)
    assert shrink(PAGE, 5, 60, "sentence") == (5, 60)
    assert shrink(PAGE, 0, 60, "sentence", BLOCKS) == (0, 47)


# A plain-text page: paragraphs are blocks, a single line break is not.
NOTES = "Title\n\nFirst line.\nSecond line.\n"
#        0       7          19           31


def test_text_paragraphs_are_blocks() -> None:
    assert block_bounds(NOTES, 8, 8) == (7, 18)  # old rule: the line
    assert block_bounds(NOTES, 8, 8, [0, 7]) == (7, 31)  # the paragraph
    assert block_bounds(NOTES, 2, 2, [0, 7]) == (0, 5)


blocks_and_text = st.text(alphabet="ab .!\n", max_size=40).flatmap(
    lambda t: st.tuples(
        st.just(t),
        st.lists(st.integers(0, max(len(t) - 1, 0)), unique=True).map(sorted),
    )
)


@settings(max_examples=300, deadline=None)
@given(blocks_and_text, st.data())
def test_units_never_leave_the_page_or_lose_the_selection(
    case: tuple[str, list[int]], data: st.DataObject
) -> None:
    text, blocks = case
    a = data.draw(st.integers(0, len(text)))
    b = data.draw(st.integers(a, len(text)))
    for unit in ("word", "sentence", "block"):
        s, e = extend(text, a, b, unit, blocks)  # type: ignore[arg-type]
        assert 0 <= s <= a <= b <= e <= len(text)
        s, e = shrink(text, a, b, unit, blocks)  # type: ignore[arg-type]
        assert a <= s <= e <= b
    if blocks and b > a and bisect_right(blocks, a) == bisect_right(blocks, b - 1):
        # a selection inside one block: its sentence does not leave that block
        i = bisect_right(blocks, a) - 1
        lo = blocks[i] if i >= 0 else 0  # text before the first block is a block too
        hi = blocks[i + 1] if i + 1 < len(blocks) else len(text)
        s, e = sentence_bounds(text, a, b, blocks)
        assert lo <= s and e <= hi
        s, e = block_bounds(text, a, b, blocks)
        assert s == lo and e <= hi
