"""The front of ``rami serve --workers N`` (rami.service.front) keeps the service's HTTP rules:
protocol errors and deadlines, keep-alive, the connection cap, X-Forwarded-For believed only from
the allowed proxies. One real server of two workers on a free loopback port (127.0.0.1 only) for
the module; every socket loop bounded in count and in time."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest
from support.front import DEMO, exchange, post, raw_post

from rami.service.front import Front
from rami.service.settings import Settings
from rami.service.testing import LOOPBACK, ServerProcess


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
        (post("/validate", {"position": DEMO, "x": "a" * 3000}), 413, "the limit is 2000 bytes"),
        (
            b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"position":',
            408,
            "request body not received",
        ),
        (b"POST /validate HTTP/1.1\r\nHost: x\r\n", 408, "request headers not received"),
        (
            raw_post(
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
    ((got, headers, body),) = exchange(front.port, raw, timeout=10)
    assert got == status, (got, body)
    assert headers["content-type"] == "application/json"
    assert set(body) == {"error", "field", "problems"} and words in body["error"]


def test_keep_alive_through_the_front(front: ServerProcess) -> None:
    raw = (
        post("/validate", {"position": DEMO}, close=False)
        + b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        + b"GET /rulesets HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    answers = exchange(front.port, raw, answers=3)
    assert [status for status, _, _ in answers] == [200, 200, 200]
    assert answers[0][2]["valid"] is True and answers[1][2]["status"] == "ok"
    assert answers[2][1]["connection"] == "close"


def test_the_connection_cap_through_the_front(front: ServerProcess) -> None:
    """Idle sockets past the cap (20) are evicted for a new request; when every connection has
    a request under way, the new one gets the JSON 503 with Retry-After."""
    idle = [socket.create_connection((LOOPBACK, front.port), timeout=5) for _ in range(30)]
    try:
        assert (
            exchange(front.port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")[
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
        ((status, headers, body),) = exchange(
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
    assert exchange(front.port, raw)[0][0] == 200
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
