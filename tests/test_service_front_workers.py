"""The front of ``rami serve --workers N`` (rami.service.front) when a server worker dies under
requests: it loses none of them (idempotent ones are sent again, others get a JSON 503), the front
restarts it, and stops cleanly on SIGTERM. Real servers on free loopback ports (127.0.0.1 only);
every socket loop bounded in count and in time."""

from __future__ import annotations

import os
import random
import signal
import socket
import threading
import time
from typing import Any

import pytest
from support.front import DEMO, exchange, post

from rami import position_to_json
from rami.generate import random_position
from rami.rules import get_ruleset
from rami.service.front_forward import idempotent
from rami.service.pool import pids_alive
from rami.service.testing import LOOPBACK, ServerProcess, descendants


def _workers(front: int) -> list[int]:
    """The worker processes of a front (its children)."""
    found = []
    for pid in descendants(front):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                if b"rami.service.front_worker" in cmdline.read():
                    found.append(pid)
        except OSError:
            continue
    return sorted(found)


def _unix_sockets(directory: str, *, listening: bool) -> dict[str, str]:
    """The Unix sockets of the workers in ``directory`` (Linux /proc/net/unix): their
    listening sockets, or their ends of the connections to them (accepted or still in the
    listening socket's queue), each with the path it carries."""
    with open("/proc/net/unix", encoding="ascii", errors="replace") as table:
        rows = [line.split() for line in table.read().splitlines()[1:]]
    return {
        row[0]: row[7]
        for row in rows
        if len(row) > 7
        and row[7].startswith(directory)
        and bool(int(row[3], 16) & 0x10000) is listening
    }


def _cmdline(pid: int) -> bytes:
    with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
        return cmdline.read()


def _in_threads(port: int, requests: list[bytes]) -> tuple[list[threading.Thread], list[Any]]:
    results: list[Any] = [None] * len(requests)

    def client(index: int) -> None:
        try:
            results[index] = exchange(port, requests[index], timeout=120)[0]
        except OSError as error:
            results[index] = (0, {}, repr(error))

    threads = [threading.Thread(target=client, args=(index,)) for index in range(len(requests))]
    for thread in threads:
        thread.start()
    return threads, results


def _two_workers(running: ServerProcess) -> list[int]:
    """The two workers of ``running``, once both listen."""
    assert running.pid is not None
    deadline = time.monotonic() + 30
    while (
        len(workers := _workers(running.pid)) < 2
        or len(_unix_sockets(_directory(workers[0]), listening=True)) < 2
    ):
        assert time.monotonic() < deadline, "the workers did not start"
        time.sleep(0.05)
    time.sleep(0.2)  # the front sees them ready
    return workers


def _directory(worker: int) -> str:
    """The directory of the worker's socket (on its command line)."""
    return os.path.dirname(_cmdline(worker).split(b"\0")[-3].decode())


def _restarted(running: ServerProcess, gone: list[int]) -> list[int]:
    assert running.pid is not None
    deadline = time.monotonic() + 30
    while True:
        workers = _workers(running.pid)
        if len(workers) == 2 and not set(gone) & set(workers):
            return workers
        assert time.monotonic() < deadline, f"the workers were not restarted: {workers}"
        time.sleep(0.05)


def test_a_worker_killed_during_a_burst_of_solves_loses_no_request() -> None:
    """Issue 36: kill -9 of a server worker during a burst of 48 solves lost 4 requests with no
    HTTP answer. Here 10 real solves through the front, one worker killed while they run: every
    solve is answered 200 (those of the dead worker were sent again to the other)."""
    rules = get_ruleset("rami-chinois")
    requests = [
        post(
            "/solve",
            {
                "position": position_to_json(
                    random_position(
                        random.Random(seed % 4),
                        rules=rules,
                        table_cards=80,
                        hand_cards=14,
                        jokers=4,
                        opened=True,
                    )
                ),
                "time_limit": 10,
            },
        )
        for seed in range(10)
    ]
    with ServerProcess(workers=2, env={"RAMI_SERVICE_SOLVER_PROCESSES": "2"}) as running:
        assert exchange(running.port, requests[0])[0][0] == 200  # solver processes are up
        workers = _two_workers(running)
        threads, results = _in_threads(running.port, requests)
        try:
            time.sleep(0.5)  # the burst is under way: both workers hold solves
            os.kill(workers[0], signal.SIGKILL)
        finally:
            for thread in threads:
                thread.join(timeout=180)
        assert [result[0] for result in results] == [200] * 10, [r[:2] for r in results]
        assert all(result[2]["status"] in ("optimal", "feasible") for result in results)
        _restarted(running, workers[:1])
    assert b"sent again to another" in running.log
    assert b"ended (signal SIGKILL): starting another" in running.log


