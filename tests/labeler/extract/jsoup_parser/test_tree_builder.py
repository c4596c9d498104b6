"""The jsoup 1.15.3 tree-builder port: tree shapes worked by hand, and body text against the jar.

The hand-worked cases step through HtmlTreeBuilderState.java (the branch is named in each
comment). The ``jsoup`` tests run the real jar once (one JVM) over every snippet, open quirk,
3,000 seeded fuzz documents and 100,000-deep nestings, and compare
``jsoup_body_text(bytes, "jsoup")`` (charset detection through the port's own tree, then
``body_text``) with ``Jsoup.parse(file).body().text()``.
"""

from __future__ import annotations

import base64
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from jsoup_ref import fuzz, runner
from jsoup_ref.snippets import OPEN_QUIRKS, SNIPPETS

from labeler.extract.jsoup import jsoup_body_text
from labeler.extract.jsoup_parser import body_text, parse
from labeler.extract.jsoup_parser.nodes import (
    CDataNode,
    Comment,
    DataNode,
    DocumentType,
    Element,
    Node,
    TextNode,
)

DEPTH = 100_000
DEEP = {
    "div": "<div>x" * DEPTH,
    "div-closed": "<div>x" * DEPTH + "</div>" * DEPTH,
    "dl-dd": "<dl><dd>x" * DEPTH,
    "ul-li": "<ul><li>x" * DEPTH,
    "template": "<template>x" * DEPTH,
    "span": "<span>x" * DEPTH,
    "b": "<b>x" * DEPTH,
    "table-cells": "<table><tr><td>x" * DEPTH,
    "pre": "<pre>x" * DEPTH,
}
# Bounds of the stack searches: scopes look at 101 elements, getFromStack / onStack /
# resetInsertionMode at 257, the adoption agency's furthest-block scan at 63.
EDGES = {
    f"{kind}-{n}": html
    for n in (63, 64, 100, 101, 256, 257)
    for kind, html in {
        "p-scope": "<p>a" + "<span>" * n + "<p>b",
        "li-scope": "<ul><li>a" + "<div>" * n + "<li>b",
        "foster-depth": "<table>" + "<div>" * n + "</table>x<table><tr>y<span>z",
        "adoption-depth": "<b>" + "<span>" * n + "<p>1</b>2",
        "a-reopened": "<a>1" + "<div>" * n + "<a>2</a>3",
        "formatters": "<p>" + "<b><i><u>" * n + "x</p>y<p>z",
        "templates": "<template>" * n + "x</template>y<table>" + "<template><tr>" * n,
        "select-in-cells": "<table><tr><td><select>" + "<optgroup><option>o" * n + "<td>t",
    }.items()
}
EDGES.update(
    {
        "isindex": '<p>a<isindex action=/s prompt="Find:">b',
        "frameset-after-body-text": "<body><frameset><frame>x</frameset>y",
        "frameset-ok": "<frameset><frame><noframes>n</noframes></frameset>z",
        "image-outside-svg": "<image src=x>a<svg><image>b</svg>",
        "input-hidden-in-table": "<table><input type=hidden>a<input TYPE=hidden>b</table>",
        "head-noscript": "<head><noscript><div class=x>t</div></noscript></head>b",
        "plaintext": "<p>a<plaintext>b</plaintext><i>c",
        "ruby": "<ruby>a<rb>b<rt>c<rp>d</ruby>e<rt>f",
        "nested-forms": "<form>a<form>b</form>c<table><form>d</table>e",
        "body-after-html": "</html>a<!--c--> b</body>c",
        "applet-end-name": "<name><object>a</object>b",
    }
)
FUZZ_SEED, FUZZ_COUNT = 1, 3000


