"""Tasks as Ray tasks (``--ray auto|ADDRESS``): one CPU each, on a local or an existing cluster.

``ray`` is an optional extra (``pip install 'rami[ray]'``) and is imported only here, only when
``--ray`` is given. ``auto`` starts a cluster on this machine for the run (its CPUs, no
dashboard, usage statistics off, every address on the loopback interface) and stops it at the
end; ``ADDRESS`` (``HOST:PORT`` of a cluster's head, as ``ray start --head`` prints it) connects
to a running cluster and leaves it running. A process that has already called ``ray.init``
(a test session sharing one cluster) keeps its connection for both.

Each task asks for one CPU and the solver uses one CP-SAT worker (rami.solver.cpsat), so a
cluster of N CPUs runs N tasks at once. Ray's own retries are off (``max_retries=0``): a task
that fails (its worker lost, an error) is sent again by :meth:`Executor.ordered`, which says so
and stops the run when every retry fails.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from rami.errors import ClusterUnavailableError
from rami.scale.executor import Executor, Task

#: Seconds to wait for a TCP connection to a cluster's head before calling it unreachable.
CONNECT_TIMEOUT = 3.0

INSTALL_HINT = "install it with: pip install 'rami[ray]'"


def _quiet_loopback_environment() -> None:
    """Before ray loads: no usage statistics sent anywhere, and a node started here takes the
    loopback address as its own (Ray otherwise looks up a routable one)."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def import_ray() -> Any:
    _quiet_loopback_environment()
    try:
        import ray
    except ImportError:
        raise ClusterUnavailableError(
            f"--ray needs the ray package, not installed: {INSTALL_HINT}"
        ) from None
    return ray


def split_address(address: str) -> tuple[str, int]:
    """``HOST:PORT`` (a ``ray://`` client address is refused: tasks need a driver's
    connection)."""
    host, colon, port = address.rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536 or "//" in host:
        raise ClusterUnavailableError(
            f"--ray: expected 'auto' or HOST:PORT of a running cluster's head, got {address!r}"
        )
    return host, int(port)


def check_reachable(address: str) -> None:
    """A TCP connection to the head opens within :data:`CONNECT_TIMEOUT` (Ray itself would
    retry for a minute before giving up)."""
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as error:
        raise ClusterUnavailableError(
            f"--ray {address}: no Ray cluster answers there ({error.strerror or error}); "
            "start one with 'ray start --head' or use --ray auto"
        ) from None


class RayExecutor(Executor):
    kind = "ray"
    inline = False

    def __init__(self, ray: Any, owns_cluster: bool) -> None:
        self.ray = ray
        self.owns_cluster = owns_cluster
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote: dict[Task, Any] = {}

    @classmethod
    def connect(cls, address: str) -> RayExecutor:
        if address != "auto":
            split_address(address)
        ray = import_ray()
        if address != "auto":
            check_reachable(address)
        if ray.is_initialized():
            joined = ray.get_runtime_context().gcs_address
            if address not in ("auto", joined):
                raise ClusterUnavailableError(
                    f"--ray {address}: this process is already connected to the cluster at {joined}"
                )
            return cls(ray, owns_cluster=False)
        if address == "auto":
            ray.init(
                num_cpus=os.cpu_count() or 1,
                include_dashboard=False,
                logging_level="WARNING",
                log_to_driver=False,
            )
            return cls(ray, owns_cluster=True)
        try:
            ray.init(address=address, logging_level="WARNING", log_to_driver=False)
        except (ConnectionError, RuntimeError, TimeoutError) as error:
            raise ClusterUnavailableError(
                f"--ray {address}: cannot join the cluster: {error}"
            ) from None
        return cls(ray, owns_cluster=True)

    def _remote_of(self, task: Task) -> Any:
        if task not in self._remote:
            self._remote[task] = self.ray.remote(num_cpus=1, max_retries=0)(task)
        return self._remote[task]

    def submit(self, task: Task, value: Any) -> Any:
        return self._remote_of(task).remote(value)

    def wait_any(self, handles: list[Any]) -> list[Any]:
        done, _ = self.ray.wait(handles, num_returns=1)
        return list(done)

    def result(self, handle: Any) -> Any:
        return self.ray.get(handle)

    def cancel(self, handles: list[Any]) -> None:
        for handle in handles:
            try:
                self.ray.cancel(handle, force=True)
            except Exception:  # a task that already finished cannot be cancelled
                continue

    def describe_failure(self, error: BaseException) -> str:
        # A RayTaskError's text holds the worker's whole traceback: its first line is the cause.
        cause = getattr(error, "cause", None)
        if cause is not None:
            return f"{type(cause).__name__}: {cause}"
        return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"

    def close(self) -> None:
        if self.owns_cluster and self.ray.is_initialized():
            self.ray.shutdown()
        self.owns_cluster = False
