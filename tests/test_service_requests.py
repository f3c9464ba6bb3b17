"""The HTTP service's refusals of a request's form, over real HTTP: an empty body, a body not
sent as JSON, an unknown path or method, a body too large (sent whole or in chunks, or only
declared, refused before it is read); a chunked body under the limit is read.

Every test talks to the session's uvicorn server (tests/conftest.py), on a free loopback port
(127.0.0.1 only).
"""

from __future__ import annotations

import http.client
import json
import socket
import urllib.parse
import urllib.request

import pytest
import support.service as shared
from support.service import DEMO, call, demo_position

#: The session's service (tests/conftest.py), this module's fixture.
server = shared.server


def test_empty_body_is_422(server: str) -> None:
    reply = call(server, "POST", "/hint", raw=b"")
    assert reply.status == 422
    assert reply.body == {
        "error": "the request needs a JSON object body",
        "field": "body",
        "problems": [],
    }


@pytest.mark.parametrize("content_type", ["text/plain", None])
def test_body_must_be_sent_as_json(server: str, content_type: str | None) -> None:
    reply = call(
        server,
        "POST",
        "/solve",
        raw=json.dumps({"position": DEMO}).encode(),
        content_type=content_type,
    )
    assert reply.status == 415
    assert reply.body["field"] == "body"


def test_unknown_path_and_wrong_method_are_json(server: str) -> None:
    missing = call(server, "GET", "/nowhere")
    assert missing.status == 404
    assert missing.body == {"error": "Not Found", "field": None, "problems": []}
    wrong = call(server, "GET", "/solve")
    assert wrong.status == 405 and wrong.body["error"] == "Method Not Allowed"


def test_body_too_large_is_413(server: str) -> None:
    hand = ["7H"] * 20_000  # about 120 KiB of JSON, over the 64 KiB limit
    reply = call(server, "POST", "/solve", {"position": demo_position(hand=hand)})
    assert reply.status == 413
    assert reply.body == {
        "error": "request body too large: the limit is 65536 bytes",
        "field": "body",
        "problems": [],
    }
    assert call(server, "GET", "/health").status == 200


def test_chunked_body_too_large_is_413(server: str) -> None:
    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        chunks = iter([b'{"position": "', *[b"x" * 8192] * 10, b'"}'])
        connection.request(
            "POST",
            "/solve",
            body=chunks,
            encode_chunked=True,
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        assert response.status == 413
        assert json.loads(response.read())["field"] == "body"
    finally:
        connection.close()


def test_huge_declared_length_is_refused_before_reading(server: str) -> None:
    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(
            b"POST /solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000000\r\n\r\n{"
        )
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert json.loads(body)["field"] == "body"


def test_chunked_body_under_the_limit_is_read(server: str) -> None:
    host, port = urllib.parse.urlsplit(server).netloc.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        text = json.dumps({"position": DEMO}).encode()
        chunks = iter([text[:10], text[10:50], text[50:]])
        connection.request(
            "POST",
            "/validate",
            body=chunks,
            encode_chunked=True,
            headers={"Content-Type": "application/json"},
        )
        response = connection.getresponse()
        assert response.status == 200
        assert json.loads(response.read())["valid"] is True
    finally:
        connection.close()
