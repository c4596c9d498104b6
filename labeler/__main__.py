from __future__ import annotations

from labeler.cli import entry

entry()
