"""Solver latency per suite and objective mode (pytest-benchmark): run with ``make bench``.

For each suite of ``benchmarks/suites/`` and each mode (``maxplay``: ``min_moves=False``;
``full``: ``min_moves=True``), one process solves every position once per round, warm
(OR-Tools imported and every mode exercised first by :func:`benchlib.warm_up`, plus one
unmeasured round of the suite itself). pytest-benchmark reports the time of a whole round;
the per-position latencies (total, and the engine's build/search/finish split from
``Solution.timings``) go to ``extra_info`` and to the table printed at the end of the session
(``conftest.py``), with the targets' pass/fail.

``make test`` never collects this file (``testpaths = ["tests"]``) and ``--benchmark-skip``
would skip it anyway. Environment knobs:

* ``RAMI_BENCH_SECONDS`` (default 40): measured seconds per suite and mode; the rounds are as
  many as fit (at least 1, at most ``RAMI_BENCH_MAX_ROUNDS``, default 200), judged from the
  unmeasured round, so that ``make bench`` takes about 10-15 minutes whatever the engine speed;
* ``RAMI_BENCH_ROUNDS``: a fixed number of rounds instead;
* ``RAMI_BENCH_SUITES``: a glob of suite names (default ``*``);
* ``RAMI_BENCH_JSON``: also write the JSON export of ``run_bench.py`` to that path;
* ``RAMI_BENCH_STRICT=1``: fail the tests of suites that miss a target (by default only errors
  fail: the targets are reported, not enforced).
"""

from __future__ import annotations

import itertools
import os
import time

import benchlib
import benchmachine
import pytest

SUITES = [path.stem for path in benchlib.suite_paths(os.environ.get("RAMI_BENCH_SUITES", "*"))]


def _rounds(first_round_s: float) -> int:
    fixed = os.environ.get("RAMI_BENCH_ROUNDS")
    if fixed:
        return max(1, int(fixed))
    budget = float(os.environ.get("RAMI_BENCH_SECONDS", "40"))
    most = int(os.environ.get("RAMI_BENCH_MAX_ROUNDS", "200"))
    return max(1, min(most, int(budget / max(first_round_s, 1e-3))))


@pytest.fixture(scope="session")
def warm() -> float:
    """Import the engine and solve a few small positions once per session (ms it took)."""
    benchlib.SESSION["started"] = time.perf_counter()
    benchlib.SESSION["warm_up_ms"] = round(benchlib.warm_up(), 1)
    benchlib.SESSION["machine"] = benchmachine.machine_info()  # the code just imported
    return benchlib.SESSION["warm_up_ms"]


@pytest.mark.parametrize("suite", SUITES)
@pytest.mark.parametrize("mode", list(benchlib.MODES))
def test_solver_suite(benchmark, warm: float, mode: str, suite: str) -> None:
    cases = benchlib.load_suite(benchlib.SUITES_DIR / f"{suite}.jsonl")
    assert cases, f"empty suite {suite}"

    started = time.perf_counter()
    benchlib.run_round(cases, mode, round_=-1)  # the suite's own warm-up, not measured
    rounds = _rounds(time.perf_counter() - started)

    samples: list[benchlib.Sample] = []
    counter = itertools.count()

    def one_round() -> None:
        samples.extend(benchlib.run_round(cases, mode, round_=next(counter)))

    benchmark.group = f"solver {mode} (one round = every position of the suite once)"
    benchmark.pedantic(one_round, rounds=rounds, iterations=1, warmup_rounds=0)

    result = benchlib.suite_result(mode, cases, samples)
    benchlib.RESULTS.setdefault(suite, {})[mode] = result
    benchmark.extra_info.update(
        {
            "suite": suite,
            "mode": mode,
            "min_moves": benchlib.MODES[mode],
            "positions": len(cases),
            "rounds": rounds,
            **{
                key: result[key]
                for key in (
                    "n",
                    "total_ms",
                    "build_ms",
                    "search_ms",
                    "finish_ms",
                    "proved",
                    "feasible",
                    "errors",
                    "target",
                    "by_jokers",
                )
            },
            # Per-position latencies: every round, in suite order (ms, total per solve).
            "latencies_ms": [
                [round(s.total_ms, 3) for s in samples if s.index == case.index] for case in cases
            ],
        }
    )

    assert result["errors"] == 0, result.get("error_messages")
    if os.environ.get("RAMI_BENCH_STRICT") == "1":
        assert result["target"]["pass"] is not False, (
            f"{suite} {mode}: {result['target']['misses']}"
        )
