"""Bytes to text the way jsoup 1.15.3 does it (``helper/DataUtil.parseInputStream``).

Order of precedence, as in jsoup:

1. A byte-order mark (UTF-32, UTF-16, UTF-8) among the first four bytes. jsoup only looks
   when the input has at least four bytes, so a shorter file is never BOM-detected.
2. Otherwise the first 5,119 bytes are decoded as UTF-8 and parsed; the first
   ``meta[http-equiv=content-type]`` with a usable ``charset=`` or ``meta[charset]`` decides.
3. Otherwise an ``<?xml ... encoding="..."?>`` declaration at the very start.
4. Otherwise UTF-8.

Decoding follows Java: ISO-8859-1 is true Latin-1, malformed input becomes U+FFFD with
Java's UTF-8 decoder's notion of how many bytes one malformed sequence spans.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable

from selectolax.lexbor import LexborHTMLParser

from labeler.extract.java_charsets import JAVA_CHARSETS

# jsoup reads 5,120 - 1 bytes first, then one more byte to learn whether it saw everything.
_FIRST_READ = 5119
_CONTENT_TYPE_CHARSET = re.compile(r"(?i)\bcharset=\s*(?:[\"'])?([^\s,;\"']*)")
_CHARSET_WORD = re.compile(rb"(?i)charset")
# jsoup's HTML parser turns a leading <?xml ...?> into a bogus comment that it then reads as
# an XML declaration; whitespace before it is dropped by the tree builder.
_XML_DECL = re.compile(r"\A[\t\n\f\r ]*<\?xml(?=[\s?])([^>]*)>", re.IGNORECASE)
_XML_ENCODING = re.compile(r"(?i)\bencoding\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s?>]+))")
_UTF8_META = re.compile(rb"(?i)charset\s*=\s*[\"']?\s*utf-?8[\"'\s;/>]")
_ERRORS = "jsoup-java-utf8"
_JAVA_SPACE = "".join(chr(c) for c in range(0x21))  # what Java's String.trim() removes


def _is_cont(data: bytes, i: int) -> bool:
    return i < len(data) and 0x80 <= data[i] <= 0xBF


def _java_utf8_errors(exc: UnicodeError) -> tuple[str, int]:
    """Replace one malformed UTF-8 sequence by U+FFFD, spanning what Java's decoder spans.

    Python and Java agree on which sequences are valid and mostly on the span of an invalid
    one (the "maximal subpart"); they differ on encoded surrogates (ED A0..BF ..), which
    Java swallows as one malformed sequence of two or three bytes.
    """
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    data, start = exc.object, exc.start
    if data[start] == 0xED and start + 1 < len(data) and 0xA0 <= data[start + 1] <= 0xBF:
        if start + 2 >= len(data):
            return "\ufffd", start + 2
        return "\ufffd", start + (3 if _is_cont(data, start + 2) else 2)
    return "\ufffd", exc.end


codecs.register_error(_ERRORS, _java_utf8_errors)


def decode_utf8(data: bytes) -> str:
    """Decode ``data`` as Java's UTF-8 decoder does (malformed input → U+FFFD, never raises)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("utf-8", _ERRORS)


def java_codec(name: str | None) -> str | None:
    """The Python codec for a charset name as jsoup's ``validateCharset`` accepts it, or None.

    jsoup trims the name and removes quotes; Java looks names and aliases up
    case-insensitively. Names Java does not know (or Python cannot decode) give None.
    """
    if name is None:
        return None
    cleaned = name.strip().replace('"', "").replace("'", "")
    if not cleaned:
        return None
    return JAVA_CHARSETS.get(cleaned.lower())


