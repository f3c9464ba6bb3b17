"""Solver work off the event loop: a bounded thread pool with admission control and deadlines.

* At most ``threads`` jobs run at once (CP-SAT runs single-threaded per solve).
* At most ``max_pending`` jobs are admitted (running plus queued); beyond that a request is
  answered 503 at once rather than piling up.
* Every job has a wall-clock deadline: when it passes, the request is answered 503 and the job is
  abandoned (a queued job is skipped; a running solve is bounded by the solver's own time limit
  and keeps its admission slot until it ends, so abandoned work still counts against the limit).
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from rami.service.errors import ApiError

T = TypeVar("T")


class _Abandoned(Exception):
    """The request gave up before the job started: the job does nothing."""


class SolverPool:
    def __init__(self, threads: int, max_pending: int) -> None:
        self.threads = threads
        self.max_pending = max_pending
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="rami-solver")
        self._pending = 0
        self._lock = threading.Lock()
        self.completed = 0
        self.rejected = 0
        self.timed_out = 0

    @property
    def pending(self) -> int:
        return self._pending

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

    async def run(self, function: Callable[..., T], *args: Any, deadline: float) -> T:
        """Run ``function(*args)`` in the pool; its result, or 503 once ``deadline`` s pass."""
        self._admit()
        abandoned = threading.Event()

        def job() -> T:
            if abandoned.is_set():
                raise _Abandoned
            return function(*args)

        started = time.monotonic()
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(self._executor, functools.partial(job))
        except RuntimeError:  # the pool is shut down: the server is stopping
            self._release()
            raise ApiError(503, "the server is shutting down", None) from None
        future.add_done_callback(self._release)
        try:
            return await asyncio.wait_for(asyncio.shield(future), timeout=deadline)
        except TimeoutError:
            abandoned.set()
            self.timed_out += 1
            waited = time.monotonic() - started
            raise ApiError(
                503,
                f"no answer within the {deadline:g} s deadline (waited {waited:.1f} s): the "
                "server is overloaded; try again, or with a smaller time_limit",
                None,
                headers={"Retry-After": "5"},
            ) from None
        finally:
            if not future.done():
                # Nobody will read the result: keep its exception from being logged as lost.
                future.add_done_callback(_consume)

    def warm_up(self, function: Callable[..., Any], *args: Any) -> None:
        """Run ``function(*args)`` in the pool now, outside admission (e.g. load OR-Tools)."""
        self._executor.submit(function, *args)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def _consume(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
