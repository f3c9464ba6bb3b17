"""Load test of the HTTP service: N concurrent clients, solves with malformed requests mixed in.

    python benchmarks/load_service.py --requests 400 --concurrency 8 [--json out.json]

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
import http.client
import itertools
import json
import math
import os
import platform
import random
import statistics
import sys
import threading
import time
import urllib.parse
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from rami import __version__
from rami.generate import random_position
from rami.notation import position_to_json
from rami.rules import get_ruleset
from rami.service.testing import BackgroundServer, ServerProcess

JSON_HEADERS = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class Planned:
    kind: str  # "solve" or the malformed kind
    path: str
    body: bytes
    expected: int


@dataclass
class Outcome:
    kind: str
    status: int | None  # None: lost (no HTTP answer)
    expected: int
    seconds: float
    solve_status: str | None = None
    retried: bool = False
    problem: str = ""


@dataclass
class Report:
    requests: int
    concurrency: int
    seconds: float
    requests_per_second: float
    solve_requests: int
    malformed_requests: int
    latency_ms: dict[str, float]
    solve_latency_ms: dict[str, float]
    malformed_latency_ms: dict[str, float]
    statuses: dict[str, int]
    solve_statuses: dict[str, int]
    errors: int
    lost: int
    reconnects: int
    stopped_early: bool
    health_during: dict[str, float]
    health_after_ok: bool
    health_after_ms: float
    server: dict[str, Any] = field(default_factory=dict)
    machine: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return (
            self.lost == 0
            and self.errors == 0
            and self.health_after_ok
            and self.health_during.get("failures", 1) == 0
        )


def _positions(count: int, seed: int) -> list[dict[str, Any]]:
    rules = get_ruleset("rami-chinois")
    found: list[dict[str, Any]] = []
    for attempt in itertools.count(seed):
        if len(found) == count:
            return found
        try:
            position = random_position(random.Random(attempt), rules=rules, table_cards=40,
                                       hand_cards=10, jokers=2, opened=True)
        except ValueError:  # this seed could not deal the melds asked for: try the next
            continue
        found.append(position_to_json(position))
    raise AssertionError("unreachable")


def _malformed(position: dict[str, Any], max_body: int) -> list[Planned]:
    def body(data: Any) -> bytes:
        return json.dumps(data).encode()

    return [
        Planned("malformed-json", "/solve", b'{"position": {"hand": ["7H",]', 400),
        Planned("unknown-card", "/solve",
                body({"position": {**position, "hand": ["7H", "ZZ"]}}), 422),
        Planned("three-copies", "/hint",
                body({"position": {**position, "hand": ["KD", "KD", "KD"]}}), 422),
        Planned("unknown-ruleset", "/solve",
                body({"position": {**position, "rules": "rami-99"}}), 422),
        Planned("wrong-type", "/solve", body({"position": position, "time_limit": "soon"}), 422),
        Planned("bad-turn-card", "/validate-turn",
                body({"position": position, "table_after": [["3H", "4H", "5Q"]], "played": []}),
                422),
        Planned("too-large", "/solve", b'{"position": "' + b"x" * (max_body + 1) + b'"}', 413),
    ]


def plan(requests: int, seed: int, malformed_every: int, time_limit: float,
         max_body: int) -> list[Planned]:
    positions = _positions(min(requests, 64), seed)
    bad = _malformed(positions[0], max_body)
    planned = []
    bad_index = 0
    for index in range(requests):
        if malformed_every and index % malformed_every == malformed_every - 1:
            planned.append(bad[bad_index % len(bad)])
            bad_index += 1
            continue
        data = {"position": positions[index % len(positions)], "time_limit": time_limit}
        planned.append(Planned("solve", "/solve", json.dumps(data).encode(), 200))
    return planned


class Client:
    """One keep-alive connection; a request on a connection the server closed while idle is
    sent again once on a fresh connection (as browsers do), and counted."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host, self.port, self.timeout = host, port, timeout
        self.connection: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.connection is None:
            self.connection = http.client.HTTPConnection(self.host, self.port,
                                                         timeout=self.timeout)
        return self.connection

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def send(self, item: Planned) -> Outcome:
        started = time.perf_counter()
        retried = False
        for attempt in range(2):
            reused = self.connection is not None
            try:
                connection = self._connect()
                connection.request("POST", item.path, body=item.body, headers=JSON_HEADERS)
                response = connection.getresponse()
                payload = response.read()
                if response.will_close:
                    self.close()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as err:
                self.close()
                if reused and attempt == 0:
                    retried = True
                    continue
                return Outcome(item.kind, None, item.expected, time.perf_counter() - started,
                               retried=retried, problem=f"{type(err).__name__}: {err}")
            except (OSError, http.client.HTTPException) as err:
                self.close()
                return Outcome(item.kind, None, item.expected, time.perf_counter() - started,
                               retried=retried, problem=f"{type(err).__name__}: {err}")
            seconds = time.perf_counter() - started
            outcome = Outcome(item.kind, response.status, item.expected, seconds,
                              retried=retried)
            try:
                data = json.loads(payload)
            except ValueError:
                outcome.problem = f"not JSON: {payload[:80]!r}"
                return outcome
            if item.kind == "solve" and response.status == 200:
                outcome.solve_status = data.get("status")
            elif response.status != item.expected:
                outcome.problem = f"{response.status}: {data.get('error', data)}"
            elif "error" not in data or "field" not in data:
                outcome.problem = f"error body without error/field: {data}"
            return outcome
        raise AssertionError("unreachable")


def _percentiles(seconds: list[float]) -> dict[str, float]:
    if not seconds:
        return {}
    ordered = sorted(seconds)

    def rank(p: float) -> float:  # nearest-rank percentile
        return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)] * 1000

    return {
        "p50": round(rank(50), 1),
        "p90": round(rank(90), 1),
        "p99": round(rank(99), 1),
        "max": round(ordered[-1] * 1000, 1),
        "mean": round(statistics.fmean(ordered) * 1000, 1),
    }


def _health(host: str, port: int, timeout: float = 10.0) -> tuple[bool, float]:
    started = time.perf_counter()
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request("GET", "/health")
        response = connection.getresponse()
        ok = response.status == 200 and json.loads(response.read()).get("status") == "ok"
    except (OSError, http.client.HTTPException, ValueError):
        ok = False
    finally:
        connection.close()
    return ok, time.perf_counter() - started


def run_load(base_url: str, planned: list[Planned], concurrency: int, max_seconds: float,
             timeout: float) -> tuple[list[Outcome], float, bool, dict[str, float]]:
    parts = urllib.parse.urlsplit(base_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    outcomes: list[Outcome] = []
    lock = threading.Lock()
    next_index = itertools.count()
    stop_at = time.monotonic() + max_seconds
    stopped_early = threading.Event()
    done = threading.Event()
    health: list[tuple[bool, float]] = []

    def worker() -> None:
        client = Client(host, port, timeout)
        try:
            while True:
                index = next(next_index)
                if index >= len(planned):
                    return
                if time.monotonic() > stop_at:
                    stopped_early.set()
                    return
                outcome = client.send(planned[index])
                with lock:
                    outcomes.append(outcome)
        finally:
            client.close()

    def watch_health() -> None:
        while not done.wait(0.25):
            health.append(_health(host, port))

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, name=f"client-{n}") for n in range(concurrency)]
    watcher = threading.Thread(target=watch_health, name="health")
    watcher.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    done.set()
    watcher.join()
    latencies = [seconds for _, seconds in health]
    health_during = {
        "checks": len(health),
        "failures": sum(not ok for ok, _ in health),
        **{f"{key}_ms": value for key, value in _percentiles(latencies).items()
           if key in ("p50", "max")},
    }
    return outcomes, elapsed, stopped_early.is_set(), health_during


def summarize(outcomes: list[Outcome], planned_count: int, concurrency: int, elapsed: float,
              stopped_early: bool, health_during: dict[str, float], health_after: tuple[bool,
              float], server: dict[str, Any]) -> Report:
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
        latency_ms=_percentiles([o.seconds for o in answered]),
        solve_latency_ms=_percentiles([o.seconds for o in solves]),
        malformed_latency_ms=_percentiles([o.seconds for o in malformed]),
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
            "cpus": _cpus(),
            "load_average_1min": _load_average(),
            "rami": __version__,
        },
        problems=problems,
    )


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _load_average() -> float | None:
    """The machine's 1-minute load average at the end (other work skews the figures)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def print_report(report: Report) -> None:
    def line(name: str, value: object) -> None:
        print(f"  {name:<28} {value}")

    def lat(values: dict[str, float]) -> str:
        if not values:
            return "-"
        return " / ".join(f"{values[k]:.1f}" for k in ("p50", "p90", "p99", "max")) + " ms"

    print("rami service load test")
    line("server", ", ".join(f"{k}={v}" for k, v in report.server.items()))
    line("machine", f"{report.machine['cpus']} CPUs, Python {report.machine['python']}, "
                    f"load average {report.machine['load_average_1min']}")
    line("requests (solve + malformed)",
         f"{report.requests} ({report.solve_requests} + {report.malformed_requests})")
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
    line("/health during load",
         f"{during.get('checks', 0)} checks, {during.get('failures', 0)} failed, "
         f"p50 {during.get('p50_ms', '-')} ms, max {during.get('max_ms', '-')} ms")
    line("/health after", f"{'ok' if report.health_after_ok else 'FAILED'} "
                          f"({report.health_after_ms:.1f} ms)")
    if report.stopped_early:
        line("stopped early", "yes (--max-seconds)")
    for problem in report.problems:
        print(f"  ! {problem}")
    print("PASS" if report.passed else "FAIL")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=400, help="requests in all (default 400)")
    parser.add_argument("--concurrency", type=int, default=8, help="concurrent clients (8)")
    parser.add_argument("--malformed-every", type=int, default=10, metavar="N",
                        help="every Nth request is malformed (10; 0 for none)")
    parser.add_argument("--time-limit", type=float, default=2.0,
                        help="time_limit of each solve request, seconds (2.0)")
    parser.add_argument("--seed", type=int, default=0, help="first seed of the positions (0)")
    parser.add_argument("--max-seconds", type=float, default=300.0,
                        help="stop sending after this many seconds (300)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="client timeout per request, seconds (120)")
    parser.add_argument("--solver-threads", type=int, default=2,
                        help="server solver threads (RAMI_SERVICE_SOLVER_THREADS, 2)")
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (1)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the server in a thread of this process instead of a child")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.requests < 1 or args.concurrency < 1:
        parser.error("--requests and --concurrency must be 1 or more")

    from rami.service.settings import Settings

    settings = Settings(solver_threads=args.solver_threads)
    planned = plan(args.requests, args.seed, args.malformed_every, args.time_limit,
                   settings.max_body_bytes)
    server_info = {
        "mode": "thread" if args.in_process else "process",
        "workers": 1 if args.in_process else args.workers,
        "solver_threads": args.solver_threads,
        "time_limit": args.time_limit,
    }
    if args.in_process:
        from rami.service import create_app

        server: BackgroundServer | ServerProcess = BackgroundServer(create_app(settings))
    else:
        server = ServerProcess(workers=args.workers, env=settings.to_env())
    with server:
        outcomes, elapsed, stopped_early, during = run_load(
            server.url, planned, args.concurrency, args.max_seconds, args.timeout
        )
        parts = urllib.parse.urlsplit(server.url)
        after = _health(parts.hostname or "127.0.0.1", parts.port or 80)
    report = summarize(outcomes, len(planned), args.concurrency, elapsed, stopped_early,
                       during, after, server_info)
    print_report(report)
    if args.json:
        data = {**asdict(report), "passed": report.passed}
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
