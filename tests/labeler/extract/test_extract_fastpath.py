"""The default engine's fast path (lexbor behind :func:`labeler.extract.fastpath.lexbor_agrees`)
gives the port's text whenever it is taken, and is taken on real pages.

The port is the reference here (it matches the jar on every conformance set: the jar
comparisons are in test_extract_jsoup.py and test_extract_fuzz.py, which run the default
engine, fast path included). Generated pages are built from the constructs the check rules
on, each in a form it must accept and forms it must refuse, so that both sides of each rule
are exercised.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsoup_ref import fuzz

from labeler.extract import fastpath
from labeler.extract.charset import decode_html
from labeler.extract.engine_lexbor import _normalised
from labeler.extract.fastpath import MAX_DEPTH, lexbor_agrees, lexbor_text
from labeler.extract.jsoup import port_body_text, port_meta_charset

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "corpora" / "sqlite-docs"
DOCTYPE = "<!DOCTYPE html>"


def _corpus() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*.html") if p.is_file())


def test_fast_path_is_taken_on_the_corpus_and_matches_the_port() -> None:
    """751 of the 766 corpus pages take the fast path (750 before names with ``.`` such as
    ``<unistd.h>`` were accepted; the others hold a nested ``<a>``, a ``/>`` outside SVG, a
    ``<`` inside a tag in a script, CDATA, or a misnested formatting element on a page with
    a table); each gives the port's text."""
    paths = _corpus()
    assert len(paths) == 766
    taken = 0
    for path in paths:
        text = decode_html(path.read_bytes(), port_meta_charset)
        fast = lexbor_text(text)
        if fast is not None:
            taken += 1
            assert fast == port_body_text(text), path.name
    assert taken >= 751, f"fast path taken on {taken} of {len(paths)} pages"


def test_fuzz_documents_through_the_fast_path_match_the_port() -> None:
    """The jar-fuzz grammar's hostile documents: whatever the check accepts gives the
    port's text. It accepts few of them (28 of 3,000 when written: the grammar is built from
    what the parsers disagree on), but some, so this is not vacuous."""
    taken = 0
    for doc in fuzz.documents(1, 3000):
        text = decode_html(doc, port_meta_charset)
        fast = lexbor_text(text)
        if fast is not None:
            taken += 1
            assert fast == port_body_text(text), doc
    assert taken >= 20, taken


# (page, accepted): minimal inputs on both sides of the rules, hand-checked.
BOUNDARIES = [
    ("<p>a &copy b", True),  # a legacy name, not followed by a name character
    ("<p>a &copy2023", False),  # WHATWG decodes the &copy prefix, jsoup nothing
    ("<p>a &notit; b", False),  # WHATWG: the &not prefix
    ("<p>a &notin; b", True),  # an HTML5 name with ';'
    ("<p>a &pFile b", True),  # no legacy name is a prefix: literal in both
    ("<p>a &not&copy2023", False),  # the second reference is checked too
    ("<p>&#0; x", False),
    ("<pre>&#10;x</pre>", False),  # a <pre>'s first LF as a reference: WHATWG drops it
    ("<pre>&NewLine;x</pre>", False),
    ("<p>&#151; &#x25ba;", True),
    ("<p>a\rb", False),
    ("<p>a\x00b", False),
    ("<p>a\x01b", False),
    ("<p>a\x0cb", True),
    ("<i <!--x>y", False),  # '<' inside a tag
    ("<p>a</ b>c", False),
    ("<p>a<!x>b", False),
    ("<p>a<!-- c -->b", True),
    ("<div/>x", False),  # jsoup closes it at once
    ("a<br/>b<img src=x />c", True),
    ("<p>a<path/>b", False),  # a shape outside SVG
    ("<svg><path d='M0 0'/><text>t</text></svg>x", True),
    ("<svg><div>a</div></svg>x", False),  # HTML breaks out of SVG in WHATWG only
    ("<svg><title>a</title></svg>", False),
    ("<svg><path d='x'/>", False),  # not closed
    ("<select><option>a<option>b</select>c", True),
    ("<select><option>a<p>b</select>c", False),
    (DOCTYPE + "<table><tr><td>a</td></tr></table>b", True),
    ("<table><tr><td>a</td></tr></table>b", False),  # quirks mode without a doctype
    (DOCTYPE + "<table>x<tr><td>a</td></tr></table>", False),  # fostered text
    (DOCTYPE + "<table><tr><div>a</div></tr></table>", False),
    (DOCTYPE + "<table> <!-- c --> <tr><td>a</table>", True),
    # adoption agency with a furthest block, and a table: text placed differently
    (DOCTYPE + "<em><b><p>a</em><table><caption>c</caption></table>", False),
    (DOCTYPE + "<b><p>a</p></b><table><caption>c</caption></table>", True),
    ("<title>t</title><p>x", True),
    ("<title>t</TiTlE><p>x", False),  # jsoup finds only </title> or </TITLE>
    ("<script>a<b</script>x", False),
    ("<script>if (a) b()</script>x", True),
    ("<script><!--<script></script>x", False),
    ("<a href=1>x<a href=2>y</a>", False),  # nested <a>: adoption agency
    ("<a href=1>x</a><a href=2>y</a>", True),
    ("<p>x</body>", True),
    ("<p>x</body>y", False),
    ("<textarea>a</textarea>", False),
    ("<noscript>a</noscript>", False),
    ("<main>a</main>", False),
    ("<p>a<foo-bar>b</foo-bar>", True),  # unknown to both parsers
    ("<p>#include <unistd.h> x</p>y<x.1>z", True),  # '.' in a name: the same
    ("<p>a<f\u00f6o>b", False),  # not ASCII: kept off
    ("<p>a<command>b", False),  # void in jsoup, unknown to lexbor
    ("<p>a<rt>b", False),
]


