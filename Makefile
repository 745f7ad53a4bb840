# The two commands a newcomer needs:
#   make run    set up (first time) and start the app on its offline default
#   make test   set up (first time, with test extras), lint, and run the whole test suite
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: run test setup setup-test bench test-snapshot-update lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	$(BIN)/interviewer kb index
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

setup: $(VENV)/.installed-run
setup-test: $(VENV)/.installed-test

run: setup
	$(BIN)/interviewer

test: lint
	$(BIN)/python -m pytest

lint: setup-test
	$(BIN)/ruff check .

test-snapshot-update: setup-test
	$(BIN)/python -m pytest tests/tui/test_snapshots.py --snapshot-update

bench: setup-test
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache
