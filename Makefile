# provmem developer tasks. `make demo` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint unit contract e2e schemas clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

demo: $(STAMP)  ## install, then run the demo on the embedded default (no server needed)
	$(BIN)/provmem demo

lint: $(STAMP)  ## ruff, mypy --strict on the pure core, import rules, schema drift
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	cd core && ../$(BIN)/mypy --strict --config-file ../pyproject.toml .
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit/test_architecture.py
	$(BIN)/python -m provmem.schemas --check

test: lint  ## everything: lint, then all suites against a Tansu broker and Redis
	$(BIN)/python -m provmem.infra.testbed -- $(BIN)/python -m pytest -q -p no:cacheprovider

unit: $(STAMP)
	$(BIN)/python -m pytest -q tests/unit

contract e2e: $(STAMP)
	$(BIN)/python -m provmem.infra.testbed -- $(BIN)/python -m pytest -q tests/$@

clean:
	rm -rf $(VENV) .provmem build dist *.egg-info
