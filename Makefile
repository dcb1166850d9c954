# Two entry points that work on a fresh machine with only Python 3.11 and pip:
#   make demo   -- set up .venv and run the main job
#   make test   -- set up .venv, run ruff, mypy and the whole test suite, build the docs site (strict), then the RLlib
#                  tests in .venv-rllib, PettingZoo's tests under its oldest supported version, and the Tianshou
#                  and AgileRL recipes in .venv-clients
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Ray RLlib pins gymnasium 1.2.2 (the main venv has the newest): its tests run in a venv of their own
RLLIB_VENV := .venv-rllib
RLLIB_BIN := $(RLLIB_VENV)/bin
RLLIB_STAMP := $(RLLIB_VENV)/.installed
# the oldest PettingZoo the library supports (pyproject.toml: pettingzoo>=1.24): its tests run there too
PZ_FLOOR_VENV := .venv-pettingzoo-floor
PZ_FLOOR_BIN := $(PZ_FLOOR_VENV)/bin
PZ_FLOOR_STAMP := $(PZ_FLOOR_VENV)/.installed
# Tianshou and AgileRL, the recipes' clients that cannot share the main venv (AgileRL pins pettingzoo<1.27)
CLIENTS_VENV := .venv-clients
CLIENTS_BIN := $(CLIENTS_VENV)/bin
CLIENTS_STAMP := $(CLIENTS_VENV)/.installed
# the browser of the browser tests (tests/play/web/conftest.py looks there too)
CHROMIUM := /usr/bin/chromium

DOCS_STAMP := $(VENV)/.docs-installed
# after each editable install: build/checkout/boardgames, the package as a wheel lays it out, made of links to the
# checkout's folders (new modules appear at once), named by a .pth in the venv, so that Python and static tools
# (the type checker, editors) resolve boardgames.* to the checkout's files, one module per file (boardgames.layout)
LAYOUT := python -m boardgames.layout

.PHONY: setup setup-rllib chromium demo test test-rllib test-pettingzoo-floor test-clients docs typecheck lint bench engines dist clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	# torch first, pinned to the CPU wheel: an unpinned torch would pull gigabytes of CUDA packages
	$(BIN)/pip install --quiet torch==2.13.0
	# web: the browser server (boardgames.play.web); web-test: httpx and Playwright for tests/play/web (Playwright's wheel
	# carries its driver; the browser is the system's Chromium, see the chromium target: never `playwright install`)
	$(BIN)/pip install --quiet -e ".[train,dev,openspiel,web,web-test,ecosystem]"
	$(BIN)/$(LAYOUT)
	touch $(STAMP)

# the layout again at every setup (a few milliseconds): it links a file added to package/ too
setup: $(STAMP)
	@$(BIN)/$(LAYOUT)

$(RLLIB_STAMP): pyproject.toml
	$(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_BIN)/pip install --quiet torch==2.13.0
	$(RLLIB_BIN)/pip install --quiet -e ".[rllib,train,dev]"
	$(RLLIB_BIN)/$(LAYOUT)
	touch $(RLLIB_STAMP)

setup-rllib: $(RLLIB_STAMP)

# headless Chromium for the browser tests (tests/play/web), from the system's packages: installed with apt-get
# when /usr/bin/chromium is missing (as root, or with sudo); without either the browser tests skip, saying so
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=""; elif command -v sudo >/dev/null 2>&1; then SUDO="sudo"; \
		else echo "no $(CHROMIUM) and no root or sudo to install it: the browser tests will be skipped"; exit 0; fi; \
		$$SUDO apt-get update && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y --no-install-recommends chromium; \
	fi

demo: setup
	$(BIN)/boardgames demo

test: setup chromium
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	BOARDGAMES_REQUIRE_CLIENTS=1 SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy MPLBACKEND=Agg $(BIN)/python -m pytest -n 2 --dist loadfile -q
	$(MAKE) docs
	$(MAKE) test-rllib
	$(MAKE) test-pettingzoo-floor
	$(MAKE) test-clients

# the RLlib tests (tests/rllib) and the ecosystem checkers (RLlib's pre-check), under ray's gymnasium
test-rllib: $(RLLIB_STAMP)
	MPLBACKEND=Agg $(RLLIB_BIN)/python -m pytest -n 0 -q tests/rllib tests/envs/adapters/test_ecosystem_checkers.py

