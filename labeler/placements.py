"""Chunk placements: where a run's chunks sit on the labelled pages, worked out at import.

Scoring must locate every chunk of a question on each page its labels cite (DESIGN §6
rules 2 and 3, and the fallback and repeated-chunk flags); that is most of its time. A run
is imported once and scored many times, so ``labeler run import`` locates each question's
chunks on the pages the question's labels cite in any gold set at that moment and stores
the result per (run, question, page text). Scoring takes a stored placement when the page
still has that text and locates the chunks itself otherwise (a page re-ingested since, a
label added on another page, a run imported before its gold set): the scores are the same.

Pages are keyed by a BLAKE2b digest of their text, not by the document's file hash: the
text is what the offsets are in, and it also changes when the extraction profile does.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence

from scoring import PageIndex, Placement

__all__ = ["Placer", "decode", "encode", "page_key", "placements_for"]

StoredPlacements = dict[str, dict[str, tuple[str, str]]]
"""Query id → page key → the stored ``(starts, repeated)`` strings."""


def page_key(text: str) -> str:
    """The key of a page's text: hex BLAKE2b-128 of its UTF-8 bytes."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def encode(index: PageIndex, chunks: Sequence[str]) -> tuple[str, str]:
    """``(starts, repeated)`` as stored: comma-separated first offsets (−1: not on the page
    or empty chunk) and one ``0``/``1`` per chunk, in rank order."""
    starts = ["-1"] * len(chunks)
    repeated = ["0"] * len(chunks)
    for r, _, c0, twice in index.place(chunks):
        starts[r] = str(c0)
        if twice:
            repeated[r] = "1"
    return ",".join(starts), "".join(repeated)


def decode(starts: str, repeated: str) -> Placement:
    """The ``Placement`` a stored ``(starts, repeated)`` pair describes."""
    return Placement(list(map(int, starts.split(","))), list(map(int, repeated)))


def placements_for(
    stored: StoredPlacements, pages: Mapping[str, str]
) -> dict[str, dict[str, Placement]]:
    """Scoring's placements (query id → document id → placement) from the stored ones,
    for the documents of ``pages`` (id → current text) whose text they were made on."""
    docs_by_key: dict[str, list[str]] = {}
    for doc, text in pages.items():
        docs_by_key.setdefault(page_key(text), []).append(doc)
    out: dict[str, dict[str, Placement]] = {}
    for qid, by_key in stored.items():
        mine: dict[str, Placement] = {}
        for key, (starts, repeated) in by_key.items():
            for doc in docs_by_key.get(key, ()):
                mine[doc] = decode(starts, repeated)
        if mine:
            out[qid] = mine
    return out


class Placer:
    """Placements for the questions of a run being imported.

    ``pages_of`` maps a query id to the documents its labels cite; ``load`` fetches the
    text of documents by id. Pages are loaded and indexed on first use and kept for the
    rest of the import.
    """

    def __init__(
        self,
        pages_of: Mapping[str, Iterable[str]],
        load: Callable[[Sequence[str]], dict[str, str]],
    ) -> None:
        self._pages_of = pages_of
        self._load = load
        self._indexes: dict[str, tuple[str, PageIndex] | None] = {}

    def _index(self, doc: str) -> tuple[str, PageIndex] | None:
        if doc not in self._indexes:
            text = self._load([doc]).get(doc)
            self._indexes[doc] = None if text is None else (page_key(text), PageIndex(text))
        return self._indexes[doc]

    def place(self, qid: str, chunks: Sequence[str]) -> list[tuple[str, str, str]]:
        """``(page key, starts, repeated)`` for each page the question's labels cite."""
        out = []
        for doc in sorted(set(self._pages_of.get(qid, ()))):
            found = self._index(doc)
            if found is not None:
                key, index = found
                out.append((key, *encode(index, chunks)))
        return out
