"""Spans in their page: offsets checked or found by text, re-anchored when a page changes, and
the automatic key clause of a requirement.

Pure: no database, no UI. Offsets are Python string indices (code points) into the stored
page text.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.anchoring._anchor import (
        Anchor,
        AnchorFailure,
        anchor,
        count_occurrences,
    )
    from labeler.anchoring._keyclause import (
        CONDITION_WORDS,
        key_clause,
    )
    from labeler.anchoring._reanchor import (
        CONTEXT,
        MIN_AGREEMENT,
        Outcome,
        Quote,
        Relocation,
        agreement,
        occurrences,
        quote_at,
        relocate,
    )

_HOMES: dict[str, str] = {
    "Anchor": "labeler.anchoring._anchor",
    "AnchorFailure": "labeler.anchoring._anchor",
    "CONDITION_WORDS": "labeler.anchoring._keyclause",
    "CONTEXT": "labeler.anchoring._reanchor",
    "MIN_AGREEMENT": "labeler.anchoring._reanchor",
    "Outcome": "labeler.anchoring._reanchor",
    "Quote": "labeler.anchoring._reanchor",
    "Relocation": "labeler.anchoring._reanchor",
    "agreement": "labeler.anchoring._reanchor",
    "anchor": "labeler.anchoring._anchor",
    "count_occurrences": "labeler.anchoring._anchor",
    "key_clause": "labeler.anchoring._keyclause",
    "occurrences": "labeler.anchoring._reanchor",
    "quote_at": "labeler.anchoring._reanchor",
    "relocate": "labeler.anchoring._reanchor",
}

__all__ = [
    "CONDITION_WORDS",
    "CONTEXT",
    "MIN_AGREEMENT",
    "Anchor",
    "AnchorFailure",
    "Outcome",
    "Quote",
    "Relocation",
    "agreement",
    "anchor",
    "count_occurrences",
    "key_clause",
    "occurrences",
    "quote_at",
    "relocate",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.anchoring' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