def _shape(node: Node) -> str:
    """A compact tree: elements as name[children], text as 'text' (iterative)."""
    out: list[str] = []
    todo: list[Node | str] = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            out.append(item)
        elif isinstance(item, TextNode):
            out.append(repr(item.text))
        elif isinstance(item, Element):
            out.append(item.normal_name + "[")
            todo.append("]")
            todo.extend(reversed(item.children))
    return ",".join(out).replace("[,", "[").replace(",]", "]")


def test_formatting_across_block_is_adopted() -> None:
    # "<b>1<p>2</b>3": </b> runs the adoption agency; p is the furthest block, so p moves
    # under body (common ancestor) and gets a new b holding p's former children.
    body = parse("<b>1<p>2</b>3").body()
    assert _shape(body) == "body[b['1'],p[b['2'],'3']]"


def test_elements_in_table_are_foster_parented_but_text_is_not() -> None:
    # InTableBody -> InTable "anything else": InBody with foster inserts. insertNode fosters
    # the span before the table; insert(Character) appends to the current node and is never
    # fostered (a jsoup deviation from the spec), so bare "b" stays in tbody.
    body = parse("<table><tr><td>a</td></tr><span>b</span></table>").body()
    assert _shape(body) == "body[span['b'],table[tbody[tr[td['a']]]]]"
    body = parse("<table><tr><td>a</td></tr>b</table>").body()
    assert _shape(body) == "body[table[tbody[tr[td['a']],'b']]]"


def test_reconstructed_formatting_after_paragraph() -> None:
    # "<p><i>a<p>b": the second <p> closes the first (in button scope); the text "b"
    # reconstructs the still-active i inside the new p.
    body = parse("<p><i>a<p>b").body()
    assert _shape(body) == "body[p[i['a']],p[i['b']]]"


def test_noahs_ark_keeps_three_equal_formatting_elements() -> None:
    # Four <b> pushed: the fourth push removes the earliest equal entry, so after </p>
    # closes them all only three b elements are reconstructed for "y".
    body = parse("<p><b><b><b><b>x</p>y").body()
    assert _shape(body).endswith("b[b[b['y']]]]")
    assert _shape(body).count("b[") == 4 + 3


def test_self_closing_known_tag_gets_an_end_tag() -> None:
    # insert() of a self-closing non-void tag emits a synthetic end tag: <div/> is empty.
    assert _shape(parse("<div/>a").body()) == "body[div[],'a']"
    assert body_text("<div/>a<br/>b") == "a b"


def test_body_text_of_script_title_and_pre() -> None:
    # script is a DataNode; title in head is not in body; pre keeps its spaces and drops
    # the newline right after <pre> (reader.matchConsume("\n")).
    assert body_text("<title> t </title><script>s</script><pre>\n a  b</pre>c") == "a  b c"


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<div><span><b><i>x" * 20_000, ("x " * 20_000).strip()),
        ("<table><tr><td>x" * 5_000, ("x " * 5_000).strip()),
        ("<template>x" * 5_000, ""),  # template content is under head's template chain
        ("<dl><dd>x" * 5_000, ("x " * 5_000).strip()),
        ("<ul><li>x" * 5_000, ("x " * 5_000).strip()),
        ("<a><p>x" * 5_000, ("x " * 5_000).strip()),
    ],
    ids=["div-span-b-i", "table-cells", "template", "dl-dd", "ul-li", "a-p"],
)
def test_deep_nesting_needs_no_recursion(html: str, expected: str) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(_frames()) + 60)  # a few nested process() calls at most
    try:
        text = body_text(html)
    finally:
        sys.setrecursionlimit(limit)
    assert text == expected


def _frames() -> list[object]:
    frames = []
    frame = sys._getframe()
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back  # type: ignore[assignment]
    return frames


# --- against the jar ------------------------------------------------------------------------

Case = tuple[str, bytes]


