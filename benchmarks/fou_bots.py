"""Rami fou's max-play as its bots ask it: positions captured from seeded expert self-play.

    python benchmarks/fou_bots.py                     # time the shipped sample
    python benchmarks/fou_bots.py --json out.json     # and write each solve's figures
    python benchmarks/fou_bots.py --capture 2 --seed 5 --out positions.jsonl

The sample (``benchmarks/results/rami-fou-bot-positions.jsonl``) holds every third position,
opened with jokers on the table, whose solve took more than 20 ms in games 1-2 of
``rami simulate --rules rami-fou --players expert,expert,expert --seed 5`` at commit 85bfa92
(290 positions; ``--capture`` draws such a sample again, from the code that runs it: another
version plays other games). Each is solved once as the bots solve it
(``min_moves=False``, 1 s of deterministic time, ``wall_clock=False``); the script prints the
deterministic time (the same on every machine and load), the CPU time and the unproved count.
Compare two versions by running it from each one's checkout.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import benchlib

from rami.notation import position_from_json, position_to_json
from rami.solver.api import solve

SAMPLE = Path(__file__).parent / "results" / "rami-fou-bot-positions.jsonl"
#: The bots' limit (rami.game.bots.SOLVER_TIME_LIMIT).
TIME_LIMIT = 1.0


def capture(games: int, seed: int, out: Path) -> int:
    import rami.solver.api as api
    from rami.game.simulate import Simulation, run_game

    real = api.solve
    kept: list[dict[str, Any]] = []

    def timed(position, **kwargs):  # type: ignore[no-untyped-def]
        started = time.perf_counter()
        solution = real(position, **kwargs)
        if (position.opened and any(meld.jokers for meld in position.table)
                and time.perf_counter() - started > 0.02):
            kept.append(position_to_json(position))
        return solution

    api.solve = timed
    simulation = Simulation("rami-fou", ("expert",) * 3, games + 1, seed).checked()
    for index in range(1, games + 1):
        run_game(simulation, index)
    with out.open("w", encoding="utf-8") as lines:
        for position in kept[::3]:
            lines.write(json.dumps(position) + "\n")
    print(f"{len(kept[::3])} positions written to {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=Path, default=SAMPLE)
    parser.add_argument("--json", type=Path, help="write each solve's figures here")
    parser.add_argument("--capture", type=int, metavar="GAMES",
                        help="draw a sample from GAMES seeded games instead of timing one")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--out", type=Path, default=Path("rami-fou-bot-positions.jsonl"))
    args = parser.parse_args(argv)
    if args.capture:
        return capture(args.capture, args.seed, args.out)
    with args.positions.open(encoding="utf-8") as lines:
        positions = [position_from_json(json.loads(line)) for line in lines if line.strip()]
    rows = []
    for index, position in enumerate(positions):
        cpu = time.process_time()
        solution = solve(position, min_moves=False, time_limit=TIME_LIMIT, wall_clock=False)
        rows.append({
            "index": index, "cpu_ms": (time.process_time() - cpu) * 1000,
            "dtime": solution.timings["search_dtime"], "penalty": solution.penalty_after,
            "played": solution.cards_played, "status": solution.status.value,
        })
    dtimes = [row["dtime"] for row in rows]
    cpus = [row["cpu_ms"] for row in rows]
    print(f"{len(rows)} positions: deterministic s sum {sum(dtimes):.2f}, median "
          f"{benchlib.percentile(dtimes, 50):.3f}, p95 {benchlib.percentile(dtimes, 95):.3f}; "
          f"CPU s sum {sum(cpus) / 1000:.1f}, median ms {benchlib.percentile(cpus, 50):.0f}, "
          f"p95 {benchlib.percentile(cpus, 95):.0f}; unproved "
          f"{sum(row['status'] != 'optimal' for row in rows)}")
    if args.json:
        args.json.write_text(json.dumps(rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
