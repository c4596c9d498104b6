"""Who is labelling: the annotator name stored with every change."""

from __future__ import annotations

import getpass
import os

ANNOTATOR_ENV = "LABELER_ANNOTATOR"


def resolve_annotator(flag: str | None = None) -> str:
    """The ``--annotator`` flag, else ``$LABELER_ANNOTATOR``, else the login name.

    Falls back to ``"unknown"`` where no login name can be found (e.g. a container user
    without a passwd entry). Surrounding whitespace is removed; an empty value counts as unset.
    """
    for candidate in (flag, os.environ.get(ANNOTATOR_ENV)):
        if candidate and candidate.strip():
            return candidate.strip()
    try:
        return getpass.getuser() or "unknown"
    except (KeyError, OSError):
        return "unknown"
