"""The documentation stands on its own: nothing in the repository points at a document
outside it, and every link between the README and docs/ leads somewhere.

- No file (outside ``.git`` and what ``.gitignore`` leaves out) names the old design
  document or its sections, or a folder ``shared`` beside the repository.
- Every relative link ``[text](target)`` in README.md and docs/*.md names a file of the
  repository, and a ``#fragment`` names a heading of that file (GitHub's anchors).
- Every ``docs/<page>.md`` that code, tests or docs mention exists.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]

# Spelled in pieces so that this file does not match itself.
_OLD = "DES" + "IGN"
_SHARED = ".." + "/shared"
OUTSIDE = [
    re.compile(re.escape(_OLD + " §").encode()),
    re.compile(re.escape(_OLD + ".md").encode()),
    # a folder `shared` next to the checkout; `../sharedcache.html` (corpus pages) is not one
    re.compile(rb"\.\./" + b"shared" + rb"(?![\w.-])"),
]
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^(```|~~~)")
_DOC_MENTION = re.compile(rb"docs/([\w-]+\.md)")
_SKIP_DIRS = {".git", ".venv", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}


def repository_files() -> list[Path]:
    """The files of the checkout: tracked and untracked, without what .gitignore ignores."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        found = []
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in _SKIP_DIRS and not d.endswith(".egg-info")]
            found += [Path(folder) / f for f in files]
        return found
    return [ROOT / os.fsdecode(name) for name in out.split(b"\0") if name]


def outside_references(data: bytes) -> list[str]:
    """The references to documents outside the repository in ``data``."""
    return [m.group().decode() for pattern in OUTSIDE for m in pattern.finditer(data)]


def anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped (hyphens and
    underscores kept), each space a hyphen."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def headings(text: str) -> set[str]:
    """The anchors of a Markdown text's headings (outside fenced code)."""
    found: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.add(anchor(line.lstrip("#")))
    return found


def links(text: str) -> list[str]:
    """The link targets of a Markdown text (outside fenced code)."""
    found: list[str] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            found += _LINK.findall(line)
    return found


def broken_links(page: Path) -> list[str]:
    problems = []
    for target in links(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # https:, mailto:
        path, _, fragment = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        where = f"{page.relative_to(ROOT)}: {target}"
        if ROOT not in file.parents and file != ROOT:
            problems.append(f"{where}: outside the repository")
        elif not file.exists():
            problems.append(f"{where}: no such file")
        elif fragment and fragment not in headings(file.read_text(encoding="utf-8")):
            problems.append(f"{where}: no heading #{fragment} in {file.name}")
    return problems


def test_no_file_refers_to_a_document_outside_the_repository() -> None:
    found = []
    for path in repository_files():
        if path.is_file():
            refs = outside_references(path.read_bytes())
            found += [f"{path.relative_to(ROOT)}: {ref}" for ref in refs]
    assert found == []


def test_the_patterns_catch_what_they_are_for() -> None:
    assert outside_references(f"see {_OLD} §6 and ../{_OLD}.md".encode()) == [
        f"{_OLD} §",
        f"{_OLD}.md",
    ]
    text = f"{_SHARED}/x.md, {_SHARED} and {_SHARED}cache.html, {_SHARED}-notes"
    assert outside_references(text.encode()) == [_SHARED, _SHARED]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_links_lead_to_files_and_headings_of_the_repository(page: Path) -> None:
    assert broken_links(page) == []


def test_a_broken_link_is_found(tmp_path: Path) -> None:
    page = DOCS / "metrics.md"
    text = page.read_text(encoding="utf-8")
    assert "[Flags](#flags)" in text
    assert anchor("The Partial − Hit gap and the diagnosis") == (
        "the-partial--hit-gap-and-the-diagnosis"
    )
    assert anchor("`labeler gold import`") == "labeler-gold-import"
    assert headings("## A b\n```\n## Not one\n```\n### C, d\n") == {"a-b", "c-d"}
    assert links("[x](a.md#b)\n```\n[y](c.md)\n```\n") == ["a.md#b"]


def test_every_docs_page_mentioned_exists() -> None:
    missing = set()
    for path in repository_files():
        if path.suffix in (".py", ".md", ".toml", ".cfg") and path.is_file():
            for name in _DOC_MENTION.findall(path.read_bytes()):
                if not (DOCS / name.decode()).is_file():
                    missing.add(f"{path.relative_to(ROOT)}: docs/{name.decode()}")
    assert sorted(missing) == []


def test_the_readme_is_short_and_links_every_docs_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    linked = {Path(t.partition("#")[0]).name for t in links(readme)}
    assert {p.name for p in DOCS.glob("*.md")} <= linked
    # the two quick-start commands
    assert "make run " in readme and "make test " in readme
