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
import contextlib
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
            position = random_position(
                random.Random(attempt),
                rules=rules,
                table_cards=40,
                hand_cards=10,
                jokers=2,
                opened=True,
            )
        except ValueError:  # this seed could not deal the melds asked for: try the next
            continue
        found.append(position_to_json(position))
    raise AssertionError("unreachable")


def _malformed(position: dict[str, Any], max_body: int) -> list[Planned]:
    def body(data: Any) -> bytes:
        return json.dumps(data).encode()

    return [
        Planned("malformed-json", "/solve", b'{"position": {"hand": ["7H",]', 400),
        Planned(
            "unknown-card", "/solve", body({"position": {**position, "hand": ["7H", "ZZ"]}}), 422
        ),
        Planned(
            "three-copies",
            "/hint",
            body({"position": {**position, "hand": ["KD", "KD", "KD"]}}),
            422,
        ),
        Planned(
            "unknown-ruleset", "/solve", body({"position": {**position, "rules": "rami-99"}}), 422
        ),
        Planned("wrong-type", "/solve", body({"position": position, "time_limit": "soon"}), 422),
        Planned(
            "bad-turn-card",
            "/validate-turn",
            body({"position": position, "table_after": [["3H", "4H", "5Q"]], "played": []}),
            422,
        ),
        Planned("too-large", "/solve", b'{"position": "' + b"x" * (max_body + 1) + b'"}', 413),
    ]


def plan(
    requests: int, seed: int, malformed_every: int, time_limit: float, max_body: int
) -> list[Planned]:
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
            self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
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
                return Outcome(
                    item.kind,
                    None,
                    item.expected,
                    time.perf_counter() - started,
                    retried=retried,
                    problem=f"{type(err).__name__}: {err}",
                )
            except (OSError, http.client.HTTPException) as err:
                self.close()
                return Outcome(
                    item.kind,
                    None,
                    item.expected,
                    time.perf_counter() - started,
                    retried=retried,
                    problem=f"{type(err).__name__}: {err}",
                )
            seconds = time.perf_counter() - started
            outcome = Outcome(item.kind, response.status, item.expected, seconds, retried=retried)
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


def run_load(
    base_url: str,
    planned: list[Planned],
    concurrency: int,
    max_seconds: float,
    timeout: float,
    *,
    duration: float | None = None,
    sample: Any = None,
) -> tuple[list[Outcome], float, bool, dict[str, float]]:
    """Closed loop: each client sends its next request when the last one is answered. With
    ``duration``, the planned requests are sent round and round until it passes (then the
    load stopping is the plan, not an early stop); ``sample()`` runs every 10 s."""
    parts = urllib.parse.urlsplit(base_url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    outcomes: list[Outcome] = []
    lock = threading.Lock()
    next_index = itertools.count()
    stop_at = time.monotonic() + (duration if duration is not None else max_seconds)
    stopped_early = threading.Event()
    done = threading.Event()
    health: list[tuple[bool, float]] = []

    def worker() -> None:
        client = Client(host, port, timeout)
        try:
            while True:
                index = next(next_index)
                if duration is None and index >= len(planned):
                    return
                if time.monotonic() > stop_at:
                    if duration is None:
                        stopped_early.set()
                    return
                outcome = client.send(planned[index % len(planned)])
                with lock:
                    outcomes.append(outcome)
        finally:
            client.close()

    def watch_health() -> None:
        last_sample = time.monotonic()
        while not done.wait(0.25):
            health.append(_health(host, port))
            if sample is not None and time.monotonic() - last_sample >= 10:
                last_sample = time.monotonic()
                sample()

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
        **{
            f"{key}_ms": value
            for key, value in _percentiles(latencies).items()
            if key in ("p50", "p99", "max")
        },
    }
    return outcomes, elapsed, stopped_early.is_set(), health_during


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
        after = _health(parts.hostname or "127.0.0.1", parts.port or 80)
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


# ------------------------------------------------------------------ fault scenarios


def _proc_memory_mb(pid: int) -> float:
    """Proportional set size (shared pages split between the processes sharing them), else
    the resident set size, of one process, in MB; 0 when it is gone."""
    for path, key in ((f"/proc/{pid}/smaps_rollup", "Pss:"), (f"/proc/{pid}/status", "VmRSS:")):
        try:
            with open(path, encoding="ascii") as handle:
                for line in handle:
                    if line.startswith(key):
                        return int(line.split()[1]) / 1024
        except OSError:
            continue
    return 0.0


