"""Seeded hostile documents for the tokeniser port.

* The speed paths (one-regex tags, character references, runs below the window split) give
  the same token streams as jsoup's state-by-state code, which the port also contains: the
  test runs both (the speed paths switched off with monkeypatch) on the same documents.
* ``jsoup``: on documents built from the tokeniser's odd inputs (stray ``<``, quotes, NUL,
  U+FFFF, entities, script escapes, RCDATA end tags, CDATA, doctypes, astral characters, long
  runs across the 32K read window), ``body_text`` equals the real jar's ``body().text()``,
  and every element's attributes, every comment, doctype and data node equal the jar's
  (``JsoupDom.java`` dumps them; attributes never reach the body text).
"""

from __future__ import annotations

import base64
import random
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from jsoup_ref import runner
from test_tokeniser import C, E, S, stream

import labeler.extract.jsoup_parser.tokeniser as tokeniser_module
import labeler.extract.jsoup_parser.tokeniser_states.attribute as attribute_states
import labeler.extract.jsoup_parser.tokeniser_states.doctype as doctype_states
import labeler.extract.jsoup_parser.tokeniser_states.tag as tag_states
import labeler.extract.jsoup_parser.tokeniser_states.text as text_states
from labeler.extract.jsoup_parser import body_text, parse
from labeler.extract.jsoup_parser.nodes import Comment, DataNode, DocumentType, Element, Node

PIECES = [
    *"<>/=\"'`?!-&; \n\t\r\f\x00\uffffabx",
    *["</", "<!", "<!--", "-->", "--", "&amp", "&amp;", "&lt", "&#", "&#x", "&#65", "&#x1F600;"],
    *["&#128;", "&notin;", "&notit;", "&copy2", "&ampx", "&nbsp", "\u00e9", "\u00df", "\u0130"],
    *["\U0001f600", "script", "SCRIPT", "title", "Title", "style", "textarea", "plaintext"],
    *["xmp", "iframe", "noscript", "template", "svg", "p", "div", "table", "td", "select"],
    *["<![CDATA[", "]]>", "<!DOCTYPE", "<!doctype html>", "PUBLIC", "SYSTEM", "<?", "<p>"],
    *["<script>", "</script>", "<title>", "</title>", "<style>", "</style>", "<textarea>"],
    *["</textarea>", "<!--<script>", "</p>", "<b>", "</b>", "<a href=", "word", " text "],
]


ATTRIBUTE_PIECES = [
    *["<a", "<p", "</a", " ", "\t", "\n", "b", "c", "=", '"', "'", "`", "x", "&amp;", "&amp"],
    *["&copy=", "&lt-", "&#65", "&", "/", ">", "<", "\x00", "\x01", "\uffff", "\u00e9", "y z"],
    *['="v w"', "='q'", "=u", "/>", "&notin;", "&hellip", "\U0001f600", "B", "ID", "<!--"],
    *["<!DOCTYPE", "<!DOCTYPE\U0001f600html>", " PUBLIC ", " SYSTEM ", "-->", "--!>", "<?"],
    *["<script>", "</script>", "<title>", "</title>"],
]


def _document(rng: random.Random) -> str:
    parts = [rng.choice(PIECES) for _ in range(rng.randint(1, 60))]
    if rng.random() < 0.05:  # long runs: the reader's window slides
        parts.insert(rng.randrange(len(parts) + 1), "y" * rng.randint(8000, 40000))
    return "".join(parts)


