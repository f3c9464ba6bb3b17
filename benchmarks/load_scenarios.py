"""The scenarios of the service's load test beyond the closed loop (docs/service.md): idle and
slow sockets, a kill -9 of the supervisor, clients that leave mid-solve; and the memory of the
server's process tree, sampled by the soak.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import time
from collections import Counter
from typing import Any

from load_client import (
    load_average,
    percentiles,
    probe_health,
)

from rami.generate import random_position
from rami.notation import position_to_json
from rami.rules import get_ruleset
from rami.service.testing import ServerProcess


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
                health.append(probe_health(host, port, timeout=5))
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
        "health_ms": percentiles(times),
        "reopened": dict(reopened),
        "load_average_1min": load_average(),
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
    figures = {"scenario": "kill", "trials": trials, "load_average_1min": load_average()}
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
            _ok, seconds = probe_health("127.0.0.1", server.port)
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
        "freed_ms": percentiles([f for f in measured if f is not None]),
        "load_average_1min": load_average(),
    }
    figures["passed"] = bool(measured) and all(f is not None and f < 0.5 for f in measured)
    print("rami service: clients that leave mid-solve")
    for trial in trials:
        print(f"  {trial}")
    print(f"  solver process gone after (ms): {figures['freed_ms']}")
    print("PASS" if figures["passed"] else "FAIL")
    return figures
