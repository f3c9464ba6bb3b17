"""``--top 3`` beside ``--top 1``, and review times, on the benchmark suites (interleaved).

For each position of each suite, in turn: ``solve`` (``--top 1``), ``solve_top(3)`` and a review
(the turn reviewed is the position's second-best answer when there is one, else passing), so a
loaded machine slows all three alike. Prints, per suite, the median and p95 wall time of each,
CPU time beside it (a wall time well above the CPU time means other processes had the cores),
and how many top-3 answers were all proved. Usage::

    .venv/bin/python benchmarks/top_k.py [SUITE_GLOB] [--time-limit S] [--positions N]
        [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import describe, load_suite, suite_paths, warm_up

from rami.review import review
from rami.solver.alternatives import solve_top
from rami.solver.api import solve
from rami.solver.solution import Status


def _timed(work: Any) -> tuple[Any, float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = work()
    return result, (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def run(pattern: str, time_limit: float, positions: int | None = None) -> dict[str, Any]:
    warm_up()
    results: dict[str, Any] = {}
    for path in suite_paths(pattern):
        rows: dict[str, list[float]] = {name: [] for name in
                                        ("top1", "top1_cpu", "top3", "top3_cpu", "review",
                                         "review_cpu")}
        proved = found3 = unsupported = 0
        cases = load_suite(path)[:positions]
        for case in cases:
            position = case.position
            _, wall, cpu = _timed(lambda p=position: solve(p, time_limit=time_limit))
            rows["top1"].append(wall)
            rows["top1_cpu"].append(cpu)
            try:
                top, wall, cpu = _timed(lambda p=position: solve_top(p, 3, time_limit=time_limit))
            except Exception as error:  # unsupported (pinned jokers): counted, not timed
                if type(error).__name__ != "UnsupportedError":
                    raise
                unsupported += 1
                top = None
            else:
                rows["top3"].append(wall)
                rows["top3_cpu"].append(cpu)
                proved += all(s.status is Status.OPTIMAL for s in top.solutions)
                found3 += len(top.solutions) == 3
            turn = top.solutions[1] if top is not None and len(top.solutions) > 1 else None
            table = turn.table if turn is not None else position.table
            played = turn.played if turn is not None else ()
            discard = turn.discard if turn is not None else None
            if turn is None and position.rules.discard:
                table, played, discard = position.table, (), max(position.hand)
            _, wall, cpu = _timed(lambda p=position, t=table, pl=played, d=discard: review(
                p, t, pl, d, time_limit=time_limit))
            rows["review"].append(wall)
            rows["review_cpu"].append(cpu)
        summary = {name: describe(values) if values else None for name, values in rows.items()}
        summary.update(positions=len(cases), top3_all_proved=proved, top3_found_3=found3,
                       top3_unsupported=unsupported)
        results[path.stem] = summary
        print(_line(path.stem, summary), flush=True)
    return results


def _ms(stats: dict[str, float] | None, key: str) -> str:
    return "-" if not stats else f"{stats[key]:.0f}"


def _line(suite: str, s: dict[str, Any]) -> str:
    parts = [f"{suite:18}"]
    for name in ("top1", "top3", "review"):
        parts.append(f"{name} {_ms(s[name], 'median')}/{_ms(s[name], 'p95')} ms "
                     f"(cpu {_ms(s[name + '_cpu'], 'median')}/{_ms(s[name + '_cpu'], 'p95')})")
    parts.append(f"top3 proved {s['top3_all_proved']}/{s['positions'] - s['top3_unsupported']}"
                 f", unsupported {s['top3_unsupported']}")
    return "  ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("pattern", nargs="?", default="*")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--json", default=None)
    parser.add_argument("--positions", type=int, default=None,
                        help="the first N positions of each suite (default: all)")
    args = parser.parse_args()
    print("suite  median/p95 wall ms (cpu median/p95), interleaved per position", flush=True)
    results = run(args.pattern, args.time_limit, args.positions)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
