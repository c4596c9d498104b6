from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from labeler.cli import main

ROW = {
    "input_id": "1",
    "prompt": "p",
    "reference_contexts": [
        "alpha beta gamma delta",
        "epsilon zeta eta theta",
        "iota kappa lambda mu",
    ],
    "sut_response": "",
    "retrieved_context": [
        "alpha beta gamma delta",
        "completely unrelated noise text",
        "epsilon zeta eta theta",
    ],
}


def test_worked_example_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    assert main(["correctness", str(rows), "--config", '{"language": "de"}']) == 0
    result = json.loads(capsys.readouterr().out)
    # docs/metrics.md's example: chunks [match, noise, match] → precision (1/1 + 2/3)/2,
    # recall 2/3, score 0.75
    assert result["precision"] == pytest.approx((1 + 2 / 3) / 2)
    assert result["recall"] == pytest.approx(2 / 3)
    assert result["score"] == pytest.approx(0.75)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--config", '{"coverage": -1}'], "coverage"),
        (["--config", '{"language": "es"}'], "language"),
        (["--config", "{oops"], "--config"),
    ],
)
def test_bad_config_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    assert main(["correctness", str(rows), *args]) == 1
    assert message in capsys.readouterr().err


def test_bad_row_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = tmp_path / "rows.jsonl"
    broken = {k: v for k, v in ROW.items() if k != "prompt"}
    rows.write_text(json.dumps(ROW) + "\n" + json.dumps(broken) + "\n", encoding="utf-8")
    assert main(["correctness", str(rows)]) == 1
    assert f"{rows}:2:" in capsys.readouterr().err


def test_schema_export(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["correctness", "--schema"]) == 0
    schemas = json.loads(capsys.readouterr().out)
    assert set(schemas) == {"config", "row", "result"}
    assert "coverage" in schemas["config"]["properties"]


def test_output_to_a_special_file_writes_through_it(tmp_path: Path) -> None:
    """-o to something that is not a regular file (e.g. /dev/null) must write into it, not
    rename a temporary file over it; a FIFO stands in for the device here."""
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["correctness", "--schema", "-o", str(fifo)]) == 0
    reader.join(timeout=10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert json.loads(received[0])["row"]


@pytest.mark.parametrize(
    ("config", "field"),
    [
        ("[1,2]", "got an array"),
        ('"x"', "got a string"),
        ("null", "got null"),
        ("5", "got a number"),
        ('{"t1": 1e400}', "'t1'"),  # JSON reads it as infinity
        ('{"weight": 1' + "0" * 5000 + "}", "'weight'"),  # past Python's 4,300-digit limit
        ('{"weight": 1' + "0" * 400 + "}", "'weight'"),  # an int no float can hold
        ('{"t1": 1' + "0" * 30 + "}", "'t1'"),  # 10**30 where a fraction belongs
        ('{"weight_precision": 0.5, "weight_recall": 1e308}', "'weight_recall'"),  # over 1.0
        ("[" * 100_000, "nested too deeply"),
    ],
    ids=[
        "array",
        "string",
        "null",
        "number",
        "1e400",
        "5000-digits",
        "10**400",
        "10**30",
        "weight-over-1",
        "deep",
    ],
)
def test_config_of_any_shape_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], config: str, field: str
) -> None:
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    assert main(["correctness", str(rows), "--config", config]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("labeler: error: --config: ")
    assert captured.err.count("\n") == 1
    assert field in captured.err
    assert "internal error" not in captured.err


def test_lone_surrogate_in_a_row_is_refused_naming_line_and_field(tmp_path: Path) -> None:
    """``"a\\ud800b"`` in the input (valid JSON, not Unicode text) is refused like in every
    importer: one line naming the file, line and field, exit 1, no output written."""
    rows = tmp_path / "rows.jsonl"
    lines = [json.dumps(ROW), json.dumps({**ROW, "input_id": "a\ud800b"}, ensure_ascii=True)]
    rows.write_text("\n".join(lines) + "\n", encoding="ascii")
    out = tmp_path / "out.jsonl"
    child = subprocess.run(
        [sys.executable, "-m", "labeler", "correctness", str(rows), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert child.returncode == 1
    assert child.stderr == (
        f"labeler: error: {rows}:2: field 'input_id': lone surrogate \\ud800 at character 2 "
        "(not valid Unicode text)\n"
    )
    assert not out.exists()


def test_lone_surrogate_in_the_config_is_written_as_its_escape(tmp_path: Path) -> None:
    """A config string (carried into every result) with a lone surrogate comes out as the
    same escape, in a file and on stdout alike: valid UTF-8 and JSON that reads back."""
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps(ROW) + "\n", encoding="utf-8")
    config = json.dumps({"metric_name": "m\ud800"}, ensure_ascii=True)
    out = tmp_path / "out.jsonl"
    assert main(["correctness", str(rows), "--config", config, "-o", str(out)]) == 0
    written = out.read_bytes()
    assert b"m\\ud800" in written
    assert json.loads(written.decode("utf-8"))["metric_name"] == "m\ud800"
    child = subprocess.run(
        [sys.executable, "-m", "labeler", "correctness", str(rows), "--config", config],
        capture_output=True,
        check=True,
    )
    assert child.stdout == written
