"""Token streams of the jsoup 1.15.3 tokeniser port, hand-worked from TokeniserState.java.

Each expected stream was derived by stepping through jsoup's states (named in the comments);
nothing here was produced by running the port. Characters between two non-character tokens
come as one Character token (Tokeniser.read). The helper ``stream`` plays the tree builder's
part of switching the tokeniser after <title>/<textarea> (Rcdata), <style> (Rawtext),
<script> (ScriptData) and <plaintext> (PLAINTEXT).

Stream items: ("S", name, attrs or None, self_closing), ("E", name), ("C", text),
("CD", cdata text), ("!", comment, bogus), ("D", name, pub_sys_key, public, system, quirks).
EOF is left off the end (every stream ends with exactly one EOF).
"""

from __future__ import annotations

import pytest

from labeler.extract.jsoup_parser.attributes import Attributes
from labeler.extract.jsoup_parser.reader import CharacterReader
from labeler.extract.jsoup_parser.token import (
    CHARACTER,
    EOF,
    START_TAG,
    CData,
    Comment,
    Doctype,
    EndTag,
    StartTag,
    Token,
)
from labeler.extract.jsoup_parser.tokeniser import Tokeniser
from labeler.extract.jsoup_parser.tokeniser_states import State, TokeniserState

Item = tuple[object, ...]

_SWITCH: dict[str, State] = {
    "title": TokeniserState.Rcdata,
    "textarea": TokeniserState.Rcdata,
    "style": TokeniserState.Rawtext,
    "script": TokeniserState.ScriptData,
    "plaintext": TokeniserState.PLAINTEXT,
}


def _item(tok: Token) -> Item:
    if isinstance(tok, StartTag):
        attrs = None if tok.attributes is None else tok.attributes.items_raw()
        return ("S", tok.tag_name, attrs, tok.self_closing)
    if isinstance(tok, EndTag):
        return ("E", tok.tag_name)
    if isinstance(tok, CData):
        return ("CD", tok.data)
    if isinstance(tok, Comment):
        return ("!", tok.data, tok.bogus)
    if isinstance(tok, Doctype):
        d = tok
        return (
            "D",
            d.name,
            d.pub_sys_key,
            d.public_identifier,
            d.system_identifier,
            d.force_quirks,
        )
    assert tok.type == CHARACTER
    return ("C", tok.get_data())


def stream(html: str) -> list[Item]:
    t = Tokeniser(CharacterReader(html))
    out: list[Item] = []
    for _ in range(len(html) + 10):
        tok = t.read()
        if tok.is_eof():
            return out
        out.append(_item(tok))
        if tok.is_start_tag() and isinstance(tok, StartTag) and tok.normal_name in _SWITCH:
            t.transition(_SWITCH[tok.normal_name])
    raise AssertionError("no EOF")


def S(name: str, attrs: list[tuple[str, str | None]] | None = None, sc: bool = False) -> Item:
    return ("S", name, attrs, sc)


def E(name: str) -> Item:
    return ("E", name)


def C(text: str) -> Item:
    return ("C", text)


