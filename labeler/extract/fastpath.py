"""When lexbor's tree, walked with jsoup's text rules, gives jsoup 1.15.3's text as it is.

The default engine (``jsoup``) parses with a port of jsoup's parser, exact for any input
but slow in Python. Most real pages hold none of the constructs where a WHATWG parser and
jsoup's tree builder disagree; for those, selectolax's lexbor (C) parses the decoded text
as it is (no pre-pass) and :func:`labeler.extract.engine_lexbor.body_text` walks it. The
check here, :func:`lexbor_agrees`, decides which: a handful of regular expressions (compiled
once, each one pass over the text in C, or matched only where ``str.find`` finds their
opening word) and a dictionary look-up per distinct tag name.

It is conservative: it accepts a page only when every rule below holds, and each rule is
stated so that whatever the parsers could read differently makes it fail (a rule that
fires on harmless input only costs the page the port). Counts of loose matches (any
``<table``, any ``/>``...) are compared with counts of strict ones, so a construct the
strict pattern does not describe exactly sends the page to the port. The rules, and the
differences they exclude (those the pre-pass in :mod:`labeler.extract.prepass` rewrites,
its "Known gaps", and tree-building differences found by diffing):

* characters: no NUL, no C0 control but tab, LF and FF, no CR (WHATWG turns CR and CRLF
  into LF, jsoup keeps CR in preserved text);
* character references: each decodes the same in both or in neither: ``&name;`` for an
  HTML5 name, a legacy name (``&copy``) not followed by a letter or digit, a name no legacy
  name is a prefix of (``&pFile``), numeric ones with 1-7 digits naming a code point from
  U+0020 up (C1 values map through windows-1252 in both), or ``&`` before a non-name
  character. Refused: ``&copy2023``, ``&notit;``, ``&#0;``, ``&#10;`` (a ``<pre>``'s first
  LF, given as a reference, is dropped by WHATWG only)...;
* tag names: from :data:`SAFE_TAGS` (elements both tree builders treat alike), or unknown
  to both parsers (ASCII letters, digits, ``_``, ``-`` and ``.``, as in ``<unistd.h>``
  written as text; not in jsoup's tag table, given a dynamic id by lexbor):
  no ``textarea``, ``noscript``, ``template``, ``math``, ``isindex``, ``ruby``, ``main``,
  ``frameset``, raw-text elements other than script/style...;
* no ``<`` inside a tag (``<i <!--x>y``: jsoup ends the tag there), no ``</`` without a
  letter, no ``<!`` but comments and a doctype;
* ``/>`` only on void elements and the SVG shapes below (jsoup closes any self-closing
  element at once, WHATWG only void and foreign ones);
* every ``<title>`` holds text only and is closed by ``</title>`` or ``</TITLE>`` (jsoup's
  RCDATA end-tag search knows only those two spellings); every ``<script>``/``<style>`` is
  closed, and a script holds no ``<!--`` (no escaped states);
* every ``<svg>`` holds only text and the shapes in :data:`SVG_SHAPES`, and is closed
  (no foreign content in jsoup: HTML tags, raw text and integration points in SVG differ);
* every ``<select>`` holds only text and ``option``/``optgroup`` tags, and is closed (jsoup
  ignores other tags there, lexbor keeps some);
* in table context (after ``<table>``, ``<tr>``, ``</td>``...) the next token, after
  whitespace and plain comments, is a table tag (WHATWG fosters text and other elements
  out of the table, jsoup keeps text in place); a page with a table starts with
  ``<!DOCTYPE html>`` (jsoup sets quirks mode only for a forced-quirks doctype, WHATWG also
  without one, and a quirks ``<table>`` does not close ``<p>``), and holds no formatting
  element closed while a block opened in it is still open (``<b><p>x</b>``: the adoption
  agency; with a table on the page the two place text differently);
* no ``<a>`` start tag while an earlier ``<a>`` is unclosed, the same for ``<nobr>`` (the
  adoption agency cases where lexbor and jsoup part);
* nothing but whitespace and ``</body>``/``</html>`` after the first ``</body>`` or
  ``</html>`` (jsoup may put it outside body).

:func:`labeler.extract.jsoup.jsoup_body_text` also keeps the page off lexbor when it nests
deeper than :data:`labeler.extract.depth.MAX_BLOCK_DEPTH` (quadratic there). Tests: the
corpus, the jar's conformance inputs and the 3,000-document fuzz set give the jar's text
through this path, and a Hypothesis test compares it with the port on generated pages built
around these rules (``tests/labeler/extract/test_extract_fastpath.py``).
"""

