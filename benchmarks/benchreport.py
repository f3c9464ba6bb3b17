"""The reports of the solver benchmarks: the JSON export with its verdicts, and the text or
Markdown tables that ``make bench``, ``run_bench.py`` and ``compare.py`` print.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from benchlib import (
    COLD_TARGET_MS,
    MODES,
    PHASES,
    STATS,
    TARGETS,
    targeted,
    targets_text,
    verdict,
)
from benchmachine import machine_info, source_state


def export(
    results: dict[str, dict[str, Any]],
    settings: dict[str, Any],
    machine: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON export: machine, settings, targets, per suite and mode figures, verdicts.

    ``machine`` should be :func:`machine_info` taken right after :func:`warm_up` (when the
    engine was imported: the code measured); the source is looked at again now, and a change
    during the run is flagged.
    """
    machine = dict(machine or machine_info())
    before, now = machine.get("source_files", {}), source_state()["source_files"]
    machine["source_changed_during_run"] = sorted(
        name for name in before.keys() | now.keys() if before.get(name) != now.get(name)
    )
    if hasattr(os, "getloadavg"):
        machine["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    verdicts = {}
    for mode in MODES:
        failing = {
            suite: modes[mode]["target"]["misses"]
            for suite, modes in results.items()
            if mode in modes and modes[mode]["target"]["pass"] is False
        }
        ran = [suite for suite, modes in results.items() if mode in modes and targeted(suite)]
        if ran:
            verdicts[mode] = {"pass": not failing, "suites": len(ran), "failing": failing}
    return {
        "format": "rami-bench/1",
        "machine": machine,
        "settings": settings,
        "targets": {
            **{mode: {**limits, "proved": "all"} for mode, limits in TARGETS.items()},
            "cold_ms": COLD_TARGET_MS,
        },
        "results": {suite: results[suite] for suite in sorted(results)},
        "verdicts": verdicts,
    }


def _no_nan(value: Any) -> Any:
    """NaN (a missing timing) as null, so that the export is strict JSON."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: _no_nan(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_no_nan(item) for item in value]
    return value


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(_no_nan(data), indent=1, allow_nan=False)
    path.write_text(text + "\n", encoding="utf-8")


def fmt_ms(value: float) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:.0f}"
    return f"{value:.1f}"


LEGEND = (
    "n = solves (positions x rounds); ms per position; build/search/finish: median and "
    "p99 of Solution.timings; cpu: process CPU time per solve; cpu/wall well below 1: "
    "other processes took the cores (timings inflated)"
)

TABLE_HEADER = (
    "suite",
    "n",
    "median",
    "p95",
    "p99",
    "max",
    "build med/p99",
    "search med/p99",
    "finish med/p99",
    "cpu med/p99",
    "cpu/wall",
    "proved",
    "target",
)


def _median_p99(stats: dict[str, float] | None) -> str:
    if not stats:
        return "-"
    return f"{fmt_ms(stats.get('median'))} / {fmt_ms(stats.get('p99'))}"


def table_rows(results: dict[str, dict[str, Any]], mode: str) -> list[tuple[str, ...]]:
    """One row per suite of ``results[suite][mode]`` (ms), for :func:`format_table`."""
    rows = []
    for suite in sorted(results):
        summary = results[suite].get(mode)
        if not summary or not summary.get("n"):
            continue
        total = summary["total_ms"]
        ok, _ = verdict(mode, summary)
        ratio = summary.get("cpu_per_wall")
        rows.append(
            (
                suite,
                f"{summary['n']} ({summary['positions']}x{summary['rounds']})",
                *(fmt_ms(total[stat]) for stat in STATS),
                *(_median_p99(summary.get(f"{key}_ms")) for key in (*PHASES[1:], "cpu")),
                "-" if ratio is None else f"{ratio:.2f}",
                f"{summary['proved']}/{summary['n']}",
                ("pass" if ok else "FAIL") if targeted(suite) else "(none)",
            )
        )
    return rows


def format_table(
    rows: Iterable[Sequence[str]], header: Sequence[str] = TABLE_HEADER, markdown: bool = False
) -> str:
    rows = [tuple(header), *[tuple(row) for row in rows]]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]

    def line(row: Sequence[str]) -> str:
        cells = [
            cell.ljust(w) if i == 0 else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        return ("| " + " | ".join(cells) + " |") if markdown else "  ".join(cells)

    out = [line(rows[0])]
    if markdown:
        out.append(
            "|"
            + "|".join(
                ("-" * (w + 1) + ":") if i else ("-" * (w + 2)) for i, w in enumerate(widths)
            )
            + "|"
        )
    else:
        out.append("  ".join("-" * w for w in widths))
    out.extend(line(row) for row in rows[1:])
    return "\n".join(out)


def mode_report(results: dict[str, dict[str, Any]], mode: str, markdown: bool = False) -> str:
    """The table of one mode and its pass/fail line."""
    rows = table_rows(results, mode)
    if not rows:
        return ""
    failing = []
    for suite in sorted(results):
        summary = results[suite].get(mode)
        if summary and summary.get("n") and targeted(suite):
            ok, misses = verdict(mode, summary)
            if not ok:
                failing.append(f"{suite} ({'; '.join(misses)})")
    title = f"{mode} (min_moves={MODES[mode]}), ms per position; target: {targets_text(mode)}"
    judged = sum(1 for row in rows if targeted(row[0]))
    status = (
        "PASS on every suite under target"
        if not failing
        else f"FAIL on {len(failing)}/{judged} suites: " + ", ".join(failing)
    )
    return f"{title}\n{format_table(rows, markdown=markdown)}\n{mode}: {status}"
