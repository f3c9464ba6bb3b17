"""A solver process that dies under a request (issue 36, fault 8): ``kill -9`` of one process
during a burst of solves lost requests. A solve is a pure computation: the job runs again, once,
on a fresh process, and every request gets its answer. Real servers on free loopback ports
(127.0.0.1 only), every socket loop bounded in count and in time (as
tests/test_service_faults_clients.py).
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

from rami import parse_position, position_to_json
from rami.generate import random_position
from rami.rules import get_ruleset
from rami.service import Settings, create_app
from rami.service.pool import pids_alive
from rami.service.testing import LOOPBACK, BackgroundServer, GateSolve, ServerProcess, descendants

DEMO = position_to_json(
    parse_position(
        "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 6H QH 8C 5D 5S KD / rami-chinois opened"
    )
)


def _solve(
    port: int, position: Any, *, time_limit: float = 10, timeout: float = 120
) -> tuple[int, dict[str, str], Any]:
    """POST /solve on a new connection: (status, headers, JSON body); status 0 when the
    connection ended with no answer."""
    body = json.dumps({"position": position, "time_limit": time_limit}).encode()
    raw = (
        b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )
    answer = b""
    with socket.create_connection((LOOPBACK, port), timeout=timeout) as sock:
        sock.sendall(raw)
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    head, _, payload = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    if not lines[0].startswith("HTTP/"):
        return 0, {}, None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, json.loads(payload) if payload else None


def _burst(port: int, positions: list[Any]) -> tuple[list[threading.Thread], list[Any]]:
    results: list[Any] = [None] * len(positions)

    def client(index: int) -> None:
        try:
            results[index] = _solve(port, positions[index])
        except OSError as error:
            results[index] = (0, {}, repr(error))

    threads = [threading.Thread(target=client, args=(index,)) for index in range(len(positions))]
    for thread in threads:
        thread.start()
    return threads, results


def _answered(result: Any) -> bool:
    """An HTTP answer: the solution, or a 503 that says when to try again."""
    status, headers, _ = result
    return status == 200 or (status == 503 and "retry-after" in headers)


def test_a_solver_process_killed_mid_solve_does_not_lose_the_request(tmp_path: Path) -> None:
    gate = GateSolve(str(tmp_path), wait=60)
    app = create_app(Settings(solver_processes=2), solve=gate)
    with BackgroundServer(app) as running:
        threads, results = _burst(running.port, [DEMO] * 6)
        try:
            busy = gate.wait_entered(2)
            os.kill(busy[0], signal.SIGKILL)
            deadline = time.monotonic() + 10
            while pids_alive([busy[0]]):
                assert time.monotonic() < deadline
                time.sleep(0.01)
        finally:
            gate.open()
            for thread in threads:
                thread.join(timeout=60)
        assert [result[0] for result in results] == [200] * 6, results
        assert all(result[2]["status"] == "optimal" for result in results)
        assert app.state.pool.retried == 1
        # The job ran again on a process that is not the one killed.
        assert len(gate.entered()) >= 3 and busy[0] not in app.state.pool.child_pids()


def _solver_processes(server: int) -> list[int]:
    """The solver processes of a ``rami serve`` (children of its fork servers)."""
    tree = descendants(server)
    forked = set()  # the fork servers, and the processes they forked (the same command line)
    for pid in tree:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"forkserver" in cmdline.read():
                    forked.add(pid)
        except OSError:
            continue
    forkservers = {pid for pid in forked if _parent(pid) not in forked}
    return [pid for pid in forked if _parent(pid) in forkservers]


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return int(stat.read().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def test_kill_9_of_a_solver_process_during_a_burst_answers_every_request() -> None:
    """Issue 36: a kill -9 during a burst of 48 solves lost 4 requests with no HTTP answer.
    Here 16 real solves on ``rami serve``, one solver process killed while they run."""
    rules = get_ruleset("rami-chinois")
    positions = [
        position_to_json(
            random_position(
                random.Random(seed % 4),
                rules=rules,
                table_cards=80,
                hand_cards=14,
                jokers=4,
                opened=True,
            )
        )
        for seed in range(16)
    ]
    with ServerProcess(env={"RAMI_SERVICE_SOLVER_PROCESSES": "2"}) as running:
        assert running.pid is not None
        assert _solve(running.port, positions[0])[0] == 200  # the solver processes are up
        threads, results = _burst(running.port, positions)
        try:
            deadline = time.monotonic() + 30
            while len(solvers := _solver_processes(running.pid)) < 2:
                assert time.monotonic() < deadline, "no solver process to kill"
                time.sleep(0.05)
            time.sleep(0.3)  # the burst is under way: both processes hold a solve
            os.kill(solvers[0], signal.SIGKILL)
        finally:
            for thread in threads:
                thread.join(timeout=180)
        assert all(_answered(result) for result in results), [r[:2] for r in results]
        assert sum(result[0] == 200 for result in results) >= 15
    assert b"running it again on a fresh process" in running.log