from __future__ import annotations

import re
from functools import cache

from selectolax.lexbor import LexborHTMLParser

from labeler.extract.engine_lexbor import tree_text
from labeler.extract.entities import BASE_NAMES, FULL_NAMES, HTML5
from labeler.extract.walk import BLOCK_TAGS

_words = str.split

VOID_TAGS = frozenset(
    _words("area base br col embed hr img input link meta param source track wbr")
)
SVG_SHAPES = frozenset(_words("path polygon polyline circle ellipse line rect text tspan g"))
SAFE_TAGS = (
    frozenset(
        _words(
            "html head body title meta link base style script div p span a b i u s em strong"
            " code small big tt font nobr strike sub sup var kbd samp cite dfn abbr acronym q"
            " ins del time mark data bdi bdo br hr img wbr ul ol li dl dt dd h1 h2 h3 h4 h5 h6"
            " pre blockquote center address section article nav header footer aside figure"
            " figcaption hgroup details summary dir menu table caption thead tbody tfoot tr td"
            " th colgroup col form input button label select option optgroup fieldset legend"
            " svg"
        )
    )
    | SVG_SHAPES
)
"""Tags both tree builders handle alike once the structural rules hold (lower case)."""

_S = r"[\t\n\f ]"
# A start tag's attributes, exactly as both tokenisers read them: names without quotes,
# '<' or '=', values quoted (no '<' or '>' inside) or unquoted (possessive: an unquoted
# value keeps a trailing '/', as the tokenisers do).
_ATTRS = (
    rf"(?:{_S}++[^\t\n\f\r />\"'<=]++(?:{_S}*+={_S}*+"
    r"(?:\"[^\"<>]*+\"|'[^'<>]*+'|[^\t\n\f\r \"'<>=`]++))?+)*+"
    rf"{_S}*+"
)
_COMMENT = r"<!--(?!-?>)[^-]*+(?:-(?!-)[^-]*+)*+-->"  # no "--" inside: ends at the first -->


def _alt(names: frozenset[str]) -> str:
    return "|".join(sorted(names, key=len, reverse=True))


# The characters re.I matches to an ASCII letter besides its two cases (U+0130 also
# lower-cases to two characters): in a text without them, ``low`` has the text's positions
# and the text's re.I matches of an ASCII word are exactly ``low``'s occurrences of it.
_CASE_LOOKALIKES = ("\u0130", "\u0131", "\u017f", "\u212a")


def _first(names: frozenset[str] | tuple[str, ...]) -> str:
    """A lookahead for the character that starts one of ``names`` (either case, or a case
    look-alike), put before an alternation of them. It only ever holds where the
    alternation could match (re.I matches an ASCII letter to no other characters), so the
    pattern matches exactly as without it; but a ``<`` followed by anything else (``</``,
    a tag of another initial) fails at one class test instead of one per name: in the
    hot patterns below that halves the time (the corpus: 0.37 s of checks become 0.21)."""
    initials = {n[0].lower() for n in names} | {n[0].upper() for n in names}
    return "(?=[" + "".join(sorted(initials)) + "".join(_CASE_LOOKALIKES) + "])"


