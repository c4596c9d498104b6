"""A pre-pass that makes a WHATWG parser build the tree jsoup 1.15.3 would build.

WHATWG parsers (lexbor, html5lib) and jsoup's tree builder agree on real pages but differ on
a few input features. Rather than patch each parser, the raw text is rewritten so that the
WHATWG parser cannot see the difference, using *sentinel* code points (private-use
characters the input does not contain) that the text walk maps back:

* entity references jsoup leaves literal (``&copy2023``, ``&notit;``, ``&ampx``): the ``&``
  becomes a sentinel, so no prefix matching happens; ``&#0;`` is marked (jsoup gives U+0000,
  WHATWG U+FFFD);
* CR inside ``pre``/``textarea``/``title``/``plaintext`` (WHATWG turns CR and CRLF into LF,
  jsoup keeps them; elsewhere whitespace collapses, so CR does not matter);
* NUL (WHATWG drops or replaces it, jsoup keeps it inside text);
* ``<textarea>`` followed by LF (WHATWG drops the LF, jsoup keeps it);
* CDATA sections (a bogus comment in WHATWG, verbatim text in jsoup);
* ``<isindex>`` (expanded by jsoup, an unknown element in WHATWG);
* text in table context (fostered by WHATWG, kept in place by jsoup; see ``tables.py``);
* ``<noscript>`` in head (its content never reaches body in jsoup; removed);
* ``<rp>``/``<rt>`` in a page without ``<ruby>`` (jsoup ignores those start tags);
* ``<`` inside a tag name (jsoup ends the tag there) and an RCDATA ``title``/``textarea``
  without an end tag (jsoup closes it at the first ``<`` + letter);
* whitespace-only tokens after ``</body>``/``</html>`` (jsoup may put them outside body);
* a character token that is exactly one NUL (jsoup drops it after it moved the tree builder);
* raw-text/RCDATA elements inside ``<svg>``/``<math>`` (jsoup knows no foreign content).

* self-closing start tags (``<script src=a.js />``, ``<div/>``): jsoup's tree builder closes
  the element at once (it emits the end tag itself), so they become start + end tag;
* RCDATA ``title``/``textarea``: jsoup looks for a later end tag only in all-lower or
  all-upper case (``<title><p>x</TiTlE>`` closes the title at ``<p``);
* control characters ending a tag name (``<p`` U+0001 ``>``): jsoup trims them (``String.trim()``);
* tags inside ``<select>`` other than option/optgroup/script/template (jsoup ignores them;
  lexbor follows the newer WHATWG select parsing and keeps ``<p>``, ``<div>``, ``<li>``).

Known gaps of the engines that use this pre-pass (``lexbor``, ``html5lib``; the default
engine, ``jsoup``, parses with a port of jsoup's own parser and has none): a seeded grammar
fuzz test (``tests/labeler/extract/test_extract_fuzz.py``, 3,000 hostile documents) finds 2.8 % of
them differing from the jar with lexbor (6.8 % before issue 14). Kinds, with minimal inputs
(jar → ours):

* HTML table parts breaking out of ``<svg>``/``<math>`` in WHATWG: ``<svg><thead>a</thead>b``
  → ``ab`` / ``a b``; ``<svg>a<col>b`` → ``ab`` / ``a b``;
* raw-text elements other than script/style/title/textarea/xmp/plaintext in foreign
  content: ``<svg><noembed>a</svg><b>c`` → ``a</svg><b>c`` / ``a</svg>c``;
* ``<`` inside a tag after its name (``<i <!--x>y`` → ``''`` / ``y``; ``</b<`` → ``<`` /
  ``''``), and the pre-pass rewrites firing inside bogus comments (``<?<t<``), attribute
  values (``<x a="<![CDATA[">y]]>z`` → ``y]]>z`` / ``yz``) or comments in a head
  ``<noscript>`` (``<noscript><!--</noscript>-->x`` → ``''`` / ``-->x``): the regular
  expressions here read ``>`` as the end of a tag and do not track the tokeniser state;
* table text cut by end of input (``<table>x<i`` → ``x`` / ``xi``; ``<table>x</`` →
  ``x</`` / ``</ x``), and table text after open formatting elements (``<p><b>x<table>y``
  → ``xy`` / ``x y``: jsoup fosters table text only when it reconstructs a formatting
  element for it, ``<p><b>x</b></p><b>y</b><table></table>``; tables.py never fosters);
* content after ``</html>`` while elements are still open (jsoup pops them all first);
* lexbor only: one adoption-agency case (``<a><b><b><i><i><dl><a></dl>0</b>X`` →
  ``X 0`` / ``0X``); html5lib only: ``<template>`` content (html5lib 1.1 has no template
  mode).

``tests/support/jsoup_ref/snippets.py`` (``OPEN_QUIRKS``) holds these inputs as strict
expected failures against the jar.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

from labeler.extract.entities import REFERENCE, named_decodes
from labeler.extract.sentinels import Sentinels, pick_sentinels
from labeler.extract.tables import wrap_table_text
from labeler.extract.walk import BLOCK_TAGS

_CR_REGION = re.compile(
    r"<(pre|textarea|title|plaintext)(?=[\s/>])[^>]*>.*?(?:</\1\s*>|\Z)", re.I | re.S
)
_TAG = re.compile(r"<[A-Za-z/!?][^>]*>")
_TAG_START = re.compile(r"</?[A-Za-z]")
_TEXTAREA_LF = re.compile(r"(<textarea(?=[\s/>])[^>]*>)\n", re.I)
_AFTER_BODY = re.compile(
    r"</(body|html)(?=[\s/>])[^>]*>((?:[\t\n\f\r ]+|<!--.*?-->)+)", re.I | re.S
)
_TRAILER = re.compile(r"(?:</(?:body|html)\s*>|[\t\n\f\r ]+|<!--.*?-->)*", re.I | re.S)
_AFTER_BODY_PARTS = re.compile(r"[\t\n\f\r ]+|<!--.*?-->", re.S)
_TOKEN_START = re.compile(r"<[A-Za-z/!?]")
# Cheap triggers for the structural scan (one regex alternation over the page is slower).
_RARE_TAGS = re.compile(r"<(?:!\[CDATA\[|isindex|r[pt][\s/>])", re.I)
_LT_IN_TAG_NAME = re.compile(r"<[A-Za-z][^\t\n\f\r />\0<>]*<")
_NUL_TOKEN = re.compile(r">(?:\0|&#(?:0+|[xX]0+);?)<")
_RCDATA_TAG = re.compile(r"</?(?:title|textarea)(?=[\s/><])", re.I)
_LETTER_TAG = re.compile(r"<[A-Za-z]")
_NOSCRIPT = re.compile(r"<noscript", re.I)
_NOSCRIPT_ONLY = frozenset({"noscript"})
_VOID = (
    "area|base|basefont|bgsound|br|col|embed|frame|hr|image|img|input|keygen|link|meta|param"
    "|source|track|wbr|isindex|html|body|frameset"
)
# A start tag ending in "/>" read as self-closing by the tokeniser: "/" after the tag name,
# whitespace, an attribute name or a quoted value (never after an unquoted value, which
# takes the "/"). Possessive quantifiers keep an unquoted value from giving its "/" back.
_ATTRS = (
    r"(?:[\t\n\f\r ]++|/(?!>)|[^\t\n\f\r />=][^\t\n\f\r />=]*+"
    r"(?:[\t\n\f\r ]*+=[\t\n\f\r ]*+(?:\"[^\"]*+\"|'[^']*+'|[^\t\n\f\r >]++))?+)*+"
)

# Comments and raw-text elements are stepped over whole (a self-closing raw-text start tag
# is not one: its "/>" ends the element), then self-closing tags are rewritten.
_SELF_CLOSING = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(?P<raw>script|style|xmp|iframe|noembed|noframes|textarea|title)(?=[\s/>])"
    rf"{_ATTRS}>.*?(?:</(?P=raw)\s*>|\Z)|<plaintext(?=[\s/>]).*"
    rf"|(?P<selfclose><(?P<scname>(?!(?:{_VOID})[\s/>])[A-Za-z][^\t\n\f\r />\0<]*){_ATTRS})/>",
    re.I | re.S,
)


# Where jsoup closing a self-closing element at once can change the text: block and
# raw-text elements, formatting elements (adoption agency) and form controls. Others (svg's
# <path/>, unknown tags) are inline either way, so they are left alone (a rewrite costs the
# page the fast walk).
_INLINE_CLOSED = (
    "xmp iframe noembed textarea title a b big code em font i nobr s small strike strong tt u"
    " select option optgroup button label span object"
)
_CLOSE_AT_ONCE = BLOCK_TAGS | frozenset(_INLINE_CLOSED.split())
_SELF_CLOSING_HINT = re.compile(
    rf"<(?:{'|'.join(sorted(_CLOSE_AT_ONCE, key=len, reverse=True))})(?=[\s/])"
    r"(?:\"[^\"]*\"|'[^']*'|[^\"'<>])*/>",
    re.I,
)


def _self_closing(m: re.Match[str]) -> str:
    """jsoup's tree builder closes a self-closing element at once (it emits the end tag
    itself), raw-text ones (script, style, title...) included: start tag + end tag."""
    if m.group("selfclose") is None or m.group("scname").lower() not in _CLOSE_AT_ONCE:
        return m.group(0)
    return m.group(0)[:-2] + f"></{m.group('scname')}>"


def _rcdata(name: str) -> str:
    """An RCDATA start tag with no consistent-case end tag later (jsoup's
    ``containsIgnoreCase`` looks for ``</title`` or ``</TITLE`` only), and its text up to
    the first ``<`` + letter, where jsoup's tokeniser closes the element."""
    return (
        rf"|(?P<{name}><{name}(?:(?=[\s/>]){_ATTRS}>|(?=<)))"
        rf"(?!.*(?-i:</{name}|</{name.upper()}))(?:(?!<[A-Za-z]).)*"
    )


