# Two commands: `make run` (set up, open the TUI on the bundled corpus) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run ingest test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/labeler

ingest: $(STAMP)
	$(BIN)/labeler ingest corpora/sqlite-docs

test: $(STAMP)
	scripts/ensure-jsoup
	scripts/test-postgres run $(BIN)/python -m pytest -q  # throwaway PostgreSQL, stopped after

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

bench: $(STAMP)
	scripts/ensure-jsoup
	$(BIN)/python benchmarks/bench_extract.py
	$(BIN)/python benchmarks/bench_score.py

clean:
	rm -rf $(VENV) labels.db labels.db-wal labels.db-shm
