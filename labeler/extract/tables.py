"""Keep text met in table context where jsoup 1.15.3 puts it.

A WHATWG parser foster-parents non-whitespace text found directly in ``table``/``tbody``/
``tr`` (``<table>x<tr>`` puts ``x`` before the table); jsoup 1.15.3 never fosters character
tokens and appends them to the current element. To get jsoup's tree from a WHATWG parser,
the pre-pass follows table context with a small tag-stack model and wraps each such text
token in a *carrier*: ``<style>`` + sentinel + text + ``</style>``. Both WHATWG parsers
insert ``<style>`` in place in table context, and its raw content cannot be re-parsed; the
walk treats a carrier as the text node jsoup has there. Character references are decoded
here with jsoup's rules, since style content is never decoded.
"""

from __future__ import annotations

import re

from labeler.extract.entities import jsoup_ref_text

_TABLE = re.compile(r"<table(?=[\s/>])", re.I)
# Table-structure tags, plus what must be stepped over whole (comments, raw-text elements).
_STRUCTURE = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(?P<raw>script|style|xmp|iframe|noembed|noframes|textarea|title)(?=[\s/>])[^>]*>"
    r".*?(?:</(?P=raw)\s*>|\Z)|<plaintext(?=[\s/>]).*"
    r"|<(?P<end>/?)(?P<name>table|td|th|caption|tr|tbody|thead|tfoot|colgroup|col)"
    r"(?=[\s/>])[^>]*>",
    re.I | re.S,
)
# Inside a stretch of table context: any tag, or a text token.
_TOKEN = re.compile(
    r"<(?P<end>/?)(?P<name>[A-Za-z][^\t\n\f\r />]*)[^>]*>"
    r"|(?P<text>(?:[^<]|<(?![A-Za-z/!?]))+)"
    r"|<[!?/][^>]*>?",
    re.S,
)
_VOID_NAMES = (
    "area base basefont bgsound br col embed form frame hr img input keygen link meta param"
    " source track wbr image isindex html head body frameset"
)
_NO_CONTENT = frozenset(_VOID_NAMES.split())  # void, or ignored in table context
_CELL = frozenset({"td", "th", "caption"})
_WS = "\t\n\f\r "


def wrap_table_text(text: str, carrier_mark: str, lt: str, nul: str, cdata: str) -> str:
    """Wrap non-whitespace text tokens in table context into style carriers.

    ``carrier_mark`` starts each carrier's content; ``lt`` and ``nul`` replace '<' and NUL
    in the decoded text (a decoded '</style>' must not end the carrier); characters in
    ``cdata`` (the CDATA markers) are dropped, since jsoup's table text buffer turns CDATA
    into plain text.
    """
    if _TABLE.search(text) is None:
        return text
    # One entry per open table: "T" while text would be fostered, "C" in a cell/caption.
    stack: list[str] = []
    out: list[str] = []
    pos = 0
    for m in _STRUCTURE.finditer(text):
        stretch = text[pos : m.start()]
        if stack and stack[-1] == "T" and stretch.strip(_WS):
            stretch = _wrap_stretch(stretch, carrier_mark, lt, nul, cdata)
        out.append(stretch)
        out.append(m.group(0))
        pos = m.end()
        if m.group("name") is not None:
            _track(stack, m.group("name").lower(), bool(m.group("end")))
    tail = text[pos:]
    if stack and stack[-1] == "T" and tail.strip(_WS):
        tail = _wrap_stretch(tail, carrier_mark, lt, nul, cdata)
    out.append(tail)
    return "".join(out)


def _wrap_stretch(stretch: str, mark: str, lt: str, nul: str, cdata: str) -> str:
    """Wrap the text tokens of a stretch in table context that are not inside an element."""
    opened: list[str] = []  # fostered elements: text inside them is not table text
    out: list[str] = []
    for m in _TOKEN.finditer(stretch):
        token = m.group(0)
        name = m.group("name")
        if m.group("text") is not None:
            if not opened and token.strip(_WS):
                for ch in cdata:
                    token = token.replace(ch, "")
                decoded = jsoup_ref_text(token).replace("<", lt).replace("\0", nul)
                token = f"<style>{mark}{decoded}</style>"
        elif name is not None:
            name = name.lower()
            if not m.group("end"):
                if name not in _NO_CONTENT:
                    opened.append(name)
            elif name in opened:
                del opened[len(opened) - 1 - opened[::-1].index(name) :]
        out.append(token)
    return "".join(out)


def _track(stack: list[str], name: str, end: bool) -> None:
    top = stack[-1] if stack else ""
    if not end:
        if name == "table":
            if top == "T":
                stack.pop()  # a table start tag in table context closes the open table
            stack.append("T")
        elif name in _CELL and top:
            stack[-1] = "C"
        elif top == "C" and name not in _CELL:
            stack[-1] = "T"  # tr, tbody, col... close the open cell
    elif name == "table":
        if stack:
            stack.pop()
    elif top == "C" and name not in ("colgroup", "col"):
        stack[-1] = "T"
