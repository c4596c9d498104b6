"""What the insertion modes share: the ``State`` type (a mode is a function of the token and
the builder returning whether the token was processed), ``unwired`` (the placeholder a
module's sibling modes hold until the package sets them), token casts, whitespace,
``handle_rc_data`` / ``handle_rawtext``, and ``token_string`` (Token.toString, only for
InHeadNoscript's "anything else").

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from ..attributes import Attributes, equals_ignore_case
from ..token import CHARACTER, START_TAG, Character, StartTag, Token
from ..tokeniser_states import TokeniserState
from .constants import BOOLEAN_ATTRIBUTES

if TYPE_CHECKING:
    from ..tree_builder import HtmlTreeBuilder

State = Callable[[Token, "HtmlTreeBuilder"], bool]

WS = " \t\n\f\r"  # StringUtil.isWhitespace
NULL_STRING = "\x00"


def is_whitespace(t: Token) -> bool:
    """A character token that is blank (StringUtil.isBlank: empty or only ' \\t\\n\\f\\r')."""
    return t.type == CHARACTER and not cast(Character, t).data.strip(WS)


def as_start(t: Token) -> StartTag:
    return cast(StartTag, t)


def normal_name(t: Token) -> str:
    """The normal name of a tag token (always set on tokens that reach the builder)."""
    return cast(str, cast(StartTag, t).normal_name)


def unwired(t: Token, tb: HtmlTreeBuilder) -> bool:
    """A sibling module's mode before the package has set it (never called)."""
    raise AssertionError("an insertion mode used before tree_states wired its modules")


Text: State = unwired  # set by the package once every module is loaded


def handle_rc_data(start: StartTag, tb: HtmlTreeBuilder) -> None:
    tb.tokeniser.transition(TokeniserState.Rcdata)
    tb.mark_insertion_mode()
    tb.transition(Text)
    tb.insert(start)


def handle_rawtext(start: StartTag, tb: HtmlTreeBuilder) -> None:
    tb.tokeniser.transition(TokeniserState.Rawtext)
    tb.mark_insertion_mode()
    tb.transition(Text)
    tb.insert(start)


# --- Token.toString (only for InHeadNoscript's "anything else") ---------------------------

_KEY_INVALID = frozenset([chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7F, 0xA0)])
_KEY_INVALID = _KEY_INVALID | frozenset(" \"'/=")


def _escape_attribute(value: str) -> str:
    """Entities.escape(inAttribute=true, base mode, UTF-8) for an attribute value."""
    out = []
    for c in value:
        if c == "&":
            out.append("&amp;")
        elif c == "\u00a0":
            out.append("&nbsp;")
        elif c == '"':
            out.append("&quot;")
        elif c in "\t\n\r":
            out.append(c)
        elif c < " ":
            out.append(f"&#x{ord(c):x};")
        else:
            out.append(c)
    return "".join(out)


def _attributes_html(attrs: Attributes) -> str:
    """Attributes.html(): `` key="value"`` per attribute (boolean ones collapsed)."""
    parts = []
    for key, val in zip(attrs.keys, attrs.vals, strict=True):
        if len(key) > 1 and key[0] == "/":
            continue  # internal key
        if any(c in _KEY_INVALID for c in key):
            key = "".join(c for c in key if c not in _KEY_INVALID)
            if not key:
                continue
        parts.append(" ")
        parts.append(key)
        collapse = val is None or (
            (val == "" or equals_ignore_case(val, key)) and key.lower() in BOOLEAN_ATTRIBUTES
        )
        if not collapse:
            parts.append('="')
            parts.append(_escape_attribute(val or ""))
            parts.append('"')
    return "".join(parts)


def token_string(t: Token) -> str:
    """Token.toString() as jsoup 1.15.3 renders each kind."""
    if t.type == START_TAG:
        start = as_start(t)
        name = start.tag_name if start.tag_name is not None else "[unset]"
        if start.attributes is not None and start.attributes.size() > 0:
            return f"<{name} {_attributes_html(start.attributes)}>"
        return f"<{name}>"
    return str(t)
