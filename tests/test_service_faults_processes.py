"""Faults of ``rami serve`` processes on free loopback ports (127.0.0.1 only): ``kill -9`` of the
supervisor ends its workers and a restart binds the port, clients that leave mid-solve free the
solver for the next request, and /health answers fast while solves run in processes.

Every socket loop here is bounded in count and in time.
"""

from __future__ import annotations

import json
import os
import random
import selectors
import signal
import socket
import threading
import time

import pytest
from support.raw_http import DEMO_TEXT, health_check, raw_request

from rami import position_to_json
from rami.generate import random_position
from rami.rules import get_ruleset
from rami.service.pool import pids_alive
from rami.service.testing import LOOPBACK, ServerProcess, descendants


def test_kill_9_of_the_supervisor_ends_its_workers_and_a_restart_binds() -> None:
    """with --workers 2, kill -9 of the main process left the workers serving, and a
    restart failed with "Address already in use"."""
    with ServerProcess(workers=2) as first:
        port = first.port
        deadline = time.monotonic() + 30
        tree = descendants(first.pid)
        while len(tree) < 4 and time.monotonic() < deadline:  # workers and their fork servers
            time.sleep(0.1)
            tree = descendants(first.pid)
        assert first.process is not None
        os.kill(first.pid, signal.SIGKILL)
        killed = time.monotonic()
        first.process.wait(timeout=10)
        while pids_alive(tree):  # about 0.3 s; the bound leaves room for a loaded machine
            assert time.monotonic() - killed < 5.0, f"orphans still run: {pids_alive(tree)}"
            time.sleep(0.02)
        with pytest.raises(OSError):  # nobody serves the port any more
            health_check(port)
        with ServerProcess(port=port) as second:
            status, body, _ = health_check(second.port)
            assert status == 200 and body["status"] == "ok"


def _big_solve_request(seed: int) -> bytes:
    position = random_position(
        random.Random(seed),
        rules=get_ruleset("rami-chinois"),
        table_cards=80,
        hand_cards=14,
        jokers=4,
        opened=True,
    )
    body = json.dumps({"position": position_to_json(position), "time_limit": 10}).encode()
    return (
        b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body
    )


def test_clients_that_leave_free_the_solver_for_the_next_request() -> None:
    """work nobody waits for was not cancelled (later requests waited, then got a
    503). Eight real solves queue on one solver process; their clients leave at once; the
    next request is answered without waiting for them."""
    env = {"RAMI_SERVICE_SOLVER_PROCESSES": "1"}
    with ServerProcess(env=env) as running:
        warm = raw_request(running.port, _big_solve_request(3), timeout=60)
        assert warm[0] == 200
        solo = warm[3]
        requests = [_big_solve_request(seed % 3) for seed in range(8)]
        selector = selectors.DefaultSelector()
        socks = []
        try:
            for raw in requests:
                sock = socket.create_connection((LOOPBACK, running.port), timeout=5)
                sock.sendall(raw)
                socks.append(sock)
            time.sleep(0.2)
        finally:
            for sock in socks:
                sock.close()
            selector.close()
        left = time.monotonic()
        turn = json.dumps(
            {
                "position": DEMO_TEXT,
                "table_after": [
                    ["3H", "4H", "5H", "6H", "7H", "8H", "9H"],
                    ["QS", "QD", "QC"],
                    ["5C", "6C", "7C"],
                ],
                "played": [],
            }
        ).encode()
        status, _, body, _ = raw_request(
            running.port,
            b"POST /validate-turn HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: " + str(len(turn)).encode() + b"\r\n\r\n" + turn,
            timeout=60,
        )
        waited = time.monotonic() - left
        assert status == 200 and body["legal"] is True
        # Eight solves of about ``solo`` seconds each were queued: the answer did not wait.
        assert waited < max(1.5, 2 * solo), (waited, solo)


def test_health_answers_fast_while_solves_run_in_processes() -> None:
    """The solver runs in processes: /health does not share their CPU time slices."""
    with ServerProcess() as running:
        results: list[int] = []

        def client(seed: int) -> None:
            results.append(raw_request(running.port, _big_solve_request(seed), timeout=60)[0])

        threads = [threading.Thread(target=client, args=(seed,)) for seed in range(4)]
        for thread in threads:
            thread.start()
        time.sleep(0.1)
        worst = max(health_check(running.port)[2] for _ in range(10))
        for thread in threads:
            thread.join(timeout=60)
        assert results == [200] * 4
        assert worst < 1.0
