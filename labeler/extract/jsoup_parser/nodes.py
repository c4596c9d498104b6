"""The node tree the parser builds: elements, text, data, comments, doctype.

Follows jsoup 1.15.3's nodes/Node, Element, Document, TextNode, CDataNode, DataNode,
Comment, DocumentType (MIT licence, (c) Jonathan Hedley), reduced to what parsing and
``Element.text()`` need. Children live in a Python list; a node knows its parent. Moving a
node (``append_child``, ``before``) first detaches it from its old parent, as jsoup's
``reparentChild`` does. Nothing here recurses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.extract.jsoup_parser.tags import Tag

if TYPE_CHECKING:
    from labeler.extract.jsoup_parser.attributes import Attributes


class Node:
    """A node with an optional parent element."""

    __slots__ = ("parent",)

    def __init__(self) -> None:
        self.parent: Element | None = None

    def remove(self) -> None:
        """Node.remove(): detach from the parent (which must exist)."""
        parent = self.parent
        if parent is None:
            raise ValueError("node has no parent")
        parent.remove_child(self)

    def before(self, node: Node) -> None:
        """Node.before(Node): insert ``node`` as the previous sibling of this node."""
        parent = self.parent
        if parent is None:
            raise ValueError("node has no parent")
        if node.parent is not None:
            node.parent.remove_child(node)
        parent.children.insert(_index_of(parent.children, self), node)
        node.parent = parent

    def next_sibling(self) -> Node | None:
        parent = self.parent
        if parent is None:
            return None
        siblings = parent.children
        i = _index_of(siblings, self) + 1
        return siblings[i] if i < len(siblings) else None


def _index_of(children: list[Node], node: Node) -> int:
    """Position of ``node`` (by identity) in ``children``, searched from the end.

    The nodes the builder moves or inserts before are near the end of their parent (as
    in jsoup, whose ArrayList shifts and re-indexes only the later siblings).
    """
    for i in range(len(children) - 1, -1, -1):
        if children[i] is node:
            return i
    raise ValueError("node is not a child")


class Element(Node):
    """An element: tag, attributes (``None`` until any exist) and child nodes."""

    __slots__ = ("attributes", "children", "normal_name", "tag")

    def __init__(self, tag: Tag, attributes: Attributes | None = None) -> None:
        self.parent = None
        self.tag = tag
        self.normal_name = tag.normal_name
        self.attributes = attributes
        self.children: list[Node] = []

    def append_child(self, child: Node) -> None:
        """Element.appendChild: reparent ``child`` as the last child."""
        if child.parent is not None:
            child.parent.remove_child(child)
        child.parent = self
        self.children.append(child)

    def append_children(self, children: list[Node]) -> None:
        """Element.appendChildren: move every node of ``children`` (a copy is taken).

        When ``children`` is exactly another element's child list, the nodes move in one go
        (jsoup's addChildren fast path); the result is the same as moving them one by one.
        """
        if not children:
            return
        first_parent = children[0].parent
        if (
            first_parent is not None
            and first_parent is not self
            and first_parent.children is children
        ):
            first_parent.children = []
            for child in children:
                child.parent = self
            self.children.extend(children)
            return
        for child in list(children):
            self.append_child(child)

    def remove_child(self, child: Node) -> None:
        children = self.children
        del children[_index_of(children, child)]
        child.parent = None

    def child_elements(self) -> list[Element]:
        return [c for c in self.children if isinstance(c, Element)]

    def is_block(self) -> bool:
        return self.tag.is_block

    def attr(self, key: str) -> str:
        """Node.attr(key): the value of ``key`` (case-insensitive), or ''."""
        attrs = self.attributes
        if attrs is None:
            return ""
        return attrs.get_ignore_case(key)

    def has_attr(self, key: str) -> bool:
        attrs = self.attributes
        return attrs is not None and attrs.has_key_ignore_case(key)

    def __repr__(self) -> str:
        return f"<{self.tag.name}>"


class Document(Element):
    """The document root (tag ``#root``); ``quirks`` is QuirksMode.quirks."""

    __slots__ = ("quirks",)

    def __init__(self) -> None:
        super().__init__(Tag("#root"))
        self.quirks = False

    def html_el(self) -> Element:
        for child in self.children:
            if isinstance(child, Element) and child.normal_name == "html":
                return child
        html = Element(Tag.value_of("html"))
        self.append_child(html)
        return html

    def body(self) -> Element:
        """Document.body(): the first body or frameset child of html; appends a body if none."""
        html = self.html_el()
        for child in html.children:
            if isinstance(child, Element) and child.normal_name in ("body", "frameset"):
                return child
        body = Element(Tag.value_of("body"))
        html.append_child(body)
        return body


class TextNode(Node):
    """Text; ``text`` is the whole (unnormalised) text."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.parent = None
        self.text = text


class CDataNode(TextNode):
    """A CDATA section: text kept verbatim by ``Element.text()``."""

    __slots__ = ()


class DataNode(Node):
    """Script/style content: never part of ``Element.text()``."""

    __slots__ = ("data",)

    def __init__(self, data: str) -> None:
        self.parent = None
        self.data = data


class Comment(Node):
    __slots__ = ("data",)

    def __init__(self, data: str) -> None:
        self.parent = None
        self.data = data


class DocumentType(Node):
    __slots__ = ("name", "pub_sys_key", "public_id", "system_id")

    def __init__(self, name: str, public_id: str, system_id: str, pub_sys_key: str | None) -> None:
        self.parent = None
        self.name = name
        self.public_id = public_id
        self.system_id = system_id
        self.pub_sys_key = pub_sys_key
