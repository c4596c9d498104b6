"""The HTML tree builder: stack of open elements, active formatting elements, insertion.

Follows jsoup 1.15.3's parser/TreeBuilder and parser/HtmlTreeBuilder (MIT licence,
(c) Jonathan Hedley), for a full-document parse with ``ParseSettings.htmlDefault`` (tag and
attribute names lower-cased), no fragment parsing, no error or position tracking. The
insertion modes are in :mod:`tree_states`. Bounds kept exactly: scope searches look at
most ``MAX_SCOPE_SEARCH_DEPTH`` + 1 elements, ``get_from_stack``/``on_stack``/
``reset_insertion_mode`` at most ``MAX_QUEUE_DEPTH`` + 1, formatting element checks and
reconstruction at most ``MAX_USED_FORMATTING_ELEMENTS`` + 1 entries. Nothing recurses on
document depth; token re-processing nests only a bounded number of calls, as in jsoup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.extract.jsoup_parser import tree_states as st
from labeler.extract.jsoup_parser.attributes import Attributes
from labeler.extract.jsoup_parser.nodes import (
    CDataNode,
    Comment,
    DataNode,
    Document,
    Element,
    Node,
    TextNode,
)
from labeler.extract.jsoup_parser.reader import CharacterReader
from labeler.extract.jsoup_parser.tags import KNOWN_TAGS, Tag
from labeler.extract.jsoup_parser.token import CHARACTER as _CHARACTER
from labeler.extract.jsoup_parser.token import END_TAG as _END_TAG
from labeler.extract.jsoup_parser.token import START_TAG as _START_TAG
from labeler.extract.jsoup_parser.token import CData, EndTag, StartTag
from labeler.extract.jsoup_parser.tokeniser import Tokeniser
from labeler.extract.jsoup_parser.tokeniser_states import TokeniserState

if TYPE_CHECKING:
    from labeler.extract.jsoup_parser.token import Character, Token
    from labeler.extract.jsoup_parser.token import Comment as CommentToken

    State = st.State


MAX_SCOPE_SEARCH_DEPTH = 100  # HtmlTreeBuilder.MaxScopeSearchDepth
MAX_QUEUE_DEPTH = 256  # HtmlTreeBuilder.maxQueueDepth
MAX_USED_FORMATTING_ELEMENTS = 12  # HtmlTreeBuilder.maxUsedFormattingElements

TAGS_SEARCH_IN_SCOPE = frozenset(
    ("applet", "caption", "html", "marquee", "object", "table", "td", "th")
)
TAG_SEARCH_LIST = frozenset(("ol", "ul"))
TAG_SEARCH_BUTTON = frozenset(("button",))
TAG_SEARCH_TABLE_SCOPE = frozenset(("html", "table"))
TAG_SEARCH_SELECT_SCOPE = frozenset(("optgroup", "option"))
TAG_SEARCH_END_TAGS = frozenset(
    ("dd", "dt", "li", "optgroup", "option", "p", "rb", "rp", "rt", "rtc")
)
TAG_THOROUGH_SEARCH_END_TAGS = TAG_SEARCH_END_TAGS | frozenset(
    ("caption", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr")
)
TAG_SEARCH_SPECIAL = st.TAG_SEARCH_SPECIAL  # HtmlTreeBuilder.TagSearchSpecial
_LIST_ITEM_STOPPERS = TAGS_SEARCH_IN_SCOPE | TAG_SEARCH_LIST
_BUTTON_STOPPERS = TAGS_SEARCH_IN_SCOPE | TAG_SEARCH_BUTTON
IN_TABLE_FOSTER = frozenset(("table", "tbody", "tfoot", "thead", "tr"))
_DATA_TAGS = frozenset(("script", "style"))  # isContentForTagData
_NULL = "\x00"
_WS = " \t\n\f\r"  # StringUtil.isWhitespace


def same_attributes(a: Attributes | None, b: Attributes | None) -> bool:
    """Attributes.equals: same size, every key present in both with an equal value.

    A missing attribute list equals an empty one; a boolean attribute (value ``None``)
    differs from an empty value.
    """
    ak = a.keys if a is not None else []
    bk = b.keys if b is not None else []
    if len(ak) != len(bk):
        return False
    if not ak:
        return True
    assert a is not None and b is not None
    for key, val in zip(ak, a.vals, strict=True):
        try:
            j = bk.index(key)
        except ValueError:
            return False
        if b.vals[j] != val:
            return False
    return True


class HtmlTreeBuilder:
    """Builds a :class:`Document` from the tokeniser's tokens (one parse per instance)."""

    __slots__ = (
        "_empty_end",
        "_end",
        "_start",
        "current_token",
        "doc",
        "form_element",
        "formatting_elements",
        "foster_inserts",
        "frameset_ok",
        "head_element",
        "original_state",
        "pending_table_characters",
        "reader",
        "seen_tags",
        "stack",
        "state",
        "tmpl_insert_mode",
        "tokeniser",
    )

    def __init__(self, html: str) -> None:
        self.doc = Document()
        self.reader = CharacterReader(html)
        self.tokeniser = Tokeniser(self.reader)
        self.stack: list[Element] = []
        self.seen_tags: dict[str, Tag] = {}
        self.current_token: Token | None = None
        self._start = StartTag()
        self._end = EndTag()
        self._empty_end = EndTag()  # reused for the end tag after a self-closing tag
        self.state: State = st.Initial
        self.original_state: State = st.Initial
        self.head_element: Element | None = None
        self.form_element: Element | None = None
        self.formatting_elements: list[Element | None] = []
        self.tmpl_insert_mode: list[State] = []
        self.pending_table_characters: list[str] = []
        self.frameset_ok = True
        self.foster_inserts = False

    # --- TreeBuilder ---------------------------------------------------------------------

    def parse(self) -> Document:
        """TreeBuilder.runParser: read and process tokens until EOF."""
        read = self.tokeniser.read
        eof = st.EOF
        in_body = st.InBody
        in_body_start = st.IN_BODY_START.get
        in_body_start_other = st.in_body_start_other
        in_body_end = st.IN_BODY_END.get
        in_body_end_other = st.in_body_end_other
        end_not_simple = st.IN_BODY_END_NOT_SIMPLE
        adoption_formatters = st.InBodyEndAdoptionFormatters
        known_tags = KNOWN_TAGS
        stack = self.stack
        fe = self.formatting_elements
        while True:
            token = read()
            self.current_token = token
            state = self.state
            typ = token.type
            if state is not in_body:
                state(token, self)
            elif typ == _CHARACTER:
                # InBody's character branch, inlined for the common case: reconstruct (a
                # no-op when the last formatting entry is a marker or the current node),
                # then insert(Character) into the current element
                data = token.data  # type: ignore[attr-defined]
                if data == _NULL or not stack or isinstance(token, CData):
                    in_body(token, self)
                else:
                    if fe and (last := fe[-1]) is not None and stack[-1] is not last:
                        self.reconstruct_formatting_elements()
                    el = stack[-1]
                    node: Node = DataNode(data) if el.normal_name in _DATA_TAGS else TextNode(data)
                    node.parent = el
                    el.children.append(node)
                    if self.frameset_ok and data.strip(_WS):
                        self.frameset_ok = False
            elif typ == _START_TAG:
                start: StartTag = token  # type: ignore[assignment]
                name = start.normal_name
                handler = in_body_start(name)  # type: ignore[arg-type]
                if handler is not None:
                    handler(start, self)
                elif name in known_tags:
                    in_body_start_other(start, self)
                else:  # no special rules for custom tags
                    self.insert(start)
            elif typ == _END_TAG:
                name = token.normal_name  # type: ignore[attr-defined]
                top = stack[-1] if stack else None
                if top is not None and top.normal_name == name:
                    if name not in end_not_simple:
                        # the current node closes: every other InBody end-tag branch finds
                        # it in scope at once, generates no implied end tags and pops it
                        stack.pop()
                    elif fe and fe[-1] is top and name in adoption_formatters:
                        # adoption agency: the formatting element found first is the
                        # current node; it is popped and dropped from the list
                        stack.pop()
                        fe.pop()
                    else:
                        (in_body_end(name) or in_body_end_other)(token, name, self)
                else:
                    (in_body_end(name) or in_body_end_other)(token, name, self)
            else:
                in_body(token, self)
            token.reset()
            if token.type == eof:
                break
        return self.doc

    def process(self, token: Token) -> bool:
        self.current_token = token
        return self.state(token, self)

    def process_in(self, token: Token, state: State) -> bool:
        """HtmlTreeBuilder.process(Token, HtmlTreeBuilderState)."""
        self.current_token = token
        return state(token, self)

    def process_start_tag(self, name: str, attrs: Attributes | None = None) -> bool:
        """A virtual start tag; the builder's own token is reused unless it is in use."""
        start = self._start
        if self.current_token is start:
            start = StartTag()
        else:
            start.reset()
        if attrs is None:
            start.set_name(name)
        else:
            start.name_attr(name, attrs)
        return self.process(start)

    def process_end_tag(self, name: str) -> bool:
        end = self._end
        if self.current_token is end:
            end = EndTag()
        else:
            end.reset()
        end.set_name(name)
        return self.process(end)

    def current_element(self) -> Element:
        """The last element on the stack, or the document if the stack is empty."""
        stack = self.stack
        return stack[-1] if stack else self.doc

    def current_element_is(self, normal_name: str) -> bool:
        stack = self.stack
        return bool(stack) and stack[-1].normal_name == normal_name

    def tag_for(self, name: str) -> Tag:
        tag = self.seen_tags.get(name)
        if tag is None:
            tag = Tag.value_of(name)
            self.seen_tags[name] = tag
        return tag

    # --- HtmlTreeBuilder: state ----------------------------------------------------------

    def transition(self, state: State) -> None:
        self.state = state

    def mark_insertion_mode(self) -> None:
        self.original_state = self.state

    # --- insertion ----------------------------------------------------------------------

    def insert(self, start_tag: StartTag) -> Element:
        """insert(Token.StartTag): deduplicate attributes; self-closing tags emit an end tag."""
        attrs = start_tag.attributes
        lower = True  # the keys are already lower-case (normalising changes nothing)
        if attrs is not None:
            keys = attrs.keys
            joined = keys[0] if len(keys) == 1 else "".join(keys)
            lower = joined == joined.lower()  # see _normalize
            if len(keys) > 1 and (
                not joined.isascii()
                or len(set(keys) if lower else {k.lower() for k in keys}) != len(keys)
            ):
                # ASCII keys distinct once lower-cased cannot hold a (case-insensitive)
                # duplicate; anything else goes through the full deduplication
                attrs.deduplicate()
                lower = False  # checked again below
        if not lower:
            _normalize(attrs)  # type: ignore[arg-type]
        tag = self.seen_tags.get(start_tag.tag_name)  # type: ignore[arg-type]
        if tag is None:
            tag = self.tag_for(start_tag.name())
        el = Element(tag, attrs)
        stack = self.stack
        if stack and not self.foster_inserts:
            el.parent = parent = stack[-1]
            parent.children.append(el)
        else:
            self.insert_node(el)
        stack.append(el)
        if start_tag.self_closing:  # insertEmpty, inlined; then push and emit the end tag
            if not tag.known:
                tag.set_self_closing()  # unknown tag: remembered as self closing for output
            tokeniser = self.tokeniser
            tokeniser.transition(TokeniserState.Data)  # handles <script />
            tokeniser.emit(self._empty_end.reset().set_name(tag.name))
        return el

    def insert_start_tag(self, name: str) -> Element:
        el = Element(self.tag_for(name))
        self.insert_element(el)
        return el

    def insert_element(self, el: Element) -> None:
        """insert(Element): insert the node, then push it."""
        self.insert_node(el)
        self.stack.append(el)

    def insert_empty(self, start_tag: StartTag) -> Element:
        tag = self.tag_for(start_tag.name())
        attrs = start_tag.attributes
        if attrs is not None:
            _normalize(attrs)
        el = Element(tag, attrs)
        self.insert_node(el)
        if start_tag.self_closing and not tag.known:
            tag.set_self_closing()  # unknown tag: remembered as self closing for output
        return el

    def insert_form(
        self, start_tag: StartTag, on_stack: bool, check_template_stack: bool
    ) -> Element:
        tag = self.tag_for(start_tag.name())
        attrs = start_tag.attributes
        if attrs is not None:
            _normalize(attrs)
        el = Element(tag, attrs)
        if not check_template_stack or not self.on_stack_named("template"):
            self.form_element = el
        self.insert_node(el)
        if on_stack:
            self.stack.append(el)
        return el

    def insert_comment(self, token: CommentToken) -> None:
        self.insert_node(Comment(token.get_data()))

    def insert_character(self, token: Character) -> None:
        """insert(Token.Character): into the current element (never fostered)."""
        stack = self.stack
        el = stack[-1] if stack else self.doc
        data = token.data
        node: Node
        if isinstance(token, CData):
            node = CDataNode(data)
        elif el.normal_name in _DATA_TAGS:
            node = DataNode(data)
        else:
            node = TextNode(data)
        node.parent = el
        el.children.append(node)

    def insert_node(self, node: Node) -> None:
        stack = self.stack
        if not stack:
            self.doc.append_child(node)
        elif self.foster_inserts and stack[-1].normal_name in IN_TABLE_FOSTER:
            self.insert_in_foster_parent(node)
        else:
            stack[-1].append_child(node)

    def insert_in_foster_parent(self, node: Node) -> None:
        last_table = self.get_from_stack("table")
        if last_table is not None:
            if last_table.parent is not None:
                last_table.before(node)
                return
            foster_parent = self.above_on_stack(last_table)
        else:  # no table == frag
            foster_parent = self.stack[0]
        if foster_parent is None:
            raise IndexError("no element above the table")
        foster_parent.append_child(node)

    # --- the stack of open elements -----------------------------------------------------

    def pop(self) -> Element:
        return self.stack.pop()

    def push(self, el: Element) -> None:
        self.stack.append(el)

    def on_stack(self, el: Element) -> bool:
        return _on_queue(self.stack, el)

    def on_stack_named(self, name: str) -> bool:
        return self.get_from_stack(name) is not None

    def get_from_stack(self, name: str) -> Element | None:
        """The topmost element named ``name`` among the top MAX_QUEUE_DEPTH + 1."""
        stack = self.stack
        if len(stack) > MAX_QUEUE_DEPTH + 1:
            stack = stack[-(MAX_QUEUE_DEPTH + 1) :]
        for el in reversed(stack):
            if el.normal_name == name:
                return el
        return None

    def remove_from_stack(self, el: Element) -> bool:
        stack = self.stack
        for pos in range(len(stack) - 1, -1, -1):
            if stack[pos] is el:
                del stack[pos]
                return True
        return False

    def pop_stack_to_close(self, name: str) -> Element | None:
        stack = self.stack
        while stack:
            el = stack.pop()
            if el.normal_name == name:
                return el
        return None

    def pop_stack_to_close_any(self, names: frozenset[str]) -> None:
        stack = self.stack
        while stack:
            if stack.pop().normal_name in names:
                break

    def pop_stack_to_before(self, name: str) -> None:
        stack = self.stack
        while stack and stack[-1].normal_name != name:
            stack.pop()

    def clear_stack_to_table_context(self) -> None:
        self._clear_stack_to_context(("table", "template", "html"))

    def clear_stack_to_table_body_context(self) -> None:
        self._clear_stack_to_context(("tbody", "tfoot", "thead", "template", "html"))

    def clear_stack_to_table_row_context(self) -> None:
        self._clear_stack_to_context(("tr", "template", "html"))

    def _clear_stack_to_context(self, names: tuple[str, ...]) -> None:
        stack = self.stack
        while stack and stack[-1].normal_name not in names:
            stack.pop()

    def above_on_stack(self, el: Element) -> Element | None:
        stack = self.stack
        for pos in range(len(stack) - 1, -1, -1):
            if stack[pos] is el:
                if pos == 0:
                    raise IndexError("no element above the bottom of the stack")
                return stack[pos - 1]
        return None

    def insert_on_stack_after(self, after: Element, el: Element) -> None:
        stack = self.stack
        self.stack.insert(_last_index_of(stack, after) + 1, el)

    def replace_on_stack(self, out: Element, el: Element) -> None:
        stack = self.stack
        stack[_last_index_of(stack, out)] = el

    def reset_insertion_mode(self) -> bool:
        """Pick the insertion mode from the stack (at most MAX_QUEUE_DEPTH + 1 elements)."""
        stack = self.stack
        bottom = len(stack) - 1
        upper = bottom - MAX_QUEUE_DEPTH if bottom >= MAX_QUEUE_DEPTH else 0
        orig_state = self.state
        if not stack:
            self.transition(st.InBody)
        for pos in range(bottom, upper - 1, -1):
            last = pos == upper
            name = stack[pos].normal_name
            target = st.RESET_MODES.get(name)
            if target is not None:
                self.transition(target)
                break
            if name in ("td", "th", "head"):
                if not last:
                    self.transition(st.InCell if name != "head" else st.InHead)
                    break
            elif name == "template":
                tmpl_state = self.current_template_mode()
                if tmpl_state is None:
                    raise ValueError("Bug: no template insertion mode on stack!")
                self.transition(tmpl_state)
                break
            elif name == "html":
                self.transition(st.BeforeHead if self.head_element is None else st.AfterHead)
                break
            if last:
                self.transition(st.InBody)
                break
        return self.state is not orig_state

    def reset_body(self) -> None:
        """Put body back on the stack (AfterBody / AfterAfterBody with more content)."""
        if not self.on_stack_named("body"):
            self.stack.append(self.doc.body())
        self.transition(st.InBody)

    # --- scopes ------------------------------------------------------------------------

    def _in_specific_scope(self, target: str, stoppers: frozenset[str]) -> bool:
        """inSpecificScope: ``target`` found before a base or extra type (``stoppers``).

        Looks at the top MAX_SCOPE_SEARCH_DEPTH + 1 elements at most; a target that is also
        a stopper counts as found (jsoup tests the target first).
        """
        stack = self.stack
        if len(stack) > MAX_SCOPE_SEARCH_DEPTH + 1:
            stack = stack[-(MAX_SCOPE_SEARCH_DEPTH + 1) :]
        for el in reversed(stack):
            name = el.normal_name
            if name == target:
                return True
            if name in stoppers:
                return False
        return False

    def in_scope_any(self, targets: frozenset[str]) -> bool:
        stack = self.stack
        if len(stack) > MAX_SCOPE_SEARCH_DEPTH + 1:
            stack = stack[-(MAX_SCOPE_SEARCH_DEPTH + 1) :]
        for el in reversed(stack):
            name = el.normal_name
            if name in targets:
                return True
            if name in TAGS_SEARCH_IN_SCOPE:
                return False
        return False

    def in_scope(self, name: str, extras: frozenset[str] | None = None) -> bool:
        stoppers = TAGS_SEARCH_IN_SCOPE if extras is None else TAGS_SEARCH_IN_SCOPE | extras
        return self._in_specific_scope(name, stoppers)

    def in_list_item_scope(self, name: str) -> bool:
        return self._in_specific_scope(name, _LIST_ITEM_STOPPERS)

    def in_button_scope(self, name: str) -> bool:
        return self._in_specific_scope(name, _BUTTON_STOPPERS)

    def in_table_scope(self, name: str) -> bool:
        return self._in_specific_scope(name, TAG_SEARCH_TABLE_SCOPE)

    def in_select_scope(self, name: str) -> bool:
        stack = self.stack
        for pos in range(len(stack) - 1, -1, -1):
            el_name = stack[pos].normal_name
            if el_name == name:
                return True
            if el_name not in TAG_SEARCH_SELECT_SCOPE:
                return False
        raise AssertionError("Should not be reachable")

    # --- implied end tags ----------------------------------------------------------------

    def generate_implied_end_tags(self, exclude: str | None = None) -> None:
        stack = self.stack
        while stack and stack[-1].normal_name in TAG_SEARCH_END_TAGS:
            if exclude is not None and stack[-1].normal_name == exclude:
                break
            stack.pop()

    def generate_implied_end_tags_thorough(self) -> None:
        stack = self.stack
        while stack and stack[-1].normal_name in TAG_THOROUGH_SEARCH_END_TAGS:
            stack.pop()

    def close_element(self, name: str) -> None:
        self.generate_implied_end_tags(name)
        self.pop_stack_to_close(name)

    @staticmethod
    def is_special(el: Element) -> bool:
        return el.normal_name in TAG_SEARCH_SPECIAL

    # --- active formatting elements ------------------------------------------------------

    def last_formatting_element(self) -> Element | None:
        fe = self.formatting_elements
        return fe[-1] if fe else None

    def position_of_element(self, el: Element) -> int:
        for i, e in enumerate(self.formatting_elements):
            if e is el:
                return i
        return -1

    def remove_last_formatting_element(self) -> Element | None:
        fe = self.formatting_elements
        return fe.pop() if fe else None

    def push_active_formatting_elements(self, el: Element) -> None:
        fe = self.formatting_elements
        if fe and fe[-1] is not None:  # else the check finds nothing before a marker
            self.check_active_formatting_elements(el)
        fe.append(el)

    def push_with_bookmark(self, el: Element, bookmark: int) -> None:
        self.check_active_formatting_elements(el)
        fe = self.formatting_elements
        if 0 <= bookmark <= len(fe):
            fe.insert(bookmark, el)
        else:  # IndexOutOfBoundsException: the bookmark is assumed wrong
            fe.append(el)

    def check_active_formatting_elements(self, el: Element) -> None:
        """Noah's Ark clause: at most three equal entries after the last marker."""
        fe = self.formatting_elements
        num_seen = 0
        size = len(fe) - 1
        ceil = size - MAX_USED_FORMATTING_ELEMENTS
        if ceil < 0:
            ceil = 0
        for pos in range(size, ceil - 1, -1):
            other = fe[pos]
            if other is None:  # marker
                break
            if other.normal_name == el.normal_name and same_attributes(
                el.attributes, other.attributes
            ):
                num_seen += 1
            if num_seen == 3:
                del fe[pos]
                break

    def reconstruct_formatting_elements(self) -> None:
        fe = self.formatting_elements
        if not fe:
            return
        last = fe[-1]
        stack = self.stack
        if (
            last is None
            or (stack and stack[-1] is last)  # on the stack (cheap first check)
            or len(stack) > MAX_QUEUE_DEPTH
            or _on_queue(stack, last)
        ):
            return
        entry: Element | None = last
        size = len(fe)
        ceil = size - MAX_USED_FORMATTING_ELEMENTS
        if ceil < 0:
            ceil = 0
        pos = size - 1
        skip = False
        while True:
            if pos == ceil:  # step 4: none before, skip to 8
                skip = True
                break
            pos -= 1
            entry = fe[pos]  # step 5: one earlier than entry
            if entry is None or self.on_stack(entry):  # step 6
                break
        while True:
            if not skip:  # step 7: one later than entry
                pos += 1
                entry = fe[pos]
            if entry is None:
                raise ValueError("formatting entry is a marker")
            skip = False
            attrs = entry.attributes.clone() if entry.attributes is not None else None
            new_el = Element(self.tag_for(entry.normal_name), attrs)
            self.insert_element(new_el)
            fe[pos] = new_el
            if pos == size - 1:
                break

    def clear_formatting_elements_to_last_marker(self) -> None:
        fe = self.formatting_elements
        while fe:
            if fe.pop() is None:
                break

    def remove_from_active_formatting_elements(self, el: Element) -> None:
        fe = self.formatting_elements
        for pos in range(len(fe) - 1, -1, -1):
            if fe[pos] is el:
                del fe[pos]
                break

    def is_in_active_formatting_elements(self, el: Element) -> bool:
        return _on_queue(self.formatting_elements, el)

    def get_active_formatting_element(self, name: str) -> Element | None:
        fe = self.formatting_elements
        for pos in range(len(fe) - 1, -1, -1):
            el = fe[pos]
            if el is None:  # scope marker
                break
            if el.normal_name == name:
                return el
        return None

    def replace_active_formatting_element(self, out: Element, el: Element) -> None:
        fe = self.formatting_elements
        fe[_last_index_of(fe, out)] = el

    def insert_marker_to_formatting_elements(self) -> None:
        self.formatting_elements.append(None)

    # --- template insertion modes --------------------------------------------------------

    def push_template_mode(self, state: State) -> None:
        self.tmpl_insert_mode.append(state)

    def pop_template_mode(self) -> State | None:
        modes = self.tmpl_insert_mode
        return modes.pop() if modes else None

    def template_mode_size(self) -> int:
        return len(self.tmpl_insert_mode)

    def current_template_mode(self) -> State | None:
        modes = self.tmpl_insert_mode
        return modes[-1] if modes else None


def _normalize(attrs: Attributes) -> None:
    """ParseSettings.normalizeAttributes: lower-case the keys (skipped if already lower).

    Lower-casing the joined keys changes nothing exactly when no key changes: the only
    context-dependent mapping (final sigma) applies to a capital sigma, which always changes.
    """
    joined = "".join(attrs.keys)
    if joined != joined.lower():
        attrs.normalize()


def _on_queue(queue: list[Element] | list[Element | None], el: Element | None) -> bool:
    """HtmlTreeBuilder.onStack(queue, el): identity search of the last MAX_QUEUE_DEPTH + 1."""
    bottom = len(queue) - 1
    if bottom >= MAX_QUEUE_DEPTH:
        queue = queue[bottom - MAX_QUEUE_DEPTH :]
    return el in queue  # Element has no __eq__: identity


def _last_index_of(queue: list[Element] | list[Element | None], el: Element) -> int:
    for pos in range(len(queue) - 1, -1, -1):
        if queue[pos] is el:
            return pos
    raise ValueError("element not in queue")  # Validate.isTrue(i != -1)
