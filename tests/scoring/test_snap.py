"""Snapping chunks from another pipeline onto page spans (scoring.snap, docs/metrics.md).

Every expected span and score below is worked out by hand from the texts.
"""

from __future__ import annotations

import marshal
import random
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring import Chunk, GoldElement, GoldQuestion, score_run
from scoring import snap as snap_module
from scoring.result import QueryScore
from scoring.snap import Normalised, Snap, Snapped, normal_text, normalise, snap

FR = "FR-001: The index is never the source of record."
PAGE = f"Intro. {FR} Outro."  # FR at [7, 55)
FOX = "Alpha beta. The quick brown fox jumps over the lazy dog. Gamma delta."
# "Alpha beta. " is 12 code points; the sentence (44) is at [12, 56)
SENTENCE = "The quick brown fox jumps over the lazy dog."


def one(doc: str, text: str) -> list[GoldQuestion]:
    return [GoldQuestion("q", "question", (GoldElement(doc, text),))]


def test_whitespace_changes_snap_exactly_and_score_at_the_span() -> None:
    chunk = "FR-001:  The index\nis never the\tsource of record."
    assert snap(chunk, PAGE) == Snap(7, 55, 1.0)
    result = score_run(one("p", FR), {"p": PAGE}, {"q": [Chunk(chunk, "p")]}, ks=[1], snap_min=0.9)
    (row,) = result.queries
    assert row.value("hit", 1) == 1.0
    assert row.value("span_precision", 1) == 1.0  # the span, 48 code points, not the chunk's 50
    assert (row.flags.snapped, row.flags.fallback) == (1, 0)
    assert row.snaps == (Snapped(1, "p", 7, 55, 1.0),)
    assert result.lowest_snap == 1.0
    assert result.to_dict()["per_query"][0]["snapped"] == [
        {"rank": 1, "doc": "p", "start": 7, "end": 55, "score": 1.0}
    ]


def test_without_snapping_the_fallback_rule_applies_as_before() -> None:
    chunk = "FR-001:  The index\nis never the source of record."
    result = score_run(one("p", FR), {"p": PAGE}, {"q": [Chunk(chunk, "p")]}, ks=[1])
    (row,) = result.queries
    # the tail "er the source of record." (24 of 48) is in the chunk, the head is not
    assert (row.value("hit", 1), row.value("partial", 1)) == (0.0, 1.0)
    assert (row.flags.snapped, row.flags.fallback) == (0, 1)
    assert row.snaps == ()
    assert result.lowest_snap is None


def test_entities_and_case() -> None:
    page = "Terms & conditions apply to café owners."
    # "Terms & conditions apply" is [0, 24); "conditions apply" is [8, 24)
    assert snap("TERMS &amp; Conditions  apply", page) == Snap(0, 24, 1.0)
    assert snap("CAF&#233; OWNERS", page) == Snap(28, 39, 1.0)
    assert snap("cafe\u0301 owners", page) == Snap(28, 39, 1.0)  # combining accent: NFKC
    result = score_run(
        one("p", "conditions apply"),
        {"p": page},
        {"q": [Chunk("TERMS &amp; Conditions  apply", None)]},
        ks=[1],
        snap_min=0.9,
    )
    (row,) = result.queries
    assert row.value("hit", 1) == 1.0
    assert row.snaps == (Snapped(1, "p", 0, 24, 1.0),)
    # 16 gold code points covered of the span's 24
    assert row.value("span_precision", 1) == 16 / 24


def test_characters_jsoup_drops_or_joins() -> None:
    page = "First block. Second block."
    # soft hyphen and zero-width space dropped; the blocks joined without a space
    assert snap("Fi\u00adrst\u200b block.Second", page) == Snap(0, 19, 1.0)
    assert snap("first\u00a0block.", page) == Snap(0, 12, 1.0)  # no-break space


def test_deleted_characters_align_at_the_right_span() -> None:
    # 'o' of "brown" and 'e' of "over" deleted: 34 normalised characters against the
    # span's 36 (spaces removed), ratio 2 * 34 / (34 + 36) = 68 / 70
    chunk = "The quick brwn fox jumps ovr the lazy dog."
    found = snap(chunk, FOX)
    assert found is not None
    assert (found.start, found.end) == (12, 56)
    assert found.score == pytest.approx(68 / 70)
    # deleted at the edges: the rest is an exact match of the normalised texts
    assert snap("he quick brown fox jumps over the lazy dog", FOX) == Snap(13, 55, 1.0)
    result = score_run(
        one("p", SENTENCE), {"p": FOX}, {"q": [Chunk(chunk, "p")]}, ks=[1], snap_min=0.9
    )
    (row,) = result.queries
    assert row.value("hit", 1) == 1.0
    assert row.flags.snapped == 1
    assert row.snaps[0].score == pytest.approx(68 / 70)
    assert result.lowest_snap == pytest.approx(68 / 70)


def test_threshold_is_honoured() -> None:
    chunk = "The quick brwn fox jumps ovr the lazy dog."  # scores 68/70 = 0.971
    assert snap(chunk, FOX, 0.97) is not None
    assert snap(chunk, FOX, 0.98) is None
    result = score_run(
        one("p", SENTENCE), {"p": FOX}, {"q": [Chunk(chunk, "p")]}, ks=[1], snap_min=0.98
    )
    (row,) = result.queries
    assert (row.flags.snapped, row.flags.fallback) == (0, 1)
    assert row.value("hit", 1) == 0.0
    assert snap("An unrelated sentence about nothing.", FOX) is None


def test_a_chunk_of_another_page_is_not_snapped_onto_a_cited_one() -> None:
    chunk = "FR-001:  The index\nis never the source of record."
    result = score_run(
        one("p", FR), {"p": PAGE, "o": ""}, {"q": [Chunk(chunk, "o")]}, ks=[1], snap_min=0.9
    )
    assert result.queries[0].flags.snapped == 0
    assert result.queries[0].flags.fallback == 1


def test_snaps_survive_the_plain_rows_of_process_shards() -> None:
    chunk = "FR-001:  The index\nis never the source of record."
    result = score_run(one("p", FR), {"p": PAGE}, {"q": [Chunk(chunk, "p")]}, ks=[1], snap_min=0.9)
    (row,) = result.queries
    keys = list(row.values)
    plain = marshal.loads(marshal.dumps(row.to_plain(keys)))
    back = QueryScore.from_plain(plain, keys)
    assert back.snaps == row.snaps
    assert back.flags == row.flags


def test_bad_snap_minimum_refused() -> None:
    for bad in (0, 1.5, float("nan"), True):
        with pytest.raises(ValueError, match="snap minimum"):
            score_run(one("p", FR), {"p": PAGE}, {}, snap_min=bad)


def test_normalise_maps_back() -> None:
    n = normalise("A&amp;B  c")
    assert n.text == "a&bc"
    assert [n.source_span(i, i + 1) for i in range(4)] == [(0, 1), (1, 6), (6, 7), (9, 10)]


# --- whitespace-normalised page slices score exactly as the slices ------------------------

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=6)
_GAP = st.text(alphabet=" \n\t\u00a0", min_size=1, max_size=3)


@st.composite
def page_and_slices(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]], list[tuple[int, int]]]:
    words = draw(st.lists(_WORD, min_size=4, max_size=14))
    gaps = draw(st.lists(_GAP, min_size=len(words) - 1, max_size=len(words) - 1))
    page = words[0] + "".join(g + w for g, w in zip(gaps, words[1:], strict=True))

    def span() -> tuple[int, int]:
        a = draw(st.integers(0, len(page) - 1))
        b = draw(st.integers(a + 1, len(page)))
        return a, b

    elements = draw(st.lists(st.builds(span), min_size=1, max_size=3))
    slices = draw(st.lists(st.builds(span), min_size=1, max_size=6))
    return page, elements, slices


def _rewhite(draw: st.DrawFn, text: str) -> str:
    """``text`` with each inner whitespace run replaced by another non-empty run and each
    edge run by another of the same length."""
    parts = re.split(r"(\s+)", text)
    out = []
    for i, part in enumerate(parts):
        if part and part.isspace():
            # re.split puts "" before a leading and after a trailing separator
            edge = (i == 1 and not parts[0]) or (i == len(parts) - 2 and not parts[-1])
            size = len(part) if edge else draw(st.integers(1, 3))
            out.append("".join(draw(st.sampled_from(" \n\t\u00a0")) for _ in range(size)))
        else:
            out.append(part)
    return "".join(out)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=page_and_slices(), data=st.data())
def test_whitespace_normalised_slices_score_as_the_slices(
    case: tuple[str, list[tuple[int, int]], list[tuple[int, int]]], data: st.DataObject
) -> None:
    """Each slice's normalised text occurs once on the normalised page (else a snap takes
    the first occurrence, which need not be the slice's) and the slice's own text is the
    first occurrence of itself there (else the slice is scored at an earlier copy)."""
    page, elements, slices = case
    normal = normalise(page).text
    texts = [page[a:b] for a, b in slices]
    for (a, _), text in zip(slices, texts, strict=True):
        needle = normalise(text).text
        once = needle and normal.find(needle, normal.find(needle) + 1) < 0
        assume(once and page.find(text) == a)
    changed = [_rewhite(data.draw, t) for t in texts]
    gold = [GoldQuestion("q", "question", tuple(GoldElement("p", page[a:b]) for a, b in elements))]
    ks = [1, 2, 3, 6]
    original = score_run(gold, {"p": page}, {"q": [Chunk(t) for t in texts]}, ks=ks)
    snapped = score_run(gold, {"p": page}, {"q": [Chunk(t) for t in changed]}, ks=ks, snap_min=0.9)
    assert snapped.queries[0].values == original.queries[0].values
    assert snapped.metrics == original.metrics
    assert snapped.queries[0].flags.fallback == 0
    assert snapped.queries[0].flags.snapped == sum(
        c != t for c, t in zip(changed, texts, strict=True)
    )


def test_a_chunk_naming_no_page_snaps_only_on_an_exact_normalised_match() -> None:
    """The deleted-characters chunk of the test above, naming no page: it is not aligned
    fuzzily on the cited page (the fallback rule scores it); the same chunk with its
    whitespace changed but no character lost snaps exactly, page or no page."""
    chunk = "The quick brwn fox jumps ovr the lazy dog."
    result = score_run(
        one("p", SENTENCE), {"p": FOX}, {"q": [Chunk(chunk, None)]}, ks=[1], snap_min=0.9
    )
    (row,) = result.queries
    assert (row.flags.snapped, row.flags.fallback) == (0, 1)
    spaced = "The  quick\nbrown fox jumps over the lazy\tdog."
    result = score_run(
        one("p", SENTENCE), {"p": FOX}, {"q": [Chunk(spaced, None)]}, ks=[1], snap_min=0.9
    )
    (row,) = result.queries
    assert (row.flags.snapped, row.value("hit", 1)) == (1, 1.0)
    assert (row.snaps[0].start, row.snaps[0].end, row.snaps[0].score) == (12, 56, 1.0)


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet="abc de&;#mp\u0301\u00e9\u00a0\u200b\x1f\x00\ufb01\n", max_size=40),
)
def test_normal_text_is_the_normalised_text(text: str) -> None:
    assert normal_text(text) == normalise(text).text


@settings(max_examples=300, deadline=None)
@given(
    head=st.text(alphabet="abc de&;#mp\u0301\u00e9\u00a0\u200b\x1f\x00\ufb01\n", max_size=40),
    tail=st.text(alphabet="abc de&;#mp\u0301\u00e9\u00a0\u200b\x1f\x00\ufb01\n", max_size=40),
)
def test_the_text_before_a_space_normalises_to_a_prefix_of_the_whole(head: str, tail: str) -> None:
    """What ``snap`` relies on to give up on a text whose head is not on the page
    (``_head_absent``): ``&amp;`` cut at the space, a combining mark after it, an ASCII run
    through it: the head's normal text is always where the whole's begins."""
    assert normal_text(head + " " + tail).startswith(normal_text(head))


def test_a_text_whose_head_is_not_on_the_page_is_not_looked_for_whole() -> None:
    """The head check decides only when the head is absent: a chunk whose first 96
    characters differ from the page in whitespace and case still snaps exactly, and one
    whose head is on the page but whose end is not does not."""
    words = " ".join(f"word{i}" for i in range(60))
    page = "Intro. " + words.upper().replace(" ", "\n ") + " Outro."
    assert snap(words, page, fuzzy=False, absent=True) is not None
    assert snap(words + " elsewhere", page, fuzzy=False, absent=True) is None
    assert snap("nothing like it " * 10, page, fuzzy=False, absent=True) is None


@settings(max_examples=200, deadline=None)
@given(
    words=st.lists(
        st.sampled_from(["alpha", "beta", "gamma", "delta", "fox", "dog"]), min_size=8, max_size=40
    ),
    cut=st.lists(st.integers(0, 200), max_size=6),
    data=st.data(),
)
def test_alignment_pruning_changes_no_result(
    words: list[str], cut: list[int], data: st.DataObject
) -> None:
    """``_align`` at 0.9 prunes windows below 3 - 2/0.9: whatever it returns is what the
    unpruned search (at 0.5 nothing is pruned) returns, and whenever the unpruned search
    finds a span scoring 0.9 or more, the pruned one finds the same."""
    from scoring.snap import _align

    hay = "".join(words)
    a = data.draw(st.integers(0, len(hay) - 1))
    b = data.draw(st.integers(a + 1, len(hay)))
    needle = "".join(c for i, c in enumerate(hay[a:b]) if i not in set(cut))
    assume(needle)
    free = _align(needle, hay, 0.5)
    pruned = _align(needle, hay, 0.9)
    if free is not None and free[2] >= 0.9:
        assert pruned == free
    if pruned is not None:
        assert pruned == free


def _per_character(text: str) -> tuple[str, list[int], list[int]]:
    """The module's rule one character (with its combining marks) at a time, as
    ``normalise`` did before it took plain ASCII runs at once: the reference it must equal."""
    import html
    import unicodedata

    invisible = "\u200b\u200c\u200d\u2060\ufeff\u00ad"
    entity = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")

    def fold(cluster: str) -> str:
        out = unicodedata.normalize("NFKC", cluster).casefold()
        return "".join(c for c in out if not (c.isspace() or c in invisible))

    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c.isspace() or c in invisible:
            i += 1
            continue
        m = entity.match(text, i) if c == "&" else None
        if m is not None and html.unescape(m.group()) != m.group():
            j, out = m.end(), fold(html.unescape(m.group()))
        else:
            j = i + 1
            while j < len(text) and unicodedata.combining(text[j]):
                j += 1
            out = fold(text[i:j])
        for d in out:
            chars.append(d)
            starts.append(i)
            ends.append(j)
        i = j
    return "".join(chars), starts, ends


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="aB9 -&;#x\u0301\u00e9\u00a0\u200b\n\ufb01amp", max_size=30))
def test_normalise_equals_the_rule_character_by_character(text: str) -> None:
    got = normalise(text)
    assert (got.text, list(got.starts), list(got.ends)) == _per_character(text)


def test_rows_merged_from_another_process_keep_every_field() -> None:
    """``QueryTable.merge_parts`` (how the rows of another process's share of a run are
    merged, part by part as they come through the pipe) puts row j at ``positions[j]`` with
    every field, its snaps included, and leaves the other rows as they were: the rows read
    back equal the ones sent, and a stale snap at a merged position is dropped."""
    from scoring.querytable import QueryTable

    chunk = "FR-001:  The index\nis never the source of record."
    questions = [GoldQuestion(f"q{i}", "question", (GoldElement("p", FR),)) for i in range(4)]
    run = {
        "q0": [Chunk(chunk, "p")],  # snapped
        "q1": [Chunk(PAGE, "p"), Chunk("no such text", "p")],
        "q3": [Chunk("Intro.", "p"), Chunk(FR, "p")],
    }
    result = score_run(questions, {"p": PAGE}, run, ks=[1, 2], snap_min=0.9)
    part = QueryTable.from_rows(result.queries, result.queries[0].values.keys(), (1, 2))
    assert part.row(0).snaps
    sent = [marshal.loads(marshal.dumps(piece)) for piece in part.parts()]
    whole = QueryTable.from_rows(
        [*result.queries, *result.queries], result.queries[0].values.keys(), (1, 2)
    )
    before = [whole.row(i) for i in range(8)]
    positions = [7, 2, 5, 0]  # row 0 (snapped) lands on row 7, which held no snap
    whole.merge_parts(iter(sent), positions)
    for j, i in enumerate(positions):
        assert whole.row(i) == part.row(j)
    for i in {1, 3, 4, 6}:
        assert whole.row(i) == before[i]
    assert whole.row(0).snaps == () and whole.row(7).snaps == part.row(0).snaps
    snapped = [s.score for i in range(8) for s in whole.row(i).snaps]
    assert snapped and whole.lowest_snap() == min(snapped)
    assert QueryTable.from_rows(result.queries[1:], part.keys, (1, 2)).lowest_snap() is None


