"""``labeler correctness``: deterministic retrieval correctness per row (no LLM)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from labeler.cli.output import add_max_line_bytes, json_text, open_output
from labeler.errors import InputError


def register(commands: Any, common: argparse.ArgumentParser) -> None:
    p = commands.add_parser(
        "correctness",
        parents=[common],  # --db is accepted like everywhere; correctness reads files only
        help="score rows (reference_contexts vs retrieved_context) with fuzzy matching",
        description=(
            "Read JSONL rows {input_id, prompt, reference_contexts, sut_response, "
            "retrieved_context} and write one result per row (score, precision, recall, "
            "matches, explanation). --schema prints the JSON schemas instead."
        ),
    )
    p.add_argument("file", nargs="?", metavar="ROWS.jsonl")
    add_max_line_bytes(p)
    p.add_argument("--config", default=None, metavar="JSON", help="config object as JSON text")
    p.add_argument("--schema", action="store_true", help="print config, row and result schemas")
    p.add_argument("-o", "--output", default="-", metavar="FILE")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from labeler.formats import read_objects
    from scoring import (
        CorrectnessRow,
        RowError,
        config_json_schema,
        result_json_schema,
        retrieval_correctness,
        row_json_schema,
    )

    if args.schema:
        schemas = {
            "config": config_json_schema(),
            "row": row_json_schema(),
            "result": result_json_schema(),
        }
        with open_output(args.output) as out:
            out.write(json.dumps(schemas, indent=2) + "\n")
        return 0
    if args.file is None:
        raise InputError("correctness", "give a ROWS.jsonl file (or --schema)")
    config = _config(args.config)
    results = []
    for line, obj in read_objects(args.file):
        try:
            row = CorrectnessRow.from_mapping(obj)
        except RowError as err:
            raise InputError(args.file, str(err), line) from None
        results.append(retrieval_correctness(row, config).to_dict())
    with open_output(args.output) as out:
        for result in results:
            out.write(json_text(result) + "\n")
    return 0


_JSON_KINDS = {list: "an array", str: "a string", bool: "true or false", type(None): "null"}


def _parse_int(digits: str) -> int | float:
    # Python refuses to read integers of more than 4,300 digits (ValueError); as a float
    # such a number is infinite, which the config check names with its field
    return int(digits) if len(digits) <= 4000 else float(digits)


def _config(text: str | None) -> Any:
    """The ``--config`` JSON text as a ``CorrectnessConfig``; every problem, whatever JSON
    was given (not an object, nested too deep, numbers too large), is an ``InputError``
    naming ``--config`` and, for a bad value, its field."""
    from scoring import ConfigError, CorrectnessConfig

    if not text:
        return CorrectnessConfig()
    try:
        data = json.loads(text, parse_int=_parse_int)
    except json.JSONDecodeError as err:
        raise InputError("--config", f"broken JSON: {err.msg} (column {err.colno})") from None
    except RecursionError:
        raise InputError("--config", "JSON nested too deeply") from None
    if not isinstance(data, dict):
        kind = _JSON_KINDS.get(type(data), "a number")
        raise InputError("--config", f"must be a JSON object {{...}}, got {kind}")
    try:
        return CorrectnessConfig.from_mapping(data)
    except ConfigError as err:
        raise InputError("--config", str(err)) from None
