"""Raw HTTP against ``rami serve`` processes in tests (tests/test_service_faults_*.py): a request
sent on a new loopback connection, its answer read (bounded in time) and parsed, and /health."""

from __future__ import annotations

import json
import socket
import time
from typing import Any

from rami.service.testing import LOOPBACK

DEMO_TEXT = "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 6H QH 8C 5D 5S KD / rami-chinois opened"


def raw_request(
    port: int, raw: bytes, *, timeout: float = 10.0
) -> tuple[int, dict[str, str], Any, float]:
    """Send ``raw`` on a new connection; (status, headers, JSON body or None, seconds)."""
    started = time.monotonic()
    with socket.create_connection((LOOPBACK, port), timeout=timeout) as sock:
        sock.sendall(raw)
        answer = _read_all(sock, timeout)
    return (*parse_answer(answer), time.monotonic() - started)


def _read_all(sock: socket.socket, timeout: float) -> bytes:
    """Everything until the server closes (or one complete answer with Content-Length)."""
    sock.settimeout(timeout)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, TimeoutError):
            break
        if not chunk:
            break
        data += chunk
        head, sep, body = data.partition(b"\r\n\r\n")
        if sep:
            length = next(
                (
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                ),
                None,
            )
            if length is not None and len(body) >= length:
                break
    return data


def parse_answer(answer: bytes) -> tuple[int, dict[str, str], Any]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0].startswith("HTTP/") else 0
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    try:
        parsed = json.loads(body) if body else None
    except ValueError:
        parsed = None
    return status, headers, parsed


def health_check(port: int) -> tuple[int, Any, float]:
    status, _, body, seconds = raw_request(
        port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    return status, body, seconds
