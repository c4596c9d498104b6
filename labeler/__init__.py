"""Gold-set labeller: page text exactly as the pipeline extracted it, exact spans, SQLite store."""

from __future__ import annotations

__version__ = "0.1.0"
