"""The front of ``rami serve --workers N`` (N above 1): one process owns the public socket and
passes each HTTP request to one of N worker processes, which it starts and restarts.

Why: when workers share the listening socket (uvicorn's own supervisor), ``kill -9`` of one
worker closes the connections it had accepted, and their clients get no answer at all. Here
the front holds every client connection, so a worker's death is answered:

* a request the worker could not have received (its socket refused the connection) goes to
  another worker;
* an **idempotent** request (GET, HEAD, OPTIONS, and the POSTs that only compute:
  :data:`rami.service.front_forward.IDEMPOTENT_POSTS`) whose worker ended before the whole
  answer came is sent once more, to another live worker;
* any other request caught that way (a game action, ``POST /puzzles/attempts``) gets a JSON
  **503** with ``Retry-After: 1``: it may or may not have been done;
* an answer longer than :data:`~rami.service.front_forward.RESPONSE_BUFFER` is passed on as it
  comes; if its worker ends after part of it went out, the client's connection is closed.

Workers are ``python -m rami.service.front_worker`` processes listening on Unix sockets in a
private directory; each watches the front and ends with it (``PR_SET_PDEATHSIG``, parent
polling). A request is given to the ready worker with the fewest requests under way. The HTTP
rules of one client connection are in :mod:`rami.service.front_http`. SIGTERM or Ctrl-C: the
port is closed at once, requests under way are answered, then the workers stop (a second
Ctrl-C ends them at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections import OrderedDict
from dataclasses import dataclass

import h11

from rami.service.front_forward import Answer, Links, WorkerBroken, exchange, idempotent
from rami.service.front_http import ClientConnection, error_answer, raw_error
from rami.service.protocol import connection_cap
from rami.service.settings import Settings
from rami.service.supervise import SUPERVISOR_ENV

log = logging.getLogger("uvicorn.error")

#: Seconds a request waits for a worker able to take it (while the workers start, or restart).
WORKER_WAIT = 30.0
#: How often a starting worker's socket is tried, and a running worker's process checked.
PROBE_EVERY = 0.05
POLL_EVERY = 0.1
#: A worker that ended sooner than this after its start is restarted only after this long.
RESTART_BACKOFF = 1.0
BUSY = "server busy: every connection has a request under way; try again shortly"
NO_WORKER = "no server worker is available; try again shortly"
LOST = (
    "the server worker handling this request ended before answering; the request was not "
    "sent again, as it may have changed something: check, then try again"
)


@dataclass(eq=False)
class Slot:
    """One worker: its socket, its process (replaced when it ends), and its load."""

    index: int
    path: str
    process: subprocess.Popen[bytes] | None = None
    ready: bool = False
    inflight: int = 0
    used: int = 0
    links: Links | None = None


class Front:
    def __init__(self, settings: Settings, workers: int, log_level: str = "info") -> None:
        self.settings = settings
        self.workers = workers
        self.log_level = log_level
        self.slots: list[Slot] = []
        self.stopping = False
        self.cap = connection_cap(settings.max_connections)
        self.connections: set[ClientConnection] = set()
        #: Connections waiting for request headers, the longest-waiting first.
        self.waiting_list: OrderedDict[ClientConnection, None] = OrderedDict()
        self.handlers: set[asyncio.Task[None]] = set()
        self.trusted = None
        if settings.forwarded_allow_ips:
            from uvicorn.middleware.proxy_headers import _TrustedHosts

            self.trusted = _TrustedHosts(settings.forwarded_allow_ips)
        self.retried = 0
        self._uses = 0
        self._stop: asyncio.Event | None = None

    # ------------------------------------------------------------------ running

    async def main(self, sock: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stop)
        directory = tempfile.mkdtemp(prefix="rami-serve-")
        self.slots = [
            Slot(index, os.path.join(directory, f"worker-{index}.sock"))
            for index in range(self.workers)
        ]
        max_idle = min(self.settings.keep_alive_timeout, self.settings.header_timeout) / 2
        for slot in self.slots:
            slot.links = Links(slot.path, max_idle)
        keepers = [asyncio.create_task(self._keep(slot)) for slot in self.slots]
        server = await asyncio.start_server(self._accept, sock=sock, backlog=2048)
        try:
            await self._stop.wait()
        finally:
            server.close()  # the port is free from here
            await self._finish_requests()
            await self._stop_workers()
            for keeper in keepers:
                keeper.cancel()
            await asyncio.gather(*keepers, return_exceptions=True)
            shutil.rmtree(directory, ignore_errors=True)

    def stop(self) -> None:
        """SIGTERM / Ctrl-C: stop gracefully; a second one ends the workers at once."""
        if self.stopping:
            log.warning("Stopping at once")
            for slot in self.slots:
                _signal(slot, signal.SIGKILL)
            for task in self.handlers:
                task.cancel()
            return
        log.info("Shutting down")
        self.stopping = True
        if self._stop is not None:
            self._stop.set()

    async def _finish_requests(self) -> None:
        for client in list(self.waiting_list):
            client.close_waiting()
        if self.handlers:
            await asyncio.wait(set(self.handlers), timeout=self.settings.shutdown_timeout)
        for task in self.handlers:
            task.cancel()

    async def _stop_workers(self) -> None:
        for slot in self.slots:
            _signal(slot, signal.SIGTERM)
        deadline = asyncio.get_running_loop().time() + self.settings.shutdown_timeout + 5
        while any(_alive(slot) for slot in self.slots):
            if asyncio.get_running_loop().time() > deadline:
                for slot in self.slots:
                    _signal(slot, signal.SIGKILL)
                break
            await asyncio.sleep(0.02)
        for slot in self.slots:
            if slot.process is not None:
                slot.process.wait()

    # ------------------------------------------------------------------ workers

    def _spawn(self, slot: Slot) -> subprocess.Popen[bytes]:
        env = {**os.environ, SUPERVISOR_ENV: str(os.getpid())}
        return subprocess.Popen(
            [sys.executable, "-m", "rami.service.front_worker", slot.path, self.log_level],
            env=env,
            close_fds=True,
        )

    async def _keep(self, slot: Slot) -> None:
        """Run the worker of ``slot`` until the server stops: start it, see it ready, restart
        it when it ends."""
        loop = asyncio.get_running_loop()
        while not self.stopping:
            started = loop.time()
            slot.process = process = self._spawn(slot)
            while process.poll() is None:
                if not slot.ready and not self.stopping:
                    slot.ready = await _accepts(slot.path)
                await asyncio.sleep(POLL_EVERY if slot.ready else PROBE_EVERY)
            slot.ready = False
            assert slot.links is not None
            slot.links.clear()
            if self.stopping:
                return
            log.warning(
                "Server worker %d (pid %d) ended (%s): starting another",
                slot.index,
                process.pid,
                _exit_text(process.returncode),
            )
            if loop.time() - started < RESTART_BACKOFF:
                await asyncio.sleep(RESTART_BACKOFF)

    async def _pick(self, failed: Slot | None) -> Slot | None:
        """The ready worker with the fewest requests under way (another than ``failed`` when
        there is one); None when none is ready within :data:`WORKER_WAIT` seconds."""
        deadline = asyncio.get_running_loop().time() + WORKER_WAIT
        while True:
            ready = [slot for slot in self.slots if slot.ready and _alive(slot)]
            choice = [slot for slot in ready if slot is not failed] or ready
            if choice:
                slot = min(choice, key=lambda slot: (slot.inflight, slot.used))
                self._uses += 1
                slot.used = self._uses
                return slot
            if asyncio.get_running_loop().time() >= deadline:
                return None
            await asyncio.sleep(0.02)

    async def forward(
        self, request: h11.Request, body: bytes, client: ClientConnection
    ) -> Answer | None:
        """The worker's answer to ``request``, sent again to another worker when the first ended
        under it and the request is idempotent; a JSON 503 otherwise. None: the answer was
        partly sent when its worker ended (the client's connection is then closed)."""
        again = idempotent(request.method, request.target)
        headers = self._upstream_headers(request, body, client.peer)
        failed: Slot | None = None
        resent = False
        for _attempt in range(2 * len(self.slots) + 2):
            slot = await self._pick(failed)
            if slot is None:
                break
            slot.inflight += 1
            assert slot.links is not None
            try:
                return await exchange(slot.links, request, headers, body, client)
            except WorkerBroken as broken:
                slot.ready = False  # probed again, or restarted if it ended
                slot.links.clear()
                failed = slot
                what = f"{request.method.decode()} {request.target.decode('latin-1')[:80]}"
                if broken.committed:
                    log.warning(
                        "Server worker %d ended during the answer to %s: connection closed",
                        slot.index,
                        what,
                    )
                    client.close()
                    return None
                if broken.sent and (resent or not again):
                    log.warning("Server worker %d ended under %s: answered 503", slot.index, what)
                    return error_answer(503, "Service Unavailable", LOST, retry_after=1)
                if broken.sent:
                    resent = True
                    self.retried += 1
                    log.warning(
                        "Server worker %d ended under %s: sent again to another", slot.index, what
                    )
            finally:
                slot.inflight -= 1
        return error_answer(503, "Service Unavailable", NO_WORKER, retry_after=1)

    # ------------------------------------------------------------------ clients

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.stopping:
            writer.close()
            return
        client = ClientConnection(self, reader, writer)
        task = asyncio.current_task()
        assert task is not None
        self.connections.add(client)
        self.handlers.add(task)
        try:
            if len(self.connections) > self.cap and not self._evict_one():
                writer.write(raw_error(503, "Service Unavailable", BUSY, "retry-after: 1\r\n"))
                client.close()
                return
            await client.serve()
        finally:
            self.connections.discard(client)
            self.handlers.discard(task)

    def waiting(self, client: ClientConnection, waits: bool) -> None:
        """``client`` waits for request headers (evictable), or no longer does."""
        self.waiting_list.pop(client, None)
        if waits and not client.closed:
            self.waiting_list[client] = None

    def _evict_one(self) -> bool:
        """Close the connection that has waited longest for its headers; False if none."""
        while self.waiting_list:
            oldest, _ = self.waiting_list.popitem(last=False)
            if not oldest.closed:
                oldest.close_waiting()
                return True
        return False

    def _upstream_headers(
        self, request: h11.Request, body: bytes, peer: tuple[str, int] | None
    ) -> list[tuple[bytes, bytes]]:
        """The request's headers as a worker gets them: framed again, the client named."""
        from rami.service.front_forward import DROPPED_REQUEST_HEADERS

        given = list(request.headers)
        headers = [(name, value) for name, value in given if name not in DROPPED_REQUEST_HEADERS]
        names = {name for name, _ in given}
        if body or names & {b"content-length", b"transfer-encoding"}:
            headers.append((b"content-length", str(len(body)).encode()))
        if b"host" not in names:
            headers.append((b"host", b"localhost"))
        client, scheme = self._client(given, peer)
        headers += [(b"x-forwarded-for", client), (b"x-forwarded-proto", scheme)]
        return headers

    def _client(
        self, headers: list[tuple[bytes, bytes]], peer: tuple[str, int] | None
    ) -> tuple[bytes, bytes]:
        """The client's address and scheme, as uvicorn's proxy headers rule gives them:
        X-Forwarded-* are believed only from the peers of ``--forwarded-allow-ips``."""
        host, port = (peer[0], peer[1]) if peer else ("", 0)
        scheme = "http"
        if self.trusted is not None and host in self.trusted:
            protos = [value for name, value in headers if name == b"x-forwarded-proto"]
            if protos and (proto := protos[-1].decode("latin-1").strip()) in {
                "http",
                "https",
                "ws",
                "wss",
            }:
                scheme = proto
            hops = [value for name, value in headers if name == b"x-forwarded-for"]
            if hops:
                host, port = self.trusted.get_trusted_client_address(
                    b", ".join(hops).decode("latin-1")
                )
        text = (f"[{host}]:{port}" if ":" in host else f"{host}:{port}") if port else host
        return text.encode("latin-1"), scheme.encode()


async def _accepts(path: str) -> bool:
    """Does a worker listen on ``path`` (it does once its app has started)?"""
    try:
        _, writer = await asyncio.open_unix_connection(path)
    except OSError:
        return False
    writer.close()
    return True


def _alive(slot: Slot) -> bool:
    return slot.process is not None and slot.process.poll() is None


def _signal(slot: Slot, sig: int) -> None:
    if _alive(slot):
        assert slot.process is not None
        with contextlib.suppress(OSError):
            slot.process.send_signal(sig)


def _exit_text(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"exit code {code}"


def run_front(
    sock: socket.socket, settings: Settings, workers: int, log_level: str = "info"
) -> None:
    """Serve on ``sock`` through the front, with ``workers`` worker processes, until SIGTERM
    or Ctrl-C (the settings reach the workers through the ``RAMI_SERVICE_*`` environment)."""
    asyncio.run(Front(settings, workers, log_level).main(sock))
