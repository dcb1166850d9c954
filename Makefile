# Two entry points that work on a fresh machine with only Python 3.11 and pip:
#   make demo   -- set up .venv and run the main job
#   make test   -- set up .venv and run the whole test suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	# torch first, pinned to the CPU wheel: an unpinned torch would pull gigabytes of CUDA packages
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e ".[train,dev,openspiel]"
	touch $(STAMP)

setup: $(STAMP)

demo: setup
	$(BIN)/python -m training.demo

test: setup
	$(BIN)/ruff check .
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy MPLBACKEND=Agg $(BIN)/python -m pytest -n 2 -q

lint: setup
	$(BIN)/ruff check . && $(BIN)/ruff format --check .

bench: setup
	# the peers compared against (OpenSpiel, pgx on the CPU): extras of the benchmark only
	$(BIN)/pip install --quiet -e ".[bench]"
	$(BIN)/python -m benchmarks.run

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
