"""Time limits as wall-clock promises (docs/solver.md): wall time of a solve against its limit,
under a parallel load.

    python benchmarks/wall_limit.py                       # limits 0.3 and 1 s, 2 busy loops
    python benchmarks/wall_limit.py --limits 1 5 --load 4 --suites 'rami-fou-*'
    python benchmarks/wall_limit.py --service --load 8    # /solve of a real rami serve

The promise: an answer within ``limit x 1.1 + 0.1`` s of wall time, whatever else the machine
runs. ``--load N`` starts N processes that only spin (on this 2-core machine, 2 of them take
every core the solver could have), for the whole run. The suites default to the slowest ones
(100-card and rami fou tables, full objective), where the limit is reached most often.
``--service`` sends each position to ``POST /solve`` of a ``rami serve`` process with one
solver process on the loopback, one request at a time, timed from send to answer. Exit 1 when
any solve breaks the promise.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import benchlib

from rami.notation import position_from_json

SUITES = Path(__file__).resolve().parent / "suites"
DEFAULT_SUITES = ("rami-chinois-100", "rami-fou-060", "rami-fou-100")

#: One timed solve: (position as JSON, limit) -> (status, stopped by the clock, where time went).
Solver = Callable[[dict[str, Any], float], tuple[str, bool, str]]


def _spin() -> None:
    while True:
        pass


def _in_process() -> Solver:
    from rami.solver.api import solve

    def run(data: dict[str, Any], limit: float) -> tuple[str, bool, str]:
        solution = solve(position_from_json(data), time_limit=limit)
        split = ", ".join(
            f"{name} {value:.0f}"
            for name, value in solution.timings.items()
            if name.endswith("_ms")
        )
        return solution.status.value, solution.stopped_by_clock, split

    return run


def _over_http(url: str) -> Solver:
    from rami.service.testing import post_json

    def run(data: dict[str, Any], limit: float) -> tuple[str, bool, str]:
        code, answer = post_json(url + "/solve", {"position": data, "time_limit": limit})
        if code != 200:
            return f"HTTP {code}", False, str(answer)
        return answer["status"], answer["status"] != "optimal", f"solve {answer['ms']:.0f} ms"

    return run


def main(argv: list[str] | None = None) -> int:
    from rami.solver.cpsat import PROMISE_FACTOR, PROMISE_S

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limits", type=float, nargs="+", default=[0.3, 1.0])
    parser.add_argument("--load", type=int, default=2, help="busy processes beside the solver")
    parser.add_argument(
        "--suites",
        nargs="+",
        default=list(DEFAULT_SUITES),
        help="suite names or globs ('rami-fou-*')",
    )
    parser.add_argument(
        "--service", action="store_true", help="solve through POST /solve of a rami serve process"
    )
    args = parser.parse_args(argv)
    paths = [path for pattern in args.suites for path in benchlib.suite_paths(pattern)]
    if not paths:
        parser.error(f"no suite matches {' '.join(args.suites)} in {SUITES}")
    positions = [
        (path.stem, index, json.loads(line))
        for path in paths
        for index, line in enumerate(path.read_text().splitlines())
    ]
    with ExitStack() as stack:
        if args.service:
            from rami.service.testing import ServerProcess

            server = stack.enter_context(ServerProcess(workers=1))
            solver = _over_http(server.url)
        else:
            solver = _in_process()
        solver(positions[0][2], 0.1)  # imports and prebuilt models, outside the timing
        burners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(args.load)]
        for burner in burners:
            burner.start()
        stack.callback(lambda: [burner.terminate() for burner in burners])
        broken = 0
        for limit in args.limits:
            promise = limit * PROMISE_FACTOR + PROMISE_S
            walls, cut = [], 0
            late = []
            for suite, index, data in positions:
                start = time.perf_counter()
                status, stopped, split = solver(data, limit)
                wall = time.perf_counter() - start
                walls.append(wall)
                cut += stopped
                if wall > promise:
                    late.append(f"{suite}[{index}] {wall:.2f} s ({split}; {status})")
            broken += len(late)
            walls.sort()
            print(
                f"{'service, ' if args.service else ''}limit {limit:g} s (promise "
                f"{promise:.2f} s), load {args.load}: {len(walls)} solves, median "
                f"{statistics.median(walls):.2f} s, p95 "
                f"{walls[round(0.95 * (len(walls) - 1))]:.2f} s, max {walls[-1]:.2f} s, "
                f"{'not optimal' if args.service else 'stopped by the clock'} {cut}, "
                f"late {len(late)}"
            )
            for line in late:
                print(f"  late: {line}")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
