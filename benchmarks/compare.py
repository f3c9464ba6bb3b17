"""Compare two benchmark exports: per suite and mode, B/A ratios of median, p95, p99 and max.

    python benchmarks/compare.py A.json B.json [--phase total|build|search|finish]
                                               [--positions N]

A and B are JSON exports of ``run_bench.py`` (or of ``make bench`` with ``RAMI_BENCH_JSON``).
A ratio below 1 means B is faster. Each cell reads ``A -> B (ratio)`` in ms. Also shows the
proved counts, a geometric mean of the ratios per mode, the cold-start figures when both files
hold them (``cold_start.py --merge``), and with ``--positions N`` the N positions whose median
changed most (by ratio) in each mode.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import benchlib
import benchreport


def _ratio(a: float, b: float) -> float:
    if a is None or b is None or not a > 0:
        return math.nan
    return b / a


def _cell(a: float, b: float) -> str:
    ratio = _ratio(a, b)
    return f"{benchreport.fmt_ms(a)} -> {benchreport.fmt_ms(b)} ({ratio:.2f}x)"


def _machine_line(name: str, data: dict[str, Any]) -> str:
    info = data.get("machine", {})
    return (
        f"{name}: {info.get('date')} commit {str(info.get('git_commit'))[:10]} engine "
        f"{info.get('engine_sha256')} ortools {info.get('ortools')} python "
        f"{info.get('python')} load {info.get('loadavg')}"
    )


def compare(a: dict[str, Any], b: dict[str, Any], phase: str = "total", positions: int = 0) -> str:
    out = [_machine_line("A", a), _machine_line("B", b)]
    files_a = a.get("machine", {}).get("source_files")
    files_b = b.get("machine", {}).get("source_files")
    if files_a is not None and files_b is not None:
        differ = sorted(
            name
            for name in files_a.keys() | files_b.keys()
            if files_a.get(name) != files_b.get(name)
        )
        out.append("source files that differ: " + (", ".join(differ) if differ else "none"))
    out.append("")
    key = f"{phase}_ms"
    for mode in benchlib.MODES:
        rows = []
        logs = {stat: [] for stat in benchlib.STATS}
        moved: list[tuple[float, str, float, float]] = []
        for suite in sorted(set(a.get("results", {})) & set(b.get("results", {}))):
            ra, rb = a["results"][suite].get(mode), b["results"][suite].get(mode)
            if not ra or not rb or key not in ra or key not in rb:
                continue
            cells = []
            for stat in benchlib.STATS:
                cells.append(_cell(ra[key][stat], rb[key][stat]))
                ratio = _ratio(ra[key][stat], rb[key][stat])
                if ratio > 0:
                    logs[stat].append(math.log(ratio))
            rows.append(
                (
                    suite,
                    f"{ra['n']} / {rb['n']}",
                    *cells,
                    f"{ra['proved']}/{ra['n']} -> {rb['proved']}/{rb['n']}",
                )
            )
            per_a = {p["index"]: p for p in ra.get("per_position", [])}
            field = "median_ms" if phase == "total" else key  # per position: medians
            for pb in rb.get("per_position", []):
                pa = per_a.get(pb["index"])
                if pa and pa.get(field) is not None and pb.get(field) is not None:
                    r = _ratio(pa[field], pb[field])
                    if r > 0:
                        moved.append((r, f"{suite}[{pb['index']}]", pa[field], pb[field]))
        if not rows:
            continue
        means = []
        for stat in benchlib.STATS:
            values = logs[stat]
            means.append(f"{math.exp(sum(values) / len(values)):.2f}x" if values else "-")
        rows.append(("geometric mean", "", *means, ""))
        out.append(
            f"{mode} (min_moves={benchlib.MODES[mode]}), {phase} ms per position, A -> B (B/A)"
        )
        out.append(
            benchreport.format_table(rows, header=("suite", "n A / B", *benchlib.STATS, "proved"))
        )
        if positions and moved:
            moved.sort()
            picks = moved[-positions:][::-1] + moved[:positions]
            out.append(f"positions whose median {phase} time changed most ({mode}):")
            out.extend(
                f"  {label:<22} {ma:9.1f} -> {mb:9.1f} ms ({r:.2f}x)" for r, label, ma, mb in picks
            )
        out.append("")
    cold_a, cold_b = a.get("cold_start"), b.get("cold_start")
    if cold_a and cold_b:
        out.append("cold start and batch, A -> B (B/A)")
        for name in sorted(set(cold_a.get("cold", {})) & set(cold_b.get("cold", {}))):
            # (an export's own checkout is "this"; older exports hold the figures directly)
            ca, cb = (
                side["cold"][name].get("this", side["cold"][name]) for side in (cold_a, cold_b)
            )
            out.append(
                f"  rami {name:<20} median {_cell(ca['median_ms'], cb['median_ms'])}"
                f"  max {_cell(ca['max_ms'], cb['max_ms'])}"
                f"  peak RSS {ca['peak_rss_mb']} -> {cb['peak_rss_mb']} MB"
            )
        for name in sorted(set(cold_a.get("batch", {})) & set(cold_b.get("batch", {}))):
            ba, bb = cold_a["batch"][name], cold_b["batch"][name]
            wall = _cell(ba["wall_ms_per_position"], bb["wall_ms_per_position"])
            out.append(
                f"  --batch {name:<17} median {_cell(ba['median_ms'], bb['median_ms'])}"
                f"  wall/position {wall}"
            )
    return "\n".join(out).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare two benchmark JSON exports (B/A).")
    parser.add_argument("a", type=Path, help="the reference export (e.g. results/baseline.json)")
    parser.add_argument("b", type=Path, help="the new export")
    parser.add_argument(
        "--phase",
        choices=benchlib.PHASES,
        default="total",
        help="which time to compare (default: total per position)",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=0,
        metavar="N",
        help="also list the N positions that got most slower and faster",
    )
    args = parser.parse_args(argv)
    a = json.loads(args.a.read_text(encoding="utf-8"))
    b = json.loads(args.b.read_text(encoding="utf-8"))
    sys.stdout.write(compare(a, b, args.phase, args.positions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
