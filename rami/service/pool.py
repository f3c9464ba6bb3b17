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

The solver processes themselves (the fork server, the pipe, the kill) are
:mod:`rami.service.pool_process`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from rami.service.errors import ApiError, log
from rami.service.pool_process import (
    JOBS_PER_PROCESS,
    PRELOAD,
    SolverChild,
    pids_alive,
    run_here,
)
from rami.service.solver_process import rebuild_error

#: rami.service.pool_process's names stay importable from here.
__all__ = [
    "JOBS_PER_PROCESS",
    "PRELOAD",
    "RETRIES_ON_DEATH",
    "SolverPool",
    "SolverProcessDied",
    "pids_alive",
]

T = TypeVar("T")

#: Times a job whose process ended under it (killed from outside, not cancelled) runs again
#: on a fresh process before the request is answered 500.
RETRIES_ON_DEATH = 1


class _Abandoned(Exception):
    """The request gave up before the job started: the job does nothing."""


class _InProcess(Exception):
    """The job runs in this process's solver thread (not cancellable, as before processes)."""


class _Cancelled(Exception):
    """The job was stopped (its process killed) because nobody waits for it."""


class SolverProcessDied(RuntimeError):
    """A solver process ended in the middle of a job nobody cancelled (a crash: a 500)."""


class _Ticket:
    __slots__ = ("abandoned", "args", "child", "deaths", "function", "future")

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.function = function
        self.args = args
        self.future: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.abandoned = False
        self.child: SolverChild | None = None
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
        self._children: set[SolverChild] = set()
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
                    target=self._work,
                    args=(self._queue,),
                    name=f"rami-solver-{number}",
                    daemon=True,
                )
                self._threads.append(thread)
                thread.start()

    def _spawn(self) -> SolverChild | None:
        if self._closed:
            return None
        try:
            child = SolverChild()
        except Exception:
            log.exception("cannot start a solver process")
            return None
        with self._lock:
            self._children.add(child)
        return child

    def _retire(self, child: SolverChild) -> None:
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

    def _attempt(
        self, ticket: _Ticket, child: SolverChild | None
    ) -> tuple[SolverChild | None, bool]:
        """Run ``ticket`` once on ``child`` (or a fresh process): the process to keep for the
        next job, and whether the job must run again (its process ended under it)."""
        if child is not None and not child.usable():
            self._retire(child)
            child = None
            self.restarts += 1
        if child is None:
            child = self._spawn()
        if child is None:
            ticket.future.set_exception(
                ApiError(
                    503,
                    "the solver is unavailable (it could not be started); try again",
                    None,
                    headers={"Retry-After": "5"},
                )
            )
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
            reply = run_here(ticket.function, ticket.args)
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
                log.warning(
                    "a solver process ended in the middle of a job; running it again "
                    "on a fresh process"
                )
                return None, True
            ticket.future.set_exception(
                SolverProcessDied(
                    f"a solver process ended in the middle of a solve ({ticket.deaths} times)"
                )
            )
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
