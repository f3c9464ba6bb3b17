"""The front of ``rami serve --workers N`` (rami.service.front): a server worker that dies under
requests loses none of them (idempotent ones are sent again, others get a JSON 503), the front
restarts it, stops cleanly on SIGTERM, and keeps the service's HTTP rules. Real servers on free
loopback ports (127.0.0.1 only); every socket loop bounded in count and in time.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from rami import position_to_json
from rami.generate import random_position
from rami.rules import get_ruleset
from rami.service.front import Front
from rami.service.front_forward import idempotent
from rami.service.pool import pids_alive
from rami.service.settings import Settings
from rami.service.testing import LOOPBACK, ServerProcess, descendants

DEMO = "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 6H QH 8C 5D 5S KD / rami-chinois opened"


def _exchange(
    port: int, raw: bytes, *, timeout: float = 60.0, answers: int = 1
) -> list[tuple[int, dict[str, str], Any]]:
    """Send ``raw`` on one new connection; the ``answers`` answers read back (status 0: the
    connection ended without one)."""
    data = b""
    results: list[tuple[int, dict[str, str], Any]] = []
    with socket.create_connection((LOOPBACK, port), timeout=timeout) as sock:
        sock.sendall(raw)
        while len(results) < answers:
            head, sep, rest = data.partition(b"\r\n\r\n")
            if sep:
                lines = head.decode("latin-1").split("\r\n")
                headers = {
                    name.strip().lower(): value.strip()
                    for name, _, value in (line.partition(":") for line in lines[1:])
                }
                length = int(headers.get("content-length", "0"))
                if len(rest) >= length:
                    body = json.loads(rest[:length]) if length else None
                    results.append((int(lines[0].split()[1]), headers, body))
                    data = rest[length:]
                    continue
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, TimeoutError):
                chunk = b""
            if not chunk:
                results += [(0, {}, None)] * (answers - len(results))
                break
            data += chunk
    return results


def _post(path: str, body: Any, *, close: bool = True) -> bytes:
    return _raw_post(path, json.dumps(body).encode(), close=close)


def _raw_post(path: str, payload: bytes, *, close: bool = True) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"{'Connection: close' if close else 'X-Keep: 1'}\r\nContent-Length: {len(payload)}"
        "\r\n\r\n"
    ).encode() + payload


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
            results[index] = _exchange(port, requests[index], timeout=120)[0]
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
        _post(
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
        assert _exchange(running.port, requests[0])[0][0] == 200  # solver processes are up
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
            _post("/games", {}),
            b"GET /rulesets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
            _post("/validate", {"position": DEMO}),
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
            [_post("/solve", {"position": position_to_json(position), "time_limit": 2})],
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


# ------------------------------------------------------------------ the HTTP rules, kept


@pytest.fixture(scope="module")
def front() -> Iterator[ServerProcess]:
    env = {
        "RAMI_SERVICE_HEADER_TIMEOUT": "2",
        "RAMI_SERVICE_BODY_TIMEOUT": "1.5",
        "RAMI_SERVICE_MAX_BODY_BYTES": "2000",
        "RAMI_SERVICE_MAX_CONNECTIONS": "20",
    }
    with ServerProcess(
        workers=2, env=env, log_level="info", args=("--forwarded-allow-ips", "127.0.0.1")
    ) as running:
        yield running


@pytest.mark.parametrize(
    ("raw", "status", "words"),
    [
        (
            b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked"
            b"\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
            400,
            "ambiguous request framing",
        ),
        (b"GARBAGE\r\n\r\n", 400, "invalid HTTP request"),
        (b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n", 400, "invalid HTTP"),
        (
            b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n",
            431,
            "headers too large",
        ),
        (_post("/validate", {"position": DEMO, "x": "a" * 3000}), 413, "the limit is 2000 bytes"),
        (
            b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"position":',
            408,
            "request body not received",
        ),
        (b"POST /validate HTTP/1.1\r\nHost: x\r\n", 408, "request headers not received"),
        (
            _raw_post(
                "/validate", b'{"position": "%s", "lang": "en", "lang": "en"}' % DEMO.encode()
            ),
            422,
            "duplicate key 'lang'",
        ),
    ],
    ids=[
        "content-length and chunked",
        "bad request line",
        "bad content-length",
        "headers too large",
        "body too large",
        "short body",
        "short head",
        "duplicate key",
    ],
)
def test_the_front_keeps_the_http_rules(
    front: ServerProcess, raw: bytes, status: int, words: str
) -> None:
    ((got, headers, body),) = _exchange(front.port, raw, timeout=10)
    assert got == status, (got, body)
    assert headers["content-type"] == "application/json"
    assert set(body) == {"error", "field", "problems"} and words in body["error"]


def test_keep_alive_through_the_front(front: ServerProcess) -> None:
    raw = (
        _post("/validate", {"position": DEMO}, close=False)
        + b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        + b"GET /rulesets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    answers = _exchange(front.port, raw, answers=3)
    assert [status for status, _, _ in answers] == [200, 200, 200]
    assert answers[0][2]["valid"] is True and answers[1][2]["status"] == "ok"
    assert answers[2][1]["connection"] == "close"


def test_the_connection_cap_through_the_front(front: ServerProcess) -> None:
    """Idle sockets past the cap (20) are evicted for a new request; when every connection has
    a request under way, the new one gets the JSON 503 with Retry-After."""
    idle = [socket.create_connection((LOOPBACK, front.port), timeout=5) for _ in range(30)]
    try:
        assert (
            _exchange(front.port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")[
                0
            ][0]
            == 200
        )
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.2)
    partial = b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"
    busy = [socket.create_connection((LOOPBACK, front.port), timeout=5) for _ in range(20)]
    try:
        for sock in busy:
            sock.sendall(partial)
        time.sleep(0.3)
        ((status, headers, body),) = _exchange(
            front.port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n", timeout=5
        )
        assert status == 503 and headers["retry-after"] == "1" and "connection" in body["error"]
    finally:
        for sock in busy:
            sock.close()


def test_x_forwarded_for_is_believed_only_from_the_allowed_proxies(front: ServerProcess) -> None:
    """The front applies --forwarded-allow-ips (here 127.0.0.1): the worker's access log names
    the forwarded client; from any other peer the client is the peer."""
    raw = (
        b"GET /health?xff HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n"
        b"Connection: close\r\n\r\n"
    )
    assert _exchange(front.port, raw)[0][0] == 200
    trusting = Front(Settings(forwarded_allow_ips="127.0.0.1"), 2)
    headers = [(b"x-forwarded-for", b"203.0.113.9, 10.0.0.1"), (b"x-forwarded-proto", b"https")]
    assert trusting._client(headers, ("127.0.0.1", 5000)) == (b"10.0.0.1", b"https")
    assert trusting._client(headers, ("192.0.2.7", 5000)) == (b"192.0.2.7:5000", b"http")
    assert Front(Settings(), 2)._client(headers, ("127.0.0.1", 5000)) == (
        b"127.0.0.1:5000",
        b"http",
    )
    time.sleep(0.3)  # the access log is written after the answer
    front.stop()  # the last test of this server: its log is read once it has stopped
    log = front.log
    assert b'203.0.113.9:0 - "GET /health?xff' in log or b'203.0.113.9 - "GET /health?xff' in log


def test_which_requests_are_sent_again() -> None:
    assert idempotent(b"GET", b"/games/abc") and idempotent(b"HEAD", b"/health")
    assert idempotent(b"POST", b"/solve?x=1") and idempotent(b"POST", b"/bot/turn")
    assert not idempotent(b"POST", b"/games") and not idempotent(b"POST", b"/games/a/play")
    assert not idempotent(b"POST", b"/puzzles/attempts")
    assert not idempotent(b"DELETE", b"/solve")
