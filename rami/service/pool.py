"""Solver work off the event loop, in child processes that can be stopped: admission control,
deadlines, and cancellation of work nobody waits for.

* ``processes`` solver processes per server worker, each driven by one thread of this process
  (the thread sends a job down a pipe and waits for its answer, so the event loop never
  blocks). CP-SAT runs single-threaded per solve.
* At most ``max_pending`` jobs are admitted (running plus queued); beyond that a request is
  answered 503 at once rather than piling up.
* A job nobody waits for any more (its deadline passed and the client got a 503, or the client
  disconnected: the request task is cancelled) is stopped: a queued job is dropped, a running
  one is ended by killing its process (SIGKILL: immediate, whatever the solver is doing), and
  the process is replaced from a fork server that has OR-Tools loaded already (a few ms).
* Solver processes end with their parent: Linux ``PR_SET_PDEATHSIG`` (the fork server, their
  parent, ends when the server process does), and an idle one reads end-of-file on its pipe.
* A process is replaced after :data:`JOBS_PER_PROCESS` jobs, so that memory cannot creep.
* A process that ends in the middle of a job nobody cancelled (``kill -9``, the OOM killer) does
  not lose the request: every job here is a pure computation (a solve, a turn checked), so it
  runs again, once, on a fresh process (:data:`RETRIES_ON_DEATH`). Only a job whose process
  dies again (one that kills its process: a bug) is answered 500.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import inspect
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from rami.service.errors import ApiError, log
from rami.service.solver_process import (
    FORKSERVER_PARENT_ENV,
    child_main,
    error_state,
    rebuild_error,
)

T = TypeVar("T")

#: Jobs a solver process runs before it is replaced by a fresh one.
JOBS_PER_PROCESS = 100
#: Times a job whose process ended under it (killed from outside, not cancelled) runs again
#: on a fresh process before the request is answered 500.
RETRIES_ON_DEATH = 1
#: Modules the fork server imports once, so that every solver process starts with them loaded.
PRELOAD = (
    "rami.service.forkserver_guard", "__main__", "rami.service.solver_process",
    "rami.solver.api", "rami.solver.rearrange", "rami.solver.layoff", "rami.referee",
    "rami.hints", "rami.puzzles.record",
)

class _Abandoned(Exception):
    """The request gave up before the job started: the job does nothing."""


class _InProcess(Exception):
    """The job runs in this process's solver thread (not cancellable, as before processes)."""


