"""A request body size limit as pure ASGI middleware (413 with the service's JSON error).

The body is read (up to the limit) before the application sees it, whether it comes with a
``Content-Length`` or chunked. A body over the limit is drained, up to ``DRAIN_FACTOR`` times the
limit, before the 413 goes out, so that the client reads the answer instead of a reset
connection; beyond that the connection is closed.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DRAIN_FACTOR = 16


class BodySizeLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared == -1:
            await _send_error(send, 400, "invalid Content-Length header", close=True)
            return
        drain_budget = self.max_bytes * DRAIN_FACTOR
        if declared is not None and declared > self.max_bytes:
            if declared > drain_budget:
                await self._too_large(send, close=True)
                return
            drained = await _drain(receive, drain_budget)
            await self._too_large(send, close=not drained)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body = message.get("body", b"")
            size += len(body)
            if size > self.max_bytes:
                drained = not message.get("more_body", False) or await _drain(
                    receive, drain_budget - size
                )
                await self._too_large(send, close=not drained)
                return
            chunks.append(body)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send, *, close: bool) -> None:
        await _send_error(
            send,
            413,
            f"request body too large: the limit is {self.max_bytes} bytes",
            close=close,
        )


def _content_length(scope: Scope) -> int | None:
    """The declared length, None when absent, -1 when malformed."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                length = int(value)
            except ValueError:
                return -1
            return length if length >= 0 else -1
    return None


async def _drain(receive: Receive, budget: int) -> bool:
    """Read and drop the rest of the body; False when it exceeds ``budget`` or the client left."""
    while budget >= 0:
        message = await receive()
        if message["type"] == "http.disconnect":
            return False
        budget -= len(message.get("body", b""))
        if not message.get("more_body", False):
            return budget >= 0
    return False


async def _send_error(send: Send, status: int, error: str, *, close: bool) -> None:
    payload: dict[str, Any] = {"error": error, "field": "body"}
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
