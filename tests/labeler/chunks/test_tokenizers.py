"""The ``words`` tokenizer counts exactly the tokens the chunkers' pattern finds, whatever
the text: the ASCII count by class boundaries is checked against ``TOKEN.findall``."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from labeler.chunks import TOKEN, count_words, make_tokenizer

# every ASCII character (controls and the separators \x1c-\x1f, which \s matches, included)
# and a few others, so that both the ASCII count and the pattern's are exercised
_ALPHABET = st.sampled_from([chr(c) for c in range(128)] + ["é", "\u00a0", "\u2014", "٣"])


@given(st.text(alphabet=_ALPHABET, max_size=60))
@example("")
@example("Hello, world!")
@example("  a_b-c\x1cd\x7f ")
@example("\x1f.\x1e")
def test_words_count_is_the_number_of_pattern_matches(text: str) -> None:
    assert count_words(text) == len(TOKEN.findall(text))


def test_hand_counted_examples() -> None:
    # counted by hand: runs of word characters and runs of other non-space characters
    assert count_words("Hello, world!") == 4  # Hello , world !
    assert count_words("a--b c.d") == 6  # a -- b c . d
    assert count_words("x\x1cy") == 2  # \x1c is a space to \s
    assert count_words("x\x7fy") == 3  # \x7f is neither word nor space
    assert count_words("") == 0
    assert count_words("   ") == 0


def test_the_words_tokenizer_holds_no_texts() -> None:
    """``words`` keeps no memo: one would hold up to 65,536 chunk texts (about 70 MB)."""
    assert make_tokenizer("words").count is count_words
