"""docs/cli.md against the real argument parsers, both ways.

docs/cli.md has one ``## labeler COMMAND [SUBCOMMAND]`` heading per command. Under it each
argument is a list item that starts with its names in backticks, separated by ``, ``, then
an optional parenthesis and a colon: ``- `-o`, `--output FILE` (default `-`): ...``. An option
taking a value writes it in its last code span as argparse shows it: the metavar, else the
choices joined by ``|``, else the destination in capitals; a flag writes none. A positional
argument is written by its metavar alone (``- `FILE`: ...``). A command with subcommands lists
each as ``- `labeler gold import`: ...``. ``-h``/``--help``, which every parser has, is listed
once, under ``## labeler``.

Checked: every command of the parsers has its heading and every heading is a command; every
option string, positional and subcommand of a parser is listed under its command's heading,
and everything listed there is one of them, written with the value argparse shows.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from labeler.cli import build_parser

CLI_MD = Path(__file__).resolve().parents[2] / "docs" / "cli.md"
ROOT = ("labeler",)

_ITEM = re.compile(r"^- ((?:`[^`]+`)(?:, `[^`]+`)*)(?: \([^)]*\))?:")
_SPAN = re.compile(r"`([^`]+)`")


@dataclass
class Section:
    """What docs/cli.md lists under one command heading."""

    arguments: dict[str, str | None] = field(default_factory=dict)  # name → value shown
    subcommands: set[str] = field(default_factory=set)


def parse_doc(text: str) -> tuple[dict[tuple[str, ...], Section], list[str]]:
    """The command sections of a cli.md text, and the lines that break its layout."""
    sections: dict[tuple[str, ...], Section] = {}
    problems: list[str] = []
    current: Section | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("## "):
            words = tuple(line[3:].split())
            if words[:1] == ROOT:
                if words in sections:
                    problems.append(f"cli.md:{number}: heading {' '.join(words)!r} twice")
                current = sections.setdefault(words, Section())
            else:
                current = None
            continue
        if not line.startswith("- `"):
            continue
        match = _ITEM.match(line)
        if match is None:
            problems.append(f"cli.md:{number}: list item not in the layout: {line!r}")
            continue
        if current is None:
            problems.append(f"cli.md:{number}: argument outside a command section: {line!r}")
            continue
        spans = _SPAN.findall(match.group(1))
        if spans[0].startswith("labeler "):
            current.subcommands.add(spans[0])
            continue
        for i, span in enumerate(spans):
            name, _, value = span.partition(" ")
            shown = value or None
            if i < len(spans) - 1 and shown is not None:
                problems.append(f"cli.md:{number}: value only after the last name: {span!r}")
            current.arguments[name] = shown if i == len(spans) - 1 else None
    return sections, problems


def parser_commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ROOT
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command path of ``parser`` with its parser, the root first."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from parser_commands(sub, (*path, name))


def shown_value(action: argparse.Action) -> str | None:
    """The value argparse writes after an option in usage lines (None for a flag)."""
    if action.nargs == 0:
        return None
    if action.metavar is not None:
        return str(action.metavar)
    if action.choices is not None:
        return "|".join(str(c) for c in action.choices)
    return action.dest.upper()


def parser_section(path: tuple[str, ...], parser: argparse.ArgumentParser) -> Section:
    """What docs/cli.md must list under ``path``'s heading."""
    section = Section()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            section.subcommands.update(" ".join((*path, name)) for name in action.choices)
        elif isinstance(action, argparse._HelpAction) and path != ROOT:
            continue  # every parser has it; listed once, under `labeler`
        elif action.option_strings:
            value = shown_value(action)
            for i, option in enumerate(action.option_strings):
                last = i == len(action.option_strings) - 1
                section.arguments[option] = value if last else None
        else:
            section.arguments[str(action.metavar or action.dest)] = None
    return section


def differences(text: str, parser: argparse.ArgumentParser) -> list[str]:
    """Every disagreement between a cli.md text and ``parser``, one line each."""
    sections, problems = parse_doc(text)
    expected = dict(parser_commands(parser))
    for path in expected.keys() - sections.keys():
        problems.append(f"{' '.join(path)}: command has no heading in cli.md")
    for path in sections.keys() - expected.keys():
        problems.append(f"{' '.join(path)}: cli.md heading names no command")
    for path in expected.keys() & sections.keys():
        command = " ".join(path)
        want = parser_section(path, expected[path])
        have = sections[path]
        for name in want.arguments.keys() - have.arguments.keys():
            problems.append(f"{command}: {name} is not listed under its heading")
        for name in have.arguments.keys() - want.arguments.keys():
            problems.append(f"{command}: cli.md lists {name}, which the parser does not have")
        for name in want.arguments.keys() & have.arguments.keys():
            if want.arguments[name] != have.arguments[name]:
                problems.append(
                    f"{command}: {name} is written with {have.arguments[name]!r}, "
                    f"the parser shows {want.arguments[name]!r}"
                )
        for sub in want.subcommands - have.subcommands:
            problems.append(f"{command}: subcommand {sub} is not listed")
        for sub in have.subcommands - want.subcommands:
            problems.append(f"{command}: cli.md lists subcommand {sub}, which does not exist")
    return sorted(problems)


def test_cli_md_matches_the_parsers_both_ways() -> None:
    assert differences(CLI_MD.read_text(encoding="utf-8"), build_parser()) == []


def test_the_layout_is_read_as_documented() -> None:
    sections, problems = parse_doc(CLI_MD.read_text(encoding="utf-8"))
    assert problems == []
    gold_import = sections[("labeler", "gold", "import")]
    assert gold_import.arguments["FILE"] is None
    assert gold_import.arguments["--format"] == "jsonl|labelstudio|doccano|ragas"
    assert gold_import.arguments["--replace"] is None
    assert sections[("labeler", "score")].arguments["-o"] is None
    assert sections[("labeler", "score")].arguments["--output"] == "FILE"
    assert "labeler gold import" in sections[("labeler", "gold")].subcommands
    assert {"-h", "--help", "--version", "--db"} <= sections[ROOT].arguments.keys()


def test_an_option_missing_from_the_doc_is_found() -> None:
    text = CLI_MD.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("- `--force`:"))
    assert differences(text.replace(line + "\n", ""), build_parser()) == [
        "labeler gold import: --force is not listed under its heading"
    ]


def test_an_option_added_to_a_parser_is_found() -> None:
    parser = build_parser()
    paths = dict(parser_commands(parser))
    paths[("labeler", "run", "list")].add_argument("--newest", metavar="N")
    paths[("labeler", "doctor")].add_argument("--fix", action="store_true")
    assert differences(CLI_MD.read_text(encoding="utf-8"), parser) == [
        "labeler doctor: --fix is not listed under its heading",
        "labeler run list: --newest is not listed under its heading",
    ]


def test_a_command_or_option_the_parsers_lack_is_found() -> None:
    text = CLI_MD.read_text(encoding="utf-8")
    text += "\n## labeler gold merge\n\n- `--into NAME`: merge\n"
    text = text.replace("- `--undo`: remove", "- `--undo`, `--redo`: remove")
    text = text.replace("- `--per-query FILE`:", "- `--per-query PATH`:")
    assert differences(text, build_parser()) == [
        "labeler gold done: cli.md lists --redo, which the parser does not have",
        "labeler gold merge: cli.md heading names no command",
        "labeler score: --per-query is written with 'PATH', the parser shows 'FILE'",
    ]
