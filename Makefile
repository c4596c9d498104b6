# Two commands: `make run` (set up, open the TUI on the bundled corpus) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# the runtime dependencies (what `make run` needs); the test extras (pytest, ruff, mypy,
# the reference scorers) come on top, once, with the first `make test`, `make lint` or
# `make bench`
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
# a third-party extraction profile registered through the 'labeler.profiles' entry point
TEST_PLUGIN := tests/plugins/labeler_test_profile

# the scoring path compiled with mypyc (scripts/build_native.py; about a minute), again when
# one of its sources changes; where it cannot be built, everything runs from source
NATIVE_STAMP := $(VENV)/.native
NATIVE_SOURCES := $(shell $(PYTHON) scripts/build_native.py --list)

.PHONY: run ingest test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	touch $(STAMP)

$(NATIVE_STAMP): $(STAMP) scripts/build_native.py scoring/_native.py $(NATIVE_SOURCES)
	$(BIN)/python -m pip install -q 'mypy>=1.10'  # mypyc comes with mypy
	$(BIN)/python scripts/build_native.py --stamp $(NATIVE_STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test]'
	$(BIN)/python -m pip install -q ./$(TEST_PLUGIN)
	touch $(TEST_STAMP)

run: $(STAMP) $(NATIVE_STAMP)
	$(BIN)/labeler

ingest: $(STAMP) $(NATIVE_STAMP)
	$(BIN)/labeler ingest corpora/sqlite-docs

# parallel test workers (pytest-xdist): each has its own temporary folder, SQLite files and
# PostgreSQL databases; tests that share an expensive module fixture stay on one worker
# (their module's xdist_group mark, --dist loadgroup). `make test TEST_WORKERS=0` runs them
# one at a time in this process. Two workers more than the usable CPUs: many tests wait on
# other processes (a browser, a server, PostgreSQL, the TUI's timers), and the extra workers'
# tests run in that time (2 CPUs: 743 s with 2 workers, 600 s with 3). A fourth: the TUI,
# serve, CLI and ingest tests took 369 and 316 s with 4 workers, 382 and 223 s with 3, on a
# machine that others loaded unevenly; the whole suite keeps the CPUs busy about 60% of its
# time with 3
TEST_WORKERS ?= $(shell python3 -c 'import os; print(len(os.sched_getaffinity(0)) + 2)')
# bytecode cached even where PYTHONDONTWRITEBYTECODE is set: every worker would otherwise
# rewrite the test modules' asserts and every labeler process compile its modules again

test: $(TEST_STAMP) $(NATIVE_STAMP)
	scripts/ensure-jsoup
	scripts/ensure-chromium
	LABELER_NATIVE_REQUIRED=$$(cat $(NATIVE_STAMP)) PYTHONDONTWRITEBYTECODE= scripts/test-postgres run $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup  # throwaway PostgreSQL, stopped after

lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(TEST_STAMP) $(NATIVE_STAMP)
	scripts/ensure-jsoup
	$(BIN)/python benchmarks/bench_extract.py
	$(BIN)/python benchmarks/bench_score.py

clean:
	$(PYTHON) scripts/build_native.py --clean
	rm -rf $(VENV) build labels.db labels.db-wal labels.db-shm labels.db-checked
