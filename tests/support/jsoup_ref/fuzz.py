"""A seeded grammar of small HTML documents for fuzzing the extractor against the jar.

Documents mix what the tree builders disagree on: block and inline tags, formatting
elements left open or misnested, table parts with stray text, raw-text and RCDATA elements
(some self-closing, some with mixed-case end tags), ``<svg>``/``<math>``, comments, CDATA,
entity references (legacy names without ``;``, HTML5 names, numeric, broken), attributes
(quoted, unquoted, with ``/`` and entities), whitespace and NBSP. Same seed, same documents.
"""

from __future__ import annotations

import random


def _words(text: str) -> list[str]:
    return text.split(" ")  # only on spaces: NBSP stays inside a word


BLOCK = _words("div p section ul ol li dl dt dd h1 h2 pre blockquote table address center")
INLINE = _words("span a b i u em strong font code small big nobr s tt label")
TABLE = _words("table tr td th tbody thead caption colgroup col")
RAW = _words("script style title textarea xmp iframe noscript noembed noframes template")
VOID = _words("br img hr input meta link wbr")
FOREIGN = _words("svg math")
OTHER = _words("select option html head body form button object p")
WORDS = _words("alpha beta gamma delta x y z 42 caf\u00e9 \u00a0 a\u00a0b")
ENTITIES = _words(
    "&amp; &lt; &gt; &nbsp; &copy &copy; &copy2023 &notit; &not &hellip; &mdash; &NBSP;"
    " &#65; &#x42; &#0; &#x80; &#xD800; &# &ampx &eacute &frac12 &lt"
)
SPACES = [" ", "  ", "\n", "\t", " \n ", "\r\n", ""]


def _name(rng: random.Random) -> str:
    pool = rng.choice([BLOCK, INLINE, TABLE, RAW, VOID, FOREIGN, OTHER, INLINE, BLOCK])
    name = rng.choice(pool)
    return name.upper() if rng.random() < 0.08 else name


def _attrs(rng: random.Random) -> str:
    out = []
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
        key = rng.choice(["id", "class", "href", "title", "data-x", "src"])
        value = rng.choice(["v", "a b", "x/y", "&amp;q", "1&b=2", "", "<p>"])
        form = rng.random()
        if form < 0.4:
            out.append(f' {key}="{value}"')
        elif form < 0.6:
            out.append(f" {key}='{value}'")
        elif form < 0.9:
            out.append(f" {key}={value.replace(' ', '') or 'v'}")
        else:
            out.append(f" {key}")
    return "".join(out)


def _text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 3)):
        roll = rng.random()
        if roll < 0.6:
            parts.append(rng.choice(WORDS))
        elif roll < 0.85:
            parts.append(rng.choice(ENTITIES))
        else:
            parts.append(rng.choice(["< ", ">", "&", "]]>", "<3"]))
        parts.append(rng.choice(SPACES))
    return "".join(parts)


def _token(rng: random.Random, open_tags: list[str]) -> str:
    roll = rng.random()
    if roll < 0.35:
        return _text(rng)
    if roll < 0.62:
        name = _name(rng)
        ending = "/>" if rng.random() < 0.07 else ">"
        start = f"<{name}{_attrs(rng)}{ending}"
        low = name.lower()
        if low in RAW and ending == ">" and rng.random() < 0.7:
            body = _text(rng) + (f"<b>{_text(rng)}</b>" if rng.random() < 0.3 else "")
            close = rng.choice([low, low, low.upper(), low.capitalize()])
            return start + body + (f"</{close}>" if rng.random() < 0.85 else "")
        if low not in VOID and ending == ">":
            open_tags.append(low)
        return start
    if roll < 0.85:
        if open_tags and rng.random() < 0.8:
            name = open_tags.pop(rng.randrange(len(open_tags)) if rng.random() < 0.3 else -1)
        else:
            name = _name(rng)
        return f"</{name}>"
    if roll < 0.91:
        return rng.choice(["<!-- c -->", "<!---->", "<!-- <p>x -->", "<!--x", "<?php x ?>"])
    if roll < 0.95:
        return f"<![CDATA[{_text(rng)}]]>"
    if roll < 0.98:
        return rng.choice(SPACES)
    return rng.choice(["<!DOCTYPE html>", "<html>", "<head>", "<body>", "</body>", "</html>"])


def document(rng: random.Random) -> bytes:
    """One document of 5-40 tokens."""
    open_tags: list[str] = []
    tokens = [_token(rng, open_tags) for _ in range(rng.randint(5, 40))]
    return "".join(tokens).encode("utf-8")


def documents(seed: int, count: int) -> list[bytes]:
    """``count`` documents from ``seed`` (deterministic)."""
    rng = random.Random(seed)
    return [document(rng) for _ in range(count)]
