"""A request body size limit as pure ASGI middleware (413 with the service's JSON error).

The body is read (up to the limit) before the application sees it, whether it comes with a
``Content-Length`` or chunked. A body over the limit is drained, up to ``DRAIN_FACTOR`` times the
limit, before the 413 goes out, so that the client reads the answer instead of a reset
connection; beyond that the connection is closed.

Two more checks happen here, where every request passes before the application sees it:

* a request that frames its body twice, with both ``Content-Length`` and ``Transfer-Encoding``
  (h11 would read it as chunked and forget the length: a proxy in front may have read it the
  other way, the classic request smuggling), is refused with 400 and the connection closed;
* a JSON body in which an object gives a key twice (``{"time_limit": 1, "time_limit": 9}``:
  the JSON decoder would keep the last one silently) is refused with 422 naming the key.
"""

from __future__ import annotations

import asyncio
import contextlib
import email.message
import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rami.notation import (
    DuplicateKeyError,
    duplicate_key_message,
    duplicate_key_path,
    loc_text,
    unique_keys,
)
from rami.service.errors import error_bytes
from rami.service.refusals import FRAMED_TWICE, body_too_large

DRAIN_FACTOR = 16


class BodySizeLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _framed_twice(scope):
            await _send_error(
                send,
                400,
                FRAMED_TWICE,
                close=True,
            )
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
        body = b"".join(chunks)
        duplicate = _duplicate_key(scope, body)
        if duplicate is not None:
            await _send_error(send, 422, *duplicate, close=False)
            return
        await run_until_disconnect(self.app, scope, body, receive, send)

    async def _too_large(self, send: Send, *, close: bool) -> None:
        await _send_error(
            send,
            413,
            body_too_large(self.max_bytes),
            close=close,
        )


async def run_until_disconnect(
    app: ASGIApp, scope: Scope, body: bytes, receive: Receive, send: Send
) -> None:
    """Run ``app`` on a body already read, and cancel it if the client disconnects before the
    response is complete (a solve waiting for it is then stopped: :mod:`rami.service.pool`).

    The app sees the body as one message; a later ``receive()`` waits for the disconnect.
    """
    gone = asyncio.Event()
    replayed = False
    completed = False

    async def replay() -> Message:
        nonlocal replayed
        if not replayed:
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def tracked_send(message: Message) -> None:
        nonlocal completed
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            completed = True
        await send(message)

    task = asyncio.ensure_future(app(scope, replay, tracked_send))
    watch = asyncio.ensure_future(receive())
    try:
        await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
        if (
            not task.done()
            and not watch.cancelled()
            and watch.exception() is None
            and watch.result()["type"] == "http.disconnect"
            and not completed
        ):
            gone.set()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            return
        await task
    finally:
        for pending in (task, watch):
            if not pending.done():
                pending.cancel()


def _framed_twice(scope: Scope) -> bool:
    """Both a Content-Length and a Transfer-Encoding header (RFC 9112 6.3: ambiguous)."""
    names = {name.lower() for name, _ in scope.get("headers", ())}
    return b"content-length" in names and b"transfer-encoding" in names


def _is_json(scope: Scope) -> bool:
    """Is the body declared JSON (what FastAPI then decodes: application/json, ...+json)?"""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-type":
            message = email.message.Message()
            message["content-type"] = value.decode("latin-1")
            subtype = message.get_content_subtype()
            return message.get_content_maintype() == "application" and (
                subtype == "json" or subtype.endswith("+json")
            )
    return False


def _duplicate_key(scope: Scope, body: bytes) -> tuple[str, str | None] | None:
    """(the error, the field) when a JSON body gives a key twice in one object, else None.

    Anything else wrong with the body (not JSON, too deep) is left to the application, which
    answers it as before."""
    if not body or not _is_json(scope):
        return None
    try:
        json.loads(body, object_pairs_hook=unique_keys)
    except DuplicateKeyError as error:
        loc = duplicate_key_path(body)
        return duplicate_key_message(error.key, loc), (loc_text(loc) if loc else None) or "body"
    except (ValueError, RecursionError):
        return None
    return None


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


async def _send_error(
    send: Send, status: int, error: str, field: str | None = "body", *, close: bool
) -> None:
    body = error_bytes(error, field)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
