# provmem developer tasks. `make demo` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint unit contract e2e schemas clean

# setuptools tells every editable install of a mapped layout that folders in the working
# directory may shadow the package (ours: provmem/ at the root); known, so not repeated.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/pip install -q -e ".[dev]"
	touch $(STAMP)

demo: $(STAMP)  ## install, then run the demo on the embedded default (no server needed)
	$(BIN)/provmem demo

lint: $(STAMP)  ## ruff, mypy --strict on the whole package, import contracts, schema drift
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m tests.support.package_tree build/tree
	cd build/tree && ../../$(BIN)/mypy --strict --follow-imports=silent --config-file ../../pyproject.toml provmem
	cd build/tree && PYTHONPATH=. ../../$(BIN)/lint-imports ../../pyproject.toml
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit/test_architecture.py
	$(BIN)/python -m provmem.schemas --check

# Four pytest processes share the suite on two cores (most Kafka tests wait on the broker or
# on a worker's start, not the CPU); xdist hands out whole files, longest first (the order
# tests/support/durations.json records; tests/conftest.py sorts by it). Lint runs beside the
# suite (their lines may interleave: a grouped output would hide the suite's progress until
# it ends); schemathesis runs on its own after, as
# its pytest plugin generates cases only outside xdist.
PYTEST := $(BIN)/python -m pytest -q -p no:cacheprovider
SCHEMATHESIS := tests/e2e/test_schemathesis.py

.PHONY: suite
test: $(STAMP)  ## everything: lint and all suites against a Tansu broker and Redis
	$(MAKE) --no-print-directory -j2 lint suite
	$(PYTEST) $(SCHEMATHESIS)

suite: $(STAMP)
	$(BIN)/python -m tests.support.testbed -- $(PYTEST) -n 4 --dist loadfile --no-loadscope-reorder --durations=25 --ignore=$(SCHEMATHESIS)

unit: $(STAMP)
	$(BIN)/python -m pytest -q tests/unit

contract e2e: $(STAMP)
	$(BIN)/python -m tests.support.testbed -- $(BIN)/python -m pytest -q tests/$@

clean:
	rm -rf $(VENV) .provmem build dist *.egg-info
