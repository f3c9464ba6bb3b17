"""What runs inside a solver process (:mod:`rami.service.pool`): kept light on imports, so that
a new solver process, forked from the fork server where these modules and OR-Tools are loaded
already, starts in milliseconds (FastAPI is never imported there).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from rami.position import Position
    from rami.solver.api import Solution

_PR_SET_PDEATHSIG = 1

#: Environment variable naming the process that starts the fork server (its guard checks it).
FORKSERVER_PARENT_ENV = "RAMI_SERVE_FORKSERVER_PARENT"


def die_with_parent(sig: int = signal.SIGKILL) -> bool:
    """Ask Linux to send ``sig`` to this process when its parent ends (``prctl``); False where
    that is not available. The caller checks ``os.getppid()`` afterwards for a parent that is
    already gone."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def library_solve(position: Position, **options: Any) -> Solution:
    from rami.solver.api import solve

    return solve(position, **options)


def call_solve(
    solve: Any,
    position: Position,
    objective: str,
    min_moves: bool,
    time_limit: float,
    started_at: float | None = None,
) -> Solution:
    """``started_at``: when the request arrived (``time.time()``), so that its time in the queue
    and on the way counts against the wall-clock promise of its time limit."""
    result: Solution = solve(
        position,
        objective=objective,
        min_moves=min_moves,
        time_limit=time_limit,
        started_at=started_at,
    )
    return result


def error_state(error: BaseException) -> tuple[Any, ...]:
    """An exception as (class, args, attributes), which rebuilds whatever its ``__init__``."""
    return (type(error), error.args, dict(getattr(error, "__dict__", {})))


def rebuild_error(
    kind: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]
) -> BaseException:
    error = kind.__new__(kind)
    BaseException.__init__(error, *args)
    with contextlib.suppress(AttributeError, TypeError):
        error.__dict__.update(state)
    return error


def child_main(conn: Connection) -> None:
    """A solver process: run ``(function, args)`` jobs from the pipe until it closes."""
    parent = os.getppid()
    die_with_parent(signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    while True:
        try:
            function, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[Any, ...] = ("ok", function(*args))
        except BaseException as error:  # sent back, raised in the server
            reply = ("error", *error_state(error))
        try:
            data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:
            data = pickle.dumps(
                ("error", RuntimeError, (f"the solver's answer cannot be sent: {error}",), {})
            )
        try:
            conn.send_bytes(data)
        except (BrokenPipeError, EOFError, OSError):
            return
