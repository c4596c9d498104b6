"""The table modes: InTable, InTableText, InCaption, InColumnGroup, InTableBody, InRow,
InCell.

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from ..attributes import equals_ignore_case
from ..token import CHARACTER, COMMENT, DOCTYPE, END_TAG, EOF, START_TAG, Character, Token
from ..token import Comment as CommentToken
from .constants import (
    InCaptionIgnore,
    InCellBody,
    InCellCol,
    InCellNames,
    InCellTable,
    InRowIgnore,
    InRowMissing,
    InTableAddBody,
    InTableBodyEndIgnore,
    InTableBodyExit,
    InTableEndErr,
    InTableEndIgnore,
    InTableFoster,
    InTableToBody,
    InTableToHead,
)
from .mode import NULL_STRING, WS, State, as_start, is_whitespace, normal_name, unwired

if TYPE_CHECKING:
    from ..tree_builder import HtmlTreeBuilder

# Sibling modules' modes, set by the package once every module is loaded.
InBody: State = unwired
InHead: State = unwired


def InTable(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == CHARACTER and tb.current_element().normal_name in InTableFoster:
        tb.pending_table_characters = []
        tb.mark_insertion_mode()
        tb.transition(InTableText)
        return tb.process(t)
    if typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
        return True
    if typ == DOCTYPE:
        return False
    if typ == START_TAG:
        start = as_start(t)
        name = normal_name(t)
        if name == "caption":
            tb.clear_stack_to_table_context()
            tb.insert_marker_to_formatting_elements()
            tb.insert(start)
            tb.transition(InCaption)
        elif name == "colgroup":
            tb.clear_stack_to_table_context()
            tb.insert(start)
            tb.transition(InColumnGroup)
        elif name == "col":
            tb.clear_stack_to_table_context()
            tb.process_start_tag("colgroup")
            return tb.process(t)
        elif name in InTableToBody:
            tb.clear_stack_to_table_context()
            tb.insert(start)
            tb.transition(InTableBody)
        elif name in InTableAddBody:
            tb.clear_stack_to_table_context()
            tb.process_start_tag("tbody")
            return tb.process(t)
        elif name == "table":
            if not tb.in_table_scope(name):  # ignore it
                return False
            tb.pop_stack_to_close(name)
            if not tb.reset_insertion_mode():
                # not per spec - but haven't transitioned out of table. so try something else
                tb.insert(start)
                return True
            return tb.process(t)
        elif name in InTableToHead:
            return tb.process_in(t, InHead)
        elif name == "input":
            attrs = start.attributes
            if not (attrs is not None and equals_ignore_case(attrs.get("type"), "hidden")):
                return _in_table_anything_else(t, tb)
            tb.insert_empty(start)
        elif name == "form":
            if tb.form_element is not None or tb.on_stack_named("template"):
                return False
            tb.insert_form(start, False, False)  # not added to stack. can associate to template
        else:
            return _in_table_anything_else(t, tb)
        return True
    if typ == END_TAG:
        name = normal_name(t)
        if name == "table":
            if not tb.in_table_scope(name):
                return False
            tb.pop_stack_to_close("table")
            tb.reset_insertion_mode()
        elif name in InTableEndErr:
            return False
        elif name == "template":
            tb.process_in(t, InHead)
        else:
            return _in_table_anything_else(t, tb)
        return True
    if typ == EOF:
        return True  # stops parsing
    return _in_table_anything_else(t, tb)


def _in_table_anything_else(t: Token, tb: HtmlTreeBuilder) -> bool:
    tb.foster_inserts = True
    tb.process_in(t, InBody)
    tb.foster_inserts = False
    return True


def InTableText(t: Token, tb: HtmlTreeBuilder) -> bool:
    if t.type == CHARACTER:
        data = cast(Character, t).data
        if data == NULL_STRING:
            return False
        tb.pending_table_characters.append(data)
        return True
    pending = tb.pending_table_characters
    if pending:
        for character in pending:
            if character.strip(WS):
                # InTable anything else section:
                if tb.current_element().normal_name in InTableFoster:
                    tb.foster_inserts = True
                    tb.process_in(Character(character), InBody)
                    tb.foster_inserts = False
                else:
                    tb.process_in(Character(character), InBody)
            else:
                tb.insert_character(Character(character))
        tb.pending_table_characters = []
    tb.transition(tb.original_state)
    return tb.process(t)


def InCaption(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == END_TAG and normal_name(t) == "caption":
        if not tb.in_table_scope("caption"):
            return False
        tb.generate_implied_end_tags()
        tb.pop_stack_to_close("caption")
        tb.clear_formatting_elements_to_last_marker()
        tb.transition(InTable)
    elif (typ == START_TAG and normal_name(t) in InCellCol) or (
        typ == END_TAG and normal_name(t) == "table"
    ):
        if tb.process_end_tag("caption"):
            return tb.process(t)
    elif typ == END_TAG and normal_name(t) in InCaptionIgnore:
        return False
    else:
        return tb.process_in(t, InBody)
    return True


def InColumnGroup(t: Token, tb: HtmlTreeBuilder) -> bool:
    if is_whitespace(t):
        tb.insert_character(cast(Character, t))
        return True
    typ = t.type
    if typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))
    elif typ == DOCTYPE:
        pass
    elif typ == START_TAG:
        name = normal_name(t)
        if name == "html":
            return tb.process_in(t, InBody)
        if name == "col":
            tb.insert_empty(as_start(t))
        elif name == "template":
            tb.process_in(t, InHead)
        else:
            return _in_column_group_anything_else(t, tb)
    elif typ == END_TAG:
        name = normal_name(t)
        if name == "colgroup":
            if not tb.current_element_is(name):
                return False
            tb.pop()
            tb.transition(InTable)
        elif name == "template":
            tb.process_in(t, InHead)
        else:
            return _in_column_group_anything_else(t, tb)
    elif typ == EOF:
        if tb.current_element_is("html"):
            return True  # stop parsing; frag case
        return _in_column_group_anything_else(t, tb)
    else:
        return _in_column_group_anything_else(t, tb)
    return True


def _in_column_group_anything_else(t: Token, tb: HtmlTreeBuilder) -> bool:
    if not tb.current_element_is("colgroup"):
        return False
    tb.pop()
    tb.transition(InTable)
    tb.process(t)
    return True


def InTableBody(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == START_TAG:
        name = normal_name(t)
        if name == "tr":
            tb.clear_stack_to_table_body_context()
            tb.insert(as_start(t))
            tb.transition(InRow)
        elif name in InCellNames:
            tb.process_start_tag("tr")
            return tb.process(t)
        elif name in InTableBodyExit:
            return _exit_table_body(t, tb)
        else:
            return tb.process_in(t, InTable)
    elif typ == END_TAG:
        name = normal_name(t)
        if name in InTableEndIgnore:
            if not tb.in_table_scope(name):
                return False
            tb.clear_stack_to_table_body_context()
            tb.pop()
            tb.transition(InTable)
        elif name == "table":
            return _exit_table_body(t, tb)
        elif name in InTableBodyEndIgnore:
            return False
        else:
            return tb.process_in(t, InTable)
    else:
        return tb.process_in(t, InTable)
    return True


def _exit_table_body(t: Token, tb: HtmlTreeBuilder) -> bool:
    if not (tb.in_table_scope("tbody") or tb.in_table_scope("thead") or tb.in_scope("tfoot")):
        return False  # frag case
    tb.clear_stack_to_table_body_context()
    tb.process_end_tag(tb.current_element().normal_name)  # tbody, tfoot, thead
    return tb.process(t)


def InRow(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == START_TAG:
        name = normal_name(t)
        if name in InCellNames:
            tb.clear_stack_to_table_row_context()
            tb.insert(as_start(t))
            tb.transition(InCell)
            tb.insert_marker_to_formatting_elements()
        elif name in InRowMissing:
            return _handle_missing_tr(t, tb)
        else:
            return tb.process_in(t, InTable)
    elif typ == END_TAG:
        name = normal_name(t)
        if name == "tr":
            if not tb.in_table_scope(name):
                return False  # frag
            tb.clear_stack_to_table_row_context()
            tb.pop()  # tr
            tb.transition(InTableBody)
        elif name == "table":
            return _handle_missing_tr(t, tb)
        elif name in InTableToBody:
            if not tb.in_table_scope(name) or not tb.in_table_scope("tr"):
                return False
            tb.clear_stack_to_table_row_context()
            tb.pop()  # tr
            tb.transition(InTableBody)
        elif name in InRowIgnore:
            return False
        else:
            return tb.process_in(t, InTable)
    else:
        return tb.process_in(t, InTable)
    return True


def _handle_missing_tr(t: Token, tb: HtmlTreeBuilder) -> bool:
    if tb.process_end_tag("tr"):
        return tb.process(t)
    return False


def InCell(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if typ == END_TAG:
        name = normal_name(t)
        if name in InCellNames:
            if not tb.in_table_scope(name):
                tb.transition(InRow)  # might not be in scope if empty: <td /> and fake end tag
                return False
            tb.generate_implied_end_tags()
            tb.pop_stack_to_close(name)
            tb.clear_formatting_elements_to_last_marker()
            tb.transition(InRow)
        elif name in InCellBody:
            return False
        elif name in InCellTable:
            if not tb.in_table_scope(name):
                return False
            _close_cell(tb)
            return tb.process(t)
        else:
            return tb.process_in(t, InBody)
    elif typ == START_TAG and normal_name(t) in InCellCol:
        if not (tb.in_table_scope("td") or tb.in_table_scope("th")):
            return False
        _close_cell(tb)
        return tb.process(t)
    else:
        return tb.process_in(t, InBody)
    return True


def _close_cell(tb: HtmlTreeBuilder) -> None:
    if tb.in_table_scope("td"):
        tb.process_end_tag("td")
    else:
        tb.process_end_tag("th")  # only here if th or td in scope


# --- select, template, after body, frames ------------------------------------------------
