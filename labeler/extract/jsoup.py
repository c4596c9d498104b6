"""Page text exactly as jsoup 1.15.3 gives it: ``Jsoup.parse(file, null).body().text()``.

Every engine starts with :func:`~labeler.extract.charset.decode_html` (BOM, meta, Java
decoders; the ``jsoup`` engine finds the meta charset in the port's own tree of the prefix,
the others in lexbor's). Then:

``jsoup`` (default)
    Exact by construction, for any input, with a fast path. A page that
    :func:`~labeler.extract.fastpath.lexbor_agrees` vouches for (none of the constructs
    where a WHATWG tree or its text can differ from jsoup's, nested under 40 deep) is parsed
    by lexbor as it is and walked with jsoup's text rules (751 of the 766 corpus pages);
    any other page goes to :mod:`labeler.extract.jsoup_parser`, a pure-Python port of jsoup
    1.15.3's tokeniser and tree builder, and its ``Element.text()`` (no pre-pass, no depth
    bound: like jsoup it bounds its stack searches, so 100,000 nested elements parse in
    linear time). The check is conservative: when in doubt, the port.
``lexbor`` and ``html5lib``
    :func:`~labeler.extract.prepass.prepare` (rewrites the few inputs where a WHATWG tree
    differs from jsoup's), then a WHATWG parser (selectolax's lexbor, fast; html5lib, pure
    Python, the cross-check) whose tree is walked with jsoup's text algorithm
    (:mod:`labeler.extract.walk`). Known differences from the jar, with minimal inputs, are
    listed under "Known gaps" in :mod:`labeler.extract.prepass`. These parsers are quadratic
    in nesting depth, so a page nested deeper than their bound (:mod:`labeler.extract.depth`)
    is handed to the ``jsoup`` engine; html5lib also gives up past its CPU-time budget.

Speed, as ``benchmarks/bench_extract.py`` measures it on the bundled corpus against the jar
(its harness precompiled, timed in the same run; best of three interleaved rounds on an idle
2-core machine). Cold (one fresh process over all pages, JVM or Python start included),
``jsoup`` takes 0.42-0.43x the jar's CPU time and 0.78-0.82x its wall time (the jar spreads
its CPU over both cores), ``lexbor`` 0.40-0.41x and 0.74-0.79x: ``lexbor`` is the fastest
engine in one process (it skips the check) and ``html5lib`` is about 9x. Through
:func:`labeler.extract.extract_many` in two processes (what ``ingest`` and ``extract`` of
many pages do) ``jsoup`` takes 0.45-0.47x the jar's wall time, ``lexbor`` 0.46-0.48x. Warm,
per page in one process, ``jsoup`` takes 2.7x the jar's main-thread CPU, ``lexbor`` 2.6x:
no engine beats the jar's CPU warm. On a busy machine the jar loses its second core and
the cold wall ratios fall: compare within one run.

The text rules are jsoup's ``Element.text()`` (:mod:`labeler.extract.walk` for the WHATWG
engines); the engines and their limits: docs/formats.md, Engines and limits.
"""

from __future__ import annotations

from labeler.errors import ExtractError
from labeler.extract import engine_lexbor
from labeler.extract.charset import decode_html, meta_charset
from labeler.extract.depth import (
    MAX_BLOCK_DEPTH,
    MAX_HTML5LIB_DEPTH,
    block_depth,
    element_depth,
)
from labeler.extract.fastpath import lexbor_text
from labeler.extract.walk import JAVA_TRIM, BlockMarks, TextAcc

ENGINES = ("jsoup", "lexbor", "html5lib")
DEFAULT_ENGINE = "jsoup"


def port_body_text(text: str) -> str:
    """``Jsoup.parse(text).body().text()`` through the port (the ``jsoup`` engine's slow
    path, decoded input). The port and html5lib are imported on first use: a process whose
    pages all take the fast path never loads them (a fifth of a second at start)."""
    from labeler.extract import jsoup_parser

    return jsoup_parser.body_text(text)