# Every byte but NUL, the C0 controls other than tab, LF and FF, and CR: deleting these
# from the UTF-8 text leaves nothing exactly when the page holds none of those.
_GOOD_BYTES = bytes(c for c in range(256) if not (c <= 8 or c == 11 or 13 <= c <= 31))
_TAG_NAME = re.compile(r"</?([A-Za-z][^\t\n\f\r />]*)")
_PLAIN_NAME = re.compile(r"[a-z][a-z0-9_.-]*")
# possessive: giving back characters of a tag's run cannot make the "<" after it match,
# and trying costs a step per character of every tag
_BAD_MARKUP = re.compile(r"</?[A-Za-z][^<>]*+<|</(?![A-Za-z])|<!(?!--|doctype)", re.I)
_SELF_CLOSING = re.compile(
    rf"<{_first(VOID_TAGS)}(?:{_alt(VOID_TAGS)})(?=[\t\n\f /]){_ATTRS}/>", re.I
)
_TITLE = re.compile(rf"<title{_ATTRS}>[^<]*+(?-i:</title|</TITLE){_S}*+>", re.I)
_RAW = re.compile(
    rf"<script{_ATTRS}>[^<]*+(?:<(?!/script|!--)[^<]*+)*+</script{_S}*+>"
    rf"|<style{_ATTRS}>[^<]*+(?:<(?!/style)[^<]*+)*+</style{_S}*+>",
    re.I,
)
_SVG = re.compile(
    rf"<svg{_ATTRS}>(?:[^<]++|<(?:{_alt(SVG_SHAPES)})(?=[\t\n\f />]){_ATTRS}/?>"
    rf"|</(?:{_alt(SVG_SHAPES)}){_S}*+>)*+</svg{_S}*+>",
    re.I,
)
_SELECT = re.compile(
    rf"<select{_ATTRS}>(?:[^<]++|<(?:option|optgroup)(?=[\t\n\f />]){_ATTRS}>"
    rf"|</(?:option|optgroup){_S}*+>)*+</select{_S}*+>",
    re.I,
)
# Tags after which the tree builder is in table context (text there is fostered).
_OPENS_TABLE_CONTEXT = ("table", "tbody", "thead", "tfoot", "tr", "colgroup", "col")
_CLOSES_TO_TABLE_CONTEXT = ("tbody", "thead", "tfoot", "tr", "td", "th", "caption", "colgroup")
_TABLE_CONTEXT_OPEN = re.compile(
    rf"<{_first(_OPENS_TABLE_CONTEXT)}(?:table|tbody|thead|tfoot|tr|colgroup|col)"
    r"(?=[\t\n\f\r />])"
    rf"|</{_first(_CLOSES_TO_TABLE_CONTEXT)}(?:tbody|thead|tfoot|tr|td|th|caption|colgroup)"
    r"(?=[\t\n\f\r />])",
    re.I,
)
_TABLE_CONTEXT = re.compile(
    rf"(?:<{_first(_OPENS_TABLE_CONTEXT)}(?:table|tbody|thead|tfoot|tr|colgroup|col)"
    rf"(?=[\t\n\f />]){_ATTRS}"
    rf"|</{_first(_CLOSES_TO_TABLE_CONTEXT)}(?:tbody|thead|tfoot|tr|td|th|caption|colgroup)"
    rf"{_S}*+)>"
    rf"(?=(?:{_S}++|{_COMMENT})*+"
    r"(?:</table|</?(?:tbody|thead|tfoot|tr)|</?(?:td|th|caption|colgroup)|<col)[\t\n\f />])",
    re.I,
)
_TABLE_TAGS = frozenset(_words("table caption colgroup col tbody thead tfoot tr td th"))
_STANDARDS_DOCTYPE = re.compile(rf"{_S}*+<!doctype{_S}++html{_S}*+>", re.I)
_NESTED_FORMATTING = re.compile(
    r"<(a|nobr)(?=[\t\n\f\r />])[^>]*+>(?:[^<]++|<(?!/?\1[\t\n\f\r />]))*+<\1[\t\n\f\r />]",
    re.I,
)
_FORMATTING = "a|b|big|code|em|font|i|nobr|s|small|strike|strong|tt|u"
_E = r"[\t\n\f />]"
# A formatting element closed while a block opened inside it is still open (the adoption
# agency with a furthest block), e.g. <b><p>x</b>: with a table on the page, jsoup 1.15.3
# and WHATWG place the text differently (found by generated pages).
_MISNESTING_BLOCKS = BLOCK_TAGS | {"li", "dd", "dt", "p", "table"}
_MISNESTED = re.compile(
    rf"<{_first(tuple(_FORMATTING.split('|')))}({_FORMATTING})(?={_E})[^>]*+>"
    rf"(?:[^<]++|<(?!/?\1{_E}))*?"
    rf"<{_first(_MISNESTING_BLOCKS)}({_alt(_MISNESTING_BLOCKS)}){_E}"
    rf"[^<]*+(?:<(?!/\2{_E}|/?\1{_E})[^<]*+)*+</\1{_E}",
    re.I,
)
_BODY_END = re.compile(r"</(?:body|html)(?=[\t\n\f\r />])", re.I)
_TRAILER = re.compile(rf"(?:{_S}++|</(?:body|html){_S}*+>)*+", re.I)
# References outside the few very common safe ones ("&nbsp;"...), and the character that
# follows (looked at, not consumed: it may start the next reference).
_REFERENCE = re.compile(
    r"&(?!(?:nbsp|lt|gt|amp|quot|rarr|larr|mdash|ndash|copy);)"
    r"(?:#(?:[xX]([0-9A-Fa-f]*)|([0-9]*))|([A-Za-z0-9]*))(?=(.?))",
    re.S,
)

