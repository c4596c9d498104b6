"""Properties of the jsoup-1.15.3 extractor that need no jar: robustness, errors, helpers."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labeler.errors import ExtractError
from labeler.extract import page_text
from labeler.extract.charset import decode_html, decode_utf8, java_codec
from labeler.extract.jsoup import DEFAULT_ENGINE, ENGINES, jsoup_body_text
from labeler.extract.prepass import prepare
from labeler.extract.walk import java_trim

# Pieces that exercise every pre-pass rule and parser corner when glued in random order.
TOKENS = [
    b"<p>", b"</p>", b"<pre>", b"</pre>", b"<textarea>", b"</textarea>", b"<title>",
    b"</title>", b"<table>", b"<tr>", b"<td>", b"</table>", b"<b>", b"</i>", b"<br>",
    b"<script>", b"</script>", b"<style>", b"<xmp>", b"<plaintext>", b"<noscript>",
    b"</noscript>", b"<template>", b"</template>", b"<![CDATA[", b"]]>", b"<!--", b"-->",
    b"</body>", b"</html>", b"<head>", b"<body>", b"<isindex>", b"<svg>", b"<div<p>",
    b"&amp;", b"&copy2023", b"&notit;", b"&#0;", b"&#x80;", b"&#xD800;", b"&", b"<",
    b"\r\n", b"\r", b"\n", b"\x00", b" ", b"\t", b"\xc2\xa0", b"\xe2\x80\x8b", b"\x0b",
    b"x", b"y z", b"\xff", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\xff\xfe",
    b'<meta charset="windows-1252">', b"\xe9", b"\x80", b"\xee\xa6\xa0",
]  # fmt: skip
html_ish = st.lists(st.sampled_from(TOKENS), max_size=40).map(b"".join)


def _check_text(text: str) -> None:
    assert isinstance(text, str)
    if text:
        assert ord(text[0]) > 0x20 and ord(text[-1]) > 0x20


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(st.binary(max_size=600), html_ish))
@pytest.mark.parametrize("engine", ENGINES)
def test_never_raises_and_is_java_trimmed(engine: str, data: bytes) -> None:
    _check_text(page_text(data, engine=engine))


@settings(max_examples=150, deadline=None)
@given(data=html_ish)
def test_no_sentinel_leaks_into_the_text(data: bytes) -> None:
    _, sentinels = prepare(decode_html(data))
    if sentinels is not None:
        out = jsoup_body_text(data)
        assert not set(out) & set(sentinels.chars)


def test_unknown_engine_is_an_extract_error() -> None:
    with pytest.raises(ExtractError, match="unknown engine"):
        jsoup_body_text(b"<p>x</p>", engine="nope")
    with pytest.raises(ExtractError):
        page_text(b"<p>x</p>", engine="nope")


def test_default_engine_is_listed() -> None:
    assert DEFAULT_ENGINE in ENGINES


def test_sentinel_code_points_in_the_input_survive() -> None:
    # The default sentinel block occurs in the page: another block must be used.
    data = "<p>\ue9a0\ue9a1 &copy2023 \ue9a7</p>".encode()
    for engine in ENGINES:
        assert jsoup_body_text(data, engine) == "\ue9a0\ue9a1 &copy2023 \ue9a7"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"a\xed\xa0\x80b", "a\ufffdb"),  # Java: an encoded surrogate is one malformed input
        (b"a\xed\xa0b", "a\ufffdb"),
        (b"a\xf0\x80\x80\x80b", "a\ufffd\ufffd\ufffd\ufffdb"),
        (b"a\xe2\x82b", "a\ufffdb"),
        (b"\xc0\xaf", "\ufffd\ufffd"),
    ],
)
def test_utf8_malformed_like_java(raw: bytes, expected: str) -> None:
    assert decode_utf8(raw) == expected


def test_java_charset_names() -> None:
    assert java_codec(" 'Windows-1252' ") == "cp1252"
    assert java_codec("latin1") == "iso8859-1"  # true Latin-1, not windows-1252
    assert java_codec("no-such-charset") is None
    assert java_codec("") is None


def test_bom_needs_four_bytes() -> None:
    # jsoup only inspects a BOM when at least four bytes were read.
    assert decode_html(b"\xef\xbb\xbfa") == "a"
    assert decode_html(b"\xef\xbb\xbf") == "\ufeff"


def test_java_trim_keeps_nbsp() -> None:
    assert java_trim("\x00\x0b \u00a0x\u2003 \x1f") == "\u00a0x\u2003"
