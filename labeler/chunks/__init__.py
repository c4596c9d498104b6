"""Chunks that are exact slices of the page text (and the chunk file of the stored pages,
:func:`write_chunk_file`), the chunk audit (what a chunking does to a gold set's elements
before any retrieval), and the token counters of budgets.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.chunks._chunk_audit import (
        AuditElement,
        AuditReport,
        ElementFate,
        OmegaCeilings,
        Tally,
        audit_chunks,
        element_fate,
        omega,
    )
    from labeler.chunks._chunkers import (
        TOKEN,
        fixed_token_chunks,
        structure_chunks,
        token_spans,
    )
    from labeler.chunks._make import (
        ChunkFileMade,
        write_chunk_file,
    )
    from labeler.chunks._tokenizers import (
        DEFAULT_TOKENIZER,
        MEMO_SIZE,
        count_words,
        make_tokenizer,
        tokenizer_for,
    )
    from labeler.chunks.slices import (
        Chunk,
        chunk_id,
        id_restore,
        id_safe,
    )

_HOMES: dict[str, str] = {
    "AuditElement": "labeler.chunks._chunk_audit",
    "AuditReport": "labeler.chunks._chunk_audit",
    "Chunk": "labeler.chunks.slices",
    "ChunkFileMade": "labeler.chunks._make",
    "DEFAULT_TOKENIZER": "labeler.chunks._tokenizers",
    "ElementFate": "labeler.chunks._chunk_audit",
    "MEMO_SIZE": "labeler.chunks._tokenizers",
    "OmegaCeilings": "labeler.chunks._chunk_audit",
    "TOKEN": "labeler.chunks._chunkers",
    "Tally": "labeler.chunks._chunk_audit",
    "audit_chunks": "labeler.chunks._chunk_audit",
    "chunk_id": "labeler.chunks.slices",
    "count_words": "labeler.chunks._tokenizers",
    "element_fate": "labeler.chunks._chunk_audit",
    "fixed_token_chunks": "labeler.chunks._chunkers",
    "id_restore": "labeler.chunks.slices",
    "id_safe": "labeler.chunks.slices",
    "make_tokenizer": "labeler.chunks._tokenizers",
    "omega": "labeler.chunks._chunk_audit",
    "structure_chunks": "labeler.chunks._chunkers",
    "token_spans": "labeler.chunks._chunkers",
    "tokenizer_for": "labeler.chunks._tokenizers",
    "write_chunk_file": "labeler.chunks._make",
}

__all__ = [
    "DEFAULT_TOKENIZER",
    "MEMO_SIZE",
    "TOKEN",
    "AuditElement",
    "AuditReport",
    "Chunk",
    "ChunkFileMade",
    "ElementFate",
    "OmegaCeilings",
    "Tally",
    "audit_chunks",
    "chunk_id",
    "count_words",
    "element_fate",
    "fixed_token_chunks",
    "id_restore",
    "id_safe",
    "make_tokenizer",
    "omega",
    "structure_chunks",
    "token_spans",
    "tokenizer_for",
    "write_chunk_file",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.chunks' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