$(PZ_FLOOR_STAMP): pyproject.toml
	$(PYTHON) -m venv $(PZ_FLOOR_VENV)
	# the environments alone (no torch), under PettingZoo 1.24.3: it has no env registry (pettingzoo.make)
	$(PZ_FLOOR_BIN)/pip install --quiet "pettingzoo==1.24.3" pytest pytest-xdist pygame
	$(PZ_FLOOR_BIN)/pip install --quiet -e .
	$(PZ_FLOOR_BIN)/$(LAYOUT)
	touch $(PZ_FLOOR_STAMP)

# PettingZoo's test suite (api, seed, render, max_cycles, parallel), the golden playthroughs through the
# adapters and the registration, under the oldest PettingZoo the library supports
test-pettingzoo-floor: $(PZ_FLOOR_STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PZ_FLOOR_BIN)/python -m pytest -n 2 --dist loadfile -q \
		tests/envs/adapters/test_conformance.py tests/envs/games/test_golden_playthroughs.py \
		tests/envs/environments/test_registration.py tests/envs/environments/test_registration_options.py \
		tests/package/test_packaging.py::test_the_pettingzoo_floor_is_tested_and_its_registry_used_where_it_exists

$(CLIENTS_STAMP): pyproject.toml
	$(PYTHON) -m venv $(CLIENTS_VENV)
	# torch first, pinned to the CPU wheel; then the clients extra, which brings PettingZoo 1.26 (AgileRL's pin)
	$(CLIENTS_BIN)/pip install --quiet torch==2.13.0
	$(CLIENTS_BIN)/pip install --quiet -e ".[clients]" pytest
	$(CLIENTS_BIN)/$(LAYOUT)
	touch $(CLIENTS_STAMP)

# the Tianshou and AgileRL recipes (examples/ecosystem/, tests/ecosystem_clients), a missing client a failure;
# in one process, which imports each client (and compiles Tianshou's numba buffer) once
test-clients: $(CLIENTS_STAMP)
	BOARDGAMES_REQUIRE_CLIENTS=clients $(CLIENTS_BIN)/python -m pytest -q tests/ecosystem_clients

# the documentation site (mkdocs.yml): MkDocs Material + mkdocstrings, built strict into site/ (open
# site/index.html); a broken link, anchor or reference, or a page left out of the nav, fails it
$(DOCS_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e ".[docs]"
	touch $(DOCS_STAMP)

docs: $(DOCS_STAMP)
	NO_MKDOCS_2_WARNING=1 MPLBACKEND=Agg $(BIN)/mkdocs build --strict

# the type checker over the library: mypy, pyproject.toml's [tool.mypy] (docs/architecture.md, "Type checking")
typecheck: setup
	$(BIN)/mypy

lint: setup
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/vulture

# the games' compiled engines (envs/<game>/engine.py), rendered again from envs/compiled/templates after a
# change to the templates or to a game's rules (tests/test_generated_engines.py fails until then)
engines: setup
	$(BIN)/python -m boardgames.envs.compiled.render

bench: setup
	# the peers compared against (OpenSpiel, pgx on the CPU): extras of the benchmark only
	$(BIN)/pip install --quiet -e ".[bench]"
	$(BIN)/boardgames bench

# the wheel and the sdist in dist/ (or DIST=...), built offline by this venv's setuptools (`python -m build
# --no-isolation`, which builds the wheel from the sdist, so that a file the sdist lacks fails here too), then
# checked by `twine check --strict`: the metadata, and the README as PyPI would render it. About 20 s; not part
# of make test (tests/package/test_dist.py builds and checks them the same way). The build's log: build/dist.log
DIST ?= dist
dist: setup
	rm -rf $(DIST)
	mkdir -p build
	$(BIN)/python -m build --no-isolation --outdir $(DIST) . > build/dist.log 2>&1 || { tail -n 40 build/dist.log; exit 1; }
	$(BIN)/twine check --strict $(DIST)/*.whl $(DIST)/*.tar.gz
	@ls -l $(DIST)
	@echo 'install it in any venv: pip install torch==2.13.0, then pip install "$(DIST)/<the .whl>[train]" (build log: build/dist.log)'

clean:
	rm -rf $(VENV) $(RLLIB_VENV) $(PZ_FLOOR_VENV) $(CLIENTS_VENV) build dist site *.egg-info .pytest_cache
