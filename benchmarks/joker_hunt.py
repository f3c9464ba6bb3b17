"""Hunt for the hardest full-objective turns of issue 21: joker-heavy rami chinois tables.

    python benchmarks/joker_hunt.py --positions 4000 --workers 2 --out hunt.jsonl

Draws random positions (:func:`rami.generate.random_position`, seeds ``"joker-hunt:<i>"``, the
same positions on every machine): rami chinois with its 4 jokers, tables of 50-60 cards, hands
of 9-16, opened. Each is solved as ``rami solve`` does by default (points, fewest cards moved
last) in two passes: a screen with a deterministic limit (``--screen`` seconds of CP-SAT's
deterministic time, no wall clock, so that which positions pass does not depend on the load),
then every position the screen left unproved again with the default limit of 10 s on the wall
clock, as a user would wait for it. Prints how many positions each pass left unproved, the
tail of the screen's deterministic times, and writes each position the screen did not prove
(with both passes' results) to ``--out``.

    python benchmarks/joker_hunt.py --again hunt.jsonl --limit 10 [--deterministic]

solves the positions of such a file again, one at a time (``--deterministic``: the limit in
CP-SAT's deterministic seconds, no wall clock, so the outcome does not depend on the load).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from rami.generate import random_position
from rami.notation import position_to_json
from rami.position import Position
from rami.rules import get_ruleset

TABLE_CARDS = range(50, 61)
HAND_CARDS = range(9, 17)
JOKERS = 4
DEFAULT_LIMIT_S = 10.0


def draw(index: int) -> Position:
    rules = get_ruleset("rami-chinois")
    for attempt in range(100):
        rng = random.Random(f"joker-hunt:{index}:{attempt}")
        try:
            return random_position(
                rng, rules=rules, table_cards=rng.choice(TABLE_CARDS),
                hand_cards=rng.choice(HAND_CARDS), jokers=JOKERS,
            )
        except ValueError:
            continue
    raise RuntimeError(f"no position drawn for index {index}")


def _solve(position: Position, limit: float, wall_clock: bool) -> dict[str, Any]:
    from rami import solve

    started = time.perf_counter()
    solution = solve(position, time_limit=limit, wall_clock=wall_clock)
    return {
        "status": solution.status.value,
        "wall_s": round(time.perf_counter() - started, 3),
        "dtime": round(solution.timings.get("search_dtime", 0.0), 4),
        "cards_moved": solution.cards_moved,
        "played": len(solution.played),
        "bounds": solution.bounds,
    }


def screen(job: tuple[int, float]) -> dict[str, Any]:
    index, limit = job
    position = draw(index)
    result = _solve(position, limit, wall_clock=False)
    jokers_on_table = sum(meld.jokers for meld in position.table)
    return {"index": index, "table": position.table_size, "hand": len(position.hand),
            "table_jokers": jokers_on_table, "screen": result}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--first", type=int, default=0, help="index of the first position")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--screen", type=float, default=1.0,
                        help="the screen's deterministic limit, seconds (default 1)")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--again", type=Path, default=None,
                        help="solve the positions of this --out file again instead")
    parser.add_argument("--limit", type=float, default=DEFAULT_LIMIT_S)
    parser.add_argument("--deterministic", action="store_true")
    args = parser.parse_args(argv)
    if args.again is not None:
        return again(args.again, args.limit, not args.deterministic)
    jobs = [(index, args.screen) for index in range(args.first, args.first + args.positions)]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        screened = list(pool.map(screen, jobs, chunksize=8))
    screen_s = time.perf_counter() - started
    dtimes = sorted(row["screen"]["dtime"] for row in screened)
    unproved = [row for row in screened if row["screen"]["status"] != "optimal"]
    print(f"{len(screened)} positions screened in {screen_s:.0f} s ({args.workers} workers); "
          f"deterministic time median {statistics.median(dtimes):.3f}, "
          f"p99 {dtimes[int(0.99 * (len(dtimes) - 1))]:.3f}, max {dtimes[-1]:.3f}")
    print(f"unproved within {args.screen:g} s of deterministic time: {len(unproved)}")
    for row in unproved:
        # One at a time, as a user waits for an answer: the wall clock of the default limit.
        position = draw(row["index"])
        row["default"] = _solve(position, DEFAULT_LIMIT_S, wall_clock=True)
        row["position"] = position_to_json(position)
        print(json.dumps({key: row[key] for key in
                          ("index", "table", "hand", "table_jokers", "screen", "default")}))
        sys.stdout.flush()
    still = [row for row in unproved if row["default"]["status"] != "optimal"]
    print(f"unproved within the default limit ({DEFAULT_LIMIT_S:g} s wall): {len(still)} "
          f"of {len(screened)}")
    if args.out is not None:
        with args.out.open("w") as out:
            for row in unproved:
                out.write(json.dumps(row) + "\n")
    return 0


def again(path: Path, limit: float, wall_clock: bool) -> int:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    proved = 0
    for row in rows:
        result = _solve(draw(row["index"]), limit, wall_clock)
        proved += result["status"] == "optimal"
        print(json.dumps({"index": row["index"], "table": row["table"], "hand": row["hand"],
                          "table_jokers": row["table_jokers"], "again": result}))
        sys.stdout.flush()
    clock = "wall" if wall_clock else "deterministic"
    print(f"proved within {limit:g} s ({clock}): {proved} of {len(rows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
