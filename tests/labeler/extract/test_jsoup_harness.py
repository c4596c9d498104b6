"""The jsoup reference harness is compiled once and shared: parallel test workers racing to
compile it end with one folder of classes, and a changed source is never run from a stale
class (``jsoup_ref.runner.compiled``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from jsoup_ref import runner

SUPPORT = Path(__file__).resolve().parents[2] / "support"

RACE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from jsoup_ref import runner
print(json.dumps(runner.compiled(Path(sys.argv[2]))))
"""


def _harness(folder: Path, greeting: str) -> Path:
    """A harness of the shape the tests use: a public class named like its file that calls
    the jar (so the jar must be on the class path when it compiles and when it runs)."""
    source = folder / "Hello.java"
    source.write_text(
        "public class Hello { public static void main(String[] a) {"
        f' System.out.println("{greeting} " + org.jsoup.Jsoup.parse("<p>x</p>").text()); }} }}\n',
        encoding="utf-8",
    )
    return source


@pytest.mark.jsoup
def test_racing_processes_compile_once_and_all_run_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "classes"
    monkeypatch.setenv("LABELER_JAVA_CLASSES", str(cache))
    source = _harness(tmp_path, "hello")
    try:
        runner.check()
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", RACE, str(SUPPORT), str(source)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    commands = []
    for proc in racers:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        commands.append(json.loads(out))
    assert all(command == commands[0] for command in commands)
    # one folder of classes, no compiling folder left behind
    assert [p.name for p in cache.iterdir()] == [Path(commands[0][2].split(":")[0]).name]
    assert (cache / Path(commands[0][2].split(":")[0]).name / "Hello.class").is_file()
    ran = subprocess.run(commands[0], capture_output=True, text=True, check=True)
    assert ran.stdout == "hello x\n"


@pytest.mark.jsoup
def test_a_changed_source_is_compiled_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABELER_JAVA_CLASSES", str(tmp_path / "classes"))
    try:
        first = runner.compiled(_harness(tmp_path, "hello"))
        second = runner.compiled(_harness(tmp_path, "goodbye"))
    except runner.JsoupUnavailable as exc:
        pytest.fail(f"cannot run the jsoup reference: {exc}")
    assert first != second
    assert subprocess.run(first, capture_output=True, text=True).stdout == "hello x\n"
    assert subprocess.run(second, capture_output=True, text=True).stdout == "goodbye x\n"