_SCAN = re.compile(
    r"(?P<skip><!--.*?(?:-->|\Z))"
    + _rcdata("title")
    + _rcdata("textarea")
    + r"|(?P<skip2><(?P<raw>script|style|xmp|iframe|noembed|noframes|textarea|title)(?=[\s/>])"
    rf"{_ATTRS}>.*?(?:</(?P=raw)\s*>|\Z)|<plaintext(?=[\s/>]).*)"
    r"|<!\[CDATA\[(?P<cdata>.*?)(?:\]\]>|\Z)"
    r"|<(?P<isindex>isindex)(?=[\s/>])(?P<attrs>[^>]*)>"
    r"|<(?P<form>/?form)(?=[\s/>])"
    r"|(?P<tagname><[A-Za-z][^\t\n\f\r />\0<]*)(?=<)"
    r"|<(?P<ruby>r[pt])(?=[\s/>])[^>]*>"
    r"|(?P<nultag></?[A-Za-z][^<>]*>)(?P<nultok>\0|&#(?:0+|[xX]0+);?)(?=<)",
    re.I | re.S,
)
_RUBY = re.compile(r"<ruby(?=[\s/>])", re.I)
_FOREIGN = re.compile(r"<(svg|math)(?=[\s/>])", re.I)
_FOREIGN_END = {"svg": re.compile(r"</svg\s*>", re.I), "math": re.compile(r"</math\s*>", re.I)}
_RAW_START = re.compile(
    r"<(?:script|style|xmp|iframe|noembed|noframes|textarea|title|plaintext)", re.I
)
_RAW_ELEMENT = re.compile(
    r"(?P<rawstart><(?P<raw>script|style|xmp|iframe|noembed|noframes|textarea|title)"
    r"(?=[\s/>])[^>]*>)(?P<rawbody>.*?)(?P<rawend></(?P=raw)\s*>|\Z)"
    r"|(?P<ptstart><plaintext(?=[\s/>])[^>]*>)(?P<ptbody>.*)",
    re.I | re.S,
)
_PROMPT = re.compile(r"""(?i)(?:^|\s)prompt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")
_ISINDEX_PROMPT = "This is a searchable index. Enter search keywords: "
_HEAD_TOKEN = re.compile(
    r"[\t\n\f\r ]+|<!--.*?-->|<![dD][oO][cC][tT][yY][pP][eE][^>]*>|<\?[^>]*>"
    r"|</(?!(?:head|body|html|br)[\s/>])[A-Za-z][^>]*>"
    r"|<(?:html|head)(?=[\s/>])[^>]*>|<(?:meta|link|base|basefont|bgsound)(?=[\s/>])[^>]*>"
    r"|<(title|script|style|noframes)(?=[\s/>])[^>]*>.*?</\1\s*>"
    r"|<(noscript|template)(?=[\s/>])[^>]*>",
    re.I | re.S,
)
_HEAD_END = {
    "noscript": re.compile(r"</noscript\s*>", re.I),
    "template": re.compile(r"</template\s*>", re.I),
}


# C0 controls String.trim() removes that are not tokeniser whitespace (str "in" is fast)
_CONTROLS = tuple(chr(c) for c in (*range(0x01, 0x09), 0x0B, *range(0x0E, 0x20)))
# A tag name ending in control characters: jsoup's normalName() trims them (String.trim()).
_CONTROL_TAG_NAME = re.compile(
    "(</?[A-Za-z][^\t\n\f\r />\0<\x01-\x08\x0b\x0e-\x1f]*)[\x01-\x08\x0b\x0e-\x1f]+"
    "(?=[\t\n\f\r />])"
)
_SELECT = re.compile(r"<select(?=[\s/>])", re.I)
# Inside <select>: what ends it, what stays, and every other tag (jsoup ignores those; lexbor
# follows the newer WHATWG select parsing and keeps p, div, li... inside).
_IN_SELECT = re.compile(
    r"(?P<end></select\s*>|<(?:input|keygen|textarea)(?=[\s/>])"
    r"|</?(?:caption|table|tbody|td|tfoot|th|thead|tr)(?=[\s/>]))"
    r"|(?P<keep><!--.*?(?:-->|\Z)|<script(?=[\s/>]).*?(?:</script\s*>|\Z)"
    r"|</?(?:option|optgroup|select|template|html)(?=[\s/>])[^>]*>)"
    r"|(?P<drop></?[A-Za-z](?:\"[^\"]*\"|'[^']*'|[^>\"'])*>)",
    re.I | re.S,
)


def _select_content(text: str) -> str:
    """Drop the tags jsoup's "in select" mode ignores from each ``<select>``."""
    out: list[str] = []
    pos = 0
    while (start := _SELECT.search(text, pos)) is not None:
        out.append(text[pos : start.end()])
        pos = start.end()
        while (m := _IN_SELECT.search(text, pos)) is not None:
            if m.group("end") is not None:
                break
            out.append(text[pos : m.start()])
            if m.group("keep") is not None:
                out.append(m.group(0))
            pos = m.end()
        else:
            out.append(text[pos:])
            pos = len(text)
    out.append(text[pos:])
    return "".join(out)


def _fix_entity(text: str, s: Sentinels) -> Callable[[re.Match[str]], str]:
    def fix(m: re.Match[str]) -> str:
        letters = m.group(1)
        if letters is not None:
            name = letters + m.group(2)
            if named_decodes(name, bool(m.group(3))):
                return m.group(0)  # jsoup decodes it, and WHATWG decodes it the same way
            lt = text.rfind("<", 0, m.start())
            if lt > text.rfind(">", 0, m.start()) and _TAG_START.match(text, lt):
                return m.group(0)  # inside a tag (a URL's "&b=1"): attributes are not text
            return s.amp + m.group(0)[1:]
        digits = m.group(4) or m.group(5)
        if int(digits, 16 if m.group(4) else 10) == 0:
            return s.zero + m.group(0)[1:]
        return m.group(0)

    return fix


def _structural(text: str, s: Sentinels, strip_noscript: bool) -> str:
    """CDATA and ``<isindex>`` outside comments and raw-text elements; head noscript."""
    in_form = False
    no_ruby = _RUBY.search(text) is None

    def repl(m: re.Match[str]) -> str:
        nonlocal in_form
        if m.group("cdata") is not None:
            body = m.group("cdata")
            for old, new in (("<", s.lt), ("&", s.amp), ("\r", s.cr), ("\0", s.nul)):
                body = body.replace(old, new)
            return s.cdo + body + s.cdc
        if m.group("form") is not None:
            in_form = not m.group("form").startswith("/")
            return m.group(0)
        if m.group("isindex") is not None:
            if in_form:  # jsoup ignores isindex while a form is open
                return ""
            pm = _PROMPT.search(m.group("attrs"))
            prompt = (
                _ISINDEX_PROMPT if pm is None else next(g for g in pm.groups() if g is not None)
            )
            prompt = prompt.replace("<", "&lt;")
            return f"<form><hr><label>{prompt}<input name=isindex></label><hr></form>"
        if m.group("ruby") is not None:
            # jsoup ignores <rp>/<rt> unless a ruby element is in scope
            return "" if no_ruby else m.group(0)
        if m.group("tagname") is not None:
            return m.group(0) + ">"  # jsoup: '<' in a tag name emits the tag read so far
        for rc in ("title", "textarea"):
            start = m.group(rc)
            if start is not None:
                # No end tag later: jsoup's RCDATA tokenizer ends the element at '<' + letter.
                tag = start if start.endswith(">") else start + ">"
                return tag + m.group(0)[len(start) :] + f"</{rc}>"
        if m.group("nultok") is not None:
            # jsoup drops a character token that is exactly one NUL, but only after it has
            # moved the tree builder on (e.g. out of head): keep a non-space placeholder.
            return m.group("nultag") + s.nultok
        return m.group(0)

    if _needs_scan(text):
        text = _SCAN.sub(repl, text)
    if "/>" in text and _SELF_CLOSING_HINT.search(text):
        # after the scan, which closes RCDATA elements jsoup closes early
        text = _SELF_CLOSING.sub(_self_closing, text)
    if _FOREIGN.search(text):
        text = _foreign_raw(text, s)
    if strip_noscript and _NOSCRIPT.search(text):
        text = strip_head(text, _NOSCRIPT_ONLY)
    return text


def _foreign_raw(text: str, s: Sentinels) -> str:
    """Apply :func:`_escape_raw` inside each ``<svg>``/``<math>`` region of ``text``."""
    out: list[str] = []
    pos = 0
    while (start := _FOREIGN.search(text, pos)) is not None:
        end = _FOREIGN_END[start.group(1).lower()].search(text, start.end())
        stop = len(text) if end is None else end.end()
        region = text[start.start() : stop]
        if _RAW_START.search(region):
            region = _RAW_ELEMENT.sub(partial(_escape_raw, s=s), region)
        out.append(text[pos : start.start()] + region)
        pos = stop
    out.append(text[pos:])
    return "".join(out)


def _escape_raw(m: re.Match[str], s: Sentinels) -> str:
    """Raw-text/RCDATA content inside ``<svg>``/``<math>`` made inert.

    jsoup has no foreign content: ``<svg><style>`` or ``<math><xmp>`` are raw text as
    anywhere else, where a WHATWG parser would parse their content as markup. With '<'
    (and, outside RCDATA, '&') replaced by sentinels both parse the content as plain text.
    """
    if m.group("ptstart") is not None:
        return m.group("ptstart") + m.group("ptbody").replace("<", s.lt).replace("&", s.amp)
    body = m.group("rawbody").replace("<", s.lt)
    if m.group("raw").lower() not in ("title", "textarea"):
        body = body.replace("&", s.amp)
    return m.group("rawstart") + body + m.group("rawend")


def _needs_scan(text: str) -> bool:
    if _RARE_TAGS.search(text) or _LT_IN_TAG_NAME.search(text):
        return True
    if ("\0" in text or "&#" in text) and _NUL_TOKEN.search(text):
        return True
    open_last: dict[str, bool] = {}  # per name: is the last tag a start tag (unclosed)?
    for m in _RCDATA_TAG.finditer(text):
        tag = m.group(0)
        if tag.startswith("</") and tag not in ("</title", "</TITLE", "</textarea", "</TEXTAREA"):
            return True  # jsoup's end tag search sees only all-lower or all-upper case
        open_last[tag.lower().lstrip("</")] = not tag.startswith("</")
    return any(open_last.values())


def strip_head(text: str, names: frozenset[str]) -> str:
    """Remove each ``<noscript>``/``<template>`` (those in ``names``) met while in head.

    Everything up to the element's end tag stays in head in jsoup (as head elements or as
    text of the element), so none of it can reach body. The scan stops at the first token
    that would start body. Elements not in ``names`` are stepped over unchanged.
    """
    out: list[str] = []
    pos = 0
    while (m := _HEAD_TOKEN.match(text, pos)) is not None:
        name = m.group(2)
        if name is None:
            out.append(m.group(0))
            pos = m.end()
            continue
        name = name.lower()
        end = _HEAD_END[name].search(text, m.end())
        stop = len(text) if end is None else end.end()
        if name not in names:
            out.append(text[m.start() : stop])
        pos = stop
    out.append(text[pos:])
    return "".join(out)


def _after_body(text: str, s: Sentinels) -> str:
    def repl(m: re.Match[str]) -> str:
        if _TRAILER.fullmatch(text, m.end()) is not None:
            return m.group(0)  # nothing but whitespace follows: trimmed either way
        # jsoup's </html> pops every open element, </body> only up to a "special" one.
        mark = s.abh if m.group(1).lower() == "html" else s.ab
        parts = _AFTER_BODY_PARTS.findall(m.group(2))
        follows_token = _TOKEN_START.match(text, m.end()) is not None or m.end() == len(text)
        out = [m.group(0)[: m.start(2) - m.start(0)]]
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            if part.startswith("<") or (last and not follows_token):
                out.append(part)  # a comment, or whitespace that starts a mixed token
            else:
                out.append(mark + part)
        return "".join(out)

    return _AFTER_BODY.sub(repl, text)


def prepare(text: str, *, strip_head_noscript: bool = True) -> tuple[str, Sentinels | None]:
    """Rewrite decoded HTML for a WHATWG parser; return it and the sentinels used, if any.

    ``None`` means the text was left unchanged and holds no sentinel, so the walk can skip
    all mapping. ``strip_head_noscript=False`` keeps head ``<noscript>`` elements (the
    charset scan needs the ``<meta>`` inside them). Never raises.
    """
    s = pick_sentinels(text)
    orig = text
    if any(c in text for c in _CONTROLS):
        text = _CONTROL_TAG_NAME.sub(r"\1", text)
    if _SELECT.search(text) is not None:
        text = _select_content(text)
    text = _structural(text, s, strip_head_noscript)
    text = wrap_table_text(text, s.carrier, s.lt, s.nul, s.cdo + s.cdc)
    if "&" in text:
        text = REFERENCE.sub(_fix_entity(text, s), text)
    if "\r" in text:
        text = _CR_REGION.sub(lambda m: _cr_region(m.group(0), s), text)
    if "\0" in text:
        text = text.replace("\0", s.nul)
    if "<" in text:
        text = _TEXTAREA_LF.sub(lambda m: m.group(1) + s.empty + "\n", text)
        if "</" in text:
            text = _after_body(text, s)
    return text, (None if text is orig or text == orig else s)


def _cr_region(region: str, s: Sentinels) -> str:
    if "\r" not in region:
        return region
    start_tag_end = region.index(">") + 1
    marked = region[:start_tag_end] + region[start_tag_end:].replace("\r", s.cr)
    if region[1:4].lower() != "pre":
        return marked  # RCDATA/plaintext content holds no tags
    # CR inside a tag separates attributes; only text CRs become sentinels.
    return _TAG.sub(lambda t: t.group(0).replace(s.cr, "\r"), marked)
