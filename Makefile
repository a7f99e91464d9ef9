# Build, check and run the Atlantis table companion.  `make test` is what CI runs.

# bash with pipefail, so that `companion ... | check` fails when either side fails.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

# The venv's interpreter: Debian's python3 where there is one -- the one Raspberry Pi OS ships,
# built with profile-guided optimisation and libpython linked in, as the companion runs on a Pi;
# a python3 built from source without those (pyenv's, by default) plays the engine's random
# games 3-25 % slower here (README, Development). Else the python3 on PATH.
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
VENV := .venv
BIN := $(VENV)/bin
# Written after a successful `pip install`; pyproject.toml being newer means reinstall.
STAMP := $(VENV)/.installed
# Extra flags for `python -m venv`; on a Pi use --system-site-packages (apt's lgpio, OpenCV).
VENV_FLAGS ?=
# Debian packages the checks need (systemd: systemd-analyze verifies the unit that
# `companion install-service` writes; chromium for the phone page's tests; python3-opencv, the
# OpenCV 4.6 that Raspberry Pi OS ships, for the test of the legacy ArUco API). Installed only
# as root. The hotspot's tests: network-manager (the real nmcli's --offline parser), dnsmasq-base
# (dnsmasq --test), avahi-daemon and libxml2-utils (the service file against avahi's DTD),
# poppler-utils (the card rendered to PNG and its text read back). nodejs runs the Pico
# firmware's tests under MicroPython's WebAssembly port. The voice's: espeak-ng and sox (spoken
# into WAV files and measured). faketime: the daemon's clock stepped back and forth
# (libfaketime) while phones keep their seats. python3-venv and python3-dev: Debian's python3
# makes the venv, and mypyc compiles the engine against its headers (`make compiled`).
APT_PACKAGES := systemd chromium python3-venv python3-dev python3-opencv network-manager dnsmasq-base avahi-daemon libxml2-utils poppler-utils nodejs espeak-ng sox faketime
# Extra arguments for pytest, e.g. `make pytest PYTEST_ARGS='-k serpent'`.
PYTEST_ARGS ?=
# MicroPython's official WebAssembly port, from npm, into a gitignored folder: the Pico firmware's
# tests run under it (tests/test_firmware_mp.py names the file).
NPM_TOOLS := .npm-tools
MICROPYTHON_VERSION := 1.27.0
MICROPYTHON := $(NPM_TOOLS)/micropython/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs
# axe-core, injected into the table screen by its accessibility test (tests/test_table_screen.py
# names the file), the same way.
AXE_VERSION := 4.14.1
AXE := $(NPM_TOOLS)/axe/node_modules/axe-core/axe.min.js
# Folders that ruff checks.
LINT_PATHS := companion tests tools

.PHONY: venv apt npm lint typecheck compiled pytest test check-long bench demo clean

# venv (internal): every other target needs the tools from .venv; this only reinstalls when
# pyproject.toml changed, so a repeated `make test` starts at once.
venv: apt $(STAMP)

$(STAMP): pyproject.toml | apt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV_FLAGS) $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -e '.[dev,vision]'
	touch $(STAMP)

# apt (internal): system packages cannot come from pip. It acts only as root, with APT_PACKAGES
# set, and when one of them is missing (dpkg -s), so it normally costs nothing.
apt:
	@if [ -n "$(strip $(APT_PACKAGES))" ] && [ "$$(id -u)" -eq 0 ]; then \
	  if dpkg -s $(APT_PACKAGES) >/dev/null 2>&1; then \
	    echo "apt: already installed: $(APT_PACKAGES)"; \
	  else \
	    apt-get update && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(APT_PACKAGES); \
	  fi; \
	fi

# npm (internal): Debian's npm, only where no npm command is there yet (NodeSource's nodejs
# brings its own and conflicts with Debian's package); as root, like apt.
npm: apt
	@if ! command -v npm >/dev/null && [ "$$(id -u)" -eq 0 ]; then \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends npm; \
	fi

$(MICROPYTHON): | npm
	npm install --prefix $(NPM_TOOLS)/micropython --no-save --no-audit --no-fund \
	  @micropython/micropython-webassembly-pyscript@$(MICROPYTHON_VERSION)

# lint: style and common bugs, so that review time goes to the design, not to formatting.
lint: venv
	$(BIN)/ruff check $(LINT_PATHS)
	$(BIN)/ruff format --check $(LINT_PATHS)

# typecheck: mypy over the package; pyproject.toml makes companion.engine.* strict.
typecheck: venv
	$(BIN)/mypy companion

