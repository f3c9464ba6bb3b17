"""The client side of the service's load test: the planned requests (solves and malformed
input, each with the status it must get), keep-alive clients, the closed loop that sends them
while ``/health`` is timed, and the figures of the machine it ran on.
"""

from __future__ import annotations

import http.client
import itertools
import json
import math
import os
import random
import statistics
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from rami.generate import random_position
from rami.notation import position_to_json
from rami.rules import get_ruleset

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
            except (OSError, http.client.HTTPException) as err:
                self.close()
                stale = isinstance(
                    err, http.client.RemoteDisconnected | BrokenPipeError | ConnectionResetError
                )
                if stale and reused and attempt == 0:  # a kept-alive socket the server closed
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


def percentiles(seconds: list[float]) -> dict[str, float]:
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


def probe_health(host: str, port: int, timeout: float = 10.0) -> tuple[bool, float]:
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
            health.append(probe_health(host, port))
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
            for key, value in percentiles(latencies).items()
            if key in ("p50", "p99", "max")
        },
    }
    return outcomes, elapsed, stopped_early.is_set(), health_during


def usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def load_average() -> float | None:
    """The machine's 1-minute load average at the end (other work skews the figures)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None
