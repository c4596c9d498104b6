"""Hard bounds on a retriever, whatever it does: ``labeler evaluate`` in a subprocess, per case.

Every retriever below answers q1 and q3 with ``[noise, the element's sentence]`` and
misbehaves on q2 alone, so by hand: q2 fails with its reason, the run goes on, hit@2 =
2/3 (q1, q3 hit; the failed q2 scores 0), and the command exits 0. Each run must end within
a few seconds of its ``--timeout 1`` (the whole command, 0.9 s when nothing hangs, on a
machine shared with other work) and in bounded memory: the child's peak resident set,
read by a wrapper process through ``getrusage(RUSAGE_CHILDREN)``, stays under 400 MB
(about 80 MB when nothing leaks); an address-space limit of 3 GB keeps a leak from taking
the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_retrievers import ANSWER, NOISE, SOURCE, seed_gold

import labeler

pytestmark = pytest.mark.backends("sqlite")


@pytest.fixture
def db_url(seeded_db: Callable[[str, Callable[[Path, str], object]], str]) -> str:
    """A copy of the database ``seed_gold`` filled once per test process."""
    return seeded_db("retrievers-gold", seed_gold)


@pytest.fixture
def db(db_url: str) -> Iterator[labeler.api.Database]:
    with labeler.open(db_url) as database:
        yield database


REPO = Path(__file__).resolve().parents[3]
SECONDS = 8.0  # --timeout 1, plus the command's own second, with room for a loaded machine
PEAK_KB = 400 * 1024
ADDRESS_SPACE = 3 * 1024**3

HEADER = f"""
import asyncio, sys, threading, time
ANSWER = {ANSWER!r}
SOURCE = {SOURCE!r}
NOISE = {NOISE!r}

def good(text):
    return [NOISE, {{"text": ANSWER[text], "doc": SOURCE[text]}}]
"""

CASES: dict[str, tuple[str, str]] = {
    # name: (the retriever's code, the error q2 fails with)
    "async-blocks-the-loop": (
        """
async def retriever(text, query_id):
    if query_id == "q2":
        time.sleep(3600)
    return good(text)
""",
        "timed out after 1 s",
    ),
    "sync-never-returns": (
        """
def retriever(text, query_id):
    if query_id == "q2":
        threading.Event().wait()
    return good(text)
""",
        "timed out after 1 s",
    ),
    "generator-never-ends": (
        """
def retriever(text, query_id):
    if query_id == "q2":
        while True:
            yield "a"
    yield from good(text)
""",
        "unreadable results: more than 1000 results (--max-results)",
    ),
    "async-generator-never-ends": (
        """
async def retriever(text, query_id):
    if query_id == "q2":
        while True:
            yield "a"
    for item in good(text):
        yield item
""",
        "unreadable results: more than 1000 results (--max-results)",
    ),
    "iterator-of-ever-longer-texts": (
        """
class Endless:
    def __init__(self):
        self.n = 0
    def __iter__(self):
        return self
    def __next__(self):
        self.n += 1
        return "a" * self.n

def retriever(text, query_id):
    return Endless() if query_id == "q2" else good(text)
""",
        "unreadable results: more than 1000 results (--max-results)",
    ),
    "slow-generator": (
        """
def retriever(text, query_id):
    if query_id == "q2":
        while True:
            time.sleep(0.05)
            yield "a"
    yield from good(text)
""",
        "timed out after 1 s",
    ),
    "base-exception": (
        """
def retriever(text, query_id):
    if query_id == "q2":
        raise BaseException("out of band")
    return good(text)
""",
        "BaseException: out of band",
    ),
    "async-base-exception": (
        """
async def retriever(text, query_id):
    if query_id == "q2":
        raise BaseException("out of band")
    return good(text)
""",
        "BaseException: out of band",
    ),
    "sys-exit-3": (
        """
def retriever(text, query_id):
    if query_id == "q2":
        sys.exit(3)
    return good(text)
""",
        "SystemExit: 3",
    ),
    "async-sys-exit-3": (
        """
async def retriever(text, query_id):
    if query_id == "q2":
        sys.exit(3)
    return good(text)
""",
        "SystemExit: 3",
    ),
    "keyboard-interrupt": (
        """
def retriever(text, query_id):
    if query_id == "q2":
        raise KeyboardInterrupt
    return good(text)
""",
        "KeyboardInterrupt",
    ),
    "async-keyboard-interrupt": (
        """
async def retriever(text, query_id):
    if query_id == "q2":
        raise KeyboardInterrupt
    return good(text)
""",
        "KeyboardInterrupt",
    ),
    "executor-job-never-returns": (
        """
async def retriever(text, query_id):
    if query_id == "q2":
        await asyncio.get_running_loop().run_in_executor(None, threading.Event().wait)
    return good(text)
""",
        "timed out after 1 s",
    ),
}

# run the command, then write its exit status and the child's peak RSS (KiB) to argv[1]
WRAPPER = """
import json, resource, subprocess, sys
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (int(sys.argv[2]), int(sys.argv[2])))
code = subprocess.run(sys.argv[3:], preexec_fn=limit).returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
open(sys.argv[1], "w").write(json.dumps({"code": code, "peak": peak}))
"""


def _evaluate(tmp_path: Path, db_url: str, code: str, *args: str) -> dict[str, Any]:
    (tmp_path / "misbehaving.py").write_text(HEADER + code)
    measured = tmp_path / "measured.json"
    command = [
        *(sys.executable, "-c", WRAPPER, str(measured), str(ADDRESS_SPACE)),
        *(sys.executable, "-m", "labeler", "evaluate", "--gold-set", "g", "--db", db_url),
        *("--retriever", "misbehaving:retriever", "--k", "1,2", "--format", "json", *args),
    ]
    started = time.monotonic()
    proc = subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    took = time.monotonic() - started
    return {"proc": proc, "seconds": took, **json.loads(measured.read_text())}


@pytest.mark.parametrize("case", list(CASES))
def test_a_misbehaving_retriever_fails_its_question_alone(
    db: Any, db_url: str, tmp_path: Path, case: str
) -> None:
    code, error = CASES[case]
    got = _evaluate(tmp_path, db_url, code, "--timeout", "1")
    proc = got["proc"]
    assert (got["code"], proc.returncode) == (0, 0), proc.stderr
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    assert [(f["query_id"], f["error"]) for f in data["failures"]] == [("q2", error)]
    assert data["missing_from_run"]["query_ids"] == ["q2"]
    assert data["metrics"]["hit@2"] == pytest.approx(2 / 3)
    assert got["seconds"] < SECONDS, got
    assert got["peak"] < PEAK_KB, got


def test_more_than_max_results_fails_the_question(db: Any, db_url: str, tmp_path: Path) -> None:
    code = """
def retriever(text, query_id):
    if query_id == "q2":
        return [NOISE] * 6
    return [NOISE] * 3 + good(text)  # five results: as many as allowed
"""
    got = _evaluate(tmp_path, db_url, code, "--timeout", "1", "--max-results", "5", "--k", "5")
    data = json.loads(got["proc"].stdout)
    assert [(f["query_id"], f["error"]) for f in data["failures"]] == [
        ("q2", "unreadable results: more than 5 results (--max-results)")
    ]
    assert data["metrics"]["hit@5"] == pytest.approx(2 / 3)
    assert got["seconds"] < SECONDS, got


API_RUN = """
import json, sys
import labeler, misbehaving
with labeler.open(sys.argv[1]) as db:
    result = db.gold_set("g").evaluate(misbehaving.retriever, k=(1, 2), timeout=1)
print(json.dumps(result.to_dict()))
"""


@pytest.mark.parametrize("case", ["executor-job-never-returns", "sync-never-returns"])
def test_the_python_api_ends_promptly_with_threads_left_running(
    db: Any, db_url: str, tmp_path: Path, case: str
) -> None:
    """No os._exit here (the CLI's fast exit): the interpreter's own teardown must not wait
    for the threads a hanging call left behind."""
    code, error = CASES[case]
    (tmp_path / "misbehaving.py").write_text(HEADER + code)
    started = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", API_RUN, db_url],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{tmp_path}"},
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert time.monotonic() - started < SECONDS
    data = json.loads(proc.stdout)
    assert [(f["query_id"], f["error"]) for f in data["failures"]] == [("q2", error)]
