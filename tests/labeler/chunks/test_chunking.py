"""Chunkers and block boundaries: chunks are exact page slices, windows hand-counted,
structure chunks cut at block boundaries of real pages."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from labeler.chunks import Chunk, chunk_id, fixed_token_chunks, structure_chunks, token_spans
from labeler.errors import ExtractError
from labeler.extract import page_text
from labeler.extract.blocks import block_starts

CORPUS = Path(__file__).resolve().parents[3] / "corpora" / "sqlite-docs"
PAGES = sorted(CORPUS.rglob("*.html"))


def texts(chunks: list[Chunk]) -> list[str]:
    return [c.text for c in chunks]


def test_tokens_are_word_and_punctuation_runs() -> None:
    text = "Hello, world!! It's 3.5 km."
    spans = token_spans(text)
    assert [text[s:e] for s, e in spans] == [
        "Hello", ",", "world", "!!", "It", "'", "s", "3", ".", "5", "km", "."
    ]  # fmt: skip


def test_fixed_windows_hand_counted_with_overlap() -> None:
    text = "a b c d e f g"  # 7 tokens
    got = fixed_token_chunks("d", text, size=3, overlap=1)
    assert texts(got) == ["a b c", "c d e", "e f g"]  # step 2; the last window ends the page
    assert [(c.start, c.end) for c in got] == [(0, 5), (4, 9), (8, 13)]
    assert texts(fixed_token_chunks("d", text, size=3)) == ["a b c", "d e f", "g"]
    assert texts(fixed_token_chunks("d", text, size=4, overlap=2)) == [
        "a b c d", "c d e f", "e f g"
    ]  # fmt: skip
    assert texts(fixed_token_chunks("d", text, size=10)) == [text]


def test_fixed_windows_keep_inner_whitespace_and_drop_outer() -> None:
    text = "  One,\n two   three.  "
    got = fixed_token_chunks("p", text, size=3, overlap=0)
    assert texts(got) == ["One,\n two", "three."]
    assert all(text[c.start : c.end] == c.text for c in got)


def test_fixed_edge_cases_and_validation() -> None:
    assert fixed_token_chunks("d", "", size=5) == []
    assert fixed_token_chunks("d", "   \n ", size=5) == []
    for size, overlap in [(0, 0), (-1, 0), (3, 3), (3, -1), (3, 5)]:
        with pytest.raises(ValueError, match=r"size|overlap"):
            fixed_token_chunks("d", "a b", size=size, overlap=overlap)


def test_chunk_ids_escape_whitespace() -> None:
    assert Chunk("a/b.html", 3, 9, "x").id == "a/b.html#3-9"
    assert chunk_id("my page%.html", 0, 4) == "my%20page%25.html#0-4"


def test_blocks_of_a_hand_made_page() -> None:
    data = b"<h1>A</h1><p>B c.</p><ul><li>d</li></ul>"
    text = page_text(data)
    assert text == "A B c. d"
    assert block_starts(data) == [text.index("A"), text.index("B c."), text.index("d")]


def between(text: str, starts: list[int]) -> list[str]:
    bounds = [*starts, len(text)]
    return [text[a:b].strip() for a, b in itertools.pairwise(bounds)]


def test_text_between_block_starts_is_the_visible_blocks() -> None:
    data = (
        b"<h2>Title</h2><p>One. <b>Two</b>.</p><ul><li>x</li><li>y <i>z</i></li></ul>"
        b"<table><tr><td>c1</td><td>c2</td></tr></table>"
        b"<div>intro<p>inner</p>tail<br>same block</div><blockquote><p>q</p></blockquote>"
        b"<dl><dt>term</dt><dd>def</dd></dl><pre>  code\n  more</pre><script>x()</script>"
    )
    text = page_text(data)
    assert between(text, block_starts(data)) == [
        "Title", "One. Two.", "x", "y z", "c1", "c2", "intro", "inner", "tail same block",
        "q", "term", "def", "code\n  more",
    ]  # fmt: skip


def test_blocks_of_plain_text_are_paragraphs() -> None:
    data = b"First para\nstill first.\n\n  Second.\n\n\nThird"
    text = data.decode()
    starts = block_starts(data, "text")
    assert [text[o : o + 5] for o in starts] == ["First", "Secon", "Third"]


def test_blocks_refuse_a_text_they_do_not_reproduce() -> None:
    with pytest.raises(ExtractError, match="does not reproduce"):
        block_starts(b"<p>a</p>", text="something else")
    with pytest.raises(ExtractError, match="profile"):
        block_starts(b"<p>a</p>", "nope")


@pytest.mark.parametrize("path", PAGES[::6], ids=lambda p: p.name)
def test_blocks_are_valid_offsets_of_the_exact_page_text(path: Path) -> None:
    data = path.read_bytes()
    text = page_text(data)
    starts = block_starts(data, text=text)  # raises if its walk differs from the page text
    assert starts == sorted(set(starts))
    assert all(0 <= o < len(text) for o in starts)
    if text:
        assert starts[0] == 0
        # a block begins with visible text, never with the separator space before it
        assert all(o == 0 or text[o - 1] == " " or text[o - 1] == "\n" for o in starts[1:]) or (
            "<pre" in data.decode("latin-1").lower()
        )


def test_structure_chunks_pack_blocks_and_split_long_ones() -> None:
    text = "Head. Short one. Tiny. A long block. It has sentences. Many of them here."
    blocks = [0, text.index("Short"), text.index("Tiny"), text.index("A long")]
    got = structure_chunks("d", text, blocks, max_chars=25)
    assert texts(got) == [
        "Head. Short one. Tiny.",  # three small blocks packed (22 chars)
        "A long block.",  # the long block cut at sentence ends, packed up to 25
        "It has sentences.",
        "Many of them here.",
    ]
    assert all(text[c.start : c.end] == c.text for c in got)


def test_structure_chunks_fall_back_to_whitespace_then_hard_cuts() -> None:
    text = "aaaa bbbb cccc dddd"
    assert texts(structure_chunks("d", text, [], max_chars=9)) == ["aaaa bbbb", "cccc dddd"]
    assert texts(structure_chunks("d", "abcdefghij", [], max_chars=4)) == ["abcd", "efgh", "ij"]
    assert structure_chunks("d", "", [], max_chars=4) == []
    with pytest.raises(ValueError, match="max_chars"):
        structure_chunks("d", "x", [], max_chars=0)
    with pytest.raises(ValueError, match="outside"):
        structure_chunks("d", "x", [5])


@pytest.mark.parametrize("path", PAGES[::40], ids=lambda p: p.name)
def test_chunks_of_real_pages_are_exact_slices_cut_at_blocks(path: Path) -> None:
    data = path.read_bytes()
    text = page_text(data)
    starts = block_starts(data)
    limit = 300
    chunks = structure_chunks(path.name, text, starts, max_chars=limit)
    bounds = [*starts, len(text)]
    # a chunk leaves out surrounding whitespace (a <pre> block may begin with some)
    trimmed = {o + len(text[o:]) - len(text[o:].lstrip()) for o in starts}
    long_blocks = [(a, b) for a, b in itertools.pairwise(bounds) if len(text[a:b].strip()) > limit]
    for c in chunks:
        assert text[c.start : c.end] == c.text and 0 < len(c.text) <= limit
        inside_long = any(a <= c.start < b for a, b in long_blocks)
        assert c.start in trimmed or inside_long, (c.start, c.text[:40])
    assert all(a.end <= b.start for a, b in itertools.pairwise(chunks))
    for size, overlap in [(50, 0), (64, 16)]:
        windows = fixed_token_chunks(path.name, text, size=size, overlap=overlap)
        assert all(text[w.start : w.end] == w.text for w in windows)
        spans = token_spans(text)
        assert sum(1 for s in spans if windows and windows[0].start <= s[0] < windows[0].end) == (
            min(size, len(spans))
        )
