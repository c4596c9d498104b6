"""Settings of the whole suite for parallel runs (``make test``: pytest-xdist, ``-n``).

Every worker is a separate process with its own temporary folder (``tmp_path``), so SQLite
files, generated inputs and the PostgreSQL databases (random names, one per test) never meet.
What workers would repeat is a module's (or session's) expensive fixture: pytest builds it
once per process that runs one of its tests. The modules below hold such fixtures (a JVM
over hundreds of pages, the demo build, a headless browser, a generated database); their
tests get one ``xdist_group`` each, and ``--dist loadgroup`` runs a group on one worker, so
the fixture is built once per run. Every other test goes to whichever worker is free.

The TUI tests drive the app with textual's Pilot, which after every simulated key (twice)
and in every pause sleeps in steps until a step passes in which this process used almost no
CPU; :func:`pytest_configure` makes the steps shorter (:data:`PILOT_IDLE_STEP`).
"""

from __future__ import annotations

import pytest

#: textual's step (``textual._wait``): 20 ms, under 1 ms of CPU in a step ending the wait, so
#: at least 40 ms a key. A step of 5 ms with the same share (0.25 ms) still ends the wait only
#: once the app has nothing left to do and no thread of the process works, so the tests
#: assert on the same settled screens; the TUI tests' waits took 237 s in all, now 106 s.
PILOT_IDLE_STEP = 0.005


def pytest_configure(config: pytest.Config) -> None:
    from textual import _wait

    _wait.SLEEP_GRANULARITY = PILOT_IDLE_STEP
    _wait.SLEEP_IDLE = PILOT_IDLE_STEP / 20


#: test modules whose module-scoped fixtures are expensive: each runs on one worker
SHARED_FIXTURE_MODULES = frozenset(
    {
        "tests/labeler/test_demo.py",  # the demo, built by a real process
        "tests/labeler/evaluation/test_framework_retrievers.py",  # the demo, in process
        "tests/labeler/evaluation/test_score_processes.py",  # a sharded database
        "tests/labeler/gold/test_requirements_gold.py",  # the gold set rebuilt by its script
        "tests/labeler/extract/jsoup_parser/test_tree_builder.py",  # one JVM, cases + fuzz
        "tests/labeler/extract/test_extract_deep.py",  # one JVM over 100,000-deep pages
        "tests/labeler/extract/test_extract_fuzz.py",  # one JVM over 3,000 documents
        "tests/labeler/serve/test_serve_browser.py",  # headless chromium
        "tests/labeler/serve/test_serve_live.py",  # headless chromium
        "tests/labeler/serve/test_serve_team_week.py",  # headless chromium
        "tests/labeler/cli/test_cli_stats.py",  # a database built by the CLI
        "tests/labeler/store/test_store_search.py",  # the corpus ingested, per backend
        "tests/labeler/store/test_disk_full.py",  # a database with a gold set and a run
        "tests/labeler/store/test_store_integrity.py",  # generated pages and gold set
        "tests/labeler/store/test_crash.py",  # the base databases the crashes start from
        "tests/labeler/store/test_pg_unreachable.py",  # a 40,000-line run file
        "tests/scoring/test_ranx_crosscheck.py",  # ranx and numba: over a second to import
    }
)

#: (module, fixture): a session fixture used by some of a module's tests only; those tests
#: share a worker, the module's other tests are spread
SHARED_FIXTURES = frozenset(
    {
        # the jar, lexbor, the port and html5lib over every corpus page
        ("tests/labeler/extract/test_extract_jsoup.py", "corpus"),
        # a JVM over the snippets, one over the open quirks (about a second each)
        ("tests/labeler/extract/test_extract_jsoup.py", "snippet_reference"),
        ("tests/labeler/extract/test_extract_jsoup.py", "open_quirk_reference"),
    }
)


#: The order the other tests are handed out in. xdist's loadgroup gives each worker the next
#: test (in collection order) when it has two left, after every group (largest first): the
#: run ends when the last test taken ends. Long ungrouped tests (the TUI's, 4-7 s each under
#: load, came last) are collected first, and modules of many short tests last, so the
#: workers end within a short test of each other. Whole modules move (a module's tests
#: stay together and in order: module fixtures are not built twice for it).
RUN_FIRST = (
    "tests/tui/",  # the TUI under Pilot: most tests take seconds
    "tests/labeler/extract/test_profiles.py",  # BeautifulSoup over the corpus, twice: ~20 s
    "tests/labeler/cli/test_secrets.py",  # every command on PostgreSQL in one process: ~15 s
    "tests/labeler/pages/test_ingest_bad_inputs.py",  # a 50 MB page: ~15 s
    "tests/labeler/store/test_import_memory.py",  # 60,000 questions under a memory limit
    "tests/labeler/store/test_layer_import_memory.py",  # and a layer of them: ~15 s alone
    "tests/labeler/extract/test_extract_batch.py",  # the corpus in forks, several times
    "tests/scoring/correctness/test_correctness_align.py",  # against rapidfuzz: seconds
    "tests/labeler/evaluation/test_score_memory.py",  # scoring under a memory probe
)
RUN_LAST = (
    "tests/labeler/cli/test_import_refusals.py",  # 94 tests of a few tenths of a second
    "tests/labeler/chunks/test_chunking.py",  # 159 tests of milliseconds
    "tests/labeler/extract/jsoup_parser/test_tokeniser.py",  # 80 tests of milliseconds
)


def _rank(item: pytest.Item) -> int:
    module = item.nodeid.split("::", 1)[0]
    if module.startswith(RUN_FIRST):
        return 0
    return 2 if module.startswith(RUN_LAST) else 1


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: the order within each rank is the collection's
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        if module in SHARED_FIXTURE_MODULES:
            item.add_marker(pytest.mark.xdist_group(module))
            continue
        for fixture_module, fixture in SHARED_FIXTURES:
            if module == fixture_module and fixture in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.xdist_group(f"{module}::{fixture}"))
