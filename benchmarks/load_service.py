"""Load test of the HTTP service: N concurrent clients, solves with malformed requests mixed in.

    python benchmarks/load_service.py --requests 400 --concurrency 8 [--json out.json]
    python benchmarks/load_service.py --duration 60 --concurrency 16 --workers 2
    python benchmarks/load_service.py --scenario idle|kill|disconnect|soak

Scenarios (docs/service.md; loopback only, every loop bounded in count and time): ``idle`` holds
``--idle-sockets`` silent sockets and ``--slow-senders`` slow senders while ``/health`` is timed;
``kill`` kills -9 the supervisor of a 2-worker server and restarts it on the same port;
``disconnect`` has clients leave mid-solve and times until their solver process is gone;
``soak`` is the closed loop (``--duration``, 600 s by default) with the memory of the server's
process tree sampled every 10 s.

Starts the real server (``python -m rami.service``, what ``rami serve`` runs) on a free loopback
port, sends ``--requests`` requests from ``--concurrency`` keep-alive clients, stops by itself
(after the last request, or once ``--max-seconds`` pass), shuts the server down and prints:
requests/s, latency percentiles, error count (answers other than the expected one), lost
requests (no HTTP answer at all: must be 0), how fast ``/health`` answered during the load, and
that it still answers after. Exit status 0 only when nothing is lost, nothing unexpected came
back and ``/health`` answered throughout.

Solve requests are mid-size positions: ``random_position(random.Random(seed),
rules=get_ruleset("rami-chinois"), table_cards=40, hand_cards=10, jokers=2, opened=True)``.
Every ``--malformed-every``-th request is bad input of one of several kinds, each with the 4xx
status it must get.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import urllib.parse
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from load_client import (
    Outcome,
    Report,
    load_average,
    percentiles,
    plan,
    probe_health,
    run_load,
    usable_cpus,
)
from load_scenarios import (
    _proc_memory_mb,
    print_memory,
    scenario_disconnect,
    scenario_idle,
    scenario_kill,
    tree_memory_mb,
)

from rami import __version__
from rami.service.testing import BackgroundServer, ServerProcess


def summarize(
    outcomes: list[Outcome],
    planned_count: int,
    concurrency: int,
    elapsed: float,
    stopped_early: bool,
    health_during: dict[str, float],
    health_after: tuple[bool, float],
    server: dict[str, Any],
) -> Report:
    answered = [o for o in outcomes if o.status is not None]
    solves = [o for o in answered if o.kind == "solve"]
    malformed = [o for o in answered if o.kind != "solve"]
    errors = [o for o in answered if o.problem or o.status != o.expected]
    lost = [o for o in outcomes if o.status is None]
    if stopped_early:
        lost_note = f"stopped after --max-seconds: {planned_count - len(outcomes)} not sent"
    else:
        lost_note = ""
    problems = [f"{o.kind}: {o.problem}" for o in (errors + lost)[:20]]
    if lost_note:
        problems.append(lost_note)
    return Report(
        requests=len(outcomes),
        concurrency=concurrency,
        seconds=round(elapsed, 3),
        requests_per_second=round(len(answered) / elapsed, 1) if elapsed else 0.0,
        solve_requests=sum(o.kind == "solve" for o in outcomes),
        malformed_requests=sum(o.kind != "solve" for o in outcomes),
        latency_ms=percentiles([o.seconds for o in answered]),
        solve_latency_ms=percentiles([o.seconds for o in solves]),
        malformed_latency_ms=percentiles([o.seconds for o in malformed]),
        statuses={str(k): v for k, v in sorted(Counter(o.status for o in answered).items())},
        solve_statuses=dict(Counter(o.solve_status or "error" for o in solves)),
        errors=len(errors),
        lost=len(lost),
        reconnects=sum(o.retried for o in outcomes),
        stopped_early=stopped_early,
        health_during=health_during,
        health_after_ok=health_after[0],
        health_after_ms=round(health_after[1] * 1000, 1),
        server=server,
        machine={
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": usable_cpus(),
            "load_average_1min": load_average(),
            "rami": __version__,
        },
        problems=problems,
    )


def print_report(report: Report) -> None:
    def line(name: str, value: object) -> None:
        print(f"  {name:<28} {value}")

    def lat(values: dict[str, float]) -> str:
        if not values:
            return "-"
        return " / ".join(f"{values[k]:.1f}" for k in ("p50", "p90", "p99", "max")) + " ms"

    print("rami service load test")
    line("server", ", ".join(f"{k}={v}" for k, v in report.server.items()))
    line(
        "machine",
        f"{report.machine['cpus']} CPUs, Python {report.machine['python']}, "
        f"load average {report.machine['load_average_1min']}",
    )
    line(
        "requests (solve + malformed)",
        f"{report.requests} ({report.solve_requests} + {report.malformed_requests})",
    )
    line("concurrency", report.concurrency)
    line("wall time", f"{report.seconds:.2f} s")
    line("throughput", f"{report.requests_per_second:.1f} requests/s")
    line("latency p50/p90/p99/max", lat(report.latency_ms))
    line("  solve", lat(report.solve_latency_ms))
    line("  malformed", lat(report.malformed_latency_ms))
    line("HTTP statuses", ", ".join(f"{k}: {v}" for k, v in report.statuses.items()))
    line("solve statuses", ", ".join(f"{k}: {v}" for k, v in report.solve_statuses.items()))
    line("errors (unexpected answers)", report.errors)
    line("lost requests", report.lost)
    line("reconnects (retried once)", report.reconnects)
    during = report.health_during
    line(
        "/health during load",
        f"{during.get('checks', 0)} checks, {during.get('failures', 0)} failed, "
        f"p50 {during.get('p50_ms', '-')} ms, p99 {during.get('p99_ms', '-')} ms, "
        f"max {during.get('max_ms', '-')} ms",
    )
    line(
        "/health after",
        f"{'ok' if report.health_after_ok else 'FAILED'} ({report.health_after_ms:.1f} ms)",
    )
    if report.stopped_early:
        line("stopped early", "yes (--max-seconds)")
    for problem in report.problems:
        print(f"  ! {problem}")
    print("PASS" if report.passed else "FAIL")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400, help="requests in all (default 400)")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients (8)")
    parser.add_argument(
        "--malformed-every",
        type=int,
        default=10,
        metavar="N",
        help="every Nth request is malformed (10; 0 for none)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=2.0,
        help="time_limit of each solve request, seconds (2.0)",
    )
    parser.add_argument("--seed", type=int, default=0, help="first seed of the positions (0)")
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=300.0,
        help="stop sending after this many seconds (300)",
    )
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="client timeout per request, seconds (120)"
    )
    parser.add_argument(
        "--solver-processes",
        type=int,
        default=2,
        help="server solver processes per worker (RAMI_SERVICE_SOLVER_PROCESSES, 2)",
    )
    parser.add_argument(
        "--duration",
        type=float,
        default=None,
        metavar="S",
        help="closed loop for S seconds (requests sent round and round) instead of --requests once",
    )
    parser.add_argument(
        "--scenario",
        default="load",
        choices=["load", "idle", "kill", "disconnect", "soak"],
        help="load (default); idle: idle sockets and slow senders held while "
        "/health is timed; kill: kill -9 of a 2-worker server, then a restart; "
        "disconnect: clients that leave mid-solve; soak: a closed loop with "
        "the server's memory sampled",
    )
    parser.add_argument(
        "--idle-sockets", type=int, default=1000, help="idle scenario: silent sockets held (1000)"
    )
    parser.add_argument(
        "--slow-senders",
        type=int,
        default=300,
        help="idle scenario: sockets sending headers a byte a second (300)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="kill and disconnect scenarios: trials (3; disconnect: x3)",
    )
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (1)")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="run the server in a thread of this process instead of a child",
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.concurrency < 1:
        parser.error("--requests and --concurrency must be 1 or more")

    from rami.service.settings import Settings

    settings = Settings(solver_processes=args.solver_processes)
    if args.scenario != "load" and args.scenario != "soak":
        scenario = {
            "idle": scenario_idle,
            "kill": scenario_kill,
            "disconnect": scenario_disconnect,
        }[args.scenario]
        figures = scenario(args, settings)
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        return 0 if figures.get("passed") else 1
    planned = plan(
        min(args.requests, 640) if args.duration else args.requests,
        args.seed,
        args.malformed_every,
        args.time_limit,
        settings.max_body_bytes,
    )
    server_info = {
        "mode": "thread" if args.in_process else "process",
        "workers": 1 if args.in_process else args.workers,
        "solver_processes": args.solver_processes,
        "time_limit": args.time_limit,
    }
    memory: list[tuple[float, float, float]] = []
    if args.scenario == "soak" and args.duration is None:
        args.duration = 600.0
    if args.in_process:
        from rami.service import create_app

        server: BackgroundServer | ServerProcess = BackgroundServer(create_app(settings))
    else:
        server = ServerProcess(workers=args.workers, env=settings.to_env())
    with server:
        started = time.monotonic()
        pid = getattr(server, "pid", None) or os.getpid()

        def sample() -> None:
            memory.append(
                (
                    round(time.monotonic() - started, 1),
                    tree_memory_mb(pid),
                    round(_proc_memory_mb(pid), 1),
                )
            )

        outcomes, elapsed, stopped_early, during = run_load(
            server.url,
            planned,
            args.concurrency,
            args.max_seconds,
            args.timeout,
            duration=args.duration,
            sample=sample if args.scenario == "soak" else None,
        )
        parts = urllib.parse.urlsplit(server.url)
        after = probe_health(parts.hostname or "127.0.0.1", parts.port or 80)
    report = summarize(
        outcomes, len(planned), args.concurrency, elapsed, stopped_early, during, after, server_info
    )
    print_report(report)
    if memory:
        print_memory(memory)
    if args.json:
        data = {**asdict(report), "passed": report.passed, "memory_mb": memory}
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