@pytest.mark.parametrize(("page", "accepted"), BOUNDARIES)
def test_check_boundaries(page: str, accepted: bool) -> None:
    assert lexbor_agrees(page) is accepted
    fast = lexbor_text(page)
    assert (fast is not None) is accepted
    if fast is not None:
        assert fast == port_body_text(page)


def test_deep_pages_take_the_port() -> None:
    """Past :data:`MAX_DEPTH` nested elements jsoup's bounded stack searches may part from
    WHATWG's: the page goes to the port (the check on the text alone accepts it)."""
    deep = "<div>" * (MAX_DEPTH + 5) + "x"
    assert lexbor_agrees(deep)
    assert lexbor_text(deep) is None
    shallow = "<div>" * (MAX_DEPTH - 5) + "x"
    assert lexbor_text(shallow) == port_body_text(shallow) == "x"


# Pieces the generated pages are made of: each rule's accepted and refused forms.
_PIECES = [
    "a",
    " b ",
    "\n",
    "\u00a0",
    "\t",
    "\x0c",
    "\r",
    "\x00",
    "&amp;",
    "&copy",
    "&copy2",
    "&not;",
    "&notit;",
    "&nbsp;",
    "&pFile",
    "&#65;",
    "&#0;",
    "&#x80;",
    "&NewLine;",
    "&",
    "<",
    "< b",
    "</",
    "<p>",
    "</p>",
    "<div>",
    "</div>",
    "<div/>",
    "<span>",
    "</span>",
    "<b>",
    "</b>",
    "<i>",
    "</i>",
    "<a href=x>",
    "</a>",
    "<nobr>",
    "<li>",
    "<ul>",
    "</ul>",
    "<dl><dt>",
    "<dd>",
    "<h1>",
    "</h2>",
    "<br>",
    "<br/>",
    "</br>",
    "<hr />",
    "<img src=a/>",
    "<pre>",
    "<pre>\n",
    "</pre>",
    "<title>t</title>",
    "<title>",
    "<script>s</script>",
    "<script>",
    "<style>s</style>",
    "<svg>",
    "</svg>",
    "<svg><path d='1'/><text>t</text></svg>",
    "<path/>",
    "<select><option>o</select>",
    "<select>",
    "<option>",
    "<table>",
    "</table>",
    "<tr>",
    "<td>",
    "</td>",
    "<th>",
    "</tr>",
    "<caption>",
    "<table><tr><td>c</td></tr></table>",
    "<!-- c -->",
    "<!---->",
    "<!x>",
    "<?x>",
    "</body>",
    "</html>",
    "<body>",
    "<head>",
    "<foo>",
    "</foo>",
    "<x.h>",
    "</x.h>",
    "<textarea>",
    "<form>",
    "<button>",
    '<p title="a>b">',
    "<x y=<>",
]


@st.composite
def _pages(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["", DOCTYPE, DOCTYPE + "<html><head></head><body>"]))
    parts = draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=25))
    return prefix + "".join(parts)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pages())
def test_generated_pages_fast_path_matches_the_port(page: str) -> None:
    fast = lexbor_text(page)
    if fast is not None:
        assert fast == port_body_text(page)


def test_generated_pieces_are_often_accepted() -> None:
    """Not vacuous: the clean pieces alone make pages the check accepts."""
    clean = [
        p for p in _PIECES if lexbor_agrees(DOCTYPE + p) and lexbor_text(DOCTYPE + p) is not None
    ]
    assert len(clean) >= len(_PIECES) // 2, clean


_NAMES = ["p", "div", "span", "b", "i", "u", "s", "em", "strong", "font", "code", "small"]
_NAMES += ["tt", "a", "li", "ul", "ol", "dl", "dt", "dd"]
# Clean forms only (each accepted alone): pages the check mostly accepts, with formatting
# elements, blocks and tables misnested at random, where tree builders part most often.
_CLEAN = [
    "a",
    " b ",
    "\n",
    "\u00a0",
    "&amp;",
    "&copy ",
    *(f"<{n}>" for n in _NAMES),
    *(f"</{n}>" for n in _NAMES),
    "<h1>",
    "</h2>",
    "<br>",
    "</br>",
    "<hr>",
    "<pre>\n",
    "</pre>",
    "<blockquote>",
    "</blockquote>",
    "<nobr>",
    "</nobr>",
    "<form>",
    "</form>",
    "<button>",
    "</button>",
    "<table><tr><td>",
    "</td><td>",
    "</td></tr></table>",
    "<table><caption>c</caption><tbody><tr><th>h</th></tr></tbody></table>",
    "<svg><path d='1'/><text>t</text></svg>",
    "<select><option>o<option>p</select>",
    "<title>t</title>",
    "<script>x</script>",
    "<foo>",
    "<!-- c -->",
    "<body>",
    "</head>",
]


@st.composite
def _clean_pages(draw: st.DrawFn) -> str:
    prefix = draw(st.sampled_from(["", DOCTYPE]))
    return prefix + "".join(draw(st.lists(st.sampled_from(_CLEAN), min_size=1, max_size=60)))


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_clean_pages())
def test_generated_clean_pages_fast_path_matches_the_port(page: str) -> None:
    fast = lexbor_text(page)
    if fast is not None:
        assert fast == port_body_text(page)


@pytest.mark.parametrize(
    ("run", "after_space", "expected"),
    [
        # hand-worked from jsoup's appendNormalisedWhitespace (stripLeading = after_space)
        (["  a ", " b "], False, " a b "),
        (["  a ", " b "], True, "a b "),
        (["  ", " "], False, " "),
        (["  ", " "], True, ""),
        ([""], False, ""),
        (["\xa0x\xa0"], False, " x "),  # NBSP is jsoup whitespace
        (["a\u2003 b"], False, "a\u2003 b"),  # EM SPACE is not (str.split takes it)
        (["a\x85 ", " b "], True, "a\x85 b "),
        ([" \u200b ", "x"], False, " x"),  # invisible: dropped inside a whitespace run
        (["\u200b"], False, ""),
    ],
)
def test_normalised_run_is_jsoups_whitespace_collapse(
    run: list[str], after_space: bool, expected: str
) -> None:
    assert _normalised(run, after_space) == expected


_STRICT = [
    (fastpath._TITLE, ("<title",)),
    (fastpath._RAW, ("<script", "<style")),
    (fastpath._SELECT, ("<select",)),
    (fastpath._SVG, ("<svg",)),
]


def test_strict_spans_at_the_occurrences_equal_the_whole_text_count() -> None:
    """The check matches the strict patterns only where a loose word occurs; that gives
    what counting the matches of a scan over the whole text gives (the way kept for texts
    holding a case look-alike), on the corpus, the fuzz set and hand-made overlaps."""
    texts = [decode_html(p.read_bytes(), port_meta_charset) for p in _corpus()]
    texts += [decode_html(doc, port_meta_charset) for doc in fuzz.documents(1, 3000)]
    texts += [
        "<style>a<script>b</script></style>",  # a match reaching the next occurrence
        "<script>x</script><script>y",  # an occurrence that does not match
        "<title>a</title><titlex>",
        "<svg><rect/></svg><svg>",
        "<select><option>a</select><select><p></select>",
    ]
    refused = 0
    for text in texts:
        if any(c in text for c in fastpath._CASE_LOOKALIKES):
            continue
        low = text.lower()
        for strict, words in _STRICT:
            aligned = fastpath._strict_spans(strict, text, low, words, True)
            assert aligned == fastpath._strict_spans(strict, text, low, words, False), text
            refused += aligned is None
    assert refused >= 5


def test_case_look_alike_before_a_title_keeps_the_fast_path() -> None:
    """U+0130 lower-cases to two characters: positions in the lower-cased text then
    differ from the text's, and the check counts matches over the whole text instead
    (matching at the shifted positions would refuse this page)."""
    page = DOCTYPE + "<p>\u0130<title>t</title>x</p>"
    assert lexbor_agrees(page)
    assert lexbor_text(page) == port_body_text(page) == "\u0130 t x"
