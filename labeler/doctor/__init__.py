"""``labeler doctor``: check a database's invariants (read-only) and list what needs fixing.

The names below load their module on first use (PEP 562), so importing the package stays
light; the modules behind it are private.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from labeler.doctor._checks import (
        MAX_DETAILS,
        Check,
        DoctorReport,
        StaleLabel,
        Status,
        diagnose,
        postgresql_snapshot,
    )
    from labeler.doctor._span_checks import (
        Rows,
        Verdict,
        dedup,
        duplicates,
        overlaps,
    )

_HOMES: dict[str, str] = {
    "Check": "labeler.doctor._checks",
    "DoctorReport": "labeler.doctor._checks",
    "MAX_DETAILS": "labeler.doctor._checks",
    "Rows": "labeler.doctor._span_checks",
    "StaleLabel": "labeler.doctor._checks",
    "Status": "labeler.doctor._checks",
    "Verdict": "labeler.doctor._span_checks",
    "dedup": "labeler.doctor._span_checks",
    "diagnose": "labeler.doctor._checks",
    "duplicates": "labeler.doctor._span_checks",
    "overlaps": "labeler.doctor._span_checks",
    "postgresql_snapshot": "labeler.doctor._checks",
}

__all__ = [
    "MAX_DETAILS",
    "Check",
    "DoctorReport",
    "Rows",
    "StaleLabel",
    "Status",
    "Verdict",
    "dedup",
    "diagnose",
    "duplicates",
    "overlaps",
    "postgresql_snapshot",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'labeler.doctor' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
