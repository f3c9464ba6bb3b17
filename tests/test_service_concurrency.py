"""The HTTP service's time limits and concurrency, over real HTTP: a tiny time limit gives the
best answer so far and a client's is capped; solves run side by side, /health answers while one
runs, a full server answers 503 at once, a solve past its deadline or left by its client is
stopped; internal errors are JSON without a traceback.

Every test talks to a real uvicorn server on a free loopback port (127.0.0.1 only), in a thread
of this process (:class:`rami.service.testing.BackgroundServer`): the session's
(tests/conftest.py), or one of a test's own. Servers are always shut down.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import support.service as shared
from support.service import DEMO, DEMO_TURN, Reply, call

from rami import position_to_json
from rami.generate import random_position
from rami.rules import get_ruleset
from rami.service import Settings, create_app
from rami.service.testing import BackgroundServer, GateSolve, failing_solve

#: The session's service (tests/conftest.py), this module's fixture.
server = shared.server


def _large_position() -> dict[str, Any]:
    rules = get_ruleset("rami-chinois")
    position = random_position(
        random.Random(0), rules=rules, table_cards=70, hand_cards=14, jokers=4, opened=True
    )
    return position_to_json(position)


def test_tiny_time_limit_returns_the_best_answer_so_far(server: str) -> None:
    body = {"position": _large_position(), "time_limit": 0.001}
    reply = call(server, "POST", "/solve", body, timeout=30)
    assert reply.status == 200, reply.text
    assert reply.body["status"] in ("feasible", "optimal")
    assert reply.headers["x-rami-time-limit"] == "0.001"


def test_client_time_limit_is_capped(server: str) -> None:
    reply = call(server, "POST", "/solve", {"position": DEMO, "time_limit": 1e9})
    assert reply.status == 200
    assert reply.headers["x-rami-time-limit"] == f"{Settings().max_time_limit:g}"


def test_concurrent_solves_all_answer(server: str) -> None:
    results: list[int] = []
    lock = threading.Lock()

    def client(seed: int) -> None:
        position = random_position(
            random.Random(seed),
            rules=get_ruleset("rami-chinois"),
            table_cards=20,
            hand_cards=6,
            jokers=1,
            opened=True,
        )
        reply = call(server, "POST", "/solve", {"position": position_to_json(position)})
        with lock:
            results.append(reply.status)

    threads = [threading.Thread(target=client, args=(seed,)) for seed in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert results == [200] * 8


def _post_in_thread(base: str, path: str, body: Any) -> tuple[threading.Thread, list[Reply]]:
    replies: list[Reply] = []
    thread = threading.Thread(target=lambda: replies.append(call(base, "POST", path, body)))
    thread.start()
    return thread, replies


def test_health_answers_while_a_solve_runs(tmp_path: Path) -> None:
    gate = GateSolve(str(tmp_path))
    with BackgroundServer(create_app(solve=gate)) as running:
        thread, replies = _post_in_thread(running.url, "/solve", {"position": DEMO})
        try:
            gate.wait_entered()
            health = call(running.url, "GET", "/health", timeout=5)
            assert health.status == 200 and health.body["status"] == "ok"
            assert call(running.url, "POST", "/validate", {"position": DEMO}).status == 200
            assert not replies, "the solve must still be running"
        finally:
            gate.open()
            thread.join(timeout=60)
    assert replies[0].status == 200 and replies[0].body["status"] == "optimal"


def test_server_busy_is_503_at_once(tmp_path: Path) -> None:
    gate = GateSolve(str(tmp_path))
    settings = Settings(solver_processes=1, max_pending=1)
    with BackgroundServer(create_app(settings, solve=gate)) as running:
        thread, replies = _post_in_thread(running.url, "/solve", {"position": DEMO})
        try:
            gate.wait_entered()
            busy = call(running.url, "POST", "/hint", {"position": DEMO}, timeout=10)
            assert busy.status == 503
            assert "server busy" in busy.body["error"]
            assert busy.headers["retry-after"] == "1"
        finally:
            gate.open()
            thread.join(timeout=60)
        assert replies[0].status == 200
        # The slot is free again once the solve ends.
        assert call(running.url, "POST", "/hint", {"position": DEMO}).status == 200


def _wait_gone(pids: list[int], timeout: float) -> float:
    """Seconds until none of ``pids`` runs (zombies count as ended); fails past ``timeout``."""
    from rami.service.pool import pids_alive

    started = time.monotonic()
    while pids_alive(pids):
        if time.monotonic() - started > timeout:
            pytest.fail(f"processes {pids_alive(pids)} still run after {timeout} s")
        time.sleep(0.005)
    return time.monotonic() - started


def test_a_solve_past_its_deadline_is_answered_503_and_stopped(tmp_path: Path) -> None:
    """Issue 22: the solve of a request answered 503 at its deadline is stopped (its solver
    process ends within 0.5 s), and a new solver process serves the next requests."""
    gate = GateSolve(str(tmp_path), wait=60)
    settings = Settings(
        default_time_limit=0.05, max_time_limit=0.05, deadline_slack=0.3, solver_processes=1
    )
    with BackgroundServer(create_app(settings, solve=gate)) as running:
        try:
            started = time.monotonic()
            reply = call(running.url, "POST", "/solve", {"position": DEMO}, timeout=20)
            assert reply.status == 503
            assert "deadline" in reply.body["error"]
            assert time.monotonic() - started < 15
            assert _wait_gone(gate.entered(), timeout=0.5) < 0.5
            assert call(running.url, "GET", "/health").status == 200
            # The one solver process was replaced: a light job is answered. Until the new process
            # has started (longer than this server's 0.35 s deadline on a loaded machine) the
            # answer is a 503 to retry, never another error.
            until = time.monotonic() + 20
            turn = call(running.url, "POST", "/validate-turn", {"position": DEMO, **DEMO_TURN})
            while turn.status == 503 and time.monotonic() < until:
                assert "try again" in turn.body["error"]
                time.sleep(0.2)
                turn = call(running.url, "POST", "/validate-turn", {"position": DEMO, **DEMO_TURN})
            assert turn.status == 200 and turn.body["legal"] is True
        finally:
            gate.open()


def test_a_client_that_leaves_stops_its_solve(tmp_path: Path) -> None:
    """Issue 22: a client that disconnects while its solve runs frees the solver: the solver
    process ends within 0.5 s and the next solve is served at once."""
    gate = GateSolve(str(tmp_path), wait=60)
    app = create_app(Settings(solver_processes=1), solve=gate)
    with BackgroundServer(app) as running:
        try:
            body = json.dumps({"position": DEMO}).encode()
            with socket.create_connection(("127.0.0.1", running.port), timeout=10) as sock:
                sock.sendall(
                    b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
                    b"application/json\r\nContent-Length: "
                    + str(len(body)).encode()
                    + b"\r\n\r\n"
                    + body
                )
                pids = gate.wait_entered()
            left = time.monotonic()
            _wait_gone(pids, timeout=0.5)
            assert time.monotonic() - left < 0.5
            assert app.state.pool.cancelled == 1
            gate.open()
            reply = call(running.url, "POST", "/solve", {"position": DEMO}, timeout=30)
            assert reply.status == 200 and reply.body["status"] == "optimal"
        finally:
            gate.open()


@pytest.mark.parametrize(
    ("time_limit", "words"),
    [
        (0.25, "internal server error"),
        (0.5, "internal solver error"),
        (0.75, "internal server error"),  # the solver process died
    ],
    ids=["exception", "solver bug", "process died"],
)
def test_internal_errors_are_json_without_traceback(time_limit: float, words: str) -> None:
    with BackgroundServer(create_app(solve=failing_solve), log_level="critical") as running:
        body = {"position": DEMO, "time_limit": time_limit}
        reply = call(running.url, "POST", "/solve", body, check_schema=False)
        assert reply.status == 500
        assert words in reply.body["error"]
        assert set(reply.body) == {"error", "field", "problems"}
        assert "Traceback" not in reply.text
        assert call(running.url, "GET", "/health").status == 200
        # A failed (or dead) solver process does not take the next solve with it.
        assert call(running.url, "POST", "/solve", {"position": DEMO}).status == 200
