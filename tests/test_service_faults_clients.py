"""Hostile clients against ``rami serve`` processes on free loopback ports (127.0.0.1 only): idle
and slow sockets, short bodies, protocol errors, a POST with a slash, X-Forwarded-For, and the
connection cap (idle sockets evicted, a JSON 503 when every request is under way).

Every socket loop here is bounded in count and in time. One server with short read deadlines and
one capped at 20 connections, each for the module.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from support.raw_http import DEMO_TEXT, health_check, parse_answer, raw_request

from rami.service.testing import LOOPBACK, ServerProcess


def _json_error(body: Any) -> None:
    assert isinstance(body, dict) and set(body) == {"error", "field", "problems"}, body
    assert body["error"]


class Sockets:
    """Many client sockets (non-blocking, one thread), always closed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.socks: list[socket.socket] = []

    def open(self, count: int, first: bytes = b"") -> list[socket.socket]:
        opened = []
        for _ in range(count):
            sock = socket.create_connection((LOOPBACK, self.port), timeout=5)
            if first:
                sock.sendall(first)
            sock.setblocking(False)
            opened.append(sock)
        self.socks.extend(opened)
        return opened

    def trickle(self, socks: list[socket.socket], data: bytes = b"a") -> None:
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.send(data)

    def closed_by_server(self, socks: list[socket.socket]) -> list[bytes | None]:
        """For each socket: what the server sent before closing it, or None if still open."""
        results: list[bytes | None] = []
        for sock in socks:
            data = b""
            closed = False
            while True:
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    break
                except OSError:
                    closed = True
                    break
                if not chunk:
                    closed = True
                    break
                data += chunk
            results.append(data if closed else None)
        return results

    def close(self) -> None:
        for sock in self.socks:
            sock.close()
        self.socks.clear()


@pytest.fixture
def sockets(request: pytest.FixtureRequest) -> Iterator[Any]:
    made: list[Sockets] = []

    def make(port: int) -> Sockets:
        made.append(Sockets(port))
        return made[-1]

    yield make
    for item in made:
        item.close()


@pytest.fixture(scope="module")
def default_server() -> Iterator[ServerProcess]:
    """``rami serve`` with the default connection cap and short read deadlines."""
    env = {"RAMI_SERVICE_HEADER_TIMEOUT": "2", "RAMI_SERVICE_BODY_TIMEOUT": "1.5"}
    with ServerProcess(env=env) as running:
        yield running


@pytest.fixture(scope="module")
def small_server() -> Iterator[ServerProcess]:
    """``rami serve`` capped at 20 connections, long read deadlines (the cap acts first)."""
    env = {
        "RAMI_SERVICE_MAX_CONNECTIONS": "20",
        "RAMI_SERVICE_HEADER_TIMEOUT": "30",
        "RAMI_SERVICE_BODY_TIMEOUT": "30",
    }
    with ServerProcess(env=env) as running:
        yield running


# ------------------------------------------------------------------ idle and slow sockets


