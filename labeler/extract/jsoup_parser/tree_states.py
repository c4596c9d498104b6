"""The tree builder's insertion modes.

Follows jsoup 1.15.3's parser/HtmlTreeBuilderState (MIT licence, (c) Jonathan Hedley): one
function per enum constant, named as the constant (``InBody``, ``InTable``...), taking the
token and the builder and returning whether the token was processed. jsoup's
``Constants`` arrays are frozensets; the InBody start and end tags dispatch on the
normal name through dicts. ``error(...)`` calls are dropped (nothing is reported).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from labeler.extract.jsoup_parser.attributes import Attributes, equals_ignore_case
from labeler.extract.jsoup_parser.nodes import DocumentType, Element
from labeler.extract.jsoup_parser.tags import KNOWN_TAGS
from labeler.extract.jsoup_parser.token import (
    CHARACTER,
    COMMENT,
    DOCTYPE,
    END_TAG,
    EOF,
    START_TAG,
    Character,
    Doctype,
    EndTag,
    StartTag,
    Token,
)
from labeler.extract.jsoup_parser.token import Comment as CommentToken
from labeler.extract.jsoup_parser.tokeniser_states import TokeniserState

if TYPE_CHECKING:
    from labeler.extract.jsoup_parser.tree_builder import HtmlTreeBuilder

State = Callable[[Token, "HtmlTreeBuilder"], bool]

__all__ = ["EOF", "HtmlTreeBuilderState", "State"]

_WS = " \t\n\f\r"  # StringUtil.isWhitespace
NULL_STRING = "\x00"


def _f(names: str) -> frozenset[str]:
    return frozenset(names.split())


# HtmlTreeBuilderState.Constants
InHeadEmpty = _f("base basefont bgsound command link")
InHeadRaw = _f("noframes style")
InHeadEnd = _f("body br html")
AfterHeadBody = _f("body br html")
BeforeHtmlToHead = _f("body br head html")
InHeadNoScriptHead = _f("basefont bgsound link meta noframes style")
InBodyStartToHead = _f(
    "base basefont bgsound command link meta noframes script style template title"
)
InBodyStartPClosers = _f(
    "address article aside blockquote center details dir div dl fieldset figcaption figure"
    " footer header hgroup menu nav ol p section summary ul"
)
Headings = _f("h1 h2 h3 h4 h5 h6")
InBodyStartLiBreakers = _f("address div p")
DdDt = _f("dd dt")
InBodyStartApplets = _f("applet marquee object")
InBodyStartMedia = _f("param source track")
InBodyStartInputAttribs = _f("action name prompt")
InBodyStartDrop = _f("caption col colgroup frame head tbody td tfoot th thead tr")
InBodyEndClosers = _f(
    "address article aside blockquote button center details dir div dl fieldset figcaption"
    " figure footer header hgroup listing menu nav ol pre section summary ul"
)
InBodyEndAdoptionFormatters = _f("a b big code em font i nobr s small strike strong tt u")
InBodyEndTableFosters = _f("table tbody tfoot thead tr")
InTableToBody = _f("tbody tfoot thead")
InTableAddBody = _f("td th tr")
InTableToHead = _f("script style template")
InCellNames = _f("td th")
InCellBody = _f("body caption col colgroup html")
InCellTable = _f("table tbody tfoot thead tr")
InCellCol = _f("caption col colgroup tbody td tfoot th thead tr")
InTableEndErr = _f("body caption col colgroup html tbody td tfoot th thead tr")
InTableFoster = _f("table tbody tfoot thead tr")
InTableBodyExit = _f("caption col colgroup tbody tfoot thead")
InTableBodyEndIgnore = _f("body caption col colgroup html td th tr")
InRowMissing = _f("caption col colgroup tbody tfoot thead tr")
InRowIgnore = _f("body caption col colgroup html td th")
InSelectEnd = _f("input keygen textarea")
InSelectTableEnd = _f("caption table tbody td tfoot th thead tr")
InTableEndIgnore = _f("tbody tfoot thead")
InHeadNoscriptIgnore = _f("head noscript")
InCaptionIgnore = _f("body col colgroup html tbody td tfoot th thead tr")
InTemplateToHead = _f("base basefont bgsound link meta noframes script style template title")
InTemplateToTable = _f("caption colgroup tbody tfoot thead")

MAX_STACK_SCAN = 24  # InBody: dd / dt scan

# HtmlTreeBuilder.TagSearchSpecial (isSpecial); the builder imports it from here.
TAG_SEARCH_SPECIAL = _f(
    "address applet area article aside base basefont bgsound blockquote body br button"
    " caption center col colgroup command dd details dir div dl dt embed fieldset"
    " figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr"
    " html iframe img input isindex li link listing marquee menu meta nav noembed noframes"
    " noscript object ol p param plaintext pre script section select style summary table"
    " tbody td textarea tfoot th thead title tr ul wbr xmp"
)
_SPECIAL = TAG_SEARCH_SPECIAL


def is_whitespace(t: Token) -> bool:
    """A character token that is blank (StringUtil.isBlank: empty or only ' \\t\\n\\f\\r')."""
    return t.type == CHARACTER and not cast(Character, t).data.strip(_WS)


def _start(t: Token) -> StartTag:
    return cast(StartTag, t)


def _end(t: Token) -> EndTag:
    return cast(EndTag, t)


def _name(t: Token) -> str:
    """The normal name of a tag token (always set on tokens that reach the builder)."""
    return cast(str, cast(StartTag, t).normal_name)


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


# --- Initial, BeforeHtml, BeforeHead, InHead, InHeadNoscript, AfterHead ----------------


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
    elif typ == START_TAG and _name(t) == "html":
        tb.insert(_start(t))
        tb.transition(BeforeHead)
    elif typ == END_TAG and _name(t) in BeforeHtmlToHead:
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
    elif typ == START_TAG and _name(t) == "html":
        return InBody(t, tb)  # does not transition
    elif typ == START_TAG and _name(t) == "head":
        head = tb.insert(_start(t))
        tb.head_element = head
        tb.transition(InHead)
    elif typ == END_TAG and _name(t) in BeforeHtmlToHead:
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
        start = _start(t)
        name = _name(t)
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
        name = _name(t)
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
    elif typ == START_TAG and _name(t) == "html":
        return tb.process_in(t, InBody)
    elif typ == END_TAG and _name(t) == "noscript":
        tb.pop()
        tb.transition(InHead)
    elif (
        is_whitespace(t) or typ == COMMENT or (typ == START_TAG and _name(t) in InHeadNoScriptHead)
    ):
        return tb.process_in(t, InHead)
    elif typ == END_TAG and _name(t) == "br":
        return _in_head_noscript_anything_else(t, tb)
    elif (typ == START_TAG and _name(t) in InHeadNoscriptIgnore) or typ == END_TAG:
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
        start = _start(t)
        name = _name(t)
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
        name = _name(t)
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


# --- InBody ----------------------------------------------------------------------------


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
        if not (tb.frameset_ok and not data.strip(_WS)):
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


StartHandler = Callable[[StartTag, "HtmlTreeBuilder"], bool]
EndHandler = Callable[[Token, str, "HtmlTreeBuilder"], bool]


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
        if el.normal_name in _SPECIAL and el.normal_name not in InBodyStartLiBreakers:
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


_TABLE_STATES: frozenset[State] = frozenset()  # filled in below, once the states exist


def _start_select(start: StartTag, tb: HtmlTreeBuilder) -> bool:
    tb.reconstruct_formatting_elements()
    tb.insert(start)
    tb.frameset_ok = False
    if start.self_closing:
        return True  # don't change states if not added to the stack
    if tb.state in _TABLE_STATES:
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
        if el.normal_name in _SPECIAL and el.normal_name not in InBodyStartLiBreakers:
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
    name = _name(t)
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
        if node.normal_name in _SPECIAL:
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
            elif seen_formatting_element and el.normal_name in _SPECIAL:
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

# --- Text, tables ------------------------------------------------------------------------


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
        start = _start(t)
        name = _name(t)
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
        name = _name(t)
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
            if character.strip(_WS):
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
    if typ == END_TAG and _name(t) == "caption":
        if not tb.in_table_scope("caption"):
            return False
        tb.generate_implied_end_tags()
        tb.pop_stack_to_close("caption")
        tb.clear_formatting_elements_to_last_marker()
        tb.transition(InTable)
    elif (typ == START_TAG and _name(t) in InCellCol) or (typ == END_TAG and _name(t) == "table"):
        if tb.process_end_tag("caption"):
            return tb.process(t)
    elif typ == END_TAG and _name(t) in InCaptionIgnore:
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
        name = _name(t)
        if name == "html":
            return tb.process_in(t, InBody)
        if name == "col":
            tb.insert_empty(_start(t))
        elif name == "template":
            tb.process_in(t, InHead)
        else:
            return _in_column_group_anything_else(t, tb)
    elif typ == END_TAG:
        name = _name(t)
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
        name = _name(t)
        if name == "tr":
            tb.clear_stack_to_table_body_context()
            tb.insert(_start(t))
            tb.transition(InRow)
        elif name in InCellNames:
            tb.process_start_tag("tr")
            return tb.process(t)
        elif name in InTableBodyExit:
            return _exit_table_body(t, tb)
        else:
            return tb.process_in(t, InTable)
    elif typ == END_TAG:
        name = _name(t)
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
        name = _name(t)
        if name in InCellNames:
            tb.clear_stack_to_table_row_context()
            tb.insert(_start(t))
            tb.transition(InCell)
            tb.insert_marker_to_formatting_elements()
        elif name in InRowMissing:
            return _handle_missing_tr(t, tb)
        else:
            return tb.process_in(t, InTable)
    elif typ == END_TAG:
        name = _name(t)
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
        name = _name(t)
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
    elif typ == START_TAG and _name(t) in InCellCol:
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
        start = _start(t)
        name = _name(t)
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
        name = _name(t)
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
    if typ == START_TAG and _name(t) in InSelectTableEnd:
        tb.pop_stack_to_close("select")
        tb.reset_insertion_mode()
        return tb.process(t)
    if typ == END_TAG and _name(t) in InSelectTableEnd:
        if tb.in_table_scope(_name(t)):
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
        name = _name(t)
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
        if _name(t) == "template":
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


def AfterBody(t: Token, tb: HtmlTreeBuilder) -> bool:
    typ = t.type
    if is_whitespace(t):
        tb.insert_character(cast(Character, t))  # out of spec - include whitespace
    elif typ == COMMENT:
        tb.insert_comment(cast(CommentToken, t))  # into html node
    elif typ == DOCTYPE:
        return False
    elif typ == START_TAG and _name(t) == "html":
        return tb.process_in(t, InBody)
    elif typ == END_TAG and _name(t) == "html":
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
        name = _name(t)
        if name == "html":
            return tb.process_in(t, InBody)
        if name == "frameset":
            tb.insert(_start(t))
        elif name == "frame":
            tb.insert_empty(_start(t))
        elif name == "noframes":
            return tb.process_in(t, InHead)
        else:
            return False
    elif typ == END_TAG and _name(t) == "frameset":
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
    elif typ == START_TAG and _name(t) == "html":
        return tb.process_in(t, InBody)
    elif typ == END_TAG and _name(t) == "html":
        tb.transition(AfterAfterFrameset)
    elif typ == START_TAG and _name(t) == "noframes":
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
    elif typ == DOCTYPE or (typ == START_TAG and _name(t) == "html"):
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
    elif typ == DOCTYPE or is_whitespace(t) or (typ == START_TAG and _name(t) == "html"):
        return tb.process_in(t, InBody)
    elif typ == EOF:
        pass  # nice work chuck
    elif typ == START_TAG and _name(t) == "noframes":
        return tb.process_in(t, InHead)
    else:
        return False
    return True


def ForeignContent(t: Token, tb: HtmlTreeBuilder) -> bool:
    return True  # not implemented in jsoup 1.15.3 (never reached)


_TABLE_STATES = frozenset((InTable, InCaption, InTableBody, InRow, InCell))

# HtmlTreeBuilder.resetInsertionMode: stack element name -> mode, for the unconditional cases.
RESET_MODES: dict[str, State] = {
    "select": InSelect,
    "tr": InRow,
    "tbody": InTableBody,
    "thead": InTableBody,
    "tfoot": InTableBody,
    "caption": InCaption,
    "colgroup": InColumnGroup,
    "table": InTable,
    "body": InBody,
    "frameset": InFrameset,
}


class HtmlTreeBuilderState:
    """The insertion modes under jsoup's enum constant names."""

    Initial = Initial
    BeforeHtml = BeforeHtml
    BeforeHead = BeforeHead
    InHead = InHead
    InHeadNoscript = InHeadNoscript
    AfterHead = AfterHead
    InBody = InBody
    Text = Text
    InTable = InTable
    InTableText = InTableText
    InCaption = InCaption
    InColumnGroup = InColumnGroup
    InTableBody = InTableBody
    InRow = InRow
    InCell = InCell
    InSelect = InSelect
    InSelectInTable = InSelectInTable
    InTemplate = InTemplate
    AfterBody = AfterBody
    InFrameset = InFrameset
    AfterFrameset = AfterFrameset
    AfterAfterBody = AfterAfterBody
    AfterAfterFrameset = AfterAfterFrameset
    ForeignContent = ForeignContent


# --- Token.toString (only for InHeadNoscript's "anything else") ---------------------------

_BOOLEAN_ATTRIBUTES = _f(
    "allowfullscreen async autofocus checked compact declare default defer disabled formnovalidate hidden inert ismap itemscope multiple muted nohref noresize noshade novalidate nowrap open readonly required reversed seamless selected sortable truespeed typemustmatch"
)
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
            (val == "" or equals_ignore_case(val, key)) and key.lower() in _BOOLEAN_ATTRIBUTES
        )
        if not collapse:
            parts.append('="')
            parts.append(_escape_attribute(val or ""))
            parts.append('"')
    return "".join(parts)


def token_string(t: Token) -> str:
    """Token.toString() as jsoup 1.15.3 renders each kind."""
    if t.type == START_TAG:
        start = _start(t)
        name = start.tag_name if start.tag_name is not None else "[unset]"
        if start.attributes is not None and start.attributes.size() > 0:
            return f"<{name} {_attributes_html(start.attributes)}>"
        return f"<{name}>"
    return str(t)
