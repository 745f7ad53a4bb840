# The two commands a newcomer needs:
#   make run    set up (first time) and start the app on its offline default
#   make test   set up (first time, with test extras), lint, and run the whole test suite
# Installs take the versions in constraints.txt, the ones the test suite last passed with.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP_INSTALL := $(BIN)/pip install --quiet -c constraints.txt

.PHONY: run test test-fast setup setup-test bench test-snapshot-update lint constraints clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Installing and indexing are separate steps: a failed `kb index` reruns only the index.
$(VENV)/.installed-run: pyproject.toml constraints.txt | $(BIN)/python
	$(PIP_INSTALL) -e .
	touch $@

$(VENV)/.indexed: $(VENV)/.installed-run $(wildcard knowledge/notes/*.md)
	$(BIN)/interviewer kb index
	touch $@

$(VENV)/.installed-test: pyproject.toml constraints.txt | $(BIN)/python
	$(PIP_INSTALL) -e '.[test]'
	touch $@

setup: $(VENV)/.indexed
setup-test: $(VENV)/.installed-test

run: setup
	$(BIN)/interviewer

test: lint
	$(BIN)/python -m pytest

# The fast tier: everything not marked slow (no torch models, embedder or Chroma).
test-fast: lint
	$(BIN)/python -m pytest -m "not slow"

lint: setup-test
	$(BIN)/ruff check .
	$(BIN)/lint-imports

test-snapshot-update: setup-test
	$(BIN)/python -m pytest tests/tui/test_snapshots.py --snapshot-update

bench: setup-test
	$(BIN)/python bench/run_all.py

# Regenerate constraints.txt from a venv holding only the project and its test extras, after
# the whole suite passed in it. Any torch 2.13.0 build satisfies the torch line (see README).
constraints: | $(BIN)/python
	{ echo "# The versions the test suite passed with: pip install -c constraints.txt (make does)."; \
	  echo "# Regenerate with 'make constraints' in a venv holding only '.[test]'."; \
	  $(BIN)/pip freeze --exclude-editable | sed -e 's/^torch==2\.13\.0+.*/torch==2.13.0/'; } > constraints.txt

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
