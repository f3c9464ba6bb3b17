"""Processes and sockets of ``rami serve``: the listening socket (bound with retries), and
workers that end with their parent.

uvicorn's supervisor (``--workers N``) gives each worker both ends of its health-check pipe, so
a worker never sees its parent go: after ``kill -9`` of the main process the workers went on
serving, holding the port, and a restart failed with "Address already in use". Each worker of
``rami serve`` now watches its supervisor (:func:`watch_parent`): Linux ``PR_SET_PDEATHSIG``
sends it SIGTERM when the supervisor ends, and a thread that polls the parent's pid does the same
elsewhere. SIGTERM is uvicorn's graceful stop: the worker stops listening at once (the port is
free), answers what is in flight, and ends (with its solver processes).
"""

from __future__ import annotations

import errno
import os
import signal
import socket
import threading
import time

from rami.service.solver_process import die_with_parent

#: Environment variable naming the supervisor's pid, for the workers it starts.
SUPERVISOR_ENV = "RAMI_SERVE_SUPERVISOR_PID"
#: How often a worker checks that its supervisor is still there, in seconds.
PARENT_POLL = 0.25


def bind_socket(host: str, port: int, *, retry_seconds: float = 5.0) -> socket.socket:
    """A TCP socket bound to ``host:port`` with ``SO_REUSEADDR`` (a restart binds at once
    despite connections in TIME_WAIT). While the port is still held, by processes of a previous
    server that are ending, it retries for ``retry_seconds``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    deadline = time.monotonic() + retry_seconds
    while True:
        # IPPROTO_TCP named: asyncio sets TCP_NODELAY only on accepted sockets that say TCP
        # (with protocol 0, Nagle held an answer's body until the client's delayed ACK, 40 ms
        # on Linux, whenever the head and the body went out in two writes).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError as error:
            sock.close()
            if error.errno != errno.EADDRINUSE or time.monotonic() >= deadline:
                raise
            time.sleep(0.1)
            continue
        sock.set_inheritable(True)
        return sock


_WATCHING = False


class EarlyParentWatch:
    """Put in the uvicorn configuration that the supervisor pickles for each worker: unpickled
    in the worker, it starts :func:`watch_parent` there, before the worker imports anything of
    the app (which takes seconds on a loaded machine, long enough to outlive a dead parent)."""

    def __init__(self, supervisor: int, grace: float) -> None:
        self.supervisor = supervisor
        self.grace = grace

    def __reduce__(self) -> tuple[object, tuple[int, float]]:
        return (_early_watch, (self.supervisor, self.grace))


def _early_watch(supervisor: int, grace: float) -> EarlyParentWatch:
    if os.getpid() != supervisor:
        watch_parent(supervisor, grace=grace)
    return EarlyParentWatch(supervisor, grace)


def watch_parent(expected: int | None = None, *, grace: float = 60.0) -> bool:
    """In a worker: end (SIGTERM, then exit after ``grace`` s) when the supervisor whose pid is
    ``expected`` (default: :data:`SUPERVISOR_ENV`) is gone. False when there is none to watch
    (or the watch runs already)."""
    global _WATCHING
    if _WATCHING:
        return False
    if expected is None:
        text = os.environ.get(SUPERVISOR_ENV, "")
        if not text.isdigit():
            return False
        expected = int(text)
    _WATCHING = True
    die_with_parent(signal.SIGTERM)

    def orphaned() -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(grace)
        os._exit(1)  # the graceful stop did not end the process: end it

    if os.getppid() != expected:  # the supervisor ended before the watch began
        threading.Thread(target=orphaned, name="rami-orphaned", daemon=True).start()
        return True

    def poll() -> None:
        while os.getppid() == expected:
            time.sleep(PARENT_POLL)
        orphaned()

    threading.Thread(target=poll, name="rami-parent-watch", daemon=True).start()
    return True
