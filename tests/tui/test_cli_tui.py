"""``labeler tui`` and bare ``labeler``: arguments, identity, and no Textual at parse time."""

from __future__ import annotations

import subprocess
import sys

import pytest

from labeler.cli import build_parser
from labeler.store.identity import ANNOTATOR_ENV, resolve_annotator


def test_tui_arguments_parse() -> None:
    args = build_parser().parse_args(
        ["tui", "--gold-set", "demo", "--annotator", "ana", "--db", "x.db"]
    )
    assert (args.command, args.gold_set, args.annotator, args.db) == ("tui", "demo", "ana", "x.db")


def test_annotator_flag_then_environment_then_user(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ANNOTATOR_ENV, "env-name")
    assert resolve_annotator("flag-name") == "flag-name"
    assert resolve_annotator(None) == "env-name"
    monkeypatch.delenv(ANNOTATOR_ENV)
    assert resolve_annotator(None)


def test_help_does_not_load_textual() -> None:
    code = (
        "import sys\nfrom labeler.cli import main\n"
        "try:\n    main(['tui', '--help'])\nexcept SystemExit:\n    pass\n"
        "assert not [m for m in sys.modules if m.startswith('textual')], 'textual loaded'\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "--annotator" in out.stdout
