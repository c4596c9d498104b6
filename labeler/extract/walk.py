"""jsoup 1.15.3's ``Element.text()`` walk, shared by every parser engine.

The engines iterate their own trees (the hot loop stays engine-specific for speed) and feed
this module's :class:`TextAcc`, which holds the accumulated text and implements jsoup's
rules: block/``br`` separators, whitespace normalisation, invisible characters, and the
final ``String.trim()``. :func:`marked_text` handles text nodes carrying pre-pass sentinels.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from labeler.extract.sentinels import Sentinels


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# parser/Tag.java: every tag not listed here (unknown ones included) is inline.
BLOCK_TAGS = _words(
    "html head body frameset script noscript style meta link title frame noframes section nav"
    " aside hgroup header footer p h1 h2 h3 h4 h5 h6 ul ol pre div blockquote hr address figure"
    " figcaption form fieldset ins del dl dt dd li table caption thead tfoot tbody colgroup col"
    " tr th td video audio canvas details menu plaintext template article main svg math center"
    " dir applet marquee listing"
)
PRESERVE_TAGS = frozenset({"pre", "plaintext", "title", "textarea"})
# Only the parent plus five further ancestors are checked (Element.preserveWhitespace).
PRESERVE_DEPTH = 6
DATA_TAGS = frozenset({"script", "style"})  # their content is a DataNode: never text
RAW_TAGS = frozenset({"xmp", "iframe", "noembed", "noframes", "plaintext"})
RCDATA_TAGS = frozenset({"textarea", "title"})
# HtmlTreeBuilder's "special" tags: an open one stops </body> from popping body.
SPECIAL_TAGS = _words(
    "address applet area article aside base basefont bgsound blockquote body br button caption"
    " center col colgroup command dd details dir div dl dt embed fieldset figcaption figure"
    " footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input"
    " isindex li link listing marquee menu meta nav noembed noframes noscript object ol p param"
    " plaintext pre script section select style summary table tbody td template textarea tfoot"
    " th thead title tr ul wbr xmp"
)

# jsoup's StringUtil.isActuallyWhitespace: space, \t, \n, \f, \r and NBSP (U+00A0).
WS_RUN = re.compile("[ \t\n\f\r\u00a0]+")
INVISIBLE = re.compile("[\u200b\u00ad]")  # dropped without affecting whitespace state
JAVA_TRIM = "".join(chr(c) for c in range(0x21))  # String.trim(): code points <= U+0020


def java_trim(text: str) -> str:
    """Trim like Java's ``String.trim()``: only code points ≤ U+0020 (not NBSP, not NEL)."""
    return text.strip(JAVA_TRIM)


class TextAcc:
    """The text being built; ``space`` is jsoup's ``lastIsSpace`` (non-empty, ends in ' ')."""

    __slots__ = ("empty", "parts", "space")

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.space = False
        self.empty = True

    def separator(self) -> None:
        """A block/br head, or a block's tail before a text sibling: one space if needed."""
        if not self.empty and not self.space:
            self.parts.append(" ")
            self.space = True

    def raw(self, text: str) -> None:
        """Append whitespace-preserved text (pre/textarea/title/plaintext, CDATA) as is."""
        if text:
            self.parts.append(text)
            self.space = text[-1] == " "
            self.empty = False

    def normal(self, text: str) -> None:
        """Append text normalised as jsoup's ``appendNormalisedText`` does."""
        if "\u200b" in text or "\u00ad" in text:
            text = INVISIBLE.sub("", text)
        text = WS_RUN.sub(" ", text)
        if self.space and text[:1] == " ":
            text = text[1:]  # stripLeading: the accumulator already ends with a space
        if text:
            self.parts.append(text)
            self.space = text[-1] == " "
            self.empty = False

    def result(self) -> str:
        """The accumulated text, trimmed like Java's ``String.trim()``."""
        return java_trim("".join(self.parts))