def _run_here(function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    try:
        return ("ok", function(*args))
    except Exception as error:
        return ("error", *error_state(error))


class _Cancelled(Exception):
    """The job was stopped (its process killed) because nobody waits for it."""


class SolverProcessDied(RuntimeError):
    """A solver process ended in the middle of a job nobody cancelled (a crash: a 500)."""


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
                threading.Thread(target=_keep_forkserver, args=(_KEEPER,),
                                 name="rami-forkserver", daemon=True).start()
            else:  # pragma: no cover - not Linux
                context = multiprocessing.get_context("spawn")
            _CONTEXT = context
        keeper = _KEEPER
    if keeper is not None:
        done = threading.Event()
        keeper.put(done)
        done.wait(timeout=60)
    return _CONTEXT


class _Child:
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
        return self.process.pid

    def usable(self) -> bool:
        return not self.killed and self.jobs < JOBS_PER_PROCESS and self.process.is_alive()

    def call(self, function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
        self.conn.send((function, args))
        return pickle.loads(self.conn.recv_bytes())

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


class _Ticket:
    __slots__ = ("abandoned", "args", "child", "deaths", "function", "future")

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.function = function
        self.args = args
        self.future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.abandoned = False
        self.child: _Child | None = None
        #: Processes that ended under this job.
        self.deaths = 0


class SolverPool:
    def __init__(self, processes: int, max_pending: int) -> None:
        self.processes = processes
        self.max_pending = max_pending
        self._queue: queue.SimpleQueue[_Ticket | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._pending = 0
        self._running: set[_Ticket] = set()
        self._children: set[_Child] = set()
        self._warm = False
        self._closed = False
        self.completed = 0
        self.rejected = 0
        self.timed_out = 0
        self.cancelled = 0
        self.restarts = 0
        #: Jobs run again because their process ended under them.
        self.retried = 0

    # ------------------------------------------------------------------ observing (tests)

    @property
    def pending(self) -> int:
        return self._pending

    def child_pids(self) -> list[int]:
        """Process ids of the solver processes alive now."""
        with self._lock:
            return [c.pid for c in self._children if c.pid is not None and not c.killed]

    def busy_pids(self) -> list[int]:
        """Process ids of the solver processes running a job now."""
        with self._lock:
            return [t.child.pid for t in self._running if t.child and t.child.pid is not None]

    # ------------------------------------------------------------------ the worker threads

    def _start_threads(self) -> None:
        with self._lock:
            if self._threads or self._closed:
                return
            for number in range(self.processes):
                thread = threading.Thread(
                    target=self._work, args=(self._queue,), name=f"rami-solver-{number}",
                    daemon=True,
                )
                self._threads.append(thread)
                thread.start()

    def _spawn(self) -> _Child | None:
        if self._closed:
            return None
        try:
            child = _Child()
        except Exception:
            log.exception("cannot start a solver process")
            return None
        with self._lock:
            self._children.add(child)
        return child

    def _retire(self, child: _Child) -> None:
        child.close()
        with self._lock:
            self._children.discard(child)

    def _work(self, jobs: queue.SimpleQueue[_Ticket | None]) -> None:
        child = self._spawn() if self._warm else None
        while True:
            ticket = jobs.get()
            if ticket is None:
                break
            if not ticket.future.set_running_or_notify_cancel():
                continue
            while True:  # once, or again after its process ended under it
                child, again = self._attempt(ticket, child)
                if not again:
                    break
        if child is not None:
            self._retire(child)

    def _attempt(self, ticket: _Ticket, child: _Child | None) -> tuple[_Child | None, bool]:
        """Run ``ticket`` once on ``child`` (or a fresh process): the process to keep for the
        next job, and whether the job must run again (its process ended under it)."""
        if child is not None and not child.usable():
            self._retire(child)
            child = None
            self.restarts += 1
        if child is None:
            child = self._spawn()
        if child is None:
            ticket.future.set_exception(ApiError(
                503, "the solver is unavailable (it could not be started); try again",
                None, headers={"Retry-After": "5"}))
            return None, False
        with self._lock:
            if ticket.abandoned:
                ticket.future.set_exception(_Abandoned() if ticket.deaths == 0 else _Cancelled())
                return child, False
            ticket.child = child
            self._running.add(ticket)
        try:
            if inspect.ismethod(ticket.function):
                raise _InProcess  # a bound method may read or change its object's state
            reply = child.call(ticket.function, ticket.args)
        except (EOFError, OSError):
            reply = None
        except Exception:  # _InProcess, or the job does not pickle: run it here
            reply = _run_here(ticket.function, ticket.args)
        with self._lock:
            ticket.child = None
            self._running.discard(ticket)
        if reply is None:  # the process ended: killed on purpose, or from outside
            self._retire(child)
            if ticket.abandoned:
                ticket.future.set_exception(_Cancelled())
                return self._spawn(), False  # ready for the next job
            ticket.deaths += 1
            if ticket.deaths <= RETRIES_ON_DEATH and not self._closed:
                self.retried += 1
                log.warning("a solver process ended in the middle of a job; running it again "
                            "on a fresh process")
                return None, True
            ticket.future.set_exception(SolverProcessDied(
                f"a solver process ended in the middle of a solve ({ticket.deaths} times)"))
            return self._spawn(), False
        child.jobs += 1
        if reply[0] == "ok":
            ticket.future.set_result(reply[1])
        else:
            ticket.future.set_exception(rebuild_error(*reply[1:]))
        return child, False

    # ------------------------------------------------------------------ the event loop side

    def _admit(self) -> None:
        with self._lock:
            if self._pending >= self.max_pending:
                self.rejected += 1
                raise ApiError(
                    503,
                    f"server busy: {self._pending} solver jobs are already admitted "
                    f"(limit {self.max_pending}); try again shortly",
                    None,
                    headers={"Retry-After": "1"},
                )
            self._pending += 1

    def _release(self, _future: object = None) -> None:
        with self._lock:
            self._pending -= 1
            self.completed += 1

    def cancel(self, ticket: _Ticket) -> None:
        """Stop a job nobody waits for: drop it if queued, kill its process if running."""
        with self._lock:
            ticket.abandoned = True
            child = ticket.child
            if child is not None:
                child.kill()
            self.cancelled += 1
        ticket.future.cancel()  # a queued job: never started

    async def run(self, function: Callable[..., T], *args: Any, deadline: float) -> T:
        """``function(*args)`` in a solver process; its result, or 503 once ``deadline`` s
        pass. Cancelling the awaiting task (the client left) stops the job.

        ``function`` and ``args`` are pickled to the solver process (module-level functions,
        plain data). A bound method, or a job that does not pickle, runs in the solver thread
        of this process instead (its object's state stays here), and cannot be stopped."""
        if self._closed:
            raise ApiError(503, "the server is shutting down", None)
        self._admit()
        ticket = _Ticket(function, args)
        ticket.future.add_done_callback(self._release)
        self._start_threads()
        self._queue.put(ticket)
        started = time.monotonic()
        waiting = asyncio.wrap_future(ticket.future)
        try:
            return await asyncio.wait_for(asyncio.shield(waiting), timeout=deadline)
        except TimeoutError:
            self.cancel(ticket)
            self.timed_out += 1
            waited = time.monotonic() - started
            raise ApiError(
                503,
                f"no answer within the {deadline:g} s deadline (waited {waited:.1f} s): the "
                "server is overloaded; try again, or with a smaller time_limit",
                None,
                headers={"Retry-After": "5"},
            ) from None
        except asyncio.CancelledError:
            self.cancel(ticket)
            raise
        finally:
            if not waiting.done():
                waiting.add_done_callback(_consume)

    def open(self) -> None:
        """Serve again after :meth:`shutdown` (an app whose lifespan runs more than once)."""
        with self._lock:
            if not self._closed:
                return
            self._closed = False
            self._threads = []
            self._queue = queue.SimpleQueue()
            self._running = set()

    def warm_up(self) -> None:
        """Start the solver processes now (in the background) rather than at the first job."""
        self._warm = True
        self._start_threads()

    def shutdown(self) -> None:
        """Stop every job and process; the threads end by themselves."""
        with self._lock:
            self._closed = True
            running = list(self._running)
            threads = list(self._threads)
        for ticket in running:  # their processes are killed; idle ones end with their thread
            self.cancel(ticket)
        for _ in threads:
            self._queue.put(None)

    def join(self, timeout: float = 5.0) -> None:
        """Wait for the threads (and so the processes) to end (tests)."""
        end = time.monotonic() + timeout
        for thread in list(self._threads):
            thread.join(max(0.0, end - time.monotonic()))


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


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