def fast_body_text(text: str) -> str | None:
    """The ``jsoup`` engine's fast path (:func:`labeler.extract.fastpath.lexbor_text`):
    lexbor's text of ``text`` when the check vouches for it, else None (the port decides).
    A page estimated deeper than :data:`~labeler.extract.depth.MAX_BLOCK_DEPTH` is not
    even parsed by lexbor (quadratic there; the check after the parse bounds the depth far
    lower)."""
    if block_depth(text) > MAX_BLOCK_DEPTH:
        return None
    return lexbor_text(text)


def port_meta_charset(prefix: str) -> str | None:
    """jsoup's charset meta scan over the port's tree of ``prefix`` (the first 5,119 bytes
    decoded as UTF-8): the first ``<meta>`` in document order (template contents included,
    as jsoup's are children) for which :func:`~labeler.extract.charset.meta_charset` names
    something, or None. Iterative: any depth."""
    from labeler.extract import jsoup_parser
    from labeler.extract.jsoup_parser.nodes import Element

    stack: list[Element] = [jsoup_parser.parse(prefix)]
    while stack:
        element = stack.pop()
        if element.normal_name == "meta":
            found = meta_charset(
                element.attr("http-equiv") if element.has_attr("http-equiv") else None,
                element.attr("content") if element.has_attr("content") else None,
                element.attr("charset") if element.has_attr("charset") else None,
            )
            if found is not None:
                return found
        stack.extend(c for c in reversed(element.children) if isinstance(c, Element))
    return None


def jsoup_text_and_blocks(data: bytes) -> tuple[str, list[int]]:
    """The ``jsoup`` engine's page text of ``data`` and, from the same walk, the sorted
    offsets into it where a block's visible text begins (see
    :func:`labeler.extract.blocks.block_starts` for which blocks count): one parse for both.

    Offsets point at a block's first character, never at a separator space; 0 is included
    whenever the text is non-empty; an empty text has none.
    """
    from labeler.extract import jsoup_parser
    from labeler.extract.jsoup_parser.text_walk import walk_text

    body = jsoup_parser.parse(decode_html(data, port_meta_charset)).body()
    acc = TextAcc()
    marks = BlockMarks(acc)
    walk_text(body, acc, marks)
    marks.sync()
    raw = "".join(acc.parts)
    page = acc.result()
    lead = len(raw) - len(raw.lstrip(JAVA_TRIM))
    starts = {min(max(o - lead, 0), len(page)) for o in marks.offsets}
    if page:
        starts.add(0)
    return page, sorted(o for o in starts if o < len(page))


def jsoup_body_text(
    data: bytes, engine: str = DEFAULT_ENGINE, *, budget: float | None = None
) -> str:
    """Return what jsoup 1.15.3's ``Jsoup.parse(file, null).body().text()`` returns.

    ``data`` is the raw file; the charset is detected as jsoup does (BOM, then
    ``<meta charset>``/``http-equiv`` in the first 5,119 bytes, then ``<?xml encoding?>``,
    else UTF-8). Any bytes yield a text (malformed input becomes U+FFFD); empty input or a
    page without text gives ``""``. The result never starts or ends with a code point
    ≤ U+0020 (Java's ``trim()``), but may with NBSP. ``engine`` picks the HTML parser
    (``ENGINES``; see the module docstring; every engine takes any depth). Raises
    :class:`~labeler.errors.ExtractError` for an unknown engine. ``budget`` bounds the html5lib engine's parse in seconds (default
    :data:`~labeler.extract.engine_html5lib.BUDGET_SECONDS`; past it, ``ExtractError``);
    the other engines need none.
    """
    if engine == "jsoup":
        decoded = decode_html(data, port_meta_charset)
        fast = fast_body_text(decoded)
        return port_body_text(decoded) if fast is None else fast
    if engine not in ("lexbor", "html5lib"):
        raise ExtractError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    from labeler.extract.prepass import prepare  # only these engines need it

    text, sentinels = prepare(decode_html(data))
    too_deep = (
        element_depth(text) > MAX_HTML5LIB_DEPTH
        if engine == "html5lib"
        else block_depth(text) > MAX_BLOCK_DEPTH
    )
    if too_deep:  # quadratic in depth for these parsers, linear for the port (depth.py)
        return port_body_text(decode_html(data, port_meta_charset))
    if engine == "html5lib":
        from labeler.extract import engine_html5lib

        return engine_html5lib.body_text(text, sentinels, budget)
    return engine_lexbor.body_text(text, sentinels)