CASES: list[tuple[str, list[Item]]] = [
    # TagOpen -> TagName "p" -> BeforeAttributeName -> AttributeName "class" -> '=' ->
    # BeforeAttributeValue -> AttributeValue_doubleQuoted "a", '&' -> reference "amp" (';'
    # follows, not a letter) -> "&", ';' consumed, "b", '"' -> AfterAttributeValue_quoted ->
    # ' ' -> BeforeAttributeName ... AttributeValue_unquoted "x", '>' emits.
    ('<p class="a&amp;b" id=x>', [S("p", [("class", "a&b"), ("id", "x")])]),
    # TagName stops at '<' (out of spec): unconsume, emit <div>, Data re-reads '<'.
    ("<div<p>", [S("div"), S("p")]),
    # AttributeName stops at '<', which is appended to the name (stays in AttributeName).
    ("<a href<b>x", [S("a", [("href<b", None)]), C("x")]),
    # AfterAttributeValue_quoted, default: unconsume -> BeforeAttributeName -> attribute c.
    ("<a b='1'c>", [S("a", [("b", "1"), ("c", None)])]),
    # BeforeAttributeName '=': new attribute named "=", AttributeName adds "x".
    ("<a =x>", [S("a", [("=x", None)])]),
    # Whitespace around '=' (AfterAttributeName, BeforeAttributeValue), duplicates kept.
    ('<a  b = "c" B=2 b=3 >', [S("a", [("b", "c"), ("B", "2"), ("b", "3")])]),
    # Case kept in tag_name and attribute names by the tokeniser.
    ("<DIV Class=X>", [S("DIV", [("Class", "X")])]),
    # Attribute value references (consumeCharacterReference(quote, inAttribute=true)):
    # "copy" is a base name but '=' follows -> not decoded; "&lt;" -> '<'; "&amp" + '"' -> '&'.
    ('<a href="?a=1&copy=2&lt;&amp">', [S("a", [("href", "?a=1&copy=2<&")])]),
    # In an attribute a base name followed by '-', '_', a digit or a letter is not decoded;
    # followed by ' ' it is.
    ('<a b="&lt-x&lt_y&lt1&ltz&lt w">', [S("a", [("b", "&lt-x&lt_y&lt1&ltz< w")])]),
    # Unquoted value: '&' then '>' (the additional allowed char) -> literal '&'.
    ("<a b=x&>", [S("a", [("b", "x&")])]),
    # Empty quoted value -> "" (setEmptyAttributeValue); no value -> None.
    ('<a b="" c>', [S("a", [("b", ""), ("c", None)])]),
    # TagName '/' -> SelfClosingStartTag '>' -> self closing.
    ("<br/>", [S("br", None, True)]),
    # AfterAttributeValue_quoted '/' -> SelfClosingStartTag '>'.
    ('<a b="1"/>', [S("a", [("b", "1")], True)]),
    # SelfClosingStartTag 'b': unconsume -> BeforeAttributeName -> attribute b.
    ("<a/b>", [S("a", [("b", None)])]),
    # End tag: attributes parsed but the token is just the end tag.
    ("</p class=x>", [E("p")]),
    # Data references: "&amp " base name without ';'; "&ampx" -> run "ampx" unknown -> '&';
    # &#65 / &#x41; / &#X41 numeric; &#0; -> NUL; &#128; -> windows-1252 euro; surrogate and
    # overflow -> U+FFFD; "&;" empty name; "& " not a reference; "&notit;" unknown (no prefix
    # matching); "&not" at the end: base name -> U+00AC; "&#x;" no digits -> literal.
    (
        "&amp &ampx &#65 &#x41; &#X41 &#0; &#128; &#xD800; &#99999999999; &; & x &notit; &#x; &not",
        [C("& &ampx A A A \x00 \u20ac \ufffd \ufffd &; & x &notit; &#x; \u00ac")],
    ),
    # "&copy2": letters then digits "copy2" is not a name -> literal; "&copy;" decodes.
    ("&copy2 &copy;", [C("&copy2 \u00a9")]),
    # HTML5-only name needs ';': "&hellip" literal, "&hellip;" decoded.
    ("&hellip &hellip;", [C("&hellip \u2026")]),
    # Comments: CommentStart -> Comment "x" -> CommentEndDash -> CommentEnd '!' ->
    # CommentEndBang '>' emits.
    ("<!--x--!>y", [("!", "x", False), C("y")]),
    ("<!---->", [("!", "", False)]),  # CommentStart '-' -> CommentStartDash '-' -> CommentEnd
    ("<!-->", [("!", "", False)]),  # CommentStart '>' emits
    ("<!--a--b-->", [("!", "a--b", False)]),  # CommentEnd 'b' appends "--b"
    ("<!--a---->", [("!", "a--", False)]),  # CommentEnd '-' appends "-" twice
    ("<!--a--!-b-->", [("!", "a--!-b", False)]),  # CommentEndBang '-' -> "--!", EndDash 'b'
    ("<!--a", [("!", "a", False)]),  # Comment at EOF emits
    # Bogus comments: TagOpen '?' (not consumed); EndTagOpen other -> "/" pushed back;
    # MarkupDeclarationOpen fallback.
    ("<?php x?>", [("!", "?php x?", True)]),
    ("</ x>", [("!", "/ x", True)]),
    ("<!x>", [("!", "x", True)]),
    ("</>", []),  # EndTagOpen '>' -> Data, nothing emitted
    ("a</", [C("a</")]),  # EndTagOpen at EOF emits "</"
    ("a<", [C("a<")]),  # TagOpen: EOF is not alpha -> '<'
    ("< a<3", [C("< a<3")]),
    # CDATA (read in any namespace): consumeTo("]]>").
    ("<![CDATA[a]]b]]>c", [("CD", "a]]b"), C("c")]),
    ("<![CDATA[xyzw", [("CD", "xyzw")]),  # straddle rule then consumeToEnd, isEmpty emits
    # Doctypes.
    ("<!DOCTYPE html>", [("D", "html", None, "", "", False)]),
    # Doctype state: 'h' is neither space nor '>' -> dropped, BeforeDoctypeName.
    ("<!doctypehtml>", [("D", "tml", None, "", "", False)]),
    ("<!DOCTYPE>", [("D", "", None, "", "", True)]),  # Doctype '>' -> force quirks
    # BeforeDoctypeName: '>' is "anything else" -> name ">"; DoctypeName letters "x".
    ("<!DOCTYPE >x>", [("D", ">x", None, "", "", False)]),
    (
        "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\" 'u'>",
        [("D", "html", "PUBLIC", "-//W3C//DTD HTML 4.01//EN", "u", False)],
    ),
    # AfterDoctypeSystemKeyword default emits and stays: two doctype tokens.
    (
        "<!DOCTYPE html SYSTEMx>",
        [("D", "html", "SYSTEM", "", "", True), ("D", "html", "SYSTEM", "", "", True)],
    ),
    ("<!DOCTYPE html bogus>", [("D", "html", None, "", "", True)]),  # -> BogusDoctype
    ('<!DOCTYPE html SYSTEM "s" x>', [("D", "html", "SYSTEM", "", "s", False)]),  # no quirks
    ("<!DOCTYPE html", [("D", "html", None, "", "", True)]),  # DoctypeName EOF
    # Doctype drops one UTF-16 unit: the high surrogate of U+1F600; BeforeDoctypeName's
    # "anything else" starts the name with the low surrogate U+DE00, DoctypeName adds "html".
    ("<!DOCTYPE\U0001f600html>", [("D", "\ude00html", None, "", "", False)]),
    # NUL: Data keeps NUL; tag name and attribute name/value replace it.
    ("a\x00b", [C("a\x00b")]),
    ("<a\x00b>", [S("a\ufffdb")]),
    ("<a \x00=1>", [S("a", [("\ufffd", "1")])]),
    ('<a b="\x00">', [S("a", [("b", "\ufffd")])]),
    # Attribute name made only of a control char: trimmed to "" and dropped.
    ("<a \x01=1>", [S("a", [])]),
    # EOF inside a tag drops it, except in BeforeAttributeValue which emits it.
    ('x<a href="y', [C("x")]),
    ("x<div", [C("x")]),
    ("<a b", []),
    ("<a b=", [S("a", [("b", None)])]),
    # A literal U+FFFF read by Data's switch is jsoup's EOF char: the stream ends there.
    ("a<b>\uffffc", [C("a"), S("b")]),
    ("a\uffffc", [C("a\uffffc")]),  # inside a consumeData run it is text
    # RCDATA: '<b' with "</title" ahead (lower case) -> '<' is text; RCDATAEndTagName.
    ("<title>a &amp; <b> </title>x", [S("title"), C("a & <b> "), E("title"), C("x")]),
    # containsIgnoreCase tries "</title" then "</TITLE": upper case found -> text.
    ("<title>a<b>c</TITLE>", [S("title"), C("a<b>c"), E("TITLE")]),
    # Mixed case "</Title" is not found: RcdataLessthanSign emits </title> and goes to TagOpen.
    ("<title>a<b>c</Title>", [S("title"), C("a"), E("title"), S("b"), C("c"), E("Title")]),
    # RCDATAEndTagName "titlex" is not appropriate: "</titlex" text, '>' re-read.
    ("<title>a</titlex>b</title>", [S("title"), C("a</titlex>b"), E("title")]),
    ("<title>a</title", [S("title"), C("a</title")]),  # EOF: anythingElse
    ("<title>a<", [S("title"), C("a<")]),
    ("<textarea>\x00</textarea>", [S("textarea"), C("\ufffd"), E("textarea")]),
    # Rawtext: no references, no breakout; end tag any case; ' ' -> BeforeAttributeName.
    ("<style>a<b>&amp;</STYLE >c", [S("style"), C("a<b>&amp;"), E("STYLE"), C("c")]),
    ("<style>a</stylex>", [S("style"), C("a</stylex>")]),
    # handleDataEndTag: appropriate name then '!' -> appended to the buffer and emitted.
    ("<style>a</style!>", [S("style"), C("a</style!>")]),
    # Script: escape, double escape ("script" lower case), escaped end tag.
    (
        "<script>a<!--<script>b</script>c-->d</script>e",
        [S("script"), C("a<!--<script>b</script>c-->d"), E("script"), C("e")],
    ),
    # Double-escape start compares the buffer case-sensitively: "SCRIPT" does not enter it.
    (
        "<script><!--<SCRIPT>x</script>y",
        [S("script"), C("<!--<SCRIPT>x"), E("script"), C("y")],
    ),
    ("<script><!--</script>x", [S("script"), C("<!--"), E("script"), C("x")]),
    ("<script>a</script", [S("script"), C("a</script")]),  # appropriate but isEmpty
    ("<script>a<", [S("script"), C("a<")]),  # ScriptDataLessthanSign EOF
    ("<script>\x00</script>", [S("script"), C("\ufffd"), E("script")]),
    ("<script>if (a<b) x</script>", [S("script"), C("if (a<b) x"), E("script")]),
    # PLAINTEXT: everything is text to the end; NUL replaced.
    ("<plaintext>a<b>&amp;\x00</plaintext>", [S("plaintext"), C("a<b>&amp;\ufffd</plaintext>")]),
]


