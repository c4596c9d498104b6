"""Shared inputs of the importer tests: one page, a good line per format, the CLI calls."""

from __future__ import annotations

import json
from pathlib import Path

from labeler.cli import main

PAGE = "Intro. FR-001: The index is never the source of record. Outro."

GOLD_OK = (
    '{"query_id": "q1", "query": "Who?", "elements": [{"doc": "policy.txt", "text": "FR-001"}]}'
)
RUN_OK = '{"query_id": "q1", "results": [{"text": "FR-001", "score": 1.5}]}'
RAGAS_OK = '{"user_input": "question one?", "retrieved_contexts": ["FR-001"]}'
DOCCANO_OK = '{"doc": "policy.txt", "label": [[7, 13, "q1"]]}'
CHUNK_OK = '{"doc": "policy.txt", "text": "FR-001", "start": 7, "end": 13}'
ROW_OK = json.dumps(
    {
        "input_id": "1",
        "prompt": "p",
        "reference_contexts": ["alpha beta"],
        "sut_response": "",
        "retrieved_context": ["alpha beta"],
    }
)


def ls_task(label: str = "q1", text: str = "FR-001", start: str = "7") -> str:
    """One Label Studio task (JSON text) labelling ``text`` at ``start`` on policy.txt."""
    return (
        '{"id": 5, "data": {"doc": "policy.txt"}, "annotations": [{"result": [{"type": '
        f'"labels", "value": {{"start": {start}, "end": 13, "text": "{text}", '
        f'"labels": ["{label}"]}}}}]}}]}}'
    )


def ls_file(second: str) -> str:
    return "[\n" + ls_task() + ",\n" + second + "\n]\n"


def seed(tmp_path: Path, db_url: str) -> str:
    """``db_url`` with policy.txt ingested, gold set ``keep`` (q1 on FR-001) and run
    ``keep`` imported."""
    page = tmp_path / "policy.txt"
    page.write_text(PAGE, encoding="utf-8")
    assert main(["ingest", str(page), "--db", db_url, "-q"]) == 0
    gold = tmp_path / "keep.jsonl"
    gold.write_text(GOLD_OK.replace('"Who?"', '"question one?"') + "\n", encoding="utf-8")
    assert main(["gold", "import", str(gold), "--gold-set", "keep", "--db", db_url]) == 0
    run = tmp_path / "keep-run.jsonl"
    run.write_text(RUN_OK + "\n", encoding="utf-8")
    assert main(["run", "import", "-q", str(run), "--name", "keep", "--db", db_url]) == 0
    return db_url


def command(importer: str, path: str, db: str, out: Path) -> list[str]:
    """The CLI arguments that make ``importer`` read ``path``."""
    return {
        "gold": ["gold", "import", path, "--gold-set", "new", "--db", db],
        "labelstudio": ["gold", "import", path, "--format", "labelstudio", "--gold-set", "new", "--db", db],
        "doccano": ["gold", "import", path, "--format", "doccano", "--gold-set", "new", "--db", db],
        "run": ["run", "import", "-q", path, "--name", "new", "--db", db],
        "audit": ["chunks", "audit", path, "--gold-set", "keep", "--db", db],
        "trec": ["gold", "export", "--gold-set", "keep", "--format", "trec", "--chunks", path,
                 "-o", str(out), "--db", db],
        "correctness": ["correctness", path, "-o", str(out)],
    }[importer]  # fmt: skip