def tree_memory_mb(pid: int) -> float:
    """Memory of a server and every process under it (workers, fork servers, solvers), MB."""
    from rami.service.testing import descendants

    return round(sum(_proc_memory_mb(p) for p in [pid, *descendants(pid)]), 1)


def print_memory(samples: list[tuple[float, float, float]]) -> None:
    print("server memory (PSS: the process tree / the server process alone)")
    for seconds, megabytes, main in samples:
        print(f"  {seconds:>7.1f} s  {megabytes:8.1f} MB  {main:8.1f} MB")
    first = next((s for s in samples if s[0] >= 60), samples[0])
    last = samples[-1]
    for index, name in ((1, "tree"), (2, "server process")):
        print(
            f"  {name}: after 1 min {first[index]:.1f} MB, at the end {last[index]:.1f} MB "
            f"({(last[index] - first[index]) / first[index] * 100:+.1f} %)"
        )


def _raise_open_files(wanted: int) -> int:
    """Raise this process's soft open-files limit (the client side needs a socket each)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        print(f"  (open-files soft limit raised from {soft} to {target})")
        return target
    return soft


def scenario_idle(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    """``--idle-sockets`` silent sockets and ``--slow-senders`` sockets that send their headers
    a byte a second, all held open (re-opened when the server closes them at its header
    deadline) for ``--duration`` seconds (30), while ``/health`` is timed every 50 ms."""
    import selectors
    import socket as socketlib

    duration = args.duration or 30.0
    _raise_open_files(args.idle_sockets + args.slow_senders + 256)
    with ServerProcess(env=settings.to_env()) as server:
        host, port = "127.0.0.1", server.port
        selector = selectors.DefaultSelector()
        kinds: dict[socketlib.socket, str] = {}
        reopened = Counter()

        def open_one(kind: str) -> None:
            sock = socketlib.create_connection((host, port), timeout=5)
            if kind == "slow":
                sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            sock.setblocking(False)
            kinds[sock] = kind
            selector.register(sock, selectors.EVENT_READ)

        for _ in range(args.idle_sockets):
            open_one("idle")
        for _ in range(args.slow_senders):
            open_one("slow")
        print(f"  {args.idle_sockets} idle sockets and {args.slow_senders} slow senders open")
        health: list[tuple[bool, float]] = []
        end = time.monotonic() + duration
        next_byte = time.monotonic() + 1
        try:
            while time.monotonic() < end:
                for key, _ in selector.select(timeout=0):  # closed by the server: reopen
                    sock = key.fileobj
                    assert isinstance(sock, socketlib.socket)
                    try:
                        data = sock.recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        kind = kinds.pop(sock)
                        selector.unregister(sock)
                        sock.close()
                        reopened[kind] += 1
                        open_one(kind)
                if time.monotonic() >= next_byte:
                    next_byte += 1
                    for sock, kind in list(kinds.items()):
                        if kind == "slow":
                            with contextlib.suppress(OSError):
                                sock.send(b"a")
                health.append(_health(host, port, timeout=5))
                time.sleep(0.05)
        finally:
            for sock in kinds:
                sock.close()
            selector.close()
    times = [seconds for _, seconds in health]
    figures = {
        "scenario": "idle",
        "idle_sockets": args.idle_sockets,
        "slow_senders": args.slow_senders,
        "seconds": duration,
        "health_checks": len(health),
        "health_failures": sum(not ok for ok, _ in health),
        "health_ms": _percentiles(times),
        "reopened": dict(reopened),
        "load_average_1min": _load_average(),
    }
    figures["passed"] = figures["health_failures"] == 0 and figures["health_ms"]["p99"] < 100
    print("rami service: idle sockets and slow senders")
    print(
        f"  /health: {len(health)} checks, {figures['health_failures']} failed, "
        f"p50/p90/p99/max "
        + " / ".join(f"{figures['health_ms'][k]:.1f}" for k in ("p50", "p90", "p99", "max"))
        + " ms"
    )
    print(f"  sockets the server closed and this script reopened: {dict(reopened)}")
    print(f"  load average {figures['load_average_1min']}")
    print("PASS" if figures["passed"] else "FAIL")
    return figures


def scenario_kill(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    """``kill -9`` of the supervisor of a 2-worker server (warm: its solver processes
    started), then the same command again on the same port: when the old workers are gone,
    and when the new server first answers ``/health``, counted from the kill."""
    import signal

    from rami.service.pool import pids_alive
    from rami.service.testing import descendants

    trials = []
    for trial in range(args.repeat):
        first = ServerProcess(workers=2, env=settings.to_env()).start()
        port = first.port
        deadline = time.monotonic() + 60
        while len(descendants(first.pid or 0)) < 6 and time.monotonic() < deadline:
            time.sleep(0.1)  # 2 workers, their fork servers and solver processes
        tree = descendants(first.pid or 0)
        assert first.process is not None
        os.kill(first.process.pid, signal.SIGKILL)
        killed = time.monotonic()
        first.process.wait(timeout=10)
        first.process = None
        while pids_alive(tree) and time.monotonic() - killed < 30:
            time.sleep(0.005)
        orphans_gone = time.monotonic() - killed
        left = pids_alive(tree)
        second = ServerProcess(workers=2, port=port, env=settings.to_env())
        second.start()
        served = time.monotonic() - killed
        second.stop()
        trials.append(
            {
                "processes": len(tree),
                "orphans_gone_s": round(orphans_gone, 3),
                "orphans_left": left,
                "restart_served_s": round(served, 3),
            }
        )
        print(
            f"  trial {trial + 1}: {len(tree)} processes under the supervisor; all gone "
            f"{orphans_gone:.3f} s after kill -9; restart served {served:.3f} s after it"
        )
    figures = {"scenario": "kill", "trials": trials, "load_average_1min": _load_average()}
    figures["passed"] = all(not t["orphans_left"] and t["restart_served_s"] < 30 for t in trials)
    print("PASS" if figures["passed"] else "FAIL")
    return figures


def _solver_pids(server_pid: int) -> set[int]:
    """The solver processes of a 1-worker server: children of its fork server."""
    from rami.service.testing import descendants

    found = set()
    for pid in descendants(server_pid):
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                parent = int(stat.read().rpartition(")")[2].split()[1])
        except OSError:
            continue
        if parent != server_pid:
            found.add(pid)
    return found


def scenario_disconnect(args: argparse.Namespace, settings: Any) -> dict[str, Any]:
    """A client sends a long solve (80 table cards, time_limit 10) and leaves 0.2 s later:
    how long until its solver process is gone, and the next request's answer time."""
    import dataclasses
    import socket as socketlib

    settings = dataclasses.replace(settings, solver_processes=1)
    rules = get_ruleset("rami-chinois")
    bodies = []
    for seed in range(args.repeat * 3):
        position = random_position(
            random.Random(seed), rules=rules, table_cards=80, hand_cards=14, jokers=4, opened=True
        )
        bodies.append(
            json.dumps({"position": position_to_json(position), "time_limit": 10}).encode()
        )
    trials = []
    with ServerProcess(env=settings.to_env()) as server:
        assert server.pid is not None
        deadline = time.monotonic() + 60
        while not _solver_pids(server.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        for body in bodies:
            before = _solver_pids(server.pid)
            sock = socketlib.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(
                b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
            )
            time.sleep(0.2)
            sock.setblocking(False)
            try:
                answered = bool(sock.recv(1))
            except BlockingIOError:
                answered = False
            sock.close()
            left = time.monotonic()
            freed = None
            while time.monotonic() - left < 5:
                if before - _solver_pids(server.pid):
                    freed = time.monotonic() - left
                    break
                time.sleep(0.002)
            _ok, seconds = _health("127.0.0.1", server.port)
            trials.append(
                {
                    "solved_before_leaving": answered,
                    "freed_s": None if freed is None else round(freed, 4),
                    "next_health_ms": round(seconds * 1000, 1),
                }
            )
            time.sleep(0.3)
    measured = [t["freed_s"] for t in trials if not t["solved_before_leaving"]]
    figures = {
        "scenario": "disconnect",
        "trials": trials,
        "freed_ms": _percentiles([f for f in measured if f is not None]),
        "load_average_1min": _load_average(),
    }
    figures["passed"] = bool(measured) and all(f is not None and f < 0.5 for f in measured)
    print("rami service: clients that leave mid-solve")
    for trial in trials:
        print(f"  {trial}")
    print(f"  solver process gone after (ms): {figures['freed_ms']}")
    print("PASS" if figures["passed"] else "FAIL")
    return figures


if __name__ == "__main__":
    sys.exit(main())