# compiled: the rules engine compiled by mypyc (from the dev extra) into build/compiled, beside
# a copy of the rest of the package; the pure package stays as it is and is what runs unless
# build/compiled is put first on PYTHONPATH. tests/test_compiled_engine.py plays the engine's tests
# and the golden games against it; `companion bench engine` reports both. Without a C compiler
# the engine stays pure Python and this says so.
COMPILED := build/compiled
ENGINE_SOURCES := $(filter-out companion/engine/__init__.py,$(wildcard companion/engine/*.py))

compiled: venv $(COMPILED)/.built
	@# the rest of the package as it is now (cheap); the engine's sources are those just built
	@if [ -f $(COMPILED)/.built ]; then cp -r companion/. $(COMPILED)/companion/; fi

$(COMPILED)/.built: $(ENGINE_SOURCES) | venv
	@if ! command -v cc >/dev/null; then \
	  echo "compiled: no C compiler here: the engine stays pure Python"; exit 0; \
	fi; \
	rm -rf $(COMPILED) && mkdir -p $(COMPILED) && cp -r companion $(COMPILED)/ && \
	find $(COMPILED) -name __pycache__ -type d -prune -exec rm -rf {} + && \
	cd $(COMPILED) && $(CURDIR)/$(BIN)/mypyc $(ENGINE_SOURCES) >mypyc.log && rm -rf build && \
	touch .built

# pytest (internal): the test suite, slow tests excluded, its 15 longest tests listed (the
# budget is 15 minutes for `make test` on 2 cores). pytest exits 5 when it collected no
# tests; that is a failure here, because a green run must mean tests ran.
# Where a C compiler is, `make test` built the compiled engine first and its test must run.
pytest: venv compiled $(MICROPYTHON) $(AXE)
	@status=0; \
	if command -v cc >/dev/null; then export COMPANION_REQUIRE_COMPILED=1; fi; \
	$(BIN)/pytest -q -p no:cacheprovider --timeout=600 --durations=15 -m 'not slow' $(PYTEST_ARGS) || status=$$?; \
	if [ $$status -eq 5 ]; then \
	  echo "make: pytest collected no tests; failing, because a test run must run tests" >&2; \
	  exit 1; \
	fi; \
	exit $$status

$(AXE): | npm
	npm install --prefix $(NPM_TOOLS)/axe --no-save --no-audit --no-fund axe-core@$(AXE_VERSION)

# test: everything a change must pass before it lands; CI runs this (.ci/run).
test: venv lint typecheck pytest

# check-long: thousands of simulated games per player count and kit must break no engine
# invariant, then the slow tests (the 50-kill crash test among them). Too long for every
# change; run it before calling a long-check issue done.
check-long: venv
	@for players in 2 3 4; do \
	  $(BIN)/companion simulate --players $$players --games 2000 --seed 1 --rules base --json \
	    | $(BIN)/python tools/check_simulate.py; \
	done
	@# the kits of the mini-expansion box, in the combinations their issue names
	$(BIN)/companion simulate --players 6 --games 1000 --seed 1 \
	  --rules five-six,overpopulated,dive-dice,squid --json | $(BIN)/python tools/check_simulate.py
	$(BIN)/companion simulate --players 5 --games 1000 --seed 1 \
	  --rules five-six,dive-dice,squid --json | $(BIN)/python tools/check_simulate.py
	$(BIN)/companion simulate --players 4 --games 1000 --seed 1 \
	  --rules dive-dice,squid,squid-variant-1 --json | $(BIN)/python tools/check_simulate.py
	@# the 1986 ruleset (E-1 ... E-7), alone: 2, 3 and 4 players (2, 4 and 4 boats)
	@for players in 2 3 4; do \
	  $(BIN)/companion simulate --players $$players --games 1000 --seed 1 --rules escape-1986 \
	    --json | $(BIN)/python tools/check_simulate.py; \
	done
	@# bots (issue 19): three normal bots and a random player, 1,000 games in each ruleset and kit
	@for rules in base five-six,overpopulated,dive-dice,squid dive-dice,squid,squid-variant-1 \
	    densely-populated,leave-no-one-behind,all-equal,atlantis-is-gone escape-1986; do \
	  players=4; case $$rules in five-six*) players=6;; esac; \
	  $(BIN)/companion simulate --players $$players --bots 3 --games 1000 --seed 1 \
	    --rules $$rules --json | $(BIN)/python tools/check_simulate.py; \
	done
	@status=0; \
	$(BIN)/pytest -q -p no:cacheprovider --timeout=3600 -m slow $(PYTEST_ARGS) || status=$$?; \
	if [ $$status -eq 5 ]; then echo "make: no slow tests yet"; exit 0; fi; \
	exit $$status

# bench: the machine-specific figures quoted in README.md (see architecture.md, Benchmarks).
bench: venv
	$(BIN)/companion bench --json

# demo: try the companion on this machine, with no Pi and no hardware attached.
demo: venv
	$(BIN)/companion demo

# clean: back to a fresh clone's state (the next target rebuilds .venv).
clean:
	rm -rf $(VENV) $(NPM_TOOLS) build dist .mypy_cache .ruff_cache .pytest_cache .hypothesis tests/artifacts
	find . -path ./.git -prune -o -name '__pycache__' -type d -prune -exec rm -rf {} +
	find . -path ./.git -prune -o -name '*.egg-info' -type d -prune -exec rm -rf {} +
