"""Run the real jsoup 1.15.3 jar over many files in one JVM (tests and benchmark).

The jar is ``$JSOUP_JAR`` or Debian's ``/usr/share/java/jsoup-1.15.3.jar``
(``apt-get install libjsoup-java``); ``java`` must be on PATH (Java 11+ for single-file
source launch of ``JsoupText.java``).
"""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

HARNESS = Path(__file__).with_name("JsoupText.java")
DEFAULT_JAR = "/usr/share/java/jsoup-1.15.3.jar"


class JsoupUnavailable(RuntimeError):
    """java or the jsoup jar is missing: the conformance tests cannot run."""


def jar_path() -> Path:
    return Path(os.environ.get("JSOUP_JAR") or DEFAULT_JAR)


def check() -> tuple[str, Path]:
    """Return (java executable, jar path) or raise JsoupUnavailable saying what to install."""
    java = shutil.which("java")
    jar = jar_path()
    if java is None:
        raise JsoupUnavailable("`java` not found on PATH: install openjdk-17-jre-headless")
    if not jar.is_file():
        raise JsoupUnavailable(
            f"jsoup jar not found at {jar}: `apt-get install libjsoup-java` or set JSOUP_JAR"
        )
    return java, jar


def command(quiet: bool = False) -> list[str]:
    """The command line that reads file paths on stdin (one per line)."""
    java, jar = check()
    return [java, "-cp", str(jar), str(HARNESS), *(["--quiet"] if quiet else []), "-"]


def compile_harness(folder: Path) -> Path:
    """Compile ``JsoupText.java`` into ``folder`` once (``javac`` beside ``java``) and return
    ``folder``: a JVM running the class pays no source compilation, as the benchmark needs."""
    java, jar = check()
    javac = Path(java).resolve().with_name("javac")
    if not javac.is_file():
        found = shutil.which("javac")
        if found is None:
            raise JsoupUnavailable("`javac` not found: install openjdk-17-jdk-headless")
        javac = Path(found)
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [str(javac), "-cp", str(jar), "-d", str(folder), str(HARNESS)],
        check=True,
        capture_output=True,
    )
    return folder


def class_command(classes: Path, *args: str) -> list[str]:
    """The command line running the compiled harness in ``classes`` (see
    :func:`compile_harness`) over paths on stdin, with ``args`` (``--quiet``, ``--passes N``)."""
    java, jar = check()
    return [java, "-cp", f"{jar}{os.pathsep}{classes}", "JsoupText", *args, "-"]


def start(paths: Sequence[Path]) -> subprocess.Popen[bytes]:
    """Start one JVM over ``paths``; collect the texts with :func:`collect`."""
    proc = subprocess.Popen(
        command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdin is not None
    proc.stdin.write("\n".join(str(Path(p).resolve()) for p in paths).encode())
    proc.stdin.close()
    return proc


def collect(proc: subprocess.Popen[bytes], count: int) -> list[str]:
    """The texts jsoup returned, in input order (lossless: decoded from UTF-16 code units)."""
    assert proc.stdout is not None and proc.stderr is not None
    out = proc.stdout.read()
    err = proc.stderr.read()
    if proc.wait() != 0:
        raise RuntimeError(f"jsoup harness failed: {err.decode(errors='replace')}")
    lines = out.decode("ascii").splitlines()
    if len(lines) != count:
        raise RuntimeError(f"jsoup harness returned {len(lines)} results for {count} files")
    texts = []
    for line in lines:
        status, _, payload = line.partition(" ")
        if status != "OK":
            raise RuntimeError(f"jsoup failed on a file: {payload}")
        texts.append(base64.b64decode(payload).decode("utf-16-be", "surrogatepass"))
    return texts


def run(paths: Sequence[Path]) -> list[str]:
    """``Jsoup.parse(file, null).body().text()`` for each path, in one JVM."""
    return collect(start(paths), len(paths))
