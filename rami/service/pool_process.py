"""One solver process, as :mod:`rami.service.pool` drives it: started from a fork server that
has OR-Tools loaded already (spawned where there is no fork server), a job sent down its pipe
and the answer read back, killed at once when nobody waits for its job, replaced after
:data:`JOBS_PER_PROCESS` jobs. Also a job run in this process instead (:func:`run_here`), and
which processes are still alive (:func:`pids_alive`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

from rami.service.errors import log
from rami.service.solver_process import FORKSERVER_PARENT_ENV, child_main, error_state

#: Jobs a solver process runs before it is replaced by a fresh one.
JOBS_PER_PROCESS = 100
#: Modules the fork server imports once, so that every solver process starts with them loaded.
PRELOAD = (
    "rami.service.forkserver_guard",
    "__main__",
    "rami.service.solver_process",
    "rami.solver.api",
    "rami.solver.rearrange",
    "rami.solver.layoff",
    "rami.referee",
    "rami.hints",
    "rami.puzzles.record",
    "rami.puzzles.answers",
)


def run_here(function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    """``function(*args)`` in this process, answered as a solver process answers: ``("ok",
    result)`` or ``("error", ...)`` (:func:`rami.service.solver_process.error_state`)."""
    try:
        return ("ok", function(*args))
    except Exception as error:
        return ("error", *error_state(error))


_CONTEXT_LOCK = threading.Lock()
_CONTEXT: Any = None
_KEEPER: queue.SimpleQueue[threading.Event] | None = None


def _keep_forkserver(requests: queue.SimpleQueue[threading.Event]) -> None:
    """The thread that starts (and restarts) the fork server, and never ends: the fork server
    dies with the thread that started it (``PR_SET_PDEATHSIG`` is per thread), so it must not
    be a solver thread, which ends when its app shuts down."""
    from multiprocessing import forkserver

    os.environ[FORKSERVER_PARENT_ENV] = str(os.getpid())
    while True:
        done = requests.get()
        try:
            forkserver.ensure_running()
        except Exception:
            log.exception("cannot start the solver fork server")
        done.set()


def _context() -> Any:
    """The fork-server context (spawn where there is none), OR-Tools preloaded in the server,
    which is running when this returns."""
    global _CONTEXT, _KEEPER
    with _CONTEXT_LOCK:
        if _CONTEXT is None:
            context: Any
            methods = multiprocessing.get_all_start_methods()
            if "forkserver" in methods:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(list(PRELOAD))
                _KEEPER = queue.SimpleQueue()
                threading.Thread(
                    target=_keep_forkserver, args=(_KEEPER,), name="rami-forkserver", daemon=True
                ).start()
            else:  # pragma: no cover - not Linux
                context = multiprocessing.get_context("spawn")
            _CONTEXT = context
        keeper = _KEEPER
    if keeper is not None:
        done = threading.Event()
        keeper.put(done)
        done.wait(timeout=60)
    return _CONTEXT


class SolverChild:
    """One solver process and the parent's end of its pipe."""

    def __init__(self) -> None:
        context = _context()
        self.conn, child_conn = context.Pipe(duplex=True)
        self.process = context.Process(
            target=child_main, args=(child_conn,), name="rami-solver", daemon=True
        )
        self.process.start()
        child_conn.close()
        self.killed = False
        self.jobs = 0

    @property
    def pid(self) -> int | None:
        pid: int | None = self.process.pid
        return pid

    def usable(self) -> bool:
        return not self.killed and self.jobs < JOBS_PER_PROCESS and self.process.is_alive()

    def call(self, function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
        self.conn.send((function, args))
        answer: tuple[Any, ...] = pickle.loads(self.conn.recv_bytes())
        return answer

    def kill(self) -> None:
        self.killed = True
        with contextlib.suppress(Exception):
            self.process.kill()

    def close(self) -> None:
        self.kill()
        with contextlib.suppress(Exception):
            self.conn.close()
        with contextlib.suppress(Exception):
            self.process.join(timeout=2)


def pids_alive(pids: Sequence[int]) -> list[int]:
    """Those of ``pids`` still running (not ended, not a zombie): Linux ``/proc``."""
    alive = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
                state = stat.read().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X"):
            alive.append(pid)
    return alive
