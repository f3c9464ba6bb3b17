"""Rami fou's pinned slot models with the LP at level 1 (A) and at level 2 (B, as shipped).

    python benchmarks/pinned_lp_ab.py                       # rami-fou-*, full objective, ABBA
    python benchmarks/pinned_lp_ab.py --random 150          # 150 random positions with table jokers
    python benchmarks/pinned_lp_ab.py --suites 'rami-fou-060' --rounds 2

One process; per position the sides run A B B A (``--rounds`` times): A with
``pinned.pinned_solver`` replaced by the stages' profile (the LP setting before
``cpsat.pinned_solver``; the models are today's, the play value and the cards kept folded into
one objective, so A is not the whole code before that change), B as shipped. Only positions with
jokers on the table are timed (the others never reach the pinned models). Each side keeps its
fastest wall time, the CPU time of that solve and its CP-SAT deterministic time (the same on
every run). Both sides must give the same penalty and cards played, and where both are proved
the same cards moved (exit 1 otherwise). ``wall_clock=False``: the answers do not depend on the
load. The random positions (``--random N``): rami fou, tables of 20-60 cards, hands of 8-15, 2-4
jokers, opened, drawn from the seeds ``pinned-lp:<k>``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import benchlib

import rami.solver.rearrange.pinned as pinned
from rami.generate import random_position
from rami.position import Position
from rami.rules import get_ruleset
from rami.solver.api import solve
from rami.solver.cpsat import pinned_solver, stage_solver

SIDES: dict[str, Callable] = {"A": stage_solver, "B": pinned_solver}


def side(position: Position, name: str) -> tuple[float, float, float, tuple]:
    pinned.pinned_solver = SIDES[name]
    wall, cpu = time.perf_counter(), time.process_time()
    solution = solve(position, wall_clock=False)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    levels = (solution.penalty_after, solution.cards_played, solution.cards_moved,
              solution.status.value)
    return wall * 1000, cpu * 1000, solution.timings["search_dtime"] * 1000, levels


def figures(values: list[float]) -> str:
    return " / ".join(f"{benchlib.percentile(values, q):.0f}" for q in (50, 95, 99, 100))


def random_positions(count: int) -> list[Position]:
    rules = get_ruleset("rami-fou")
    found: list[Position] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(f"pinned-lp:{seed}")
        seed += 1
        table = rng.choice((20, 30, 40, 50, 60))
        hand, jokers = rng.randint(8, 15), rng.randint(2, 4)
        try:
            position = random_position(rng, rules=rules, table_cards=table, hand_cards=hand,
                                       jokers=jokers)
        except ValueError:
            continue
        if any(meld.jokers for meld in position.table):
            found.append(position)
    return found


def same(a: tuple, b: tuple) -> bool:
    if a[:2] != b[:2]:
        return False
    return a[2] == b[2] or not (a[3] == b[3] == "optimal")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suites", default="rami-fou-*")
    parser.add_argument("--random", type=int, default=0, help="random positions instead")
    parser.add_argument("--rounds", type=int, default=1, help="ABBA rounds per position")
    args = parser.parse_args(argv)
    if args.random:
        sets = [(f"random ({args.random})", random_positions(args.random))]
    else:
        sets = [(path.stem, [case.position for case in benchlib.load_suite(path)])
                for path in benchlib.suite_paths(args.suites)]
    different = 0
    print("| set | n | A wall median / p95 / p99 / max | B wall | A CPU | B CPU | A dtime | "
          "B dtime | unproved A / B |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, positions in sets:
        positions = [p for p in positions if any(meld.jokers for meld in p.table)]
        if not positions:
            continue
        side(positions[0], "A")  # warm
        best: dict[str, list[tuple[float, float, float]]] = {"A": [], "B": []}
        unproved = {"A": 0, "B": 0}
        for index, position in enumerate(positions):
            fastest: dict[str, tuple[float, float, float]] = {}
            levels = {}
            for _ in range(args.rounds):
                for name in ("A", "B", "B", "A"):
                    wall, cpu, dtime, levels[name] = side(position, name)
                    if name not in fastest or wall < fastest[name][0]:
                        fastest[name] = (wall, cpu, dtime)
            if not same(levels["A"], levels["B"]):
                different += 1
                print(f"different answers: {label}[{index}]: {levels['A']} / {levels['B']}",
                      file=sys.stderr)
            for name in ("A", "B"):
                best[name].append(fastest[name])
                unproved[name] += levels[name][3] != "optimal"
        row = [label, str(len(positions))]
        for kind in (0, 1, 2):
            row += [figures([timing[kind] for timing in best[name]]) for name in ("A", "B")]
        row.append(f"{unproved['A']} / {unproved['B']}")
        print("| " + " | ".join(row) + " |", flush=True)
    pinned.pinned_solver = pinned_solver
    print(f"ms per position, the fastest of {2 * args.rounds} solves per side")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
