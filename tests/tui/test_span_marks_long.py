"""Sentences and blocks without stored block starts, on long texts: the windowed search
finds what a scan of the whole 200 KB window finds.

The references below are the rules as they were before the search was windowed (a scan
from the window's start; a walk back one character at a time), kept here verbatim.
"""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.tui.span_marks import BLOCK_BREAKS, _sentence_start, block_bounds

_SENTENCE = re.compile(r"(?P<p>[.!?]+[\"'”’)\]]*)(?:\s+|$)|" + f"[{re.escape(BLOCK_BREAKS)}]+\\s*")
_BLOCK = re.compile(f"[{re.escape(BLOCK_BREAKS)}]+")


def reference_sentence_start(text: str, pos: int, floor: int = 0) -> int:
    base = max(floor, pos - 200_000)
    best = base
    for m in _SENTENCE.finditer(text, base, pos):
        if m.end() <= pos:
            best = m.end()
    return best


def reference_block_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    s = start
    while s > 0 and text[s - 1] not in BLOCK_BREAKS:
        s -= 1
    m = _BLOCK.search(text, max(end, start))
    return s, m.start() if m else len(text)


# words, sentence ends, closing quotes, spaces and breaks: every piece of the pattern
PIECES = ["word", "x", " ", "  ", ". ", "?!", ".", '."', "’)", "\n", "\r\n", "\u2029", "\t", "]"]


def random_text(rng: random.Random, pieces: int) -> str:
    return "".join(rng.choice(PIECES) for _ in range(pieces))


def test_sentence_start_on_long_texts_with_sparse_and_dense_sentence_ends() -> None:
    rng = random.Random(24)
    for case in range(300):
        # some texts with long runs free of word characters or of sentence ends, so that
        # the search grows its window several times and meets the window's start
        text = random_text(rng, rng.randrange(1, 3000))
        if case % 3 == 0:
            text = text + " " * rng.randrange(0, 5000) + random_text(rng, 20)
        if case % 3 == 1:
            text = "a" * rng.randrange(0, 6000) + random_text(rng, 30)
        for _ in range(10):
            pos = rng.randrange(0, len(text) + 1)
            floor = rng.choice([0, 0, rng.randrange(0, pos + 1)])
            assert _sentence_start(text, pos, floor) == reference_sentence_start(
                text, pos, floor
            ), (case, pos, floor)


def test_sentence_start_far_into_a_page_longer_than_the_window() -> None:
    text = ("Alpha beta. " * 30_000) + ("x" * 250_000) + " tail"
    for pos in (len(text), len(text) - 3, 360_000, 100_000, 7):
        assert _sentence_start(text, pos) == reference_sentence_start(text, pos)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=80), st.data())
def test_sentence_start_matches_the_full_scan(pieces: list[str], data: st.DataObject) -> None:
    text = "".join(pieces)
    pos = data.draw(st.integers(0, len(text)))
    floor = data.draw(st.integers(0, pos))
    assert _sentence_start(text, pos, floor) == reference_sentence_start(text, pos, floor)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=80), st.data())
def test_block_bounds_without_blocks_match_the_walk_back(
    pieces: list[str], data: st.DataObject
) -> None:
    text = "".join(pieces)
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    assert block_bounds(text, start, end) == reference_block_bounds(text, start, end)