def test_a_game_action_caught_by_a_worker_s_death_gets_a_503_a_solve_is_sent_again() -> None:
    """Both workers are stopped (SIGSTOP) while the front hands them three requests: the
    first and third go to one worker (the least busy, then the least recently used), the second
    to the other. The first worker is killed, the other resumed: the game action, which may
    have been done, is answered 503 with Retry-After and the error JSON; the validation is sent
    again to the other worker, which answers it and the second request."""
    # Connections to workers are kept for 0.05 s: each request goes on a new one.
    with ServerProcess(workers=2, env={"RAMI_SERVICE_KEEP_ALIVE_TIMEOUT": "0.1"}) as running:
        workers = _two_workers(running)
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        time.sleep(0.2)
        directory = _directory(workers[0])
        before = _unix_sockets(directory, listening=False)
        requests = [
            post("/games", {}),
            b"GET /rulesets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            post("/validate", {"position": DEMO}),
        ]
        threads: list[threading.Thread] = []
        results: list[Any] = []
        try:
            for count, raw in enumerate(requests, 1):
                more, answers = _in_threads(running.port, [raw])
                threads += more
                results += [answers]
                deadline = time.monotonic() + 20  # the front passes it on
                while (
                    len(new := set(_unix_sockets(directory, listening=False)) - set(before)) < count
                ):
                    assert time.monotonic() < deadline, "the front did not pass it on"
                    time.sleep(0.02)
                if count == 1:
                    first = _unix_sockets(directory, listening=False)[new.pop()].encode()
            time.sleep(0.1)  # the request follows the connection at once
            victim = next(pid for pid in workers if first in _cmdline(pid))
        finally:
            for pid in workers:
                os.kill(pid, signal.SIGKILL if pid == victim else signal.SIGCONT)
        for thread in threads:
            thread.join(timeout=60)
        (game, game_headers, game_body), rulesets, validate = (r[0] for r in results)
        assert game == 503 and game_headers["retry-after"] == "1", results[0]
        assert game_headers["content-type"] == "application/json"
        assert set(game_body) == {"error", "field", "problems"}
        assert "ended before answering" in game_body["error"]
        assert rulesets[0] == 200 and any(p["name"] == "rami-chinois" for p in rulesets[2])
        assert validate[0] == 200 and validate[2]["valid"] is True
        _restarted(running, [victim])
    assert running.log.count(b"sent again to another") == 1
    assert running.log.count(b"answered 503") == 1


def test_sigterm_answers_the_request_under_way_ends_every_process_and_frees_the_port() -> None:
    position = random_position(
        random.Random(2),
        rules=get_ruleset("rami-chinois"),
        table_cards=80,
        hand_cards=14,
        jokers=4,
        opened=True,
    )
    running = ServerProcess(workers=2).start()
    try:
        assert running.process is not None and running.pid is not None
        _two_workers(running)
        threads, results = _in_threads(
            running.port,
            [post("/solve", {"position": position_to_json(position), "time_limit": 2})],
        )
        time.sleep(0.5)  # the solve is under way
        tree = descendants(running.pid)
        running.process.send_signal(signal.SIGTERM)
        stopped = time.monotonic()
        time.sleep(0.2)
        with pytest.raises(OSError):  # the port was closed at once
            socket.create_connection((LOOPBACK, running.port), timeout=2).close()
        threads[0].join(timeout=60)
        assert results[0][0] == 200 and results[0][2]["status"] in ("optimal", "feasible")
        assert running.process.wait(timeout=30) == 0
        while pids_alive(tree):
            assert time.monotonic() - stopped < 30, f"still running: {pids_alive(tree)}"
            time.sleep(0.05)
    finally:
        running.stop()


def test_which_requests_are_sent_again() -> None:
    assert idempotent(b"GET", b"/games/abc") and idempotent(b"HEAD", b"/health")
    assert idempotent(b"POST", b"/solve?x=1") and idempotent(b"POST", b"/bot/turn")
    assert not idempotent(b"POST", b"/games") and not idempotent(b"POST", b"/games/a/play")
    assert not idempotent(b"POST", b"/puzzles/attempts")
    assert not idempotent(b"DELETE", b"/solve")
