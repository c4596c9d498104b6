"""The modes of raw text, select and template: Text, InSelect, InSelectInTable, InTemplate,
and ForeignContent (empty in jsoup 1.15.3).

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..token import CHARACTER, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, Character, Token
from ..token import Comment as CommentToken
from .constants import InSelectEnd, InSelectTableEnd, InTemplateToHead, InTemplateToTable
from .mode import NULL_STRING, State, as_start, normal_name, unwired

if TYPE_CHECKING:
    from ..tree_builder import HtmlTreeBuilder

# Sibling modules' modes, set by the package once every module is loaded.
InBody: State = unwired
InColumnGroup: State = unwired
InHead: State = unwired
InRow: State = unwired
InTable: State = unwired
InTableBody: State = unwired


def Text(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == CHARACTER:
        tb.insert_character(cast(Character, t))
    elif typ == EOF:
        tb.pop()  # if current node is script: already started
        tb.transition(tb.original_state)
        return tb.process(t)
    elif typ == END_TAG:
        tb.pop()
        tb.transition(tb.original_state)
    return True


def InSelect(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == CHARACTER:
        c = cast(Character, t)
        if c.data == NULL_STRING:
            return False
        tb.insert_character(c)
    elif typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE:
        return False
    elif typ == START_TAG:
        start = as_start(t)
        name = normal_name(t)
        if name == "html":
            return tb.process_in(start, InBody)
        if name == "option":
            if tb.current_element_is("option"):
                tb.process_end_tag("option")
            tb.insert(start)
        elif name == "optgroup":
            if tb.current_element_is("option"):
                tb.process_end_tag("option")  # pop option and flow to pop optgroup
            if tb.current_element_is("optgroup"):
                tb.process_end_tag("optgroup")
            tb.insert(start)
        elif name == "select":
            return tb.process_end_tag("select")
        elif name in InSelectEnd:
            if not tb.in_select_scope("select"):
                return False  # frag
            tb.process_end_tag("select")
            return tb.process(start)
        elif name in ("script", "template"):
            return tb.process_in(t, InHead)
        else:
            return False
    elif typ == END_TAG:
        name = normal_name(t)
        if name == "optgroup":
            if tb.current_element_is("option"):
                above = tb.above_on_stack(tb.current_element())
                if above is not None and above.normal_name == "optgroup":
                    tb.process_end_tag("option")
            if tb.current_element_is("optgroup"):
                tb.pop()
        elif name == "option":
            if tb.current_element_is("option"):
                tb.pop()
        elif name == "select":
            if not tb.in_select_scope(name):
                return False
            tb.pop_stack_to_close(name)
            tb.reset_insertion_mode()
        elif name == "template":
            return tb.process_in(t, InHead)
        else:
            return False
    elif typ == EOF:
        pass
    else:
        return False
    return True


def InSelectInTable(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == START_TAG and normal_name(t) in InSelectTableEnd:
        tb.pop_stack_to_close("select")
        tb.reset_insertion_mode()
        return tb.process(t)
    if typ == END_TAG and normal_name(t) in InSelectTableEnd:
        if tb.in_table_scope(normal_name(t)):
            tb.pop_stack_to_close("select")
            tb.reset_insertion_mode()
            return tb.process(t)
        return False
    return tb.process_in(t, InSelect)


def InTemplate(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ in (CHARACTER, COMMENT, DOCTYPE):
        tb.process_in(t, InBody)
    elif typ == START_TAG:
        name = normal_name(t)
        if name in InTemplateToHead:
            tb.process_in(t, InHead)
        else:
            if name in InTemplateToTable:
                mode: State = InTable
            elif name == "col":
                mode = InColumnGroup
            elif name == "tr":
                mode = InTableBody
            elif name in ("td", "th"):
                mode = InRow
            else:
                mode = InBody
            tb.pop_template_mode()
            tb.push_template_mode(mode)
            tb.transition(mode)
            return tb.process(t)
    elif typ == END_TAG:
        if normal_name(t) == "template":
            tb.process_in(t, InHead)
        else:
            return False
    elif typ == EOF:
        if not tb.on_stack_named("template"):  # stop parsing
            return True
        tb.pop_stack_to_close("template")
        tb.clear_formatting_elements_to_last_marker()
        tb.pop_template_mode()
        tb.reset_insertion_mode()
        # spec deviation: if we did not break out of Template, stop processing (bounded)
        if tb.state is not InTemplate and tb.template_mode_size() < 12:
            return tb.process(t)
    return True


def ForeignContent(t: Token, tb: HtmlTreeBuilder) -> bool:
    return True  # not implemented in jsoup 1.15.3 (never reached)
