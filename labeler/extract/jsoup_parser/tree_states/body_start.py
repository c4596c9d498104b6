"""InBody's start tags: one handler per tag name in ``IN_BODY_START``, the rest in
``in_body_start_other``.

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from ..attributes import Attributes, equals_ignore_case
from ..nodes import Element
from ..tags import KNOWN_TAGS
from ..token import Character, StartTag
from ..tokeniser_states import TokeniserState
from .constants import (
    MAX_STACK_SCAN,
    TAG_SEARCH_SPECIAL,
    DdDt,
    Headings,
    InBodyStartApplets,
    InBodyStartDrop,
    InBodyStartInputAttribs,
    InBodyStartLiBreakers,
    InBodyStartMedia,
    InBodyStartPClosers,
    InBodyStartToHead,
)
from .mode import State, handle_rawtext, unwired

if TYPE_CHECKING:
    from ..tree_builder import HtmlTreeBuilder

# Sibling modules' modes, set by the package once every module is loaded.
InBody: State = unwired
InFrameset: State = unwired
InHead: State = unwired
InSelect: State = unwired
InSelectInTable: State = unwired
InTable: State = unwired
Text: State = unwired
TABLE_STATES: frozenset[State] = frozenset()  # InTable, InCaption, ..., set likewise


StartHandler = Callable[[StartTag, "HtmlTreeBuilder"], bool]


def _reconstruct(tb: HtmlTreeBuilder) -> None:
    """reconstructFormattingElements, skipped without a call when it has nothing to do.

    It has nothing to do when there are no entries, the last is a marker, or the last is
    the current node (the first of its own early exits).
    """
    fe = tb.formatting_elements
    if fe:
        last = fe[-1]
        if last is not None:
            stack = tb.stack
            if not stack or stack[-1] is not last:
                tb.reconstruct_formatting_elements()


def _start_a(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.get_active_formatting_element("a") is not None:
        tb.process_end_tag("a")
        remaining_a = tb.get_from_stack("a")  # still on stack?
        if remaining_a is not None:
            tb.remove_from_active_formatting_elements(remaining_a)
            tb.remove_from_stack(remaining_a)
    fe = tb.formatting_elements
    if fe and fe[-1] is not None:
        _reconstruct(tb)
    el = tb.insert(start)
    tb.push_active_formatting_elements(el)
    return True


def _start_span(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    fe = tb.formatting_elements
    if fe and fe[-1] is not None:
        _reconstruct(tb)
    tb.insert(start)
    return True


def _start_li(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.frameset_ok = False
    stack = tb.stack
    for i in range(len(stack) - 1, 0, -1):
        el = stack[i]
        if el.normal_name == "li":
            if i == len(stack) - 1 and tb.state is InBody:
                # what InBody does with </li> when li is the current node: in list item
                # scope at once, no implied end tags, pop it
                stack.pop()
            else:
                tb.process_end_tag("li")
            break
        if el.normal_name in TAG_SEARCH_SPECIAL and el.normal_name not in InBodyStartLiBreakers:
            break
    if tb.in_button_scope("p"):
        tb.process_end_tag("p")
    tb.insert(start)
    return True


def _merge_attributes(target: Element, start: StartTag) -> None:
    attrs = start.attributes
    if attrs is None:
        return
    for key, value in attrs:
        if not target.has_attr(key):
            if target.attributes is None:
                target.attributes = Attributes()
            target.attributes.put(key, value)


def _start_html(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.on_stack_named("template"):
        return False  # ignore
    stack = tb.stack
    if stack:  # merge attributes onto real html (if present)
        _merge_attributes(stack[0], start)
    return True


def _start_body(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    stack = tb.stack
    if (
        len(stack) == 1
        or (len(stack) > 2 and stack[1].normal_name != "body")
        or tb.on_stack_named("template")
    ):
        return False  # ignore
    tb.frameset_ok = False
    if start.attributes is not None:
        body = tb.get_from_stack("body")
        if body is not None:
            _merge_attributes(body, start)
    return True


def _start_frameset(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    stack = tb.stack
    if len(stack) == 1 or (len(stack) > 2 and stack[1].normal_name != "body"):
        return False  # ignore
    if not tb.frameset_ok:
        return False  # ignore frameset
    second = stack[1]
    if second.parent is not None:
        second.remove()
    del stack[1:]  # pop up to html element
    tb.insert(start)
    tb.transition(InFrameset)
    return True


def _start_form(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.form_element is not None and not tb.on_stack_named("template"):
        return False
    if tb.in_button_scope("p"):
        tb.close_element("p")
    tb.insert_form(start, True, True)  # won't associate to any template
    return True


def _start_plaintext(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.in_button_scope("p"):
        tb.process_end_tag("p")
    tb.insert(start)
    tb.tokeniser.transition(TokeniserState.PLAINTEXT)  # once in, never gets out
    return True


def _start_button(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.in_button_scope("button"):
        tb.process_end_tag("button")  # close and reprocess
        tb.process(start)
    else:
        tb.reconstruct_formatting_elements()
        tb.insert(start)
        tb.frameset_ok = False
    return True


def _start_nobr(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.reconstruct_formatting_elements()
    if tb.in_scope("nobr"):
        tb.process_end_tag("nobr")
        tb.reconstruct_formatting_elements()
    el = tb.insert(start)
    tb.push_active_formatting_elements(el)
    return True


def _start_table(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if not tb.doc.quirks and tb.in_button_scope("p"):
        tb.process_end_tag("p")
    tb.insert(start)
    tb.frameset_ok = False
    tb.transition(InTable)
    return True


def _start_input(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.reconstruct_formatting_elements()
    el = tb.insert_empty(start)
    if not equals_ignore_case(el.attr("type"), "hidden"):
        tb.frameset_ok = False
    return True


def _start_hr(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.in_button_scope("p"):
        tb.process_end_tag("p")
    tb.insert_empty(start)
    tb.frameset_ok = False
    return True


def _start_image(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.get_from_stack("svg") is None:
        return tb.process(start.set_name("img"))  # change <image> to <img>, unless in svg
    tb.insert(start)
    return True


def _start_isindex(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.form_element is not None:
        return False
    tb.process_start_tag("form")
    if start.has_attribute("action"):
        form = tb.form_element
        if form is not None:
            assert start.attributes is not None
            action = start.attributes.get("action")
            if form.attributes is None:
                form.attributes = Attributes()
            form.attributes.put("action", action)
    tb.process_start_tag("hr")
    tb.process_start_tag("label")
    prompt = (
        start.attributes.get("prompt")
        if start.attributes is not None and start.has_attribute("prompt")
        else "This is a searchable index. Enter search keywords: "
    )
    tb.process(Character(prompt))
    input_attribs = Attributes()
    if start.attributes is not None:
        for key, value in start.attributes:
            if key not in InBodyStartInputAttribs:
                input_attribs.put(key, value)
    input_attribs.put("name", "isindex")
    tb.process_start_tag("input", input_attribs)
    tb.process_end_tag("label")
    tb.process_start_tag("hr")
    tb.process_end_tag("form")
    return True


def _start_textarea(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.insert(start)
    if not start.self_closing:
        tb.tokeniser.transition(TokeniserState.Rcdata)
        tb.mark_insertion_mode()
        tb.frameset_ok = False
        tb.transition(Text)
    return True


def _start_xmp(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.in_button_scope("p"):
        tb.process_end_tag("p")
    tb.reconstruct_formatting_elements()
    tb.frameset_ok = False
    handle_rawtext(start, tb)
    return True


def _start_iframe(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.frameset_ok = False
    handle_rawtext(start, tb)
    return True


def _start_noembed(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    handle_rawtext(start, tb)
    return True


def _start_select(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.reconstruct_formatting_elements()
    tb.insert(start)
    tb.frameset_ok = False
    if start.self_closing:
        return True  # don't change states if not added to the stack
    if tb.state in TABLE_STATES:
        tb.transition(InSelectInTable)
    else:
        tb.transition(InSelect)
    return True


def _start_foreign(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    fe = tb.formatting_elements
    if fe and fe[-1] is not None:
        _reconstruct(tb)
    tb.insert(start)
    return True


def _start_heading(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.in_button_scope("p"):
        tb.process_end_tag("p")
    if tb.current_element().normal_name in Headings:
        tb.pop()
    tb.insert(start)
    return True


def _start_pre(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.in_button_scope("p"):
        tb.process_end_tag("p")
    tb.insert(start)
    tb.reader.match_consume("\n")  # ignore LF if next token
    tb.frameset_ok = False
    return True


def _start_dd_dt(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.frameset_ok = False
    stack = tb.stack
    bottom = len(stack) - 1
    upper = bottom - MAX_STACK_SCAN if bottom >= MAX_STACK_SCAN else 0
    for i in range(bottom, upper - 1, -1):
        el = stack[i]
        if el.normal_name in DdDt:
            tb.process_end_tag(el.normal_name)
            break
        if el.normal_name in TAG_SEARCH_SPECIAL and el.normal_name not in InBodyStartLiBreakers:
            break
    if tb.in_button_scope("p"):
        tb.process_end_tag("p")
    tb.insert(start)
    return True


def _start_option(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.current_element_is("option"):
        tb.process_end_tag("option")
    tb.reconstruct_formatting_elements()
    tb.insert(start)
    return True


def _start_ruby(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.in_scope("ruby"):
        tb.generate_implied_end_tags()
        if not tb.current_element_is("ruby"):
            tb.pop_stack_to_before("ruby")  # close up to but not including ruby
        tb.insert(start)
    return True


def _start_empty_formatter(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.reconstruct_formatting_elements()
    tb.insert_empty(start)
    tb.frameset_ok = False
    return True


def _start_formatter(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    fe = tb.formatting_elements
    if fe and fe[-1] is not None:
        _reconstruct(tb)
    el = tb.insert(start)
    tb.push_active_formatting_elements(el)
    return True


def _start_p_closer(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    if tb.in_button_scope("p"):
        tb.process_end_tag("p")
    tb.insert(start)
    return True


def in_body_start_other(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    name = cast(str, start.normal_name)
    if name not in KNOWN_TAGS:  # no special rules for custom tags
        tb.insert(start)
    elif name in InBodyStartPClosers:  # (also reached from IN_BODY_START directly)
        return _start_p_closer(start, tb)
    elif name in InBodyStartToHead:
        return tb.process_in(start, InHead)
    elif name in InBodyStartApplets:
        tb.reconstruct_formatting_elements()
        tb.insert(start)
        tb.insert_marker_to_formatting_elements()
        tb.frameset_ok = False
    elif name in InBodyStartMedia:
        tb.insert_empty(start)
    elif name in InBodyStartDrop:
        return False
    else:
        _reconstruct(tb)
        tb.insert(start)
    return True


IN_BODY_START: dict[str, StartHandler] = {
    "a": _start_a,
    "span": _start_span,
    "li": _start_li,
    "html": _start_html,
    "body": _start_body,
    "frameset": _start_frameset,
    "form": _start_form,
    "plaintext": _start_plaintext,
    "button": _start_button,
    "nobr": _start_nobr,
    "table": _start_table,
    "input": _start_input,
    "hr": _start_hr,
    "image": _start_image,
    "isindex": _start_isindex,
    "textarea": _start_textarea,
    "xmp": _start_xmp,
    "iframe": _start_iframe,
    "noembed": _start_noembed,
    "select": _start_select,
    "math": _start_foreign,
    "svg": _start_foreign,
    "pre": _start_pre,
    "listing": _start_pre,
    "dd": _start_dd_dt,
    "dt": _start_dd_dt,
    "optgroup": _start_option,
    "option": _start_option,
    "rp": _start_ruby,
    "rt": _start_ruby,
}
for _h in Headings:
    IN_BODY_START[_h] = _start_heading
for _n in ("area", "br", "embed", "img", "keygen", "wbr"):
    IN_BODY_START[_n] = _start_empty_formatter
for _n in ("b", "big", "code", "em", "font", "i", "s", "small", "strike", "strong", "tt", "u"):
    IN_BODY_START[_n] = _start_formatter
for _n in InBodyStartPClosers:  # all known tags: in_body_start_other's first known branch
    assert _n in KNOWN_TAGS
    IN_BODY_START.setdefault(_n, _start_p_closer)
