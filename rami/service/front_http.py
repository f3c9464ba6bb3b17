"""One client connection of the front (:mod:`rami.service.front`), read with h11: the same HTTP
rules as a worker's protocol (:mod:`rami.service.protocol`) and body limit
(:mod:`rami.service.limits`), so that an answer is the same with or without the front:

* a header deadline (``header_timeout`` from the connection's opening or the end of the previous
  answer: closed, with a JSON 408 when part of a request came) and a body deadline
  (``body_timeout`` from the headers: a JSON 408);
* request heads over :data:`~rami.service.protocol.MAX_HEADER_BYTES` get 431, malformed requests
  400, a request that frames its body twice (Content-Length and Transfer-Encoding) 400 and the
  connection closed;
* a body over ``max_body_bytes`` gets 413, after being drained up to
  :data:`~rami.service.limits.DRAIN_FACTOR` times the limit (else the connection is closed).

Keep-alive works as h11 says (HTTP/1.1 unless ``Connection: close``, HTTP/1.0 closes).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

import h11

from rami.service.errors import error_bytes
from rami.service.front_forward import Answer
from rami.service.limits import DRAIN_FACTOR
from rami.service.protocol import MAX_HEADER_BYTES
from rami.service.refusals import (
    FRAMED_TWICE,
    MALFORMED,
    body_timeout,
    body_too_large,
    head_timeout,
    head_too_large,
)

if TYPE_CHECKING:
    from rami.service.front import Front

TOO_LARGE_HEAD = head_too_large(MAX_HEADER_BYTES)
JSON = (b"content-type", b"application/json")


def raw_error(status: int, reason: str, error: str, extra: str = "") -> bytes:
    """A JSON error answer that closes the connection, written below h11."""
    body = error_bytes(error, None)
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n{extra}\r\n"
    )
    return head.encode("ascii") + body


def error_answer(
    status: int,
    reason: str,
    error: str,
    field: str | None = None,
    *,
    close: bool = False,
    retry_after: int | None = None,
) -> Answer:
    body = error_bytes(error, field)
    headers = [JSON, (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    return Answer(status, reason.encode(), headers, body, close=close)


class _Done(Exception):
    """The request was answered (or the connection is lost); ``keep``: serve the next one."""

    def __init__(self, keep: bool) -> None:
        self.keep = keep


class ClientConnection:
    def __init__(
        self, front: Front, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        self.front = front
        self.settings = front.settings
        self.reader = reader
        self.writer = writer
        self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEADER_BYTES)
        self.peer = writer.get_extra_info("peername")
        self.head = bytearray()
        self.head_bytes = 0
        self.closed = False

    async def serve(self) -> None:
        """Answer requests until the connection ends."""
        try:
            while not self.closed:
                self.front.waiting(self, True)
                request = await self._read_head()
                self.front.waiting(self, False)
                try:
                    await self._answer(request)
                except _Done as done:
                    if not done.keep:
                        return
                if (
                    self.conn.our_state is not h11.DONE
                    or self.conn.their_state is not h11.DONE
                    or self.front.stopping
                ):
                    return
                self.conn.start_next_cycle()
        except _Done:
            return
        finally:
            self.front.waiting(self, False)
            self.close()

    def close(self) -> None:
        self.closed = True
        self.writer.close()

    def close_waiting(self) -> None:
        """Close this connection, which waits for request headers: a JSON 408 if part of a
        request came (evicted past the connection cap, timed out, or the server stopping)."""
        if self.head_bytes and not self.closed:
            self.writer.write(
                raw_error(
                    408,
                    "Request Timeout",
                    head_timeout(self.settings.header_timeout),
                )
            )
        self.close()

    # ------------------------------------------------------------------ reading

    async def _receive(self, deadline: float) -> bool:
        """Read more into h11; False when the deadline passed first."""
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            return False
        try:
            data = await asyncio.wait_for(self.reader.read(65536), remaining)
        except TimeoutError:
            return False
        except OSError:
            data = b""
        if not data or self.closed:
            raise _Done(False)  # the client left (or was evicted)
        if self.conn.their_state is h11.IDLE:
            self._check_head(data)
        self.conn.receive_data(data)
        return True

    def _check_head(self, data: bytes) -> None:
        """431 for a head over the limit (h11 bounds only a head that is still incomplete)."""
        self.head_bytes += len(data)
        if len(self.head) <= MAX_HEADER_BYTES + 4:
            self.head += data[: MAX_HEADER_BYTES + 8]
        end = self.head.find(b"\r\n\r\n")
        if end > MAX_HEADER_BYTES or (end == -1 and len(self.head) > MAX_HEADER_BYTES):
            self.writer.write(raw_error(431, "Request Header Fields Too Large", TOO_LARGE_HEAD))
            self.close()
            raise _Done(False)

    async def _next(self, deadline: float, on_timeout: str) -> h11.Event:
        while True:
            try:
                event = self.conn.next_event()
            except h11.RemoteProtocolError as error:
                self._protocol_error(error)
                raise _Done(False) from None
            if event is not h11.NEED_DATA:
                if isinstance(event, h11.ConnectionClosed) or event is h11.PAUSED:
                    raise _Done(False)
                assert isinstance(event, h11.Event)
                return event
            if not await self._receive(deadline):
                await self._timed_out(on_timeout)
                raise _Done(False)

    async def _read_head(self) -> h11.Request:
        pending = bytes(self.conn.trailing_data[0])  # what came after the previous request
        self.head = bytearray(pending[: MAX_HEADER_BYTES + 8])
        self.head_bytes = len(pending)
        deadline = asyncio.get_running_loop().time() + self.settings.header_timeout
        event = await self._next(deadline, "head")
        if not isinstance(event, h11.Request):
            raise _Done(False)
        return event

    async def _timed_out(self, what: str) -> None:
        if what == "head":
            self.close_waiting()
            return
        await self.send(
            error_answer(
                408,
                "Request Timeout",
                body_timeout(self.settings.body_timeout),
                "body",
                close=True,
            )
        )

    def _protocol_error(self, error: h11.RemoteProtocolError) -> None:
        if error.error_status_hint == 431 or len(self.conn.trailing_data[0]) >= MAX_HEADER_BYTES:
            answer = raw_error(431, "Request Header Fields Too Large", TOO_LARGE_HEAD)
        else:
            answer = raw_error(400, "Bad Request", MALFORMED)
        if not self.closed:
            self.writer.write(answer)
        self.close()

    async def _read_body(self, request: h11.Request) -> bytes:
        """The whole body (within the body deadline and the size limit)."""
        if self.conn.they_are_waiting_for_100_continue:
            self._write(h11.InformationalResponse(status_code=100, headers=[]))
        limit = self.settings.max_body_bytes
        deadline = asyncio.get_running_loop().time() + self.settings.body_timeout
        chunks: list[bytes] = []
        size = 0
        while not isinstance(event := await self._next(deadline, "body"), h11.EndOfMessage):
            if isinstance(event, h11.Data):
                size += len(event.data)
                if size > limit:
                    await self._too_large(drain=limit * DRAIN_FACTOR - size, deadline=deadline)
                chunks.append(bytes(event.data))
        return b"".join(chunks)

    async def _too_large(self, *, drain: int, deadline: float) -> None:
        """Answer 413: after the rest of the body when it fits in ``drain`` bytes, else with
        the connection closed (as :class:`rami.service.limits.BodySizeLimit`)."""
        drained = False
        if self.conn.they_are_waiting_for_100_continue:
            self._write(h11.InformationalResponse(status_code=100, headers=[]))
        try:
            while drain >= 0:
                event = await self._next(deadline, "body")
                if isinstance(event, h11.EndOfMessage):
                    drained = True
                    break
                if isinstance(event, h11.Data):
                    drain -= len(event.data)
        except _Done:
            if self.closed or self.conn.our_state is not h11.SEND_RESPONSE:
                raise  # answered already (408 at the body deadline)
        await self.send(
            error_answer(
                413,
                "Request Entity Too Large",
                body_too_large(self.settings.max_body_bytes),
                "body",
                close=not drained,
            )
        )
        raise _Done(drained)

    # ------------------------------------------------------------------ answering

    async def _answer(self, request: h11.Request) -> None:
        names = {name for name, _ in request.headers}
        if b"content-length" in names and b"transfer-encoding" in names:
            await self.send(error_answer(400, "Bad Request", FRAMED_TWICE, "body", close=True))
            raise _Done(False)
        length = next(
            (int(value) for name, value in request.headers if name == b"content-length"), None
        )
        limit = self.settings.max_body_bytes
        if length is not None and length > limit:
            if length > limit * DRAIN_FACTOR:
                await self.send(
                    error_answer(
                        413, "Request Entity Too Large", body_too_large(limit), "body", close=True
                    )
                )
                raise _Done(False)
            deadline = asyncio.get_running_loop().time() + self.settings.body_timeout
            await self._too_large(drain=limit * DRAIN_FACTOR, deadline=deadline)
        body = await self._read_body(request)
        answer = await self._forwarded(request, body)
        if answer is None:
            raise _Done(False)
        if answer.streamed:
            self._write(h11.EndOfMessage())
            await self._drain()
        else:
            await self.send(answer)

    async def _forwarded(self, request: h11.Request, body: bytes) -> Answer | None:
        """The front's answer, while watching the client: one that leaves (or shuts its side)
        cancels the request, whose worker connection then closes (a solve is stopped)."""
        task = asyncio.ensure_future(self.front.forward(request, body, self))
        watch = asyncio.ensure_future(self.reader.read(65536))
        try:
            await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
            if watch.done():
                data = b"" if watch.cancelled() or watch.exception() else watch.result()
                if not data:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
                    raise _Done(False)
                self.conn.receive_data(data)  # the next request, already: kept for later
            return await task
        finally:
            watch.cancel()
            if not task.done():
                task.cancel()

    async def send(self, answer: Answer) -> None:
        """Write a whole answer (h11 frames it; ``close`` ends the connection after it)."""
        self._write(self._head(answer), h11.EndOfMessage())
        await self._drain()

    async def start(self, answer: Answer) -> None:
        """Write the head and the body so far of an answer (the rest comes in :meth:`more`)."""
        self._write(self._head(answer))
        await self._drain()

    def _head(self, answer: Answer) -> list[h11.Event]:
        headers = list(answer.headers)
        if answer.close or self.front.stopping:
            headers.append((b"connection", b"close"))
        events: list[h11.Event] = [
            h11.Response(status_code=answer.status, reason=answer.reason, headers=headers)
        ]
        if answer.body:
            events.append(h11.Data(data=answer.body))
        return events

    async def more(self, data: bytes) -> None:
        self._write(h11.Data(data=data))
        await self._drain()

    def _write(self, *events: h11.Event | list[h11.Event]) -> None:
        """Write these events in one piece (one system call, one segment when small)."""
        if self.closed:
            return
        data = bytearray()
        try:
            for item in events:
                for event in item if isinstance(item, list) else [item]:
                    data += self.conn.send(event) or b""
        except h11.LocalProtocolError:
            self.close()
            return
        if data:
            self.writer.write(bytes(data))

    async def _drain(self) -> None:
        if self.closed:
            return
        try:
            await self.writer.drain()
        except OSError:
            self.close()
