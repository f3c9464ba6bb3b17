"""rami against the anchor: ``rummikub-solver`` 1.0.0 with GLPK_MI, max tiles.

    pip install -e '.[anchor]'           # the anchor (benchmark-only extra)
    python benchmarks/anchor.py          # 60 positions, best of 3, interleaved
    python benchmarks/anchor.py --per-bucket 24 --rounds 5 --json out.json

The positions are the kind such solvers are tested on: random legal Rummikub tables of 20, 40,
60, 80 and 100 tiles, racks of 14 to 20 tiles (at most what the tiles leave: 4 to 6 beside a
100-tile table), up to 2 jokers, drawn from string seeds (the same positions on every machine,
:func:`rami.generate.random_position`). Each position is solved by
both, warm and in this process, in turns (anchor first on even rounds, rami first on odd ones),
and each keeps its best time of the rounds. rami runs ``rami.solve(position, objective="cards",
min_moves=False)``: model build, search and the referee's check, the ``ms`` of ``rami solve
--batch --objective cards --no-min-moves``; the anchor ``RuleSet.solve(state)`` (its models are
built once, at construction, as in its own use). Both must play the same number of tiles: a
difference is printed and fails the run (exit 1).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rami.cards import Card
from rami.generate import random_position
from rami.position import Position
from rami.rules import get_ruleset

TABLE_SIZES = (20, 40, 60, 80, 100)
RACKS = range(14, 21)
JOKERS = (0, 1, 2)
#: Tiles in Rummikub: two of each of 52, and its 2 jokers.
DECK = 104


@dataclass
class Timing:
    table: int
    rack: int
    anchor_ms: float
    rami_ms: float
    anchor_tiles: int
    rami_tiles: int


def positions(per_bucket: int) -> list[Position]:
    rules = get_ruleset("rummikub")
    found = []
    for table in TABLE_SIZES:
        for index in range(per_bucket):
            for attempt in range(200):
                rng = random.Random(f"anchor:{table}:{index}:{attempt}")
                jokers = JOKERS[index % len(JOKERS)]
                # A 100-tile table leaves at most 4-6 tiles for the rack.
                rack = min(rng.choice(RACKS), DECK + jokers - table)
                try:
                    found.append(
                        random_position(
                            rng,
                            rules=rules,
                            table_cards=table,
                            hand_cards=rack,
                            jokers=jokers,
                        )
                    )
                    break
                except ValueError:
                    continue
            else:
                raise RuntimeError(f"no position of {table} tiles drawn for index {index}")
    return found


class Anchor:
    """rummikub-solver with GLPK_MI, the rules of rami's Rummikub preset."""

    def __init__(self) -> None:
        try:
            from rummikub_solver import MILPSolver, RuleSet
        except ImportError:
            sys.exit("the anchor is not installed: pip install -e '.[anchor]'")
        self.ruleset = RuleSet(
            numbers=13,
            repeats=2,
            colours=4,
            jokers=2,
            min_len=3,
            min_initial_value=30,
            solver_backend=MILPSolver.GLPK_MI,
        )
        self.joker = self.ruleset.tiles[-1]

    def tile(self, card: Card) -> int:
        if card.is_joker:
            return int(self.joker)
        return card.index + 1  # both number a suit's 13 cards from the ace, suit by suit

    def state(self, position: Position):  # type: ignore[no-untyped-def]
        state = self.ruleset.new_game()
        state.initial = not position.opened
        state.add_table(*(self.tile(card) for meld in position.table for card in meld.cards))
        state.add_rack(*(self.tile(card) for card in position.hand))
        return state

    def tiles_played(self, position: Position) -> tuple[float, int]:
        state = self.state(position)
        start = time.perf_counter()
        proposal = self.ruleset.solve(state)
        elapsed = (time.perf_counter() - start) * 1000
        return elapsed, 0 if proposal is None else len(proposal.tiles)


def rami_played(position: Position) -> tuple[float, int]:
    from rami.solver.api import solve

    start = time.perf_counter()
    solution = solve(position, objective="cards", min_moves=False)
    elapsed = (time.perf_counter() - start) * 1000
    return elapsed, solution.cards_played


def measure(found: list[Position], rounds: int) -> list[Timing]:
    anchor = Anchor()
    # Warm both: imports, the anchor's models, rami's prebuilt max-play model.
    anchor.tiles_played(found[0])
    rami_played(found[0])
    timings = []
    for position in found:
        best_anchor = best_rami = float("inf")
        anchor_tiles = rami_tiles = -1
        for round_number in range(rounds):
            order = (0, 1) if round_number % 2 == 0 else (1, 0)
            for which in order:
                if which == 0:
                    ms, anchor_tiles = anchor.tiles_played(position)
                    best_anchor = min(best_anchor, ms)
                else:
                    ms, rami_tiles = rami_played(position)
                    best_rami = min(best_rami, ms)
        timings.append(
            Timing(
                position.table_size,
                len(position.hand),
                best_anchor,
                best_rami,
                anchor_tiles,
                rami_tiles,
            )
        )
    return timings


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(timings: list[Timing]) -> dict[str, dict[str, float]]:
    table: dict[str, dict[str, float]] = {}
    for size in TABLE_SIZES:
        bucket = [t for t in timings if t.table == size]
        ratios = [t.anchor_ms / t.rami_ms for t in bucket]
        table[str(size)] = {
            "positions": len(bucket),
            "anchor_median_ms": statistics.median(t.anchor_ms for t in bucket),
            "rami_median_ms": statistics.median(t.rami_ms for t in bucket),
            "rami_p95_ms": quantile([t.rami_ms for t in bucket], 0.95),
            "rami_max_ms": max(t.rami_ms for t in bucket),
            "ratio_median": statistics.median(ratios),
            "ratio_min": min(ratios),
        }
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-bucket", type=int, default=12, help="positions per table size")
    parser.add_argument("--rounds", type=int, default=3, help="runs per position (best kept)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    timings = measure(positions(args.per_bucket), args.rounds)
    different = [t for t in timings if t.anchor_tiles != t.rami_tiles]
    table = report(timings)
    print(
        f"{'tiles':>5} {'n':>3} {'anchor ms':>10} {'rami ms':>8} {'rami p95':>9} "
        f"{'rami max':>9} {'anchor/rami':>12} {'worst':>6}"
    )
    for size, row in table.items():
        print(
            f"{size:>5} {row['positions']:>3} {row['anchor_median_ms']:>10.2f} "
            f"{row['rami_median_ms']:>8.2f} {row['rami_p95_ms']:>9.2f} "
            f"{row['rami_max_ms']:>9.2f} {row['ratio_median']:>12.2f} "
            f"{row['ratio_min']:>6.2f}"
        )
    rami_all = [t.rami_ms for t in timings]
    print(
        f"rami over all {len(timings)}: median {statistics.median(rami_all):.2f} ms, "
        f"p99 {quantile(rami_all, 0.99):.2f} ms"
    )
    for t in different:
        print(
            f"different tiles played: table {t.table}, rack {t.rack}: "
            f"anchor {t.anchor_tiles}, rami {t.rami_tiles}"
        )
    if args.json:
        args.json.write_text(
            json.dumps({"buckets": table, "timings": [t.__dict__ for t in timings]}, indent=1)
            + "\n"
        )
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main())