def test_holds_answers_as_a_search_before_and_after_the_bitmap_is_made() -> None:
    """``Normalised.holds`` is ``needle in text`` whether it searches or first looks the
    needle's 8-byte pieces up in the page's bitmap of windows (past ``_BITS_AFTER``
    searches of a page of ``_BITS_FROM`` characters or more): pieces at every offset of
    the page, across a multi-byte character, one byte off, a needle shorter than a piece."""
    rng = random.Random(11)
    words = ["alpha", "beta", "gamma", "delta", "épée", "naïve", "x1", "ωmega"]
    page = "".join(rng.choice(words) for _ in range(3000))
    assert len(page) >= snap_module._BITS_FROM
    hay = Normalised(page)
    needles = [page[i : i + n] for i, n in ((0, 40), (7, 9), (len(page) - 12, 12), (5, 3))]
    needles += [page[i : i + 30] for i in rng.sample(range(len(page) - 30), 40)]
    needles += [n[:-1] + ("z" if n[-1] != "z" else "y") for n in needles[:20]]
    needles += ["épéeépéeépée", "alphaalphaalphaalphaalpha", "ωmegaωmegaωmegaωmega" * 3, ""]
    for _ in range(2):  # searching, then past the threshold with the windows sorted
        for needle in needles * (snap_module._BITS_AFTER // 2 + 1):
            assert hay.holds(needle) == (needle in page), needle
    assert not isinstance(hay._bits, int)
    assert hay.holds_each(needles) == [needle in page for needle in needles]


@pytest.mark.parametrize("seed", range(4))
def test_a_long_text_of_single_character_pieces_maps_as_piece_by_piece(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``normalise`` of a long text with no combining mark and no entity makes its map with
    array operations: the same text and map as the piece-by-piece loop (the reference,
    reached by raising the length it starts at), with folds of 0, 1 and 2 characters, a
    lone ``&``, whitespace of every kind and a non-BMP character."""
    rng = random.Random(seed)
    alphabet = (
        "aB c\n\t\u00a0\u2003\u200b\u00ad\ufeff&;#\u00e9\u00df\ufb01\u0130\uab70\U0001d400Z9."
    )
    text = "".join(rng.choice(alphabet) for _ in range(3000))
    fast = normalise(text)
    monkeypatch.setattr(snap_module, "_MAP_AT_ONCE", 10**9)
    slow = normalise(text)
    assert (fast.text, list(fast.starts), list(fast.ends)) == (
        slow.text,
        list(slow.starts),
        list(slow.ends),
    )
    assert fast.text == normal_text(text)


@pytest.mark.parametrize("seed", range(4))
def test_a_long_text_with_entities_maps_as_the_rule_says(seed: int) -> None:
    """``normalise`` of a long text whose pieces are single characters and entities (a
    page quoting HTML: ``&lt;``, ``&amp;lt;``, numeric and unknown ones, one decoding to a
    combining mark) makes its map with array operations between the entities: the same text
    and map as the rule applied a character at a time (the reference above), and the same
    normal text as ``normal_text``."""
    rng = random.Random(seed)
    tokens = ["&lt;", "&amp;lt;", "&#233;", "&#xE9;", "&foo;", "&", "&lt", "&#x0301;"]
    tokens += ["&nbsp;", "&#0;", "&AMP;", "&#x1F600;", "&&lt;", "a", "B", " ", "\n", "\u00a0"]
    tokens += ["\u00e9", "\ufb01", "\u0130", "\u00df", "\u200b", "x;", "#"]
    text = "".join(rng.choice(tokens) for _ in range(1500))
    assert len(text) >= snap_module._MAP_AT_ONCE
    assert snap_module._per_character(text) is None  # the entities rule that path out
    assert snap_module._entity_pieces(text) is not None
    got = normalise(text)
    assert (got.text, list(got.starts), list(got.ends)) == _per_character(text)
    assert normal_text(text) == got.text


def test_heads_looked_up_together_are_found_as_by_a_search() -> None:
    """``holds_each`` of many needles on a long page not searched before makes the bitmap
    and rules needles out together: the answers are ``needle in page``, for needles of
    fewer than 8 bytes, of pieces across multi-byte characters and of near misses."""
    rng = random.Random(3)
    words = ["alpha", "beta", "gamma", "delta", "épée", "naïve", "x1", "ωmega"]
    page = "".join(rng.choice(words) for _ in range(3000))
    needles = [page[i : i + rng.randrange(1, 90)] for i in rng.sample(range(len(page) - 90), 60)]
    needles += [n[:-1] + ("z" if n[-1] != "z" else "y") for n in needles[:30]]
    needles += ["ωmegaωmegaωmegaωmega" * 3, "épéeépéeépée", "", "zzzzzzzzzzzz"]
    hay = Normalised(page)
    assert len(needles) >= snap_module._EACH_AT_ONCE and isinstance(hay._bits, int)
    assert hay.holds_each(needles) == [needle in page for needle in needles]
    assert not isinstance(hay._bits, int)