@pytest.mark.parametrize(("html", "expected"), CASES, ids=[repr(c[0])[:40] for c in CASES])
def test_token_stream(html: str, expected: list[Item]) -> None:
    assert stream(html) == expected


@pytest.mark.parametrize(("n", "found"), [(32751, True), (32752, False)])
def test_rcdata_lookahead_window(n: int, found: bool) -> None:
    """containsIgnoreCase only sees jsoup's first 32768-char read window.

    "<title>" is 7 chars, "<b>" 7..9, so RcdataLessthanSign runs at position 8 and "</title"
    starts at 10 + n; it is inside the window [0, 32768) iff 10 + n + 7 <= 32768, n <= 32751.
    """
    html = "<title><b>" + "x" * n + "</title>"
    if found:
        expected = [S("title"), C("<b>" + "x" * n), E("title")]
    else:
        expected = [S("title"), E("title"), S("b"), C("x" * n), E("title")]
    assert stream(html) == expected


@pytest.mark.parametrize(("n", "found"), [(30751, True), (30752, False)])
def test_rcdata_lookahead_window_counts_utf16_units(n: int, found: bool) -> None:
    """The window is 32768 UTF-16 units: each of the 1000 emoji counts 2.

    "</title" starts at unit 10 + 2000 + n and is inside iff 10 + 2000 + n + 7 <= 32768.
    """
    emoji = "\U0001f600" * 1000
    html = "<title><b>" + emoji + "x" * n + "</title>"
    if found:
        expected = [S("title"), C("<b>" + emoji + "x" * n), E("title")]
    else:
        expected = [S("title"), E("title"), S("b"), C(emoji + "x" * n), E("title")]
    assert stream(html) == expected