# lexbor numbers the tags it knows from 1 up (a few hundred); others get a dynamic id.
_LEXBOR_KNOWN_BELOW = 1 << 16
_factory = LexborHTMLParser("")


@cache
def _tag_ok(name: str) -> bool:
    """A (lower-cased) tag name both parsers treat alike: safe, or unknown to both."""
    if name in SAFE_TAGS:
        return True
    if _PLAIN_NAME.fullmatch(name) is None:
        return False
    from labeler.extract.jsoup_parser.tags import KNOWN_TAGS

    if name in KNOWN_TAGS:
        return False
    tag_id: int = _factory.create_node(name).tag_id
    return tag_id >= _LEXBOR_KNOWN_BELOW


def _visible(name: str) -> bool:
    """Whether the reference decodes to no control character (``&NewLine;`` right after
    ``<pre>`` is dropped by WHATWG only)."""
    value = HTML5.get(name + ";") or HTML5[name]
    return all(c >= " " for c in value)


@cache
def _named_ok(run: str, after: str) -> bool:
    """``&`` + ``run`` (maximal ASCII letters and digits) + ``after`` (the next character,
    or "" at the end) decodes the same in jsoup and WHATWG, or in neither."""
    if after == ";" and run in FULL_NAMES:
        return _visible(run)  # an HTML5 name with ';': both decode it
    if after.isalnum() or not after.isascii():
        return False  # jsoup's name runs on through Unicode letters: be safe
    if run in BASE_NAMES:
        return _visible(run)  # a legacy name as a whole: both decode it (longest match)
    # no legacy name a prefix of it: WHATWG matches nothing, jsoup decodes nothing
    return not any(run[:i] in BASE_NAMES for i in range(1, len(run)))


def _references_ok(text: str) -> bool:
    for m in _REFERENCE.finditer(text):
        hexa, dec, run, after = m.groups()
        if run is not None:
            if not _named_ok(run, after):
                return False
            continue
        digits = hexa if hexa is not None else dec
        if not digits or len(digits) > 7:
            return False
        value = int(digits, 16 if hexa is not None else 10)
        if value < 0x20 or 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
            return False
    return True


