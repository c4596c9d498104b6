"""The chunk value and the ids the exports give it: standard library only.

A :class:`Chunk` is a slice of one page's text. This module is public (not behind the
:mod:`labeler.chunks` facade) so that the interchange formats, which write chunk files and
chunk ids, can use it without loading the chunkers or the services that write chunk files.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Chunk:
    """A slice of page ``doc``: ``text == page[start:end]`` always holds."""

    doc: str
    start: int
    end: int
    text: str

    @property
    def id(self) -> str:
        """The chunk id used by the exports: ``<doc>#<start>-<end>``."""
        return chunk_id(self.doc, self.start, self.end)


def chunk_id(doc: str, start: int, end: int) -> str:
    """``<doc>#<start>-<end>``: unique per page slice, readable, stable across runs.

    The document id is written with :func:`id_safe` (``a b.html`` → ``a%20b.html``), so the
    id is one field in TREC and TSV files.
    """
    return f"{id_safe(doc)}#{start}-{end}"


def _id_unsafe(char: str) -> bool:
    # whitespace splits TREC fields (trec_eval, pytrec_eval's str.split()), control
    # characters (C0, DEL, C1) break lines and terminals, and "%" is the escape itself
    code = ord(char)
    return char == "%" or char.isspace() or code < 0x20 or 0x7F <= code <= 0x9F


def id_safe(name: str) -> str:
    """``name`` with whitespace (every ``str.isspace`` character: tab, NBSP, U+2028...),
    control characters and ``%`` written as the ``%XX`` of their UTF-8 bytes (``a b`` →
    ``a%20b``, NBSP → ``%C2%A0``); every other character, and so a name without any of
    these, is left as it is. Reversible: :func:`id_restore` gives ``name`` back, and two
    different names never give the same result (``%`` itself is always encoded).
    """
    if not any(_id_unsafe(c) for c in name):
        return name
    return "".join(
        "".join(f"%{b:02X}" for b in c.encode("utf-8")) if _id_unsafe(c) else c for c in name
    )


def id_restore(safe: str) -> str:
    """The name :func:`id_safe` encoded into ``safe`` (``%XX`` UTF-8 bytes decoded)."""
    from urllib.parse import unquote  # only the exports' readers need it

    return unquote(safe, encoding="utf-8", errors="strict")
