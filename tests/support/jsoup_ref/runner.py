"""Run the real jsoup 1.15.3 jar over many files in one JVM (tests and benchmark).

The jar is ``$JSOUP_JAR`` or Debian's ``/usr/share/java/jsoup-1.15.3.jar``
(``apt-get install libjsoup-java``); ``java`` must be on PATH (Java 11+, with the
``jdk.compiler`` module that single-file source launch needs too).

The harnesses (``JsoupText.java`` and the parser tests' own) are compiled once, not in every
JVM: :func:`compiled` keeps the classes in a folder named by a digest of the source, the jar
and the java executable, so every test worker, every later run and the benchmark reuse them.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import tempfile
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


def class_cache() -> Path:
    """Where compiled harnesses are kept: ``$LABELER_JAVA_CLASSES``, else a folder in the
    system's temporary directory (one per user)."""
    chosen = os.environ.get("LABELER_JAVA_CLASSES")
    if chosen:
        return Path(chosen)
    return Path(tempfile.gettempdir()) / f"labeler-java-classes-{os.getuid()}"


def compiled(source: Path) -> list[str]:
    """The ``java`` arguments that run the harness ``source`` (a public class named like the
    file, in no package) with the jar on the class path, compiled once.

    The classes live in ``class_cache()/<digest>``, the digest covering the source's bytes,
    the jar's path, size and modification time and the java executable's real path (a class
    compiled for another JDK or jar is never reused). Safe when processes race: each compiles
    into its own temporary folder and renames it into place; a rename that finds the folder
    there already (another process won) leaves that one and discards its own.
    """
    java, jar = check()
    stat = jar.stat()
    key = hashlib.sha256()
    for part in (
        source.read_bytes(),
        str(jar.resolve()).encode(),
        f"{stat.st_size}:{stat.st_mtime_ns}".encode(),
        os.path.realpath(java).encode(),
    ):
        key.update(hashlib.sha256(part).digest())
    root = class_cache()
    final = root / key.hexdigest()[:32]
    if not (final / f"{source.stem}.class").is_file():
        root.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".compiling-", dir=root))
        try:
            # javac as a module of the runtime: present wherever source launch works, even
            # on a JRE without the `javac` command
            javac = [java, "-m", "jdk.compiler/com.sun.tools.javac.Main", "-encoding", "UTF-8"]
            done = subprocess.run(
                [*javac, "-cp", str(jar), "-d", str(work), str(source)],
                capture_output=True,
                text=True,
            )
            if done.returncode != 0:
                raise RuntimeError(f"cannot compile {source.name}: {done.stderr.strip()}")
            try:
                work.rename(final)
            except OSError:
                if not (final / f"{source.stem}.class").is_file():
                    raise
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return [java, "-cp", os.pathsep.join([str(final), str(jar)]), source.stem]


def command(quiet: bool = False) -> list[str]:
    """The command line that reads file paths on stdin (one per line)."""
    return harness_command(*(["--quiet"] if quiet else []))


def harness_command(*args: str) -> list[str]:
    """The command line running ``JsoupText`` (compiled once, :func:`compiled`) over paths
    on stdin, with ``args`` (``--quiet``, ``--passes N``)."""
    return [*compiled(HARNESS), *args, "-"]


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
