"""``import scoring`` stays pure and light (docs/architecture.md, Layers)."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("labeler", "sqlmodel", "sqlalchemy", "textual", "rich", "click", "typer")


def test_import_scoring_loads_no_app_or_heavy_modules() -> None:
    code = (
        "import json, sys, scoring, scoring.compare, scoring.correctness, scoring.report, "
        "scoring.bootstrap, scoring.multicompare; "
        "print(json.dumps(sorted(sys.modules)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    loaded = set(json.loads(out))
    roots = {name.split(".")[0] for name in loaded}
    assert not roots & set(FORBIDDEN), roots & set(FORBIDDEN)
    # heavy optional libraries are imported lazily, only when needed
    assert "numpy" not in roots and "rapidfuzz" not in roots