def _documents(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    return [_document(rng) for _ in range(count)]


# tags with many plain attributes (jsoup keeps the first 512: Token.Tag.MaxAttributes)
MANY_ATTRIBUTES = [
    "<p " + " ".join(f'a{i}="{i}"' for i in range(600)) + ">x</p>",
    "<p a0 " + " ".join(f"a{i}='{i}' b{i}=v{i}" for i in range(1, 300)) + " />",
    "<b " + " ".join(f"k{i}" for i in range(512)) + ">",
    "<b " + " ".join(f"k{i}" for i in range(513)) + ">",
]


def test_plain_tags_keep_512_attributes() -> None:
    # 600 attributes a0="0" ... a599="599": the first 512 (a0 ... a511) are kept, the rest
    # dropped, then the text and the end tag follow
    assert stream(MANY_ATTRIBUTES[0]) == [
        S("p", [(f"a{i}", str(i)) for i in range(512)]),
        C("x"),
        E("p"),
    ]


def test_speed_paths_match_state_by_state(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(20261202)
    docs = _documents(20261201, 1500) + MANY_ATTRIBUTES
    docs += [
        "".join(rng.choice(ATTRIBUTE_PIECES) for _ in range(rng.randint(1, 50)))
        for _ in range(1500)
    ]
    fast = [stream(d) for d in docs]
    never = re.compile("(?!)")
    # each name is patched in the module whose functions look it up
    monkeypatch.setattr(tag_states, "_FAST_START", never)
    monkeypatch.setattr(tag_states, "_FAST_END", never)
    monkeypatch.setattr(text_states, "_FAST_DATA", text_states.data_pattern(tags=False))
    for module in (attribute_states, doctype_states):
        monkeypatch.setattr(module, "_run_below_split", lambda r, p: "")
    monkeypatch.setattr(
        tokeniser_module.Tokeniser, "_fast_reference", lambda self, a: (False, None)
    )
    slow = [stream(d) for d in docs]
    differ = [d for d, f, s in zip(docs, fast, slow, strict=True) if f != s]
    assert differ == []


@pytest.mark.jsoup
def test_hostile_documents_match_jsoup(tmp_path: Path) -> None:
    docs = _documents(7, 400)
    paths = []
    for i, doc in enumerate(docs):
        path = tmp_path / f"{i}.html"
        path.write_bytes(doc.encode("utf-8"))
        paths.append(path)
    try:
        reference = runner.run(paths)
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")
    differ = [
        (doc, want, got)
        for doc, want in zip(docs, reference, strict=True)
        if (got := body_text(doc)) != want
    ]
    assert differ == []


def _walk(root: Node) -> Iterator[Node]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Element):
            stack.extend(reversed(node.children))


def _dom_dump(html: str) -> str:
    """What JsoupDom.java prints for ``html`` (before base64)."""
    doc = parse(html)
    parts = []
    for node in _walk(doc):
        if isinstance(node, Element):
            line = "#root" if node is doc else node.tag.name
            for key, value in node.attributes or []:
                line += f"\x01{key}\x02{value}"
            parts.append(line + "\x03")
    for node in _walk(doc):
        if isinstance(node, Comment):
            parts.append(f"C:{node.data}\x03")
        elif isinstance(node, DocumentType):
            parts.append(f"D:{node.name}|{node.public_id}|{node.system_id}\x03")
        elif isinstance(node, DataNode):
            parts.append(f"DN:{node.data}\x03")
    return "".join(parts).encode("utf-8", "replace").decode("utf-8")  # Java writes '?'


@pytest.mark.jsoup
def test_attributes_comments_doctypes_match_jsoup(tmp_path: Path) -> None:
    try:
        harness = runner.compiled(Path(__file__).with_name("JsoupDom.java"))
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")
    rng = random.Random(21)
    docs = _documents(8, 150) + [
        "".join(rng.choice(ATTRIBUTE_PIECES) for _ in range(rng.randint(1, 50))) for _ in range(400)
    ]
    paths = []
    for i, doc in enumerate(docs):
        path = tmp_path / f"{i}.html"
        path.write_bytes(doc.encode("utf-8", "surrogatepass"))
        paths.append(str(path))
    done = subprocess.run([*harness, *paths], capture_output=True, text=True, check=True)
    lines = done.stdout.split()
    assert len(lines) == len(docs)
    differ = [
        (doc, want, got)
        for doc, line in zip(docs, lines, strict=True)
        if (got := _dom_dump(doc)) != (want := base64.b64decode(line).decode("utf-8"))
    ]
    assert differ == []
