"""uvicorn's h11 protocol with read deadlines, a connection cap that idle sockets cannot fill,
and JSON answers for everything it says itself.

uvicorn (0.54) times a connection out only when it idles after a response (``timeout_keep_alive``);
a socket that never sends its request, or sends it a byte at a time, stays open for ever, and
``limit_concurrency`` counts such sockets, so a few hundred of them turn every request into a
plain-text 503. :class:`GuardedH11Protocol` adds:

* a **header deadline**: a connection has ``header_timeout`` seconds, from its opening or from
  the end of the previous response, to send complete request headers; past it the connection is
  closed (with a JSON 408 when part of a request came);
* a **body deadline**: ``body_timeout`` seconds from the headers to the end of the body (a body
  shorter than its Content-Length gets a JSON 408 instead of hanging);
* a **connection cap** that evicts: past ``max_connections`` open connections, the one that has
  waited longest for its request headers is closed to make room (idle keep-alive sockets and slow
  senders go first); only when every connection has a request under way is the new one answered
  a JSON 503 (``Retry-After: 1``). uvicorn's own ``limit_concurrency`` is not used;
* JSON bodies, in the service's error shape, for the protocol errors it answers itself (400 for a
  malformed request, 431 for headers over ``h11_max_incomplete_event_size``).

The settings come from :attr:`GuardedH11Protocol.settings` (set by :func:`protocol_class`) or,
in worker processes, from the ``RAMI_SERVICE_*`` environment.
"""

from __future__ import annotations

import asyncio
import functools
import resource
from collections import OrderedDict
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from rami.service.errors import error_bytes
from rami.service.refusals import MALFORMED, body_timeout, head_timeout, head_too_large
from rami.service.settings import Settings

#: Largest request head (request line and headers) accepted, in bytes (431 beyond).
MAX_HEADER_BYTES = 16 * 1024
#: File descriptors kept free of connections (listening socket, pipes, logs, solver processes).
FD_RESERVE = 64


def fd_limit() -> int:
    """The soft limit on open files of this process."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def raise_fd_limit(wanted: int) -> int:
    """Raise the soft open-files limit towards ``wanted`` (never past the hard limit); the limit
    in force afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            return soft
        return target
    return soft


def connection_cap(max_connections: int) -> int:
    """The cap in force: the setting, within the open-files limit less a reserve."""
    return max(1, min(max_connections, fd_limit() - FD_RESERVE))


@functools.cache
def _env_settings() -> Settings:
    return Settings.from_env()


def _raw_response(status: int, reason: str, error: str, extra: str = "") -> bytes:
    body = error_bytes(error, None)
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n{extra}\r\n"
    )
    return head.encode("ascii") + body


async def _connection_limit_app(scope: Any, receive: Any, send: Any) -> None:
    """The answer on a connection opened past the cap when none could be freed."""
    body = error_bytes(
        "server busy: every connection has a request under way; try again shortly", None
    )
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                (b"retry-after", b"1"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body, "more_body": False})


