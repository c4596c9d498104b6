"""The command line builds only the parser of the command it runs
(:func:`labeler.cli.command_of`): that parser parses and documents the command exactly as
the whole parser does, every command is known by its module, and anything else (help,
version, no command, an unknown or abbreviated one) gets the whole parser."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from labeler.cli import COMMANDS, build_parser, command_of


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no sub-commands")


def _helps(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Each command's help, and each of its own sub-commands' (``gold import``...)."""
    out = {}
    for name, sub in _commands(parser).items():
        out[name] = sub.format_help()
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction):
                for inner, parser_ in action.choices.items():
                    out[f"{name} {inner}"] = parser_.format_help()
    return out


def test_every_command_is_known_by_its_module_in_the_order_help_lists_them() -> None:
    assert list(_commands(build_parser())) == list(COMMANDS)


@pytest.mark.parametrize("command", list(COMMANDS))
def test_one_commands_parser_documents_it_as_the_whole_parser_does(command: str) -> None:
    whole = _helps(build_parser())
    one = _helps(build_parser(command))
    assert command in one
    assert one == {name: text for name, text in whole.items() if name in one}


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["gold", "import", "f.jsonl", "--gold-set", "g"], "gold"),
        (["--db", "x.db", "run", "import", "r.jsonl"], "run"),
        (["--db=x.db", "compare", "--gold-set", "g"], "compare"),
        (["adjudicate", "--help"], "adjudicate"),
        ([], None),  # the TUI: the whole parser
        (["--db", "x.db"], None),
        (["--help"], None),
        (["--version"], None),
        (["--d", "x.db", "gold", "list"], None),  # an abbreviation of --db: argparse decides
        (["gold-set"], None),  # unknown: argparse lists the commands
        (["--db"], None),
    ],
)
def test_command_of(argv: list[str], command: str | None) -> None:
    assert command_of(argv) == command


def test_a_command_imports_only_its_own_module_and_what_that_imports() -> None:
    code = (
        "import sys; from labeler.cli import parse_arguments;"
        "parse_arguments(['run', 'list']);"
        "print(sorted(m for m in sys.modules if m.startswith('labeler.cli.') and m.endswith('_cmd')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "['labeler.cli.run_cmd']"
