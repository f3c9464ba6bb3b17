PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
#: The package alone (what `make demo` needs), then its test and ray extras (what `make test` needs).
RUNTIME_STAMP := $(VENV)/.runtime
STAMP := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium
#: root installs with apt-get as it is (CI); anyone else through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup demo test test-slow lint bench bench-anchor clean browser

$(RUNTIME_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(RUNTIME_STAMP)

$(STAMP): $(RUNTIME_STAMP)
	$(BIN)/pip install --quiet -e '.[test,ray]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(RUNTIME_STAMP)
	$(BIN)/rami validate examples/demo.txt
	$(BIN)/rami solve examples/demo.txt

# The page's browser tests (tests/test_page_puzzle.py and the others that use tests/support/page.py)
# drive Debian's chromium through Playwright; Playwright never downloads a browser here.
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "installing Debian's chromium for the browser tests"; \
		$(SUDO) apt-get update && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y chromium; \
	fi

# The suite runs on one pytest-xdist worker per core, at most 4 (each holds OR-Tools, Ray's
# client and a browser); tests/conftest.py keeps what is set up once in one worker. The
# service's fuzzing runs apart, without workers (see SERIAL_ONLY in tests/conftest.py).
TEST_WORKERS := $(shell n=$$(nproc 2>/dev/null || echo 1); [ $$n -gt 4 ] && n=4; echo $$n)
FUZZ_TESTS := tests/test_service_fuzz.py
PARALLEL_PYTEST := $(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadgroup --ignore=$(FUZZ_TESTS)
REQUIRED := RAMI_BROWSER_TESTS=required RAMI_RAY_TESTS=required

test: $(STAMP) browser
	$(BIN)/ruff check rami tests benchmarks
	$(BIN)/ruff format --check rami tests benchmarks fuzz
	$(BIN)/mypy
	$(REQUIRED) $(PARALLEL_PYTEST)
	$(REQUIRED) $(BIN)/pytest -q $(FUZZ_TESTS)

# The long versions, on the same workers as make test (the play fuzz's presets, one test each,
# spread over them), then the service's long fuzzing on its own; the slowest tests are listed.
test-slow: $(STAMP) browser
	$(REQUIRED) $(PARALLEL_PYTEST) -m slow --durations=20
	$(REQUIRED) $(BIN)/pytest -q -m slow $(FUZZ_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check rami tests benchmarks
	$(BIN)/ruff format --check rami tests benchmarks fuzz
	$(BIN)/mypy

# The solver's latency suites and the puzzle benchmarks (docs/benchmarks.md), then the ratios
# against benchmarks/results/baseline.json (the measured commit is recorded in it).
bench: $(STAMP)
	RAMI_BENCH_JSON=$${RAMI_BENCH_JSON:-benchmarks/results/latest.json} \
		$(BIN)/pytest benchmarks --benchmark-only --benchmark-enable -q
	@if [ -f benchmarks/results/baseline.json ] && [ -f benchmarks/results/latest.json ]; then \
		$(BIN)/python benchmarks/compare.py benchmarks/results/baseline.json \
			benchmarks/results/latest.json; fi

# rami beside rummikub-solver + GLPK_MI on the same Rummikub positions, interleaved
# (docs/benchmarks.md, "The anchor").
bench-anchor: $(STAMP)
	$(BIN)/pip install --quiet -e '.[anchor]'
	$(BIN)/python benchmarks/anchor.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis .benchmarks
