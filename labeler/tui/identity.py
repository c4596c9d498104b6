"""Who is labelling: the ``--annotator`` flag, else ``$LABELER_ANNOTATOR``, else the user."""

from __future__ import annotations

import getpass
import os

ANNOTATOR_ENV = "LABELER_ANNOTATOR"


def resolve_annotator(flag: str | None) -> str:
    """The annotator name stored with every change (never empty)."""
    if flag and flag.strip():
        return flag.strip()
    env = os.environ.get(ANNOTATOR_ENV, "").strip()
    if env:
        return env
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no passwd entry in some containers
        user = ""
    return user or "annotator"
