"""Gold-set labeller: page text exactly as the pipeline extracted it, exact spans, SQLite store.

From Python: ``labeler.open(db)`` (see :mod:`labeler.api`). The name loads its module on
first use (PEP 562), so ``import labeler`` stays light (the CLI imports no more than it
needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# before any module of the package: some run compiled, unless their sources changed since
# (scoring._native)
import scoring._native  # noqa: F401

if TYPE_CHECKING:
    from labeler.api import open

__version__ = "0.1.0"
__all__ = ["__version__", "open"]


def __getattr__(name: str) -> Any:
    if name == "open":
        from labeler.api import open

        globals()["open"] = open
        return open
    raise AttributeError(f"module 'labeler' has no attribute {name!r}")