def _cases() -> list[Case]:
    cases: list[Case] = [(f"snippet-{name}", data) for name, data in SNIPPETS]
    cases += [(f"quirk-{name}", data) for name, data, _, _ in OPEN_QUIRKS]
    cases += [(f"deep-{name}", html.encode()) for name, html in DEEP.items()]
    cases += [(f"edge-{name}", html.encode()) for name, html in EDGES.items()]
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[str], list[str]]]:
    """(texts of CASES, texts of the fuzz documents) from one JVM."""
    folder = tmp_path_factory.mktemp("tree-builder")
    paths: list[Path] = []
    for i, (_, data) in enumerate(CASES):
        paths.append(folder / f"case{i}.html")
        paths[-1].write_bytes(data)
    documents = fuzz.documents(FUZZ_SEED, FUZZ_COUNT)
    for i, data in enumerate(documents):
        paths.append(folder / f"fuzz{i}.html")
        paths[-1].write_bytes(data)
    try:
        texts = runner.run(paths)
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")
    yield texts[: len(CASES)], texts[len(CASES) :]


@pytest.mark.jsoup
@pytest.mark.parametrize("index", range(len(CASES)), ids=[name for name, _ in CASES])
def test_body_text_matches_jsoup(reference: tuple[list[str], list[str]], index: int) -> None:
    data = CASES[index][1]
    assert jsoup_body_text(data, "jsoup") == reference[0][index]


@pytest.mark.jsoup
def test_fuzz_documents_match_jsoup(reference: tuple[list[str], list[str]]) -> None:
    documents = fuzz.documents(FUZZ_SEED, FUZZ_COUNT)
    differing = [
        i for i, data in enumerate(documents) if jsoup_body_text(data, "jsoup") != reference[1][i]
    ]
    assert differing == []


# --- whole trees against the jar --------------------------------------------------------------

_TREE_TAG_WORDS = (
    "html head body frameset frame noframes isindex image img br hr input select option optgroup"
    " table caption colgroup col tbody thead tfoot tr td th form button p div span a b i nobr font"
    " s u em strong big small code tt strike li ul ol dl dd dt h1 h2 h6 pre listing textarea title"
    " script style noscript noembed iframe xmp plaintext template ruby rp rt rb applet marquee"
    " object param source embed area wbr keygen math svg label address center blockquote section"
    " menu dir details summary fieldset legend meta link base basefont command sarcasm custom name"
)
TREE_TAGS = _TREE_TAG_WORDS.split()
TREE_ATTRS = ["", " type=hidden", " TYPE=Hidden", " class=a", " a=1 A=2", " x", ' x=""']
TREE_TEXT = ["x", "y z", " ", "\n", "\u00a0", "&amp;", "<", "\t", "w"]


def _tree_document(rng: random.Random) -> str:
    """Tags from every insertion mode's lists, open and close, text, comments, CDATA."""
    out = []
    for _ in range(rng.randint(3, 60)):
        roll = rng.random()
        tag = rng.choice(TREE_TAGS)
        if roll < 0.45:
            slash = "/" if rng.random() < 0.08 else ""
            out.append(f"<{tag}{rng.choice(TREE_ATTRS)}{slash}>")
        elif roll < 0.75:
            out.append(f"</{tag}>")
        elif roll < 0.95:
            out.append(rng.choice(TREE_TEXT))
        else:
            out.append(rng.choice(["<!--c-->", "<!DOCTYPE html>", "<![CDATA[cd]]>"]))
    return "".join(out)


def _tree_dump(html: str) -> str:
    """What JsoupTree.java prints for ``html`` (before base64)."""
    doc = parse(html)
    out: list[str] = []
    todo: list[Node | str] = [doc]
    while todo:
        node = todo.pop()
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, Element):
            out.append("<" + ("#root" if node is doc else node.tag.name) + ">")
            todo.append("</>")
            todo.extend(reversed(node.children))
        elif isinstance(node, CDataNode):
            out.append(f"[CD:{node.text}]")
        elif isinstance(node, TextNode):
            out.append(f"[T:{node.text}]")
        elif isinstance(node, DataNode):
            out.append(f"[D:{node.data}]")
        elif isinstance(node, Comment):
            out.append(f"[C:{node.data}]")
        elif isinstance(node, DocumentType):
            out.append("[DT]")
    return "".join(out).replace("][T:", "")


