"""Run the solver benchmark suites without pytest and write a JSON export.

    python benchmarks/run_bench.py [--suites GLOB] [--mode maxplay|full|both] [--repeat N]
                                   [--time-limit S] [--json OUT] [--strict]

One warm process (OR-Tools imported, every mode exercised first): for each suite of
``benchmarks/suites/`` matching ``GLOB`` (on the name without ``.jsonl``: ``'rummikub-*'``,
``'*-100'``) and each mode (``maxplay``: ``min_moves=False``, ``full``: ``min_moves=True``),
every position is solved once per round, ``--repeat`` measured rounds after
``--warmup-rounds`` unmeasured ones (1 by default, like ``make bench``). Prints per-suite tables
(median, p95, p99, max of the total time per position, and the engine's build/search/finish
split from ``Solution.timings``, proved answers) with the targets' pass/fail, and with
``--json`` writes the export that ``compare.py`` reads: per suite and mode n, median/p95/p99/max
of total/build/search/finish ms, proved count, per-joker-count and per-position figures, and
machine info. ``--report EXPORT [--markdown]`` prints the tables of an existing export.

Exit status: 1 if a solve raised an error (or, with ``--strict``, a target was missed), else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import benchlib
import benchmachine
import benchreport


def print_report(data: dict, modes: list[str], markdown: bool = False) -> None:
    settings = data.get("settings", {})
    print(
        f"{benchmachine.machine_line(data['machine'])} | {data['machine']['date']} | "
        f"{settings.get('runner')}, repeat {settings.get('repeat')}, "
        f"{settings.get('wall_s')} s"
    )
    print(benchreport.LEGEND)
    for mode in modes:
        report = benchreport.mode_report(data["results"], mode, markdown=markdown)
        if report:
            print()
            print(report)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run the solver benchmark suites and write a JSON export."
    )
    parser.add_argument(
        "--suites",
        default="*",
        metavar="GLOB",
        help="suite names to run, a glob (default: every suite)",
    )
    parser.add_argument(
        "--mode",
        choices=("maxplay", "full", "both"),
        default="both",
        help="maxplay: min_moves=False; full: min_moves=True (default: both)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        metavar="N",
        help="rounds: every position is solved N times (default 3)",
    )
    parser.add_argument(
        "--warmup-rounds",
        type=int,
        default=1,
        metavar="N",
        help="unmeasured rounds of each suite and mode first (default 1, as "
        "make bench does: the first solves after a mode switch are slower)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=benchlib.DEFAULT_TIME_LIMIT,
        metavar="S",
        help="solver time limit per position (default 10 s)",
    )
    parser.add_argument("--json", type=Path, metavar="OUT", help="write the JSON export here")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a suite misses a target")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument(
        "--report",
        type=Path,
        metavar="EXPORT",
        help="run nothing: print the tables of an existing JSON export",
    )
    parser.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    args = parser.parse_args(argv)
    if args.report:
        data = json.loads(args.report.read_text(encoding="utf-8"))
        print_report(data, list(benchlib.MODES), markdown=args.markdown)
        return 0
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    paths = benchlib.suite_paths(args.suites)
    if not paths:
        parser.error(f"no suite matches {args.suites!r} in {benchlib.SUITES_DIR}")
    modes = list(benchlib.MODES) if args.mode == "both" else [args.mode]

    started = time.perf_counter()
    warm_ms = benchlib.warm_up()
    machine = benchmachine.machine_info()  # the code just imported
    if not args.quiet:
        print(f"warm-up (import OR-Tools, solve in every mode): {warm_ms:.0f} ms", flush=True)

    results: dict[str, dict] = {}
    for path in paths:
        cases = benchlib.load_suite(path)
        for mode in modes:
            begun = time.perf_counter()
            for _ in range(args.warmup_rounds):
                benchlib.run_round(cases, mode, -1, args.time_limit)
            samples: list[benchlib.Sample] = []
            for round_ in range(args.repeat):
                samples.extend(benchlib.run_round(cases, mode, round_, args.time_limit))
            result = benchlib.suite_result(mode, cases, samples)
            results.setdefault(path.stem, {})[mode] = result
            if not args.quiet:
                total = result["total_ms"]
                print(
                    f"{path.stem:<18} {mode:<7} n={result['n']:<4} "
                    f"median {total['median']:8.1f}  p99 {total['p99']:8.1f}  "
                    f"max {total['max']:8.1f} ms  proved {result['proved']}/{result['n']}"
                    f"  ({time.perf_counter() - begun:.1f} s)",
                    flush=True,
                )

    data = benchreport.export(
        results,
        machine=machine,
        settings={
            "runner": "benchmarks/run_bench.py",
            "suites": [path.stem for path in paths],
            "modes": modes,
            "repeat": args.repeat,
            "warmup_rounds": args.warmup_rounds,
            "time_limit": args.time_limit,
            "objective": "points",
            "warm_up_ms": round(warm_ms, 1),
            "wall_s": round(time.perf_counter() - started, 1),
        },
    )
    print()
    print_report(data, modes, markdown=args.markdown)
    if args.json:
        benchreport.write_json(args.json, data)
        print(f"\nJSON export written to {args.json}")

    errors = sum(modes_[m]["errors"] for modes_ in results.values() for m in modes_)
    if errors:
        print(f"\n{errors} solve(s) raised an error", file=sys.stderr)
        return 1
    if args.strict and not all(v["pass"] for v in data["verdicts"].values()):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