class BlockMarks:
    """Block boundaries waiting for the next visible text, resolved to offsets into the
    accumulated (untrimmed) text: ``boundary()`` where a block opens or closes, ``sync()``
    after text is appended; ``offsets`` where text resumed after each boundary."""

    def __init__(self, acc: TextAcc) -> None:
        self.acc = acc
        self.seen = 0  # parts already measured
        self.length = 0  # their total length
        self.pending = False
        self.offsets: list[int] = []

    def boundary(self) -> None:
        self.sync()
        self.pending = True

    def sync(self) -> None:
        parts = self.acc.parts
        while self.seen < len(parts):
            part = parts[self.seen]
            # a lone space right after a boundary is the block separator, not content
            if self.pending and part != " ":
                self.offsets.append(self.length)
                self.pending = False
            self.length += len(part)
            self.seen += 1


class SentinelMaps:
    """Translation tables restoring sentinel characters in each kind of text context."""

    def __init__(self, s: Sentinels) -> None:
        self.s = s
        self.any = re.compile(f"[{re.escape(s.chars)}]")
        common = {
            s.amp: "&",
            s.cr: "\r",
            s.lt: "<",
            s.empty: "",
            s.prelf: "",
            s.ab: "",
            s.abh: "",
            s.nultok: "",
        }
        self.data = str.maketrans({**common, s.nul: "\0", s.zero: "&", s.cdo: "", s.cdc: ""})
        # Raw text and RCDATA: the tokenizer turns NUL into U+FFFD and keeps CDATA literal.
        rest = {s.nul: "\ufffd", s.cdo: "<![CDATA[", s.cdc: "]]>"}
        self.raw = str.maketrans({**common, **rest, s.zero: "&"})
        self.zero_ref = re.compile(re.escape(s.zero) + r"#(?:[xX][0-9A-Fa-f]+|[0-9]+);?")
        self.after_body = re.compile(re.escape(s.ab) + "[ \t\n\f\r]*")
        self.after_html = re.compile(re.escape(s.abh) + "[ \t\n\f\r]*")
        self.pre_lf = s.prelf + "\n"
        self.cdata = re.compile(f"{re.escape(s.cdo)}(.*?)(?:{re.escape(s.cdc)}|$)", re.S)


def marked_text(
    acc: TextAcc,
    text: str,
    maps: SentinelMaps,
    parent: str,
    preserved: bool,
    after_block: bool,
    body_popped: Callable[[], bool],
) -> None:
    """Emit a text node that contains sentinels (slow path, rare).

    ``parent`` is the parent element's tag name; ``after_block`` whether the previous
    sibling is a block element (jsoup's tail rule, applied only if the node survives);
    ``body_popped`` tells whether jsoup would have popped body at the ``</body>`` a marked
    whitespace token followed (then that whitespace is not in body at all).
    """
    s = maps.s
    if parent in RAW_TAGS or parent in RCDATA_TAGS:
        if after_block:
            acc.separator()
        if parent in RCDATA_TAGS:
            text = maps.zero_ref.sub("\0", text)
        text = text.translate(maps.raw)
        acc.raw(text) if preserved else acc.normal(text)
        return
    if s.ab in text or s.abh in text:
        text = maps.after_html.sub("", text)
        if s.ab in text:
            text = maps.after_body.sub("", text) if body_popped() else text.replace(s.ab, "")
        if not text:
            return
    if maps.pre_lf in text:
        text = text.replace(maps.pre_lf, "")
    if maps.zero_ref.search(text):
        text = maps.zero_ref.sub(s.nul, text)
    if text == s.nul or not text.strip(s.nultok):
        return  # a character token that is exactly NUL is dropped by jsoup's tree builder
    if after_block:
        acc.separator()
    pos = 0
    for m in maps.cdata.finditer(text):
        _plain(acc, text[pos : m.start()], maps, preserved)
        acc.raw(m.group(1).translate(maps.data))  # CDATA text is always kept verbatim
        pos = m.end()
    _plain(acc, text[pos:], maps, preserved)


def _plain(acc: TextAcc, text: str, maps: SentinelMaps, preserved: bool) -> None:
    if text:
        text = text.translate(maps.data)
        acc.raw(text) if preserved else acc.normal(text)


def popped_chain(names: list[str]) -> bool:
    """Whether jsoup pops body at ``</body>`` with these elements open above it (top first).

    jsoup closes body only when no "special" element is open between it and the top.
    """
    return not any(name in SPECIAL_TAGS for name in names)