def _jar_trees(tmp_path: Path, docs: list[str]) -> list[str]:
    """JsoupTree.java's dump of each of ``docs`` (one JVM)."""
    try:
        harness = runner.compiled(Path(__file__).with_name("JsoupTree.java"))
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")
    paths = []
    for i, doc in enumerate(docs):
        paths.append(tmp_path / f"{i}.html")
        paths[-1].write_text(doc, encoding="utf-8")
    done = subprocess.run(
        [*harness, *map(str, paths)],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = done.stdout.split()
    assert len(lines) == len(docs)
    return [base64.b64decode(line).decode("utf-8") for line in lines]


@pytest.mark.jsoup
def test_whole_trees_match_jsoup(tmp_path: Path) -> None:
    """Every node (adjacent text merged) of 1,500 documents over all the modes' tag lists."""
    rng = random.Random(5)
    docs = [_tree_document(rng) for _ in range(1500)]
    trees = _jar_trees(tmp_path, docs)
    differ = [doc for doc, tree in zip(docs, trees, strict=True) if _tree_dump(doc) != tree]
    assert differ == []


# Documents at the edges of the builder's shortcuts (end tag of the current node, formatting
# element that is / is not the current node or the last entry, <li> closing an li from
# InBody and from other modes, reconstruction after markers, attribute keys that need
# lower-casing or case-insensitive deduplication before the Noah's ark comparison).
SHORTCUT_DOCS = [
    "<ul><li>a<li>b<li>c</ul>",
    "<li><div><li>x</div>y",
    "<li><span><li>x",
    "<table><tr><td><li>a<li>b</table>c",
    "<template><li>a<li>b</template>c",
    "<select><li>a<li>b</select>",
    "<a>x<b>y</a>z",
    "<a>x</a>y<a>z",
    "<b><p>x</b>y</p>",
    "<p><a>1</p>2</a>3",
    "<a href=1>x<a href=2>y</a>z",
    "<applet><a>x</applet>y</a>z",
    "<object><b>x</object>y",
    "<b><b><b><b>x</b></b>y",
    "<p><b X=1><b x=1><b x=1><b x=1>t</p>u",
    "<p><b x=1 X=2><b x=1><b x=1><b x=1>t</p>u",
    "<p><b \u03a3=1><b \u03c3=1><b \u03c3=1><b \u03c3=1>t</p>u",
    "<p><b a=1 b=2><b B=2 A=1><b a=1 b=2><b a=1 b=2>t</p>u",
    "<span>x</span><sarcasm>y</sarcasm><custom>z</custom>",
    "<h1>x<h2>y</h1>z</h2>",
    "<div><p>x</div>y</p>",
    "<dl><dt>a<dd>b</dt>c</dl>",
    "<svg><path/><path d=1/><text>t</text></svg>x",
    "<form><div>x</form>y</div>",
    "<nobr>a<nobr>b</nobr>c",
    "<table><b>x</b><tr><td>y</td></tr></table>",
    "<i>a<table><tr><td>b</i>c</td></tr></table>d</i>",
    "<p>x</P><DIV>y</Div><A HREF=u>z</a>",
    "<body><li>x</li></body></html><li>y",
    "<form>x</form><form>y</form>z",
    "</object><a><li><form><i></li></a></a><b>",  # </a> with a current but not last entry
]


@pytest.mark.jsoup
def test_shortcut_edges_match_jsoup(tmp_path: Path) -> None:
    """Whole trees of SHORTCUT_DOCS, as jsoup builds them."""
    trees = _jar_trees(tmp_path, SHORTCUT_DOCS)
    differ = [
        doc for doc, tree in zip(SHORTCUT_DOCS, trees, strict=True) if _tree_dump(doc) != tree
    ]
    assert differ == []
