"""The modes before the body: Initial, BeforeHtml, BeforeHead, InHead, InHeadNoscript,
AfterHead.

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..nodes import DocumentType
from ..token import COMMENT, DOCTYPE, END_TAG, START_TAG, Character, Doctype, Token
from ..token import Comment as CommentToken
from ..tokeniser_states import TokeniserState
from .constants import (
    AfterHeadBody,
    BeforeHtmlToHead,
    InBodyStartToHead,
    InHeadEmpty,
    InHeadEnd,
    InHeadNoScriptHead,
    InHeadNoscriptIgnore,
    InHeadRaw,
)
from .mode import (
    State,
    as_start,
    handle_rawtext,
    handle_rc_data,
    is_whitespace,
    normal_name,
    token_string,
    unwired,
)

if TYPE_CHECKING:
    from ..tree_builder import HtmlTreeBuilder

# Sibling modules' modes, set by the package once every module is loaded.
InBody: State = unwired
InFrameset: State = unwired
InTemplate: State = unwired
Text: State = unwired


def Initial(t: Token, tb: HtmlTreeBuilder) -> bool:
    if is_whitespace(t):
        return True  # ignore whitespace until we get the first content
    if t.type == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif t.type == DOCTYPE:
        d = cast(Doctype, t)
        doctype = DocumentType(
            _normalize_tag(d.name), d.public_identifier, d.system_identifier, d.pub_sys_key
        )
        tb.doc.append_child(doctype)
        if d.force_quirks:
            tb.doc.quirks = True
        tb.transition(BeforeHtml)
    else:
        tb.transition(BeforeHtml)
        return tb.process(t)  # re-process token
    return True


def _normalize_tag(name: str) -> str:
    """ParseSettings.normalizeTag (htmlDefault): trimmed, lower-cased."""
    return name.strip("".join(chr(c) for c in range(0x21))).lower()


def BeforeHtml(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == DOCTYPE:
        return False
    if typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif is_whitespace(t):
        tb.insert_character(cast(Character, t))  # out of spec - include whitespace
    elif typ == START_TAG and normal_name(t) == "html":
        tb.insert(as_start(t))
        tb.transition(BeforeHead)
    elif typ == END_TAG and normal_name(t) in BeforeHtmlToHead:
        return _before_html_anything_else(t, tb)
    elif typ == END_TAG:
        return False
    else:
        return _before_html_anything_else(t, tb)
    return True


def _before_html_anything_else(t: Token, tb: HtmlTreeBuilder) -> bool:
    tb.insert_start_tag("html")
    tb.transition(BeforeHead)
    return tb.process(t)


def BeforeHead(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if is_whitespace(t):
        tb.insert_character(cast(Character, t))  # out of spec - include whitespace
    elif typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE:
        return False
    elif typ == START_TAG and normal_name(t) == "html":
        return InBody(t, tb)  # does not transition
    elif typ == START_TAG and normal_name(t) == "head":
        head = tb.insert(as_start(t))
        tb.head_element = head
        tb.transition(InHead)
    elif typ == END_TAG and normal_name(t) in BeforeHtmlToHead:
        tb.process_start_tag("head")
        return tb.process(t)
    elif typ == END_TAG:
        return False
    else:
        tb.process_start_tag("head")
        return tb.process(t)
    return True


def InHead(t: Token, tb: HtmlTreeBuilder) -> bool:
    if is_whitespace(t):
        tb.insert_character(cast(Character, t))  # out of spec - include whitespace
        return True
    typ = t.type
    if typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE:
        return False
    elif typ == START_TAG:
        start = as_start(t)
        name = normal_name(t)
        if name == "html":
            return InBody(t, tb)
        if name in InHeadEmpty:
            tb.insert_empty(start)  # (jsoup also records the first <base href>)
        elif name == "meta":
            tb.insert_empty(start)
        elif name == "title":
            handle_rc_data(start, tb)
        elif name in InHeadRaw:
            handle_rawtext(start, tb)
        elif name == "noscript":
            tb.insert(start)
            tb.transition(InHeadNoscript)
        elif name == "script":
            tb.tokeniser.transition(TokeniserState.ScriptData)
            tb.mark_insertion_mode()
            tb.transition(Text)
            tb.insert(start)
        elif name == "head":
            return False
        elif name == "template":
            tb.insert(start)
            tb.insert_marker_to_formatting_elements()
            tb.frameset_ok = False
            tb.transition(InTemplate)
            tb.push_template_mode(InTemplate)
        else:
            return _in_head_anything_else(t, tb)
    elif typ == END_TAG:
        name = normal_name(t)
        if name == "head":
            tb.pop()
            tb.transition(AfterHead)
        elif name in InHeadEnd:
            return _in_head_anything_else(t, tb)
        elif name == "template":
            if tb.on_stack_named(name):
                tb.generate_implied_end_tags_thorough()
                tb.pop_stack_to_close(name)
                tb.clear_formatting_elements_to_last_marker()
                tb.pop_template_mode()
                tb.reset_insertion_mode()
        else:
            return False
    else:
        return _in_head_anything_else(t, tb)
    return True


def _in_head_anything_else(t: Token, tb: HtmlTreeBuilder) -> bool:
    tb.process_end_tag("head")
    return tb.process(t)


def InHeadNoscript(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == DOCTYPE:
        pass
    elif typ == START_TAG and normal_name(t) == "html":
        return tb.process_in(t, InBody)
    elif typ == END_TAG and normal_name(t) == "noscript":
        tb.pop()
        tb.transition(InHead)
    elif (
        is_whitespace(t)
        or typ == COMMENT
        or (typ == START_TAG and normal_name(t) in InHeadNoScriptHead)
    ):
        return tb.process_in(t, InHead)
    elif typ == END_TAG and normal_name(t) == "br":
        return _in_head_noscript_anything_else(t, tb)
    elif (typ == START_TAG and normal_name(t) in InHeadNoscriptIgnore) or typ == END_TAG:
        return False
    else:
        return _in_head_noscript_anything_else(t, tb)
    return True


def _in_head_noscript_anything_else(t: Token, tb: HtmlTreeBuilder) -> bool:
    # jsoup deviates from the spec: the token's text is inserted as character data.
    tb.insert_character(Character(token_string(t)))
    return True


def AfterHead(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if is_whitespace(t):
        tb.insert_character(cast(Character, t))
    elif typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE:
        pass
    elif typ == START_TAG:
        start = as_start(t)
        name = normal_name(t)
        if name == "html":
            return tb.process_in(t, InBody)
        if name == "body":
            tb.insert(start)
            tb.frameset_ok = False
            tb.transition(InBody)
        elif name == "frameset":
            tb.insert(start)
            tb.transition(InFrameset)
        elif name in InBodyStartToHead:
            head = tb.head_element
            assert head is not None
            tb.push(head)
            tb.process_in(t, InHead)
            tb.remove_from_stack(head)
        elif name == "head":
            return False
        else:
            _after_head_anything_else(t, tb)
    elif typ == END_TAG:
        name = normal_name(t)
        if name in AfterHeadBody:
            _after_head_anything_else(t, tb)
        elif name == "template":
            tb.process_in(t, InHead)
        else:
            return False
    else:
        _after_head_anything_else(t, tb)
    return True


def _after_head_anything_else(t: Token, tb: HtmlTreeBuilder) -> bool:
    tb.process_start_tag("body")
    tb.frameset_ok = True
    return tb.process(t)
