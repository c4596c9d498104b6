"""Page text exactly as jsoup 1.15.3 gives it: ``Jsoup.parse(file, null).body().text()``.

Pipeline: :func:`~labeler.extract.charset.decode_html` (BOM, meta, Java decoders), then
:func:`~labeler.extract.prepass.prepare` (rewrites the few inputs where a WHATWG tree differs
from jsoup's), then an engine parses and walks the tree with jsoup's text algorithm
(:mod:`labeler.extract.walk`). See ``jsoup-text.md`` in the design notes for the rules.

Bounds: a page nesting block elements deeper than
:data:`~labeler.extract.depth.MAX_BLOCK_DEPTH` is refused (the parsers are quadratic in that
depth), and the html5lib engine gives up past its CPU-time budget. Known differences from
the jar, with minimal inputs, are listed under "Known gaps" in :mod:`labeler.extract.prepass`.
"""

from __future__ import annotations

from collections.abc import Callable

from labeler.errors import ExtractError
from labeler.extract import engine_html5lib, engine_lexbor
from labeler.extract.charset import decode_html
from labeler.extract.depth import check_depth
from labeler.extract.prepass import prepare
from labeler.extract.sentinels import Sentinels

ENGINES = ("lexbor", "html5lib")
DEFAULT_ENGINE = "lexbor"

_ENGINES: dict[str, Callable[[str, Sentinels | None], str]] = {
    "lexbor": engine_lexbor.body_text,
    "html5lib": engine_html5lib.body_text,
}


def jsoup_body_text(
    data: bytes, engine: str = DEFAULT_ENGINE, *, budget: float | None = None
) -> str:
    """Return what jsoup 1.15.3's ``Jsoup.parse(file, null).body().text()`` returns.

    ``data`` is the raw file; the charset is detected as jsoup does (BOM, then
    ``<meta charset>``/``http-equiv`` in the first 5,119 bytes, then ``<?xml encoding?>``,
    else UTF-8). Any bytes yield a text (malformed input becomes U+FFFD); empty input or a
    page without text gives ``""``. The result never starts or ends with a code point
    ≤ U+0020 (Java's ``trim()``), but may with NBSP. ``engine`` picks the HTML parser
    (``ENGINES``); every engine returns the same text. Raises
    :class:`~labeler.errors.ExtractError` for an unknown engine, and for a page nesting
    block elements deeper than :data:`~labeler.extract.depth.MAX_BLOCK_DEPTH` (the
    parsers' time grows with the square of that depth). ``budget`` bounds the html5lib
    engine's parse in seconds (default
    :data:`~labeler.extract.engine_html5lib.BUDGET_SECONDS`; past it, ``ExtractError``);
    lexbor needs none.
    """
    try:
        run = _ENGINES[engine]
    except KeyError:
        raise ExtractError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}") from None
    text, sentinels = prepare(decode_html(data))
    check_depth(text)
    if engine == "html5lib":
        return engine_html5lib.body_text(text, sentinels, budget)
    return run(text, sentinels)
