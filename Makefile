# Two entry points that work on a fresh machine with only Python 3.11 and pip:
#   make demo   -- set up .venv and run the main job
#   make test   -- set up .venv and run the whole test suite, then the RLlib tests in .venv-rllib
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Ray RLlib pins gymnasium 1.2.2 (the main venv has the newest): its tests run in a venv of their own
RLLIB_VENV := .venv-rllib
RLLIB_BIN := $(RLLIB_VENV)/bin
RLLIB_STAMP := $(RLLIB_VENV)/.installed

.PHONY: setup setup-rllib demo test test-rllib lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	# torch first, pinned to the CPU wheel: an unpinned torch would pull gigabytes of CUDA packages
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e ".[train,dev,openspiel]"
	touch $(STAMP)

setup: $(STAMP)

$(RLLIB_STAMP): pyproject.toml
	$(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_BIN)/pip install --quiet torch==2.13.0
	$(RLLIB_BIN)/pip install --quiet -e ".[rllib,train,dev]"
	touch $(RLLIB_STAMP)

setup-rllib: $(RLLIB_STAMP)

demo: setup
	$(BIN)/python -m training.demo

test: setup
	$(BIN)/ruff check .
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy MPLBACKEND=Agg $(BIN)/python -m pytest -n 2 --dist loadfile -q
	$(MAKE) test-rllib

# the RLlib tests (tests/rllib) and the ecosystem checkers (RLlib's pre-check), under ray's gymnasium
test-rllib: $(RLLIB_STAMP)
	MPLBACKEND=Agg $(RLLIB_BIN)/python -m pytest -n 0 -q tests/rllib tests/test_ecosystem_checkers.py

lint: setup
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

bench: setup
	# the peers compared against (OpenSpiel, pgx on the CPU): extras of the benchmark only
	$(BIN)/pip install --quiet -e ".[bench]"
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) $(RLLIB_VENV) build *.egg-info .pytest_cache
