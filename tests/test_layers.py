"""The layers point one way (docs/architecture.md, Layers): headless modules never load
Textual, and the scoring package never loads the labeller, the ORM or any UI library. The TUI opens no
store session of its own and has no import circle."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

HEADLESS = [
    "labeler",
    "labeler.errors",
    "labeler.extract",
    "labeler.store",
    "labeler.pages",
    "labeler.cli",
    "labeler.api",
    "labeler.evaluation",
    "labeler.progress",
    "labeler.workers",
]
UI = ("textual", "rich.live")


def loaded_after_import(module: str) -> set[str]:
    code = (
        "import importlib, json, sys\n"
        f"importlib.import_module({module!r})\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    return set(json.loads(out))


@pytest.mark.parametrize("module", HEADLESS)
def test_headless_module_does_not_load_textual(module: str) -> None:
    loaded = loaded_after_import(module)
    assert module in loaded
    assert not {m for m in loaded if m.split(".")[0] == "textual"}


def test_scoring_loads_no_labeler_orm_or_ui() -> None:
    loaded = loaded_after_import("scoring")
    forbidden = {"labeler", "sqlmodel", "sqlalchemy", "textual", "rich", "click", "typer"}
    assert not {m for m in loaded if m.split(".")[0] in forbidden}


def test_extract_does_not_load_the_store() -> None:
    loaded = loaded_after_import("labeler.extract")
    assert not {m for m in loaded if m.split(".")[0] in {"sqlmodel", "sqlalchemy"}}


def test_default_engine_fast_path_loads_neither_pre_pass_nor_port() -> None:
    """A process whose pages all take the default engine's fast path (lexbor) imports
    neither the pre-pass (the ``lexbor`` and ``html5lib`` engines' and the charset
    fallback's) nor the port: both cost start-up time of every cold extraction."""
    code = (
        "import json, sys\n"
        "from labeler.extract.jsoup import jsoup_body_text\n"
        "assert jsoup_body_text(b'<!DOCTYPE html><p>a <b>b</b></p>') == 'a b'\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    loaded = set(json.loads(out))
    assert "labeler.extract.fastpath" in loaded
    assert "labeler.extract.prepass" not in loaded
    assert not {m for m in loaded if m.startswith("labeler.extract.jsoup_parser")}


@pytest.mark.parametrize(
    "package", ["labeler.store", "scoring", "scoring.agreement", "scoring.correctness"]
)
def test_lazy_exports_are_not_shadowed_by_submodules(package: str) -> None:
    """A lazily exported name equal to a submodule's name would resolve to the module once
    that submodule is imported (e.g. ``from labeler.store import undo``)."""
    code = (
        "import importlib, json, pkgutil, types\n"
        f"pkg = importlib.import_module({package!r})\n"
        "for m in pkgutil.iter_modules(pkg.__path__):\n"
        "    importlib.import_module(pkg.__name__ + '.' + m.name)\n"
        "bad = [n for n in pkg.__all__ if isinstance(getattr(pkg, n), types.ModuleType)]\n"
        "print(json.dumps(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert json.loads(out) == []


def test_scoring_path_loads_only_what_scoring_a_run_needs() -> None:
    """``labeler score`` is timed against pytrec_eval: comparing runs, retrieval correctness
    and the statistics are not on its path."""
    loaded = loaded_after_import("labeler.evaluation")
    assert not {m for m in loaded if m.split(".")[0] in {"sqlalchemy", "sqlmodel", "textual"}}
    off_path = {"scoring.compare", "scoring.correctness", "scoring.stats", "scoring.report"}
    # the packages: none of their modules loads without them
    off_path |= {"scoring.agreement"}
    assert not off_path & loaded


def test_cli_start_loads_no_orm() -> None:
    """Every command pays for what ``labeler.cli`` imports; the score path is timed against
    pytrec_eval, so the parser must not pull in SQLAlchemy (commands import it when they run)."""
    loaded = loaded_after_import("labeler.cli")
    assert not {m for m in loaded if m.split(".")[0] in {"sqlalchemy", "sqlmodel", "textual"}}


# --- the front ends reach the core only through its facades (issue 20) -----------------------

ROOT = Path(__file__).resolve().parents[1]
FRONT_ENDS = ("labeler/cli", "labeler/tui", "labeler/serve", "labeler/api.py", "labeler/demo.py")
#: what may stay at labeler/ top level: the package's own files, the error tree, the Python API
#: and the demo (a front end)
TOP_LEVEL = {"__init__.py", "__main__.py", "errors.py", "api.py", "demo.py"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for d in ("labeler", "scoring") for p in (ROOT / d).rglob("*.py")}


def _is_front_end(module: str) -> bool:
    prefixes = [f.removesuffix(".py").replace("/", ".") for f in FRONT_ENDS]
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _imported(
    module: str, path: Path, node: ast.Import | ast.ImportFrom, modules: dict[str, Path]
) -> list[str]:
    """The modules an import statement loads (a name that is a submodule counts as it)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if node.level:
        base = module.split(".")
        if path.name != "__init__.py":
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, *([node.module] if node.module else [])])
    else:
        source = node.module or ""
    return [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]


def front_end_reaches_inside(modules: dict[str, Path]) -> list[str]:
    """Imports in a front end of a core module that is neither a package facade nor the
    error tree (function-level and TYPE_CHECKING imports count too)."""
    facades = {m for m, p in modules.items() if p.name == "__init__.py"}
    found = []
    for module, path in sorted(modules.items()):
        if not _is_front_end(module):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _imported(module, path, node, modules):
                inside = target.startswith("labeler.") and target in modules
                allowed = _is_front_end(target) or target in facades or target == "labeler.errors"
                if inside and not allowed:
                    found.append(f"{module}:{node.lineno} imports {target}")
    return found


def test_front_ends_import_only_facades() -> None:
    assert front_end_reaches_inside(_modules()) == []


def test_front_end_scan_sees_an_import_of_a_submodule(tmp_path: Path) -> None:
    """The scan itself: a front-end module importing a store submodule, directly or
    relatively, is reported; importing the facade is not."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from labeler.store import open_store\n"
        "from labeler.store.team import mark_done\n"
        "def f():\n    from ...store import team\n",
        encoding="utf-8",
    )
    modules = {**_modules(), "labeler.cli.sub.probe": probe}
    assert front_end_reaches_inside(modules) == [
        "labeler.cli.sub.probe:2 imports labeler.store.team",
        "labeler.cli.sub.probe:4 imports labeler.store.team",
    ]


def test_only_the_facade_the_errors_the_api_and_the_demo_at_top_level() -> None:
    top = {p.name for p in (ROOT / "labeler").glob("*.py")}
    assert top <= TOP_LEVEL, sorted(top - TOP_LEVEL)


def test_formats_are_pure_readers_and_writers() -> None:
    """Interchange formats know nothing of the store: they read and write plain values."""
    loaded = loaded_after_import("labeler.formats.gold_jsonl")
    assert not {m for m in loaded if m.startswith("labeler.store")}
    assert not {m for m in loaded if m.split(".")[0] in {"sqlmodel", "sqlalchemy"}}


#: the jsoup port's state tables mirror jsoup's own mutually recursive state classes (each
#: state names the next); these two circles are the only ones allowed
PORT_STATE_TABLES = ("labeler.extract.jsoup_parser.tree_", "labeler.extract.jsoup_parser.tokeniser")


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the modules of the tree it imports (any import statement, anywhere in it)."""
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets.update(t for t in _imported(module, path, node, modules) if t in modules)
        graph[module] = targets - {module}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def test_no_import_circle_outside_the_port_state_tables() -> None:
    circles = import_circles(import_graph(_modules()))
    allowed = [c for c in circles if all(m.startswith(PORT_STATE_TABLES) for m in c)]
    assert [c for c in circles if c not in allowed] == []


def test_import_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"} - {"e"}}
    assert import_circles(graph) == [["a", "b", "c"]]


def test_no_two_modules_share_a_name() -> None:
    """A module's name says what it is: none repeats in another package (``__init__`` aside)."""
    seen: dict[str, list[str]] = {}
    for module, path in _modules().items():
        if path.name != "__init__.py":
            seen.setdefault(path.stem.lstrip("_"), []).append(module)
    assert {name: where for name, where in seen.items() if len(where) > 1} == {}


# -- front ends open no store session or transaction ----------------------------------------

#: the Store methods that open a session (``session``) or a transaction (``write``)
OPENERS = {"session", "write"}


def _front_end_files() -> list[Path]:
    root = Path(__file__).resolve().parents[1]
    files: list[Path] = []
    for entry in FRONT_ENDS:
        path = root / entry
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return files


def _is_open_store(node: ast.expr) -> bool:
    func = node.func if isinstance(node, ast.Call) else None
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name == "open_store"


def _store_names(tree: ast.AST) -> set[str]:
    """Names bound to a store: from ``open_store(...)`` (assignment or ``with ... as``), or
    annotated ``Store``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _is_open_store(node.value):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.withitem) and _is_open_store(node.context_expr):
            if isinstance(node.optional_vars, ast.Name):
                names.add(node.optional_vars.id)
        elif isinstance(node, (ast.AnnAssign, ast.arg)):
            annotation = node.annotation
            if annotation is not None and "Store" in ast.unparse(annotation).split("."):
                target = node.target if isinstance(node, ast.AnnAssign) else node
                name = target.id if isinstance(target, ast.Name) else getattr(target, "arg", None)
                if name is not None:
                    names.add(name)
    return names


def _is_store(node: ast.expr, names: set[str]) -> bool:
    """True for an expression that is a store: a name or attribute whose name contains
    ``store`` (``store``, ``self.store``, ``self.db.store``), a name bound to one, or an
    ``open_store(...)`` call."""
    if isinstance(node, ast.Name):
        return "store" in node.id.lower() or node.id in names
    if isinstance(node, ast.Attribute):
        return "store" in node.attr.lower()
    return _is_open_store(node)


def store_openers(path: Path) -> list[tuple[str, int, str]]:
    """``(enclosing function, line, call)`` of each ``.session()`` / ``.write()`` called on a
    store in the source file ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = _store_names(tree)
    found: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = scope
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = f"{scope}.{child.name}" if scope else child.name
            if (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and child.func.attr in OPENERS
                and _is_store(child.func.value, names)
            ):
                found.append((scope, child.lineno, ast.unparse(child)))
            visit(child, inner)

    visit(tree, "")
    return found


def test_front_ends_open_no_store_session() -> None:
    """The CLI, the TUI, the browser server, the Python API and the demo call service verbs:
    a verb opens its own session or transaction, so no front end opens one
    (``store.session()``, ``store.write()``, on any store object)."""
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{line} ({scope or 'module'}): {call}"
        for path in _front_end_files()
        for scope, line, call in store_openers(path)
    ]
    assert found == [], f"{len(found)} store session(s) opened in front ends:\n" + "\n".join(found)


def test_store_opener_scan_sees_every_form(tmp_path: Path) -> None:
    """The scan above catches a session opened on each kind of store expression, and not a
    stream's ``write``."""
    source = tmp_path / "front.py"
    source.write_text(
        "def a(args, out):\n"
        "    store = open_store(args.db)\n"
        "    with store.session() as s:\n"
        "        out.write('x')\n"
        "def b(self):\n"
        "    with self.db.store.write() as s:\n"
        "        sys.stdout.write('y')\n"
        "def c(args):\n"
        "    with open_store(args.db) as db, db.write() as s:\n"
        "        pass\n"
        "    opened = db.session() if args.dry_run else db.write()\n"
        "    open_store(args.db).session()\n"
        "def d(handle: Store):\n"
        "    handle.session()\n",
        encoding="utf-8",
    )
    assert [(scope, line) for scope, line, _ in store_openers(source)] == [
        ("a", 3),
        ("b", 6),
        ("c", 9),
        ("c", 11),
        ("c", 11),
        ("c", 12),
        ("d", 14),
    ]
