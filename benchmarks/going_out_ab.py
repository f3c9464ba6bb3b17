"""Rami fou before and after its going-out fast path (rami/solver/rearrange/going_out.py).

    python benchmarks/going_out_ab.py                     # rami-fou-*, full objective, ABBA
    python benchmarks/going_out_ab.py --suites 'rami-fou-100' --rounds 2

One process; per position the sides run A B B A (``--rounds`` times): A with the fast path
switched off (``stages.go_out_in_place`` answering None: exactly the code before it), B as
shipped. Each side keeps its fastest wall time and its CPU time of that solve. Both sides must
give the same penalty, cards played, cards moved and status (exit 1 otherwise). Prints a
markdown table per suite: median, p95, p99, max of wall and CPU ms, and how often the fast
path answered. ``wall_clock=False``: the answers do not depend on the load.
"""

from __future__ import annotations

import argparse
import sys
import time

import benchlib

import rami.solver.rearrange.stages as stages
from rami.position import Position
from rami.solver.api import solve
from rami.solver.rearrange.going_out import go_out_in_place

SHIPPED = stages.go_out_in_place


def side(position: Position, fast_path: bool) -> tuple[float, float, tuple]:
    stages.go_out_in_place = SHIPPED if fast_path else (lambda position: None)
    wall, cpu = time.perf_counter(), time.process_time()
    solution = solve(position, wall_clock=False)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    levels = (solution.penalty_after, solution.cards_played, solution.cards_moved,
              solution.status.value)
    return wall * 1000, cpu * 1000, levels


def figures(values: list[float]) -> str:
    return " / ".join(f"{benchlib.percentile(values, q):.0f}" for q in (50, 95, 99, 100))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suites", default="rami-fou-*")
    parser.add_argument("--rounds", type=int, default=1, help="ABBA rounds per position")
    args = parser.parse_args(argv)
    different = 0
    print("| suite | n | fast path answers | A wall median / p95 / p99 / max | B wall | "
          "A CPU | B CPU |")
    print("|---|---|---|---|---|---|---|")
    for path in benchlib.suite_paths(args.suites):
        cases = benchlib.load_suite(path)
        side(cases[0].position, True)  # warm
        best: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        answered = 0
        for case in cases:
            answered += go_out_in_place(case.position) is not None
            fastest: dict[bool, tuple[float, float]] = {}
            levels = {}
            for _ in range(args.rounds):
                for fast_path in (False, True, True, False):
                    wall, cpu, levels[fast_path] = side(case.position, fast_path)
                    if fast_path not in fastest or wall < fastest[fast_path][0]:
                        fastest[fast_path] = (wall, cpu)
            if levels[False] != levels[True]:
                different += 1
                print(f"different answers: {case.label}: {levels[False]} / {levels[True]}",
                      file=sys.stderr)
            for fast_path in (False, True):
                best[fast_path].append(fastest[fast_path])
        row = [path.stem, str(len(cases)), f"{answered}"]
        for kind in (0, 1):
            row += [figures([timing[kind] for timing in best[fast_path]])
                    for fast_path in (False, True)]
        print("| " + " | ".join(row) + " |")
    stages.go_out_in_place = SHIPPED
    print(f"ms per position, the fastest of {2 * args.rounds} solves per side")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