def test_token_types_and_reuse() -> None:
    # The tokeniser reuses one StartTag: the same object comes back for the next start tag.
    t = Tokeniser(CharacterReader("<a><b>"))
    first = t.read()
    assert first.type == START_TAG and first.is_start_tag()
    second = t.read()
    assert second is first and isinstance(second, StartTag) and second.normal_name == "b"
    assert t.read().type == EOF


def test_emit_from_builder() -> None:
    # HtmlTreeBuilder.insertEmpty emits a synthetic end tag; read() returns it next.
    t = Tokeniser(CharacterReader("<br/>x"))
    assert t.read().is_start_tag()
    end = EndTag().set_name("BR")
    t.emit(end)
    tok = t.read()
    assert tok is end and isinstance(tok, EndTag) and tok.normal_name == "br"
    assert _item(t.read()) == C("x")


def test_attributes_semantics() -> None:
    a = Attributes()
    a.add("B", "1").add("b", "2").add("c", None)
    assert a.get("B") == "1" and a.get("c") == "" and a.get("x") == ""
    assert a.has_key_ignore_case("C") and not a.has_key("C")
    a.normalize()
    assert a.deduplicate() == 1  # "b" duplicates "b" after normalising; the first is kept
    assert a.items_raw() == [("b", "1"), ("c", None)]
    clone = a.clone()
    clone.put("b", "9")
    assert a.get("b") == "1" and clone.get("b") == "9"
    assert list(a) == [("b", "1"), ("c", "")]