def _strict_spans(
    strict: re.Pattern[str], text: str, low: str, loose: tuple[str, ...], aligned: bool
) -> list[tuple[int, int]] | None:
    """The spans of ``strict``'s matches in ``text`` when every occurrence of a ``loose``
    word in ``low`` (the lower-cased text; ``<titlex`` counts too, which only refuses more)
    starts a match of its own (``strict`` starts with one of the words, re.I); None
    otherwise. The same as comparing the number of occurrences with the number of matches
    ``strict.findall`` finds: that is how it is done when the text holds a case look-alike
    (``aligned`` false). Otherwise ``strict`` runs only at the occurrences (found by
    ``str.find``, in C) instead of scanning the whole text: each must match, and no match
    may reach the next occurrence (findall would have counted the two as one)."""
    if not aligned:
        n = sum(low.count(word) for word in loose)
        if n == 0:
            return []
        spans = [m.span() for m in strict.finditer(text)]
        return spans if len(spans) == n else None
    starts: list[int] = []
    for word in loose:
        i = low.find(word)
        while i >= 0:
            starts.append(i)
            i = low.find(word, i + 1)
    if len(loose) > 1:
        starts.sort()
    spans = []
    end = 0
    for i in starts:
        if i < end:
            return None
        m = strict.match(text, i)
        if m is None:
            return None
        end = m.end()
        spans.append((i, end))
    return spans


# Elements with this many ancestors: jsoup bounds its stack searches (scopes at 100
# elements, the adoption agency's furthest block at 63, getFromStack at 256), WHATWG does
# not. A tree shallower than this (a wide margin) never reaches those bounds: the stack of
# open elements is a chain of ancestors in it.
MAX_DEPTH = 40
_TOO_DEEP = " > ".join(["*"] * (MAX_DEPTH + 1))


def lexbor_text(text: str) -> str | None:
    """jsoup 1.15.3's ``body().text()`` of ``text`` through lexbor when
    :func:`lexbor_agrees` holds and lexbor's tree has no element with :data:`MAX_DEPTH`
    ancestors; None otherwise (the caller uses the port)."""
    if not lexbor_agrees(text):
        return None
    tree = LexborHTMLParser(text)
    if tree.css_first(_TOO_DEEP) is not None:
        return None
    return tree_text(tree, None)


def lexbor_agrees(text: str) -> bool:
    """Whether lexbor's tree of ``text`` (decoded HTML, no pre-pass), walked with jsoup's
    text rules, surely gives jsoup 1.15.3's ``body().text()`` (see the module docstring
    for the rules). False means "not sure": the caller uses the port."""
    if text.encode("utf-8", "surrogatepass").translate(None, _GOOD_BYTES):
        return False
    if _BAD_MARKUP.search(text) is not None:
        return False
    if "&" in text and not _references_ok(text):
        return False
    # Lower-casing the whole text first (one pass in C) can only add ASCII look-alikes
    # (U+212A KELVIN SIGN becomes "k"): more names to refuse or counts to disagree, never
    # fewer, so every test on ``low`` stays conservative.
    low = text.lower()
    names = set(_TAG_NAME.findall(low))
    if not all(_tag_ok(name) for name in names):
        return False
    aligned = not any(c in text for c in _CASE_LOOKALIKES)
    if (
        _strict_spans(_TITLE, text, low, ("<title",), aligned) is None
        or _strict_spans(_RAW, text, low, ("<script", "<style"), aligned) is None
        or ("select" in names and _strict_spans(_SELECT, text, low, ("<select",), aligned) is None)
    ):
        return False
    closing = text.count("/>")
    if "svg" in names:
        regions = _strict_spans(_SVG, text, low, ("<svg",), aligned)
        if regions is None:
            return False
        closing -= sum(text.count("/>", a, b) for a, b in regions)  # checked there
    if closing and closing != len(_SELF_CLOSING.findall(text)):
        return False  # a "/>" outside SVG that does not end a void element's start tag
    if names & _TABLE_TAGS:
        if _STANDARDS_DOCTYPE.match(text) is None:
            return False
        if len(_TABLE_CONTEXT_OPEN.findall(low)) != len(_TABLE_CONTEXT.findall(text)):
            return False
        if _MISNESTED.search(text) is not None:
            return False
    if ("a" in names or "nobr" in names) and _NESTED_FORMATTING.search(text) is not None:
        return False
    end = _BODY_END.search(text)
    return end is None or _TRAILER.fullmatch(text, end.start()) is not None
