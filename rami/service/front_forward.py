"""The front's side of a worker (:mod:`rami.service.front`): one request sent to a worker on a
new Unix-socket connection and its answer read back with h11 (:func:`exchange`), and which
requests may be sent again when the worker ends under them (:func:`idempotent`).

A worker that ends (or whose connection breaks) before its whole answer came is a
:class:`WorkerBroken`, which says whether the request may have reached it (``sent``) and whether
part of the answer went to the client already (``committed``: a large answer is passed on as it
comes, past :data:`RESPONSE_BUFFER` bytes).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Protocol

import h11

#: Methods that never change anything on the server.
IDEMPOTENT_METHODS = frozenset({b"GET", b"HEAD", b"OPTIONS"})
#: POST endpoints that only compute an answer from the request (sending one twice changes
#: nothing); the game actions and ``POST /puzzles/attempts`` record something and are not here.
IDEMPOTENT_POSTS = frozenset(
    {
        b"/solve",
        b"/hint",
        b"/validate",
        b"/validate-turn",
        b"/review",
        b"/alternatives",
        b"/bot/turn",
        b"/puzzles/check",
    }
)
#: Bytes of an answer held back until it is complete (so that it can still be asked again of
#: another worker); a longer answer is passed on as it comes.
RESPONSE_BUFFER = 1 << 20
#: Request headers not passed on: they describe the connection to the front, which frames the
#: request again (Content-Length) and names the client itself (X-Forwarded-*).
DROPPED_REQUEST_HEADERS = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-connection",
        b"te",
        b"trailer",
        b"transfer-encoding",
        b"upgrade",
        b"content-length",
        b"expect",
        b"x-forwarded-for",
        b"x-forwarded-proto",
    }
)
#: Answer headers not passed on: h11 frames the answer to the client again.
DROPPED_ANSWER_HEADERS = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-connection",
        b"trailer",
        b"transfer-encoding",
        b"upgrade",
    }
)


def idempotent(method: bytes, target: bytes) -> bool:
    """May this request be sent again to another worker (it changes nothing on the server)?"""
    if method in IDEMPOTENT_METHODS:
        return True
    return method == b"POST" and target.split(b"?", 1)[0] in IDEMPOTENT_POSTS


class WorkerBroken(Exception):
    """The worker's connection ended before its whole answer came."""

    def __init__(self, *, sent: bool, committed: bool = False) -> None:
        super().__init__("the worker's connection ended before its answer")
        self.sent = sent
        self.committed = committed


@dataclass
class Answer:
    status: int
    reason: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes = b""
    #: The worker asked to close the client's connection after this answer.
    close: bool = False
    #: The head and the first part of the body went to the client already (a long answer).
    streamed: bool = False
    extra: list[bytes] = field(default_factory=list)


class Sink(Protocol):
    """Where a long answer goes as it comes (the client's connection)."""

    async def start(self, answer: Answer) -> None: ...

    async def more(self, data: bytes) -> None: ...


@dataclass(eq=False)
class _Link:
    """One connection to a worker, kept open between requests."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    conn: h11.Connection
    since: float = 0.0

    def close(self) -> None:
        self.writer.close()


class Links:
    """The idle connections to one worker, kept for the next requests (a new connection costs
    both processes a connect, an accept and a close). One idle longer than ``max_idle`` (less
    than the worker's own keep-alive and header deadlines) is closed instead of reused."""

    def __init__(self, path: str, max_idle: float, keep: int = 32) -> None:
        self.path = path
        self.max_idle = max_idle
        self.keep = keep
        self.idle: list[_Link] = []

    async def get(self) -> _Link:
        now = asyncio.get_running_loop().time()
        while self.idle:
            link = self.idle.pop()
            if (
                now - link.since < self.max_idle
                and not link.writer.is_closing()
                and not link.reader.at_eof()
            ):
                return link
            link.close()
        reader, writer = await asyncio.open_unix_connection(self.path)
        return _Link(reader, writer, h11.Connection(h11.CLIENT))

    def put(self, link: _Link) -> None:
        if len(self.idle) >= self.keep:
            link.close()
            return
        link.conn.start_next_cycle()
        link.since = asyncio.get_running_loop().time()
        self.idle.append(link)

    def clear(self) -> None:
        while self.idle:
            self.idle.pop().close()


async def exchange(
    links: Links, request: h11.Request, headers: list[tuple[bytes, bytes]], body: bytes, sink: Sink
) -> Answer:
    """Send ``request`` (with ``headers`` and ``body``) to the worker of ``links``; its answer,
    whole unless longer than :data:`RESPONSE_BUFFER` (then ``streamed``)."""
    try:
        link = await links.get()
    except OSError as error:  # nothing was sent: any request may go to another worker
        raise WorkerBroken(sent=False) from error
    conn = link.conn
    reading = _AnswerReader(link.reader, conn, sink)
    try:
        link.writer.write(
            b"".join(
                (
                    conn.send(
                        h11.Request(method=request.method, target=request.target, headers=headers)
                    )
                    or b"",
                    (conn.send(h11.Data(data=body)) or b"") if body else b"",
                    conn.send(h11.EndOfMessage()) or b"",
                )
            )
        )
        await link.writer.drain()
        answer = await reading.answer()
    except (OSError, h11.ProtocolError, EOFError) as error:
        link.close()
        raise WorkerBroken(sent=True, committed=reading.streamed) from error
    except BaseException:  # cancelled (the client left): the worker sees it leave too
        link.close()
        raise
    if answer.close or conn.our_state is not h11.DONE or conn.their_state is not h11.DONE:
        link.close()
    else:
        links.put(link)
    return answer


class _AnswerReader:
    def __init__(self, reader: asyncio.StreamReader, conn: h11.Connection, sink: Sink) -> None:
        self.reader = reader
        self.conn = conn
        self.sink = sink
        self.streamed = False

    async def _event(self) -> h11.Event:
        event = self.conn.next_event()
        while event is h11.NEED_DATA:
            data = await self.reader.read(65536)
            self.conn.receive_data(data)  # b"": the end, which h11 judges (complete or not)
            event = self.conn.next_event()
        if not isinstance(event, h11.Event) or isinstance(event, h11.ConnectionClosed):
            raise EOFError("the worker closed the connection")
        return event

    async def answer(self) -> Answer:
        event = await self._event()
        while isinstance(event, h11.InformationalResponse):
            event = await self._event()
        if not isinstance(event, h11.Response):
            raise EOFError(f"unexpected event from the worker: {event!r}")
        close = any(
            name == b"connection" and b"close" in value.lower() for name, value in event.headers
        )
        answer = Answer(
            event.status_code,
            bytes(event.reason),
            [(name, value) for name, value in event.headers if name not in DROPPED_ANSWER_HEADERS],
            close=close,
        )
        size = 0
        while not isinstance(event := await self._event(), h11.EndOfMessage):
            if not isinstance(event, h11.Data):
                continue
            data = bytes(event.data)
            if self.streamed:
                await self.sink.more(data)
                continue
            answer.extra.append(data)
            size += len(data)
            if size > RESPONSE_BUFFER:
                answer.body, answer.extra = b"".join(answer.extra), []
                self.streamed = answer.streamed = True
                await self.sink.start(answer)
        if not self.streamed:
            answer.body, answer.extra = b"".join(answer.extra), []
        return answer
