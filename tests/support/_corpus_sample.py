"""A sample of the bundled corpus, for tests whose subject is not the corpus's size.

Every ingest runs each HTML page through the jsoup port (text and block starts from one
walk): the 766 pages cost about 13 s of CPU each time. Tests that compare two ingests, or
an ingest with its repetition, catch the same faults on a sample that keeps every folder,
the largest page and the files ingest skips.
"""

from __future__ import annotations

import shutil
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "corpora" / "sqlite-docs"
EVERY = 8  # one page in EVERY of each folder of the corpus is kept


def corpus_sample(folder: Path, also: tuple[str, ...] = ()) -> int:
    """Copy into ``folder`` a sample of the corpus, keeping its folders: in each folder, every
    EVERY-th HTML page (by name, the first included), the largest page, the pages named in
    ``also`` (paths relative to the corpus) and every file that is not HTML (ingest skips
    those, and says so in its report). Returns how many HTML pages it copied (about 100)."""
    pages = sorted(CORPUS.rglob("*.html"))
    largest = max(pages, key=lambda page: page.stat().st_size)
    kept = {
        page
        for parent in {page.parent for page in pages}
        for i, page in enumerate(sorted(parent.glob("*.html")))
        if i % EVERY == 0
    }
    kept |= {largest, *(CORPUS / name for name in also)}
    kept |= {path for path in CORPUS.rglob("*") if path.is_file() and path.suffix != ".html"}
    for path in kept:
        copy = folder / path.relative_to(CORPUS)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)
    return sum(path.suffix == ".html" for path in kept)
