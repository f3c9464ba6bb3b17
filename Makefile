PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test test-slow lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/rami validate examples/demo.txt
	$(BIN)/rami solve examples/demo.txt

test: $(STAMP)
	$(BIN)/ruff check rami tests benchmarks
	$(BIN)/mypy
	$(BIN)/pytest -q

test-slow: $(STAMP)
	$(BIN)/pytest -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check rami tests benchmarks
	$(BIN)/mypy

bench: $(STAMP)
	RAMI_BENCH_JSON=$${RAMI_BENCH_JSON:-benchmarks/results/latest.json} \
		$(BIN)/pytest benchmarks --benchmark-only --benchmark-enable -q
	@if [ -f benchmarks/results/baseline.json ] && [ -f benchmarks/results/latest.json ]; then \
		$(BIN)/python benchmarks/compare.py benchmarks/results/baseline.json \
			benchmarks/results/latest.json; fi

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis .benchmarks
