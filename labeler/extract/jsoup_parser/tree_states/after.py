"""The modes after the body and of framesets: AfterBody, InFrameset, AfterFrameset,
AfterAfterBody, AfterAfterFrameset.

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..token import COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, Character, Token
from ..token import Comment as CommentToken
from .mode import State, as_start, is_whitespace, normal_name, unwired

if TYPE_CHECKING:
    from ..tree_builder import HtmlTreeBuilder

# Sibling modules' modes, set by the package once every module is loaded.
InBody: State = unwired
InHead: State = unwired


def AfterBody(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if is_whitespace(t):
        tb.insert_character(cast(Character, t))  # out of spec - include whitespace
    elif typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))  # into html node
    elif typ == DOCTYPE:
        return False
    elif typ == START_TAG and normal_name(t) == "html":
        return tb.process_in(t, InBody)
    elif typ == END_TAG and normal_name(t) == "html":
        if tb.on_stack_named("html"):
            tb.pop_stack_to_close("html")
        tb.transition(AfterAfterBody)
    elif typ == EOF:
        pass  # chillax! we're done
    else:
        tb.reset_body()
        return tb.process(t)
    return True


def InFrameset(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if is_whitespace(t):
        tb.insert_character(cast(Character, t))
    elif typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE:
        return False
    elif typ == START_TAG:
        name = normal_name(t)
        if name == "html":
            return tb.process_in(t, InBody)
        if name == "frameset":
            tb.insert(as_start(t))
        elif name == "frame":
            tb.insert_empty(as_start(t))
        elif name == "noframes":
            return tb.process_in(t, InHead)
        else:
            return False
    elif typ == END_TAG and normal_name(t) == "frameset":
        if tb.current_element_is("html"):  # frag
            return False
        tb.pop()
        if not tb.current_element_is("frameset"):
            tb.transition(AfterFrameset)
    elif typ == EOF:
        pass
    else:
        return False
    return True


def AfterFrameset(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if is_whitespace(t):
        tb.insert_character(cast(Character, t))
    elif typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE:
        return False
    elif typ == START_TAG and normal_name(t) == "html":
        return tb.process_in(t, InBody)
    elif typ == END_TAG and normal_name(t) == "html":
        tb.transition(AfterAfterFrameset)
    elif typ == START_TAG and normal_name(t) == "noframes":
        return tb.process_in(t, InHead)
    elif typ == EOF:
        pass  # cool your heels, we're complete
    else:
        return False
    return True


def AfterAfterBody(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE or (typ == START_TAG and normal_name(t) == "html"):
        return tb.process_in(t, InBody)
    elif is_whitespace(t):
        tb.insert_character(cast(Character, t))
    elif typ == EOF:
        pass  # nice work chuck
    else:
        tb.reset_body()
        return tb.process(t)
    return True


def AfterAfterFrameset(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE or is_whitespace(t) or (typ == START_TAG and normal_name(t) == "html"):
        return tb.process_in(t, InBody)
    elif typ == EOF:
        pass  # nice work chuck
    elif typ == START_TAG and normal_name(t) == "noframes":
        return tb.process_in(t, InHead)
    else:
        return False
    return True
