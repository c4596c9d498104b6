"""Placeholder: replaced by the jsoup-1.15.3 reimplementation."""

from __future__ import annotations

ENGINES = ("lexbor", "html5lib")
DEFAULT_ENGINE = "lexbor"


def jsoup_body_text(data: bytes, engine: str = DEFAULT_ENGINE) -> str:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(data.decode("utf-8", errors="replace"))
    body = tree.body
    return "" if body is None else " ".join(body.text(separator=" ").split())