def _bom(data: bytes) -> tuple[str, int] | None:
    if len(data) < 4:
        return None
    if data[:4] in (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00"):
        return "utf-32", 0  # the codec consumes the BOM and picks the byte order
    if data[:2] in (b"\xfe\xff", b"\xff\xfe"):
        return "utf-16", 0
    if data[:3] == b"\xef\xbb\xbf":
        return "utf-8", 3
    return None


def meta_charset(http_equiv: str | None, content: str | None, charset: str | None) -> str | None:
    """What one ``<meta>`` (its attribute values, None when absent) gives jsoup's scan.

    jsoup selects ``meta[http-equiv=content-type], meta[charset]`` (the http-equiv value
    trimmed, any case); of a selected meta it reads a valid ``charset=`` in ``content`` when
    it has any ``http-equiv``, else its ``charset`` attribute (possibly empty or invalid).
    None: not selected, or it names nothing (the scan goes on to the next meta).
    """
    is_content_type = (
        http_equiv is not None and http_equiv.strip(_JAVA_SPACE).lower() == "content-type"
    )
    if not is_content_type and charset is None:
        return None
    found: str | None = None
    if http_equiv is not None:
        match = _CONTENT_TYPE_CHARSET.search(content or "")
        if match is not None:
            found = match.group(1).strip().replace("charset=", "")
            found = found if java_codec(found) is not None else None
    if found is None and charset is not None:
        found = charset
    return found


def _charset_from_meta(prefix: str) -> str | None:
    """The charset jsoup's meta scan yields for the parsed prefix (unvalidated), or None."""
    # The pre-pass makes lexbor's tree jsoup's (e.g. a <meta> after an unclosed <textarea>).
    # Known gaps (jsoup's own tree has them right): a meta inside <template>, whose contents
    # lexbor's css() does not reach, and one after a tag cut by '<' ("<div <meta ...>").
    # Imported here: the default engine never needs the pre-pass (a hundredth of a second
    # at start).
    from labeler.extract.prepass import prepare

    tree = LexborHTMLParser(prepare(prefix, strip_head_noscript=False)[0])
    for meta in tree.css("meta"):
        attrs = meta.attributes
        found = meta_charset(
            attrs.get("http-equiv") or "" if "http-equiv" in attrs else None,
            attrs.get("content") or "" if "content" in attrs else None,
            attrs.get("charset") or "" if "charset" in attrs else None,
        )
        if found is not None:
            return found  # jsoup stops at the first meta that yields a name, valid or not
    return None


def _charset_from_xml_decl(prefix: str) -> str | None:
    decl = _XML_DECL.match(prefix)
    if decl is None:
        return None
    enc = _XML_ENCODING.search(decl.group(1))
    if enc is None:
        return None
    return next(g for g in enc.groups() if g is not None)


def _meta_candidates(head: bytes) -> tuple[int, bool]:
    """How often the prefix says ``charset`` (any case), and whether every one of them is
    ``charset=utf-8`` (quoted or not, ``utf8`` too).

    A cheap byte scan that lets the common page (no meta, or a UTF-8 one) skip the parse:
    no meta can name a charset without the word, and when every occurrence names UTF-8,
    whichever meta jsoup picks says UTF-8 (or none does). It looks at the whole prefix, not
    at ``<meta ...>`` look-alikes, which a ``>`` inside a quoted value would cut short.
    """
    count, all_utf8 = 0, True
    for word in _CHARSET_WORD.finditer(head):
        count += 1
        if all_utf8 and _UTF8_META.match(head, word.start()) is None:
            all_utf8 = False
    return count, all_utf8


def decode_html(data: bytes, meta_scan: Callable[[str], str | None] | None = None) -> str:
    """Decode an HTML file's bytes to text exactly as ``Jsoup.parse(file, null)`` does.

    Never raises: undecodable bytes become U+FFFD, unknown charset names fall back to UTF-8.
    A charset Java supports but Python lacks (rare EBCDIC and CJK variants) also falls back
    to UTF-8, where jsoup would decode it. ``meta_scan(prefix)`` finds the charset the
    metas of the decoded prefix name (default: a lexbor parse, with the gaps listed in
    :func:`_charset_from_meta`; the ``jsoup`` engine passes one over jsoup's own tree,
    built from :func:`meta_charset`); it only runs when a meta may name a charset other
    than UTF-8.
    """
    bom = _bom(data)
    if bom is not None:
        bom_codec, skip = bom
        if bom_codec == "utf-8":
            return decode_utf8(data[skip:])
        return data.decode(bom_codec, "replace")
    head = data[:_FIRST_READ]
    name: str | None = None
    if b"<" in head:
        prefix = decode_utf8(head)
        count, all_utf8 = _meta_candidates(head)
        xml_name = _charset_from_xml_decl(prefix)
        if count and (not all_utf8 or xml_name is not None):
            name = (meta_scan or _charset_from_meta)(prefix)
        elif count:
            name = "utf-8"  # whichever of these metas is a real element, it says UTF-8
        if name is None:
            name = xml_name
    codec = java_codec(name)
    if codec is None or codec == "utf-8":
        return decode_utf8(data)
    try:
        return data.decode(codec, "replace")
    except (UnicodeError, LookupError):  # a codec that cannot even replace: keep going
        return decode_utf8(data)
