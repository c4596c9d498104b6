#!/usr/bin/env python3
"""Build ``corpora/sqlite-docs/gold/requirements.jsonl`` from ``requirements.html``.

SQLite's documentation lists every testable statement ("requirement") in
``requirements.html``::

    <dt><b>R-00013-61831-...-15640</b></dt>
    <dd><p>The key comes first and is separated ...
    <i>(source: <a href="uri.html">uri.html</a>, matrix: ...)</i></p></dd>

The text before ``<i>(source:`` is the requirement, already normalised by SQLite's build
scripts (whitespace collapsed, ``&lt;``/``&gt;``/``&amp;`` decoded to bare characters, other
entities such as ``&nbsp;`` left as they are); the ``source`` link names the page it comes from.

For each requirement this script

1. renders the text the way the cited page's jsoup text would: bare ``<``/``>`` are escaped
   back, the text is wrapped in ``<p>`` and run through the project's extractor
   (:func:`labeler.extract.page_text`, jsoup 1.15.3 ``body().text()``), which decodes the
   remaining entities and collapses whitespace exactly as it does for the page;
2. finds that text in the cited page's ``page_text``, in three tiers:

   * ``exact``: the text occurs as it is (first occurrence; more than one is *repeated*);
   * ``whitespace``: it occurs once runs of whitespace may differ (preformatted examples keep
     their line breaks in the page but not in the list);
   * ``no-space``: it occurs when all whitespace is ignored (table cells run together in the
     list, ``OffsetSizeDescription``, but are separated in the page).

   In the last two tiers the element's text is the page's own slice, and the question's
   ``notes`` say which tier placed it;
3. writes one question per requirement (``query_id`` and ``query`` = the requirement id), its
   single element anchored at ``start``/``end`` in the cited page, grade 1;
4. marks the element's key clause where the requirement states a condition
   (:func:`labeler.anchoring.key_clause`: from the first ``MUST NOT``, ``SHALL``, ``unless``,
   ``except`` or ``only if`` to the end of its sentence), written as the element's ``key``
   in page offsets.

Requirements that cannot be placed go to ``requirements-skipped.tsv`` (``id``, ``page``,
``reason``) and are left out: ``page-missing`` (the cited page is not in the corpus),
``fragment`` (a single token or no letter at all, e.g. ``NOT`` or ``* / %``: cells of the
operator table, not statements, and too short to stand for one position in the page),
``not-on-page`` (the page says something else: the documentation changed after the list was
made).

The output depends only on the corpus files, so every run writes the same bytes (a test
checks the committed file against a fresh build). Usage::

    python scripts/build_requirements_gold.py [--corpus DIR] [--out DIR]
"""

from __future__ import annotations

import argparse
import html
import os
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
try:
    import selectolax  # noqa: F401  (the extractor's engine)
except ImportError:  # run by a Python without the project installed: use the project's venv
    if _VENV_PYTHON.exists() and not os.environ.get("BUILD_REQUIREMENTS_REEXEC"):
        os.environ["BUILD_REQUIREMENTS_REEXEC"] = "1"
        os.execv(_VENV_PYTHON, [str(_VENV_PYTHON), __file__, *sys.argv[1:]])
    sys.exit("build_requirements_gold: install the project first (make test creates .venv)")

from labeler.anchoring import key_clause  # noqa: E402
from labeler.extract import page_text  # noqa: E402
from labeler.formats.gold_jsonl import gold_line_json  # noqa: E402
from labeler.store.rows import StoredElement  # noqa: E402

CORPUS = ROOT / "corpora" / "sqlite-docs"
GOLD_FILE = "requirements.jsonl"
SKIPPED_FILE = "requirements-skipped.tsv"

_ITEM = re.compile(r"<dt><b>(R-[0-9-]+)</b></dt>\s*<dd><p>(.*?)</dd>", re.S)
_SOURCE = re.compile(r'<i>\(source: <a href="([^"]+)">')
_LETTER = re.compile(r"[^\W\d_]")

NOTES = {
    "exact": "",
    "whitespace": "placed ignoring whitespace differences (preformatted text in the page)",
    "no-space": "placed ignoring all whitespace (table cells run together in requirements.html)",
}


@dataclass(frozen=True)
class Requirement:
    """One entry of the list: its id, cited page and text as the page's extractor renders it."""

    rid: str
    page: str
    text: str


@dataclass(frozen=True)
class Placed:
    """A requirement found in its page: ``page_text[start:end] == text``."""

    req: Requirement
    start: int
    end: int
    text: str
    tier: str
    occurrences: int


