"""Requests through the front of ``rami serve --workers N`` in tests
(tests/test_service_front_*.py): raw HTTP exchanges on one loopback connection, every socket loop
bounded in count and in time, and a solve posted."""

from __future__ import annotations

import json
import socket
from typing import Any

from rami.service.testing import LOOPBACK

DEMO = "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 6H QH 8C 5D 5S KD / rami-chinois opened"


def exchange(
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


def post(path: str, body: Any, *, close: bool = True) -> bytes:
    return raw_post(path, json.dumps(body).encode(), close=close)


def raw_post(path: str, payload: bytes, *, close: bool = True) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        f"{'Connection: close' if close else 'X-Keep: 1'}\r\nContent-Length: {len(payload)}"
        "\r\n\r\n"
    ).encode() + payload
