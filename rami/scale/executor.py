"""Run many independent tasks and get their results back in input order, here or on Ray.

A *task* is a top-level function of plain data (dicts, lists, strings, numbers) to plain data:
positions travel as their JSON, the solver's models are built inside the worker that runs the
task, never pickled. The same task runs

* in this process (:class:`LocalExecutor` with one worker: no pool at all);
* in a pool of spawned processes (:class:`LocalExecutor` with K workers);
* as Ray tasks on a local or an existing cluster (:class:`rami.scale.ray_cluster.RayExecutor`).

Whatever runs them, :meth:`Executor.ordered` yields the results in the order of the inputs (a
result that comes back early waits in a buffer), so a command's output does not depend on where
its tasks ran. The inputs may be an endless stream (puzzle generation): at most ``window`` tasks
are out at once, and closing the iterator cancels the rest.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from rami.errors import TaskFailedError

Task = Callable[[Any], Any]
#: Told ``(input number, attempt that failed, reason)`` when a task fails and is sent again.
RetryListener = Callable[[int, int, str], None]

#: Times a failed task is sent again before the run stops (Ray: a worker lost, a node gone).
RETRIES = 2


class Executor:
    """Where tasks run. Subclasses say how to submit one and how to wait for some."""

    #: Tasks that run at the same time (processes, or the cluster's CPUs).
    workers: int = 1
    #: What ``--json`` summaries and the note call this executor: "local" or "ray".
    kind: str = "local"

    def ordered(
        self,
        task: Task,
        inputs: Iterable[Any],
        *,
        window: int | None = None,
        on_retry: RetryListener | None = None,
    ) -> Generator[Any, None, None]:
        """``task(item)`` for each item, in the order of ``inputs``.

        At most ``window`` tasks (default: four per worker) are submitted and not yet yielded;
        a task that fails is sent again up to :data:`RETRIES` times (``on_retry`` is told), then
        :class:`~rami.errors.TaskFailedError` stops the run: a result is never silently missing.
        """
        if self.workers <= 1 and self.inline:
            yield from map(task, inputs)
            return
        window = max(1, window if window is not None else 4 * self.workers)
        stream = enumerate(inputs)
        pending: dict[Any, tuple[int, Any, int]] = {}
        ready: dict[int, Any] = {}
        next_out = 0
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) + len(ready) < window:
                    item = next(stream, None)
                    if item is None:
                        exhausted = True
                        break
                    number, value = item
                    pending[self.submit(task, value)] = (number, value, 0)
                if not pending:
                    break
                for handle in self.wait_any(list(pending)):
                    number, value, failures = pending.pop(handle)
                    try:
                        ready[number] = self.result(handle)
                    except Exception as error:
                        reason = self.describe_failure(error)
                        if failures >= RETRIES:
                            raise TaskFailedError(
                                f"task {number} failed {failures + 1} times, the last: {reason}"
                            ) from None
                        if on_retry is not None:
                            on_retry(number, failures + 1, reason)
                        pending[self.submit(task, value)] = (number, value, failures + 1)
                while next_out in ready:
                    yield ready.pop(next_out)
                    next_out += 1
        finally:
            self.cancel(list(pending))

    #: One worker and inline: run the tasks in this process, one after another.
    inline: bool = True

    def submit(self, task: Task, value: Any) -> Any:
        raise NotImplementedError

    def wait_any(self, handles: list[Any]) -> list[Any]:
        """Some of ``handles`` that have finished (at least one; blocks until then)."""
        raise NotImplementedError

    def result(self, handle: Any) -> Any:
        raise NotImplementedError

    def cancel(self, handles: list[Any]) -> None:
        """Give up on tasks whose results are no longer wanted."""

    def describe_failure(self, error: BaseException) -> str:
        return f"{type(error).__name__}: {error}"

    def close(self) -> None:
        """Release the processes (or the cluster connection) this executor holds."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def die_with_parent(parent: int) -> None:
    """A pool worker's first step: on Linux, ask the kernel to kill it when the process that
    spawned it dies, however it dies (``kill -9`` included), so that no worker goes on
    computing for a command that is gone; a parent already gone ends it at once."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def spawned_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes (spawned: nothing of this process's state is
    copied into them) that die with this process (:func:`die_with_parent`). Made by the thread
    that uses it: on Linux a worker dies with the thread that spawned it."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


class LocalExecutor(Executor):
    """This machine: one worker runs the tasks in this process; K workers are a pool of K
    spawned processes (spawned: nothing of this process's state is copied into them)."""

    def __init__(self, workers: int = 1, pool: ProcessPoolExecutor | None = None) -> None:
        self.workers = max(1, workers)
        self.inline = pool is None
        self._pool = pool
        self._own = False

    @property
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = spawned_pool(self.workers)
            self._own = True
        return self._pool

    def submit(self, task: Task, value: Any) -> Future[Any]:
        return self.pool.submit(task, value)

    def wait_any(self, handles: list[Any]) -> list[Any]:
        done, _ = wait(handles, return_when=FIRST_COMPLETED)
        return list(done)

    def result(self, handle: Any) -> Any:
        return handle.result()

    def cancel(self, handles: list[Any]) -> None:
        for handle in handles:
            handle.cancel()

    def close(self) -> None:
        if self._own and self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            self._own = False
