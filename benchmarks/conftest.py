"""Print the per-suite latency tables at the end of a ``make bench`` session.

Only loaded when ``benchmarks/`` is collected (``make bench``); ``make test`` never sees it.
With ``RAMI_BENCH_JSON=PATH`` the same JSON export as ``run_bench.py`` is written there.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import benchlib
import benchmachine
import benchreport
import pytest


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter) -> None:
    results = benchlib.RESULTS
    if not results:
        return
    session = benchlib.SESSION
    data = benchreport.export(
        results,
        machine=session.get("machine"),
        settings={
            "runner": "pytest benchmarks (make bench)",
            "rounds": "as many as fit in RAMI_BENCH_SECONDS per suite and mode (see n)",
            "warm_up_ms": session.get("warm_up_ms"),
            "time_limit": benchlib.DEFAULT_TIME_LIMIT,
            "objective": "points",
            "wall_s": round(time.perf_counter() - session.get("started", time.perf_counter()), 1),
        },
    )
    write = terminalreporter.write_line
    terminalreporter.section("rami solver latency per position (ms, warm process)")
    write(f"{benchmachine.machine_line(data['machine'])} | warm-up {session.get('warm_up_ms')} ms")
    write(benchreport.LEGEND)
    for mode in benchlib.MODES:
        report = benchreport.mode_report(results, mode)
        if report:
            write("")
            for line in report.splitlines():
                write(line)
    out = os.environ.get("RAMI_BENCH_JSON")
    if out:
        benchreport.write_json(Path(out), data)
        write(f"\nJSON export written to {out}")
