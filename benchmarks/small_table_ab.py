"""Issue 21, second round: rami before and after the small-table path, beside the anchor.

    python benchmarks/small_table_ab.py                  # 24 positions per bucket, best of 3
    python benchmarks/small_table_ab.py --per-bucket 12 --rounds 5

The positions of ``benchmarks/anchor.py``; per position three sides in one process, in an order
that rotates by round: the anchor (``rummikub-solver`` + GLPK_MI), rami with the GLPK path off
(``stages.SMALL_TABLE_CARDS = -1``: CP-SAT everywhere, the code before it) and rami as shipped.
Each keeps its best time. Both rami sides must give the same cards played, penalty and status,
and the anchor the same number of tiles (exit 1 otherwise). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from anchor import Anchor, positions, quantile

import rami.solver.rearrange.stages as stages
from rami.position import Position
from rami.solver.api import solve

SIDES = ("anchor", "before", "after")


def rami_side(position: Position, small_table: int) -> tuple[float, tuple[int, int, str]]:
    stages.SMALL_TABLE_CARDS = small_table
    start = time.perf_counter()
    solution = solve(position, objective="cards", min_moves=False)
    elapsed = (time.perf_counter() - start) * 1000
    return elapsed, (solution.cards_played, solution.penalty_after, solution.status.value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-bucket", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    found = positions(args.per_bucket)
    shipped = stages.SMALL_TABLE_CARDS
    anchor = Anchor()
    anchor.tiles_played(found[0])
    rami_side(found[0], shipped)
    rows: list[tuple[int, dict[str, float]]] = []
    wrong = 0
    for position in found:
        best = dict.fromkeys(SIDES, float("inf"))
        answers: dict[str, object] = {}
        for round_number in range(args.rounds):
            shift = round_number % len(SIDES)
            for side in SIDES[shift:] + SIDES[:shift]:
                if side == "anchor":
                    ms, answers[side] = anchor.tiles_played(position)
                else:
                    ms, answers[side] = rami_side(position, -1 if side == "before" else shipped)
                best[side] = min(best[side], ms)
        after = answers["after"]
        if answers["before"] != after or not isinstance(after, tuple) or (
            answers["anchor"] != after[0]
        ):
            wrong += 1
            print(f"different answers, {position.table_size} tiles: {answers}")
        rows.append((position.table_size, best))
    stages.SMALL_TABLE_CARDS = shipped
    print("| tiles | n | anchor median | before median / p95 / p99 | after median / p95 / p99 "
          "| anchor/before | anchor/after |")
    print("|---|---|---|---|---|---|---|")
    every: dict[str, list[float]] = {"before": [], "after": []}
    for size in sorted({size for size, _ in rows}):
        bucket = [best for table, best in rows if table == size]

        def spread(side: str, bucket: list[dict[str, float]] = bucket) -> str:
            times = [best[side] for best in bucket]
            return (f"{statistics.median(times):.2f} / {quantile(times, 0.95):.2f} / "
                    f"{quantile(times, 0.99):.2f}")

        ratio = {side: statistics.median(best["anchor"] / best[side] for best in bucket)
                 for side in every}
        print(f"| {size} | {len(bucket)} | "
              f"{statistics.median(best['anchor'] for best in bucket):.2f} | "
              f"{spread('before')} | {spread('after')} | {ratio['before']:.2f} | "
              f"{ratio['after']:.2f} |")
        for side, times in every.items():
            times.extend(best[side] for best in bucket)
    for side, times in every.items():
        print(f"{side}: median {statistics.median(times):.2f} ms, p95 "
              f"{quantile(times, 0.95):.2f}, p99 {quantile(times, 0.99):.2f}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
