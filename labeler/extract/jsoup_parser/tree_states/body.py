"""The InBody mode: characters, comments and the doctype here; start and end tags dispatch on
the normal name through ``IN_BODY_START`` (:mod:`.body_start`) and ``IN_BODY_END``
(:mod:`.body_end`).

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..token import CHARACTER, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, Character, StartTag, Token
from ..token import Comment as CommentToken
from .body_end import IN_BODY_END, in_body_end_other
from .body_start import IN_BODY_START, in_body_start_other
from .mode import NULL_STRING, WS, State, unwired

if TYPE_CHECKING:
    from ..tree_builder import HtmlTreeBuilder

# Sibling modules' modes, set by the package once every module is loaded.
InTemplate: State = unwired


def InBody(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == CHARACTER:
        c = cast(Character, t)
        data = c.data
        if data == NULL_STRING:
            return False
        fe = tb.formatting_elements
        if fe and fe[-1] is not None:  # else reconstructFormattingElements has nothing to do
            tb.reconstruct_formatting_elements()
        tb.insert_character(c)
        if not (tb.frameset_ok and not data.strip(WS)):
            tb.frameset_ok = False
    elif typ == START_TAG:
        start = cast(StartTag, t)
        handler = IN_BODY_START.get(start.normal_name)  # type: ignore[arg-type]
        if handler is None:
            return in_body_start_other(start, tb)
        return handler(start, tb)
    elif typ == END_TAG:
        name = t.normal_name  # type: ignore[attr-defined]
        end_handler = IN_BODY_END.get(name)
        if end_handler is None:
            return in_body_end_other(t, name, tb)
        return end_handler(t, name, tb)
    elif typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE:
        return False
    elif typ == EOF and tb.tmpl_insert_mode:
        return tb.process_in(t, InTemplate)
    return True