class GuardedH11Protocol(H11Protocol):
    #: The limits; None: ``Settings.from_env()`` (worker processes).
    settings: ClassVar[Settings | None] = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        settings = type(self).settings or _env_settings()
        self.limit_concurrency = None  # replaced by the evicting cap below
        self._cap = connection_cap(settings.max_connections)
        self._header_timeout = settings.header_timeout
        self._body_timeout = settings.body_timeout
        state = self.server_state
        waiting = getattr(state, "rami_waiting", None)
        if waiting is None:
            waiting = OrderedDict()
            state.rami_waiting = waiting  # type: ignore[attr-defined]
        #: Connections waiting for request headers, the longest-waiting first.
        self._waiting: OrderedDict[GuardedH11Protocol, None] = waiting
        self._phase = "new"  # headers -> body -> busy -> headers ...
        self._timer: asyncio.TimerHandle | None = None
        self._head_bytes = 0
        self._head = bytearray()

    # ------------------------------------------------------------------ connection events

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self._cap and not self._evict_one():
            self.app = _connection_limit_app  # this connection's requests get the JSON 503
        self._track()

    def connection_lost(self, exc: Exception | None) -> None:
        self._forget()
        self._phase = "closed"
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._phase == "headers":
            self._head_bytes += len(data)
            # h11 bounds only an incomplete head: a long one that comes whole is refused here.
            if len(self._head) <= MAX_HEADER_BYTES + 4:
                self._head += data[: MAX_HEADER_BYTES + 8]
            end = self._head.find(b"\r\n\r\n")
            if end > MAX_HEADER_BYTES or (end == -1 and len(self._head) > MAX_HEADER_BYTES):
                self._head_too_large()
                return
        super().data_received(data)

    def handle_events(self) -> None:
        super().handle_events()
        self._track()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._track()

    # ------------------------------------------------------------------ phases and deadlines

    def _track(self) -> None:
        """Follow the request's phase from h11's state and keep the matching deadline."""
        if self.transport is None or self.transport.is_closing():
            self._forget()
            return
        theirs = self.conn.their_state
        if theirs is h11.IDLE:
            if self._phase != "headers":
                self._phase = "headers"
                self._head_bytes = 0
                self._head = bytearray()
                self._waiting.pop(self, None)
                self._waiting[self] = None
                self._arm(self._header_timeout, self._header_timed_out)
        elif theirs is h11.SEND_BODY:
            if self._phase != "body":
                self._phase = "body"
                self._waiting.pop(self, None)
                self._arm(self._body_timeout, self._body_timed_out)
        elif self._phase != "busy":  # the request is in: the application answers it
            self._phase = "busy"
            self._forget()

    def _arm(self, delay: float, callback: Any) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self.loop.call_later(delay, callback)

    def _forget(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._waiting.pop(self, None)

    def _evict_one(self) -> bool:
        """Close the connection that has waited longest for its headers; False if none."""
        while self._waiting:
            oldest, _ = self._waiting.popitem(last=False)
            if oldest is self or oldest.transport is None or oldest.transport.is_closing():
                continue
            oldest._close_waiting()
            return True
        return False

    def _close_waiting(self) -> None:
        """Close a connection waiting for its headers: a JSON 408 if part of a request came."""
        self._forget()
        if self._head_bytes:
            self.transport.write(
                _raw_response(
                    408,
                    "Request Timeout",
                    head_timeout(self._header_timeout),
                )
            )
        self.transport.close()

    def _header_timed_out(self) -> None:
        self._timer = None
        if self._phase == "headers" and not self.transport.is_closing():
            self._close_waiting()

    def _body_timed_out(self) -> None:
        self._timer = None
        if self._phase != "body" or self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            body = error_bytes(body_timeout(self._body_timeout), "body")
            try:
                self.transport.write(
                    self.conn.send(
                        h11.Response(
                            status_code=408,
                            reason=b"Request Timeout",
                            headers=[
                                (b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close"),
                            ],
                        )
                    )
                )
                self.transport.write(self.conn.send(h11.Data(data=body)))
                self.transport.write(self.conn.send(h11.EndOfMessage()))
            except h11.LocalProtocolError:
                pass
            cycle.response_started = cycle.response_complete = True
        if cycle is not None:
            cycle.disconnected = True  # the application's receive() now says so
            cycle.message_event.set()
        self.transport.close()

    # ------------------------------------------------------------------ errors, as JSON

    def _head_too_large(self) -> None:
        self._forget()
        self.transport.write(
            _raw_response(
                431,
                "Request Header Fields Too Large",
                head_too_large(MAX_HEADER_BYTES),
            )
        )
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        pending = len(self.conn.trailing_data[0])
        if pending >= MAX_HEADER_BYTES:
            status, reason = 431, b"Request Header Fields Too Large"
            error = head_too_large(MAX_HEADER_BYTES)
        else:
            status, reason = 400, b"Bad Request"
            error = MALFORMED
        body = error_bytes(error, None)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        try:
            self.transport.write(
                self.conn.send(h11.Response(status_code=status, headers=headers, reason=reason))
            )
            self.transport.write(self.conn.send(h11.Data(data=body)))
            self.transport.write(self.conn.send(h11.EndOfMessage()))
        except h11.LocalProtocolError:
            self.transport.write(_raw_response(status, reason.decode(), error))
        self._forget()
        self.transport.close()


def protocol_class(settings: Settings | None) -> type[GuardedH11Protocol]:
    """:class:`GuardedH11Protocol` with these limits (None: from the environment, as worker
    processes read them; the class itself is then used, which pickles by name)."""
    if settings is None:
        return GuardedH11Protocol
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"settings": settings})
