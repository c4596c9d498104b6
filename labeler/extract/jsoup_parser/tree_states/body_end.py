"""InBody's end tags: one handler per tag name in ``IN_BODY_END``, the rest in
``in_body_end_other``; ``any_other_end_tag`` and the adoption agency (8 outer, 64 stack,
3 inner iterations, as jsoup bounds them).

Follows jsoup 1.15.3's HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..attributes import Attributes
from ..nodes import Element
from ..token import Token
from .constants import (
    TAG_SEARCH_SPECIAL,
    Headings,
    InBodyEndAdoptionFormatters,
    InBodyEndClosers,
    InBodyEndTableFosters,
    InBodyStartApplets,
)
from .mode import State, normal_name, unwired

if TYPE_CHECKING:
    from ..tree_builder import HtmlTreeBuilder

# Sibling modules' modes, set by the package once every module is loaded.
AfterBody: State = unwired
InHead: State = unwired


EndHandler = Callable[[Token, str, "HtmlTreeBuilder"], bool]


def _end_template(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    tb.process_in(t, InHead)
    return True


def _end_span(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    return any_other_end_tag(t, tb)


def _end_li(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    if not tb.in_list_item_scope(name):
        return False
    tb.generate_implied_end_tags(name)
    tb.pop_stack_to_close(name)
    return True


def _end_body(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    if not tb.in_scope("body"):
        return False
    any_other_end_tag(t, tb)
    tb.transition(AfterBody)
    return True


def _end_html(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    if tb.process_end_tag("body"):
        return tb.process(t)
    return True


def _end_form(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    if not tb.on_stack_named("template"):
        current_form = tb.form_element
        tb.form_element = None
        if current_form is None or not tb.in_scope(name):
            return False
        tb.generate_implied_end_tags()
        tb.remove_from_stack(current_form)  # will shift anything under up
    else:  # template on stack
        if not tb.in_scope(name):
            return False
        tb.generate_implied_end_tags()
        tb.pop_stack_to_close(name)
    return True


def _end_p(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    if not tb.in_button_scope(name):
        tb.process_start_tag(name)  # if no p to close, creates an empty <p></p>
        return tb.process(t)
    tb.generate_implied_end_tags(name)
    tb.pop_stack_to_close(name)
    return True


def _end_dd_dt(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    if not tb.in_scope(name):
        return False
    tb.generate_implied_end_tags(name)
    tb.pop_stack_to_close(name)
    return True


def _end_heading(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    if not tb.in_scope_any(Headings):
        return False
    tb.generate_implied_end_tags(name)
    tb.pop_stack_to_close_any(Headings)
    return True


def _end_br(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    tb.process_start_tag("br")
    return False


def in_body_end_other(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    if name in InBodyEndAdoptionFormatters:  # (also reached from IN_BODY_END directly)
        return in_body_end_tag_adoption(t, name, tb)
    if name in InBodyEndClosers:
        if not tb.in_scope(name):
            return False  # nothing to close
        tb.generate_implied_end_tags()
        tb.pop_stack_to_close(name)
    elif name in InBodyStartApplets:
        if not tb.in_scope("name"):  # sic: jsoup 1.15.3 tests the literal "name"
            if not tb.in_scope(name):
                return False
            tb.generate_implied_end_tags()
            tb.pop_stack_to_close(name)
            tb.clear_formatting_elements_to_last_marker()
    else:
        return any_other_end_tag(t, tb)
    return True


IN_BODY_END: dict[str, EndHandler] = {
    "template": _end_template,
    "sarcasm": _end_span,
    "span": _end_span,
    "li": _end_li,
    "body": _end_body,
    "html": _end_html,
    "form": _end_form,
    "p": _end_p,
    "dd": _end_dd_dt,
    "dt": _end_dd_dt,
    "br": _end_br,
}
for _h in Headings:
    IN_BODY_END[_h] = _end_heading


def any_other_end_tag(t: Token, tb: HtmlTreeBuilder) -> bool:
    name = normal_name(t)
    stack = tb.stack
    if stack and stack[-1].normal_name == name:  # found at once; no implied end tags
        stack.pop()
        return True
    if tb.get_from_stack(name) is None:  # deviates from spec to speed deep nesting
        return False
    for pos in range(len(stack) - 1, -1, -1):
        node = stack[pos]
        if node.normal_name == name:
            tb.generate_implied_end_tags(name)
            tb.pop_stack_to_close(name)
            break
        if node.normal_name in TAG_SEARCH_SPECIAL:
            return False
    return True


def in_body_end_tag_adoption(t: Token, name: str, tb: HtmlTreeBuilder) -> bool:
    """The adoption agency algorithm, with jsoup's bounds (8 outer, 64 stack, 3 inner)."""
    stack = tb.stack
    for _ in range(8):
        format_el = tb.get_active_formatting_element(name)
        if format_el is None:
            return any_other_end_tag(t, tb)
        if stack and stack[-1] is format_el:
            # the current node: on the stack and in scope, nothing above it can be a
            # furthest block (see below), so it is just popped and forgotten
            stack.pop()
            tb.remove_from_active_formatting_elements(format_el)
            return True
        if not tb.on_stack(format_el):
            tb.remove_from_active_formatting_elements(format_el)
            return True
        if not tb.in_scope(format_el.normal_name):
            return False
        if stack[-1] is format_el:
            # nothing above it can be a furthest block: the scan below would find none
            tb.pop_stack_to_close(format_el.normal_name)
            tb.remove_from_active_formatting_elements(format_el)
            return True

        furthest_block: Element | None = None
        common_ancestor: Element | None = None
        seen_formatting_element = False
        stack_size = len(stack)
        bookmark = -1
        for si in range(1, min(stack_size, 64)):
            el = stack[si]
            if el is format_el:
                common_ancestor = stack[si - 1]
                seen_formatting_element = True
                bookmark = tb.position_of_element(el)
            elif seen_formatting_element and el.normal_name in TAG_SEARCH_SPECIAL:
                furthest_block = el
                break
        if furthest_block is None:
            tb.pop_stack_to_close(format_el.normal_name)
            tb.remove_from_active_formatting_elements(format_el)
            return True

        node: Element = furthest_block
        last_node: Element = furthest_block
        for _j in range(3):
            if tb.on_stack(node):
                above = tb.above_on_stack(node)
                assert above is not None
                node = above
            if not tb.is_in_active_formatting_elements(node):  # note no bookmark check
                tb.remove_from_stack(node)
                continue
            if node is format_el:
                break
            replacement = Element(tb.tag_for(node.tag.name))
            tb.replace_active_formatting_element(node, replacement)
            tb.replace_on_stack(node, replacement)
            node = replacement
            if last_node is furthest_block:
                bookmark = tb.position_of_element(node) + 1
            if last_node.parent is not None:
                last_node.remove()
            node.append_child(last_node)
            last_node = node

        if common_ancestor is not None:
            if common_ancestor.normal_name in InBodyEndTableFosters:
                if last_node.parent is not None:
                    last_node.remove()
                tb.insert_in_foster_parent(last_node)
            else:
                if last_node.parent is not None:
                    last_node.remove()
                common_ancestor.append_child(last_node)

        adopter = Element(format_el.tag)
        if format_el.attributes is not None and format_el.attributes.keys:
            adopter.attributes = Attributes()
            adopter.attributes.add_all(format_el.attributes)
        adopter.append_children(furthest_block.children)
        furthest_block.append_child(adopter)
        tb.remove_from_active_formatting_elements(format_el)
        tb.push_with_bookmark(adopter, bookmark)
        tb.remove_from_stack(format_el)
        tb.insert_on_stack_after(furthest_block, adopter)
    return True


for _n in InBodyEndAdoptionFormatters:  # in_body_end_other's first branch
    IN_BODY_END[_n] = in_body_end_tag_adoption

# End tags whose handling is more than "pop the current node" when the current node has
# their name: all other InBody end tags (li, p, dd, dt, headings, closers, span, any other)
# then find it in scope first, generate no implied end tags and pop just it.
IN_BODY_END_NOT_SIMPLE = (
    frozenset(("template", "body", "html", "form", "br"))
    | InBodyStartApplets
    | InBodyEndAdoptionFormatters
)
