"""``Element.text()``: the normalised visible text of an element.

Follows jsoup 1.15.3's nodes/Element.text() (MIT licence, (c) Jonathan Hedley): a depth-first
walk (iterative here) where a block element or ``br`` adds a space before itself if the text
so far is non-empty and does not end in a space; after a block element, a space if its next
sibling is a text node; text nodes are appended with whitespace normalised
(StringUtil.appendNormalisedWhitespace) unless their parent or one of its next five
ancestors preserves whitespace (pre, textarea, title, plaintext) or they are CDATA. Data
nodes (script/style), comments and doctypes contribute nothing. The result is trimmed like
Java's ``String.trim()``. The accumulator rules are :class:`labeler.extract.walk.TextAcc`.
"""

from __future__ import annotations

from collections.abc import Iterator

from labeler.extract.jsoup_parser.nodes import CDataNode, Element, Node, TextNode
from labeler.extract.walk import INVISIBLE, PRESERVE_DEPTH, WS_RUN, BlockMarks, TextAcc

_FAR = PRESERVE_DEPTH  # any distance >= PRESERVE_DEPTH: no preserving ancestor in reach

UNMARKED_BLOCKS = frozenset({"html", "body", "head", "script", "style", "template", "title"})
"""Block tags whose boundaries mean nothing for chunking (the whole page, or invisible)."""


def _preserves(el: Element | None) -> bool:
    """Element.preserveWhitespace(el): el or one of its next five ancestors preserves."""
    i = 0
    while el is not None and i < PRESERVE_DEPTH:
        if el.tag.preserve_whitespace:
            return True
        el = el.parent
        i += 1
    return False


def _preserve_distance(el: Element | None) -> int:
    """How many steps up from ``el`` the nearest whitespace-preserving element is (0: ``el``
    itself), or ``_FAR`` if none is within ``PRESERVE_DEPTH`` steps; ``_preserves(el)`` is
    ``_preserve_distance(el) < PRESERVE_DEPTH``."""
    i = 0
    while el is not None and i < PRESERVE_DEPTH:
        if el.tag.preserve_whitespace:
            return i
        el = el.parent
        i += 1
    return _FAR


def element_text(root: Element) -> str:
    """jsoup ``root.text()``."""
    acc = TextAcc()
    _walk_batched(root, acc)
    return acc.result()


def _flush(acc: TextAcc, pending: list[str]) -> None:
    """Append the normalised text of ``pending`` (then emptied) to ``acc`` in one go."""
    text = "".join(pending)
    pending.clear()
    if "\u200b" in text or "\u00ad" in text:
        text = INVISIBLE.sub("", text)
    text = WS_RUN.sub(" ", text)
    if acc.space and text[:1] == " ":
        text = text[1:]
    if text:
        acc.parts.append(text)
        acc.space = text[-1] == " "
        acc.empty = False


def _walk_batched(root: Element, acc: TextAcc) -> None:
    """:func:`walk_text` without marks, normalising runs of text at once (speed only).

    Text that is not whitespace-preserved is gathered raw and normalised in one go before
    the next preserved text (or CDATA) and at the end. That equals normalising node by node
    (``TextAcc.normal``): normalisation drops invisible characters, maps each whitespace
    run to one space and drops a leading one after a space, so normalising ``a + b`` gives
    normalised ``a`` followed by ``b`` normalised in the state ``a`` left. A separator is
    gathered as a plain ``" "``: where ``TextAcc.separator`` adds a space, so does that one;
    where it adds nothing, the gathered space is dropped as a leading space after a space,
    or, before any text, is leading white space that the final ``String.trim()`` removes
    (it only ever precedes the first visible character, so the trimmed result is the same).
    """
    pending: list[str] = []
    gather = pending.append
    el = root
    siblings: Iterator[Node] = iter(root.children)
    distance = _preserve_distance(root)  # of ``el``
    after_block = False  # the previous sibling was a block element: a tail space may be due
    stack: list[tuple[Element, Iterator[Node], int]] = []
    text_cls, cdata_cls, element_cls = TextNode, CDataNode, Element
    while True:
        for node in siblings:
            cls = type(node)
            if cls is text_cls or cls is cdata_cls:
                if after_block:
                    gather(" ")  # tail: a block followed by a text node
                    after_block = False
                if cls is text_cls and distance >= PRESERVE_DEPTH:
                    gather(node.text)  # type: ignore[attr-defined]
                    continue
                # preserved text or CDATA: appended as is
                if pending:
                    _flush(acc, pending)
                acc.raw(node.text)  # type: ignore[attr-defined]
            elif isinstance(node, element_cls):
                tag = node.tag
                block = tag.is_block
                if block or node.normal_name == "br":
                    gather(" ")
                if node.children:
                    stack.append((el, siblings, distance))
                    el = node
                    siblings = iter(node.children)
                    distance = 0 if tag.preserve_whitespace else distance + 1
                    after_block = False
                    break  # walk the children, then resume these siblings
                after_block = block
            else:
                after_block = False
        else:
            if not stack:
                break
            after_block = el.tag.is_block
            el, siblings, distance = stack.pop()
    if pending:
        _flush(acc, pending)


def walk_text(root: Element, acc: TextAcc, marks: BlockMarks | None = None) -> None:
    """Append the text of ``root``'s children to ``acc`` (``root.text()`` before the trim).

    With ``marks``, also note block boundaries: entering and leaving each block element
    other than :data:`UNMARKED_BLOCKS`, so that ``marks.offsets`` ends up holding where
    each block's visible text begins in the (untrimmed) accumulated text.
    """
    el = root
    children: list[Node] = root.children
    i = 0
    preserved: bool | None = None  # computed on the first text child of ``el``
    stack: list[tuple[Element, list[Node], int, bool | None]] = []
    while True:
        if i < len(children):
            node = children[i]
            i += 1
            cls = type(node)
            if cls is TextNode or cls is CDataNode:
                text = node.text  # type: ignore[attr-defined]
                if cls is CDataNode:
                    acc.raw(text)
                else:
                    if preserved is None:
                        preserved = _preserves(el)
                    if preserved:
                        acc.raw(text)
                    else:
                        acc.normal(text)
                if marks is not None:
                    marks.sync()
            elif isinstance(node, Element):
                block = node.tag.is_block
                marked = marks is not None and block and node.normal_name not in UNMARKED_BLOCKS
                if marked:
                    marks.boundary()  # type: ignore[union-attr]
                if block or node.normal_name == "br":
                    acc.separator()
                if node.children:
                    stack.append((el, children, i, preserved))
                    el = node
                    children = node.children
                    i = 0
                    preserved = None
                    continue
                if marked:
                    marks.boundary()  # type: ignore[union-attr]
                if block and i < len(children) and isinstance(children[i], TextNode):
                    acc.separator()  # tail: a block followed by a text node
        else:
            if not stack:
                break
            done = el
            el, children, i, preserved = stack.pop()
            if marks is not None and done.tag.is_block and done.normal_name not in UNMARKED_BLOCKS:
                marks.boundary()
            if done.tag.is_block and i < len(children) and isinstance(children[i], TextNode):
                acc.separator()
