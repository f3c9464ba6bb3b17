"""Bad input once let through, at the HTTP service: a JSON key given twice (a 422 naming it; the
OpenAPI document still shows the request bodies), a time limit that is not finite (the settings
never give one; a 422), a Content-Length with chunked encoding (a 400 through the app and on the
wire).

Each gets a clear, specific error, never a traceback, a hang or a wrong answer. A real uvicorn
server on a free loopback port (127.0.0.1 only), in a thread of this process, one for the module.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from rami.service import Settings, create_app
from rami.service.testing import LOOPBACK, BackgroundServer


def _post(
    port: int, path: str, body: bytes, *, extra: bytes = b""
) -> tuple[int, dict[str, str], Any]:
    """One request on a raw socket to the loopback server: status, headers, decoded body."""
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            "Content-Type: application/json\r\n".encode()
            + extra
            + b"Content-Length: "
            + str(len(body)).encode()
            + b"\r\n\r\n"
            + body
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, payload = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, json.loads(payload) if payload else None


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(create_app(Settings(default_time_limit=2.0))) as running:
        yield running


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/solve", b'{"position": {"table": [], "hand": ["TH"], "hand": ["KS"]}}', "position.hand"),
        ("/solve", b'{"position": "- / KS", "time_limit": 1, "time_limit": 9}', "time_limit"),
        ("/validate", b'{"position": "- / TH", "position": "- / KS"}', "position"),
    ],
)
def test_the_service_refuses_a_key_given_twice(
    server: BackgroundServer, path: str, body: bytes, field: str
) -> None:
    status, headers, answer = _post(server.port, path, body)
    assert status == 422 and headers["content-type"] == "application/json"
    assert answer["field"] == field
    assert answer["error"].startswith(f"duplicate key '{field.rsplit('.', 1)[-1]}'")
    # The body without the repeat is served as before.
    status, _, answer = _post(server.port, "/validate", b'{"position": "- / KS"}')
    assert status == 200 and answer["valid"] is True


def test_the_openapi_schema_still_documents_the_request_bodies() -> None:
    document = create_app(Settings()).openapi()
    body = document["paths"]["/solve"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/SolveRequest"
    }


def test_the_service_settings_never_give_an_unbounded_time_limit() -> None:
    settings = Settings()
    assert settings.time_limit(None) == settings.default_time_limit
    assert settings.time_limit(1e9) == settings.max_time_limit
    for value in (math.inf, math.nan, -1.0, 0.0):
        with pytest.raises(ValueError, match="finite positive"):
            settings.time_limit(value)


@pytest.mark.parametrize("limit", [b"Infinity", b"1e309", b"NaN", b"-Infinity"])
@pytest.mark.parametrize("path", ["/solve", "/hint"])
def test_the_service_refuses_an_unbounded_time_limit(
    server: BackgroundServer, path: str, limit: bytes
) -> None:
    status, _, answer = _post(
        server.port, path, b'{"position": "- / TH", "time_limit": ' + limit + b"}"
    )
    assert status == 422 and answer["field"] == "time_limit", answer


# ------------------------------------------------------------------ 6: ambiguous framing


def _asgi_request(app: Any, headers: list[tuple[bytes, bytes]], body: bytes) -> list[Any]:
    """One request straight through the ASGI app (its middleware first); the messages sent."""
    sent: list[Any] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> Any:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/validate",
        "raw_path": b"/validate",
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": (LOOPBACK, 1),
        "server": (LOOPBACK, 2),
    }
    asyncio.run(app(scope, receive, send))
    return sent


BODY = b'{"position": "- / TH"}'


@pytest.mark.parametrize(
    "headers",
    [
        [(b"content-length", str(len(BODY)).encode()), (b"transfer-encoding", b"chunked")],
        [(b"transfer-encoding", b"chunked"), (b"content-length", b"0")],
    ],
)
def test_content_length_with_chunked_encoding_is_a_400_through_the_app(
    headers: list[tuple[bytes, bytes]],
) -> None:
    app = create_app(Settings())
    sent = _asgi_request(app, [(b"content-type", b"application/json"), *headers], BODY)
    start, body = sent
    assert start["status"] == 400
    assert (b"connection", b"close") in start["headers"]
    answer = json.loads(body["body"])
    assert "ambiguous request framing" in answer["error"] and answer["field"] == "body"
    # One framing header: served.
    sent = _asgi_request(
        app,
        [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())],
        BODY,
    )
    assert sent[0]["status"] == 200


def _raw(port: int, data: bytes) -> bytes:
    with socket.create_connection((LOOPBACK, port), timeout=30) as sock:
        sock.sendall(data)
        answer = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                answer += chunk
    return answer


def test_content_length_with_chunked_encoding_is_a_400_on_the_wire(
    server: BackgroundServer,
) -> None:
    chunked = hex(len(BODY))[2:].encode() + b"\r\n" + BODY + b"\r\n0\r\n\r\n"
    head = b"POST /validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    answer = _raw(
        server.port,
        head
        + b"Content-Length: "
        + str(len(BODY)).encode()
        + b"\r\nTransfer-Encoding: chunked\r\n\r\n"
        + chunked,
    )
    assert answer.startswith(b"HTTP/1.1 400 "), answer
    assert b"connection: close" in answer.lower()
    assert b"ambiguous request framing" in answer
    assert answer.count(b"HTTP/1.1") == 1  # nothing of the body was read as a next request
    # Chunked alone, and Content-Length alone, are served.
    answer = _raw(
        server.port, head + b"Connection: close\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked
    )
    assert answer.startswith(b"HTTP/1.1 200 "), answer
    status, _, _ = _post(server.port, "/validate", BODY)
    assert status == 200