def test_silent_sockets_and_slow_senders_do_not_starve_the_server(
    default_server: ServerProcess, sockets: Any
) -> None:
    """256 silent sockets or 260 slow senders turned every request into a plain-text
    503. Here 300 of each are held open while /health and /validate answer."""
    pool = sockets(default_server.port)
    pool.open(300)
    slow = pool.open(300, first=b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    worst = 0.0
    for _ in range(10):
        pool.trickle(slow)
        status, body, seconds = health_check(default_server.port)
        assert status == 200 and body["status"] == "ok"
        worst = max(worst, seconds)
        body_bytes = json.dumps({"position": DEMO_TEXT}).encode()
        status, _, answer, _ = raw_request(
            default_server.port,
            b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Connection: close\r\nContent-Length: "
            + str(len(body_bytes)).encode()
            + b"\r\n\r\n"
            + body_bytes,
        )
        assert status == 200 and answer["valid"] is True
        time.sleep(0.05)
    assert worst < 2.0, f"/health took {worst:.2f} s with 600 idle and slow sockets open"


def test_a_silent_socket_is_closed_after_the_header_deadline(
    default_server: ServerProcess, sockets: Any
) -> None:
    pool = sockets(default_server.port)
    silent = pool.open(3)
    partial = pool.open(3, first=b"POST /solve HTTP/1.1\r\nHost: x\r\n")
    deadline = time.monotonic() + 6  # header_timeout is 2 s
    results: list[bytes | None] = [None] * 6
    while time.monotonic() < deadline and any(r is None for r in results):
        time.sleep(0.1)
        results = [
            old if old is not None else new
            for old, new in zip(results, pool.closed_by_server(silent + partial), strict=True)
        ]
    assert all(r is not None for r in results), "sockets still open past the header deadline"
    assert results[:3] == [b"", b"", b""]  # nothing was asked: closed without a word
    for answer in results[3:]:
        status, headers, body = parse_answer(answer or b"")
        assert status == 408 and headers["content-type"] == "application/json"
        _json_error(body)


def test_a_body_shorter_than_its_length_gets_a_408(default_server: ServerProcess) -> None:
    """a body shorter than its Content-Length hung for ever."""
    raw = (
        b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"position":'
    )
    status, headers, body, seconds = raw_request(default_server.port, raw, timeout=10)
    assert status == 408, (status, body)
    assert headers["content-type"] == "application/json" and headers["connection"] == "close"
    _json_error(body)
    assert body["field"] == "body"
    assert 1.0 < seconds < 6


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"GARBAGE\r\n\r\n", 400),
        (b"GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n", 400),
        (b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n", 431),
    ],
    ids=["bad request line", "bad content-length", "headers too large"],
)
def test_protocol_errors_are_json(default_server: ServerProcess, raw: bytes, status: int) -> None:
    """uvicorn's own errors were plain text."""
    got, headers, body, _ = raw_request(default_server.port, raw)
    assert got == status
    assert headers["content-type"] == "application/json"
    _json_error(body)


def test_post_with_a_slash_is_a_json_404_not_a_redirect(default_server: ServerProcess) -> None:
    """POST /solve/ answered 307 with a Location built from the Host header."""
    status, headers, body, _ = raw_request(
        default_server.port,
        b"POST /solve/ HTTP/1.1\r\nHost: evil.example\r\nContent-Type: application/json\r\n"
        b"Content-Length: 2\r\nConnection: close\r\n\r\n{}",
    )
    assert status == 404 and "location" not in headers
    _json_error(body)


def test_x_forwarded_for_is_not_believed_by_default(default_server: ServerProcess) -> None:
    """X-Forwarded-For was trusted. The client the app sees is the TCP peer: the
    access log (which uvicorn writes from the ASGI client) never shows the forged address."""
    from rami.service.cli import uvicorn_config
    from rami.service.settings import Settings

    config = uvicorn_config("x:y", Settings())
    assert config.proxy_headers is False
    config = uvicorn_config("x:y", Settings(forwarded_allow_ips="10.0.0.7"))
    assert config.proxy_headers is True and config.forwarded_allow_ips == "10.0.0.7"


# ------------------------------------------------------------------ the connection cap


def test_idle_sockets_past_the_cap_are_evicted_not_the_new_request(
    small_server: ServerProcess, sockets: Any
) -> None:
    pool = sockets(small_server.port)
    idle = pool.open(40)  # twice the cap of 20
    for _ in range(5):
        status, body, _ = health_check(small_server.port)
        assert status == 200 and body["status"] == "ok"
    time.sleep(0.2)
    closed = [r for r in pool.closed_by_server(idle) if r is not None]
    assert len(closed) >= 20  # the longest-waiting idle sockets made room


def test_past_the_cap_with_every_request_under_way_the_answer_is_a_json_503(
    small_server: ServerProcess, sockets: Any
) -> None:
    """Connections whose request is under way (here: bodies still coming) are not evicted;
    a new connection then gets the service's JSON 503 with Retry-After."""
    pool = sockets(small_server.port)
    busy = pool.open(
        20,
        first=b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: "
        b"application/json\r\nContent-Length: 1000\r\n\r\n{",
    )
    time.sleep(0.3)
    status, headers, body, _ = raw_request(
        small_server.port, b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    assert status == 503
    assert headers["content-type"] == "application/json" and headers["retry-after"] == "1"
    _json_error(body)
    assert "connection" in body["error"]
    pool.close()
    del busy
    deadline = time.monotonic() + 5
    while health_check(small_server.port)[0] != 200:
        assert time.monotonic() < deadline, "the server did not recover after the clients left"
        time.sleep(0.05)