def parse_requirements(html_bytes: bytes) -> list[Requirement]:
    """Every requirement of ``requirements.html`` in document order.

    Raises ``ValueError`` for an entry without a ``source`` link (the markup changed).
    """
    source = html_bytes.decode("utf-8")
    found: list[Requirement] = []
    for rid, body in _ITEM.findall(source):
        link = _SOURCE.search(body)
        if link is None:
            raise ValueError(f"{rid}: no '(source: ...)' link in {body[:80]!r}")
        fragment = body[: link.start()].replace("<", "&lt;").replace(">", "&gt;")
        text = page_text(f"<html><body><p>{fragment}</p></body></html>".encode())
        found.append(Requirement(rid, html.unescape(link.group(1)), text))
    return found


def _without_space(text: str) -> tuple[str, list[int]]:
    """``text`` with every whitespace character removed, and each kept character's index."""
    kept = [i for i, ch in enumerate(text) if not ch.isspace()]
    return "".join(text[i] for i in kept), kept


def place(req: Requirement, page: str) -> Placed | str:
    """Find ``req`` in ``page`` (see the module docstring); a skip reason when it is not there."""
    if not _LETTER.search(req.text) or len(req.text.split()) < 2:
        return "fragment"
    first = page.find(req.text)
    if first != -1:
        return Placed(req, first, first + len(req.text), req.text, "exact", _count(page, req.text))
    pattern = r"\s+".join(re.escape(word) for word in req.text.split())
    match = re.search(pattern, page)
    if match is not None:
        return Placed(req, match.start(), match.end(), match.group(), "whitespace", 1)
    squeezed, index = _without_space(page)
    needle, _ = _without_space(req.text)
    at = squeezed.find(needle)
    if at != -1:
        start, end = index[at], index[at + len(needle) - 1] + 1
        return Placed(req, start, end, page[start:end], "no-space", 1)
    return "not-on-page"


def _count(page: str, text: str) -> int:
    count, pos = 0, page.find(text)
    while pos != -1:
        count += 1
        pos = page.find(text, pos + 1)
    return count


def build(corpus: Path) -> tuple[list[Placed], list[tuple[str, str, str]]]:
    """Place every requirement of ``corpus/requirements.html``; returns (placed, skipped rows)."""
    requirements = parse_requirements((corpus / "requirements.html").read_bytes())
    pages: dict[str, str | None] = {}
    placed: list[Placed] = []
    skipped: list[tuple[str, str, str]] = []
    for req in requirements:
        if req.page not in pages:
            path = corpus / req.page
            pages[req.page] = page_text(path.read_bytes()) if path.is_file() else None
        text = pages[req.page]
        outcome = "page-missing" if text is None else place(req, text)
        if isinstance(outcome, str):
            skipped.append((req.rid, req.page, outcome))
        else:
            placed.append(outcome)
    return placed, skipped


def element(p: Placed) -> StoredElement:
    """The placed requirement as an element to write, with its key clause if it has one."""
    key = key_clause(p.text)
    ks, ke = (None, None) if key is None else (p.start + key[0], p.start + key[1])
    return StoredElement(p.req.page, p.start, p.end, p.text, 1, False, ks, ke)


def write(out: Path, placed: list[Placed], skipped: list[tuple[str, str, str]]) -> None:
    """Write the gold JSONL and the skipped TSV into ``out`` (UTF-8, ``\\n`` line ends)."""
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        gold_line_json(p.req.rid, p.req.rid, [element(p)], NOTES[p.tier] or None) for p in placed
    ]
    (out / GOLD_FILE).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    rows = ["id\tpage\treason", *("\t".join(row) for row in skipped)]
    (out / SKIPPED_FILE).write_text("".join(row + "\n" for row in rows), encoding="utf-8")


def summary(placed: list[Placed], skipped: list[tuple[str, str, str]]) -> str:
    """Counts for the user: found by tier (and repeated), skipped by reason."""
    tiers = Counter(p.tier for p in placed)
    repeated = sum(p.occurrences > 1 for p in placed)
    keyed = sum(key_clause(p.text) is not None for p in placed)
    reasons = Counter(reason for _, _, reason in skipped)
    parts = [
        f"requirements: {len(placed) + len(skipped)}",
        f"found: {len(placed)} ("
        + ", ".join(f"{tier} {tiers[tier]}" for tier in NOTES)
        + f"; {repeated} repeated on their page, first occurrence taken)",
        f"key clauses: {keyed}",
        f"skipped: {len(skipped)}"
        + (
            " (" + ", ".join(f"{r} {n}" for r, n in sorted(reasons.items())) + ")"
            if skipped
            else ""
        ),
    ]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="default: %(default)s")
    parser.add_argument(
        "--out", type=Path, default=None, help="output folder (default: CORPUS/gold)"
    )
    args = parser.parse_args(argv)
    corpus: Path = args.corpus
    if not (corpus / "requirements.html").is_file():
        print(f"build_requirements_gold: no requirements.html in {corpus}", file=sys.stderr)
        return 1
    out: Path = args.out or corpus / "gold"
    placed, skipped = build(corpus)
    write(out, placed, skipped)
    print(summary(placed, skipped))
    print(f"wrote {out / GOLD_FILE} and {out / SKIPPED_FILE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
