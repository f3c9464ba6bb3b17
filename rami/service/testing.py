"""Run the real server for tests and benchmarks: loopback only, a free port, always stopped.

* :class:`BackgroundServer`: uvicorn in a thread of this process (fast to start; the app can be
  built with a test ``solve``).
* :class:`ServerProcess`: ``python -m rami.service`` in a child process (what ``rami serve``
  runs; clients then do not share the server's interpreter).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from types import TracebackType
from typing import Any

LOOPBACK = "127.0.0.1"


class BackgroundServer:
    """``with BackgroundServer(app) as server: urlopen(server.url + "/health")``."""

    def __init__(self, app: Any, *, log_level: str = "warning", start_timeout: float = 30.0):
        self.app = app
        self.log_level = log_level
        self.start_timeout = start_timeout
        self.port = 0
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def start(self) -> BackgroundServer:
        import uvicorn

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((LOOPBACK, 0))
        self._socket = sock
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app, log_level=self.log_level, timeout_graceful_shutdown=5, lifespan="on"
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [sock]}, name="uvicorn", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + self.start_timeout
        while not self._server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the server thread stopped while starting")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the server did not start within {self.start_timeout} s")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=15)
            if self._thread.is_alive():
                self._server.force_exit = True
                self._thread.join(timeout=5)
        if self._socket is not None:
            self._socket.close()
        self._server = self._thread = self._socket = None

    def __enter__(self) -> BackgroundServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


class ServerProcess:
    """``python -m rami.service`` on a free loopback port; terminated (then killed) on exit."""

    def __init__(
        self,
        *,
        workers: int = 1,
        env: dict[str, str] | None = None,
        start_timeout: float = 60.0,
        log_level: str = "warning",
    ) -> None:
        self.workers = workers
        self.env = env or {}
        self.start_timeout = start_timeout
        self.log_level = log_level
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.log = b""
        self._log_file: Any = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def start(self) -> ServerProcess:
        for _attempt in range(3):  # a free port may be taken between the probe and the bind
            self.port = free_port()
            command = [
                sys.executable, "-m", "rami.service", "--host", LOOPBACK,
                "--port", str(self.port), "--workers", str(self.workers),
                "--log-level", self.log_level,
            ]
            self._log_file = tempfile.TemporaryFile()  # noqa: SIM115 - closed in stop()
            self.process = subprocess.Popen(
                command,
                env={**os.environ, **self.env},
                stdout=subprocess.DEVNULL,
                stderr=self._log_file,
            )
            if self._wait_ready():
                return self
            self.stop()
        message = self.log.decode(errors="replace").strip()[-2000:]
        raise RuntimeError(f"the server process did not start:\n{message}")

    def _wait_ready(self) -> bool:
        assert self.process is not None
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as response:
                    if json.load(response).get("status") == "ok":
                        return True
            except (OSError, urllib.error.URLError, ValueError):
                pass
            time.sleep(0.05)
        return False

    def stop(self) -> int | None:
        """Stop the server (SIGTERM, then SIGKILL after 15 s); its exit code. Its log (stderr)
        is then in :attr:`log`."""
        if self.process is None:
            return None
        process, self.process = self.process, None
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        if self._log_file is not None:
            self._log_file.seek(0)
            self.log = self._log_file.read()
            self._log_file.close()
            self._log_file = None
        return process.returncode

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
