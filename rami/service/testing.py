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
        """Serve with the configuration ``rami serve`` uses (:func:`~rami.service.cli.
        uvicorn_config`: the guarded protocol, the app's settings), on a free port."""
        import uvicorn

        from rami.service.cli import uvicorn_config
        from rami.service.settings import Settings

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((LOOPBACK, 0))
        self._socket = sock
        self.port = sock.getsockname()[1]
        state = getattr(self.app, "state", None)
        settings = getattr(state, "settings", None) or Settings()
        config = uvicorn_config(
            self.app, settings, host=LOOPBACK, port=self.port, log_level=self.log_level
        )
        config.timeout_graceful_shutdown = 5
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


def post_json(url: str, body: Any, timeout: float = 60.0) -> tuple[int, Any]:
    """POST ``body`` as JSON to ``url``: the status and the decoded answer (errors too)."""
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def get_json(url: str, timeout: float = 60.0) -> tuple[int, Any]:
    """GET ``url``: the status and the decoded JSON answer (errors too)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def get_ok(url: str, timeout: float = 60.0) -> Any:
    """GET ``url``: its decoded JSON answer, which must be a 200 (AssertionError naming the
    status and the answer otherwise)."""
    status, body = get_json(url, timeout)
    assert status == 200, f"GET {url}: {status} {body}"
    return body


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        port: int = sock.getsockname()[1]
        return port


class ServerProcess:
    """``python -m rami.service`` on a free loopback port; terminated (then killed) on exit."""

    def __init__(
        self,
        *,
        workers: int = 1,
        env: dict[str, str] | None = None,
        start_timeout: float = 60.0,
        log_level: str = "warning",
        port: int = 0,
        args: tuple[str, ...] = (),
    ) -> None:
        self.workers = workers
        self.env = env or {}
        self.start_timeout = start_timeout
        self.log_level = log_level
        self.fixed_port = port
        self.args = args
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None
        self.log = b""
        self._log_file: Any = None

    @property
    def url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def start(self) -> ServerProcess:
        for _attempt in range(3):  # a free port may be taken between the probe and the bind
            self.port = self.fixed_port or free_port()
            command = [
                sys.executable,
                "-m",
                "rami.service",
                "--host",
                LOOPBACK,
                "--port",
                str(self.port),
                "--workers",
                str(self.workers),
                "--log-level",
                self.log_level,
                *self.args,
            ]
            self._log_file = tempfile.TemporaryFile()  # noqa: SIM115 - closed in stop()
            self.process = subprocess.Popen(
                command,
                env={**os.environ, **self.env},
                stdout=self._log_file,  # uvicorn's access log goes to stdout
                stderr=self._log_file,
            )
            if self._wait_ready():
                return self
            self.stop()
            if self.fixed_port:
                break
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

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def stop(self) -> int | None:
        """Stop the server (SIGTERM, then SIGKILL after 15 s); its exit code. Its log (stderr and
        stdout, where uvicorn writes the access log) is then in :attr:`log`."""
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


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (children, theirs, ...), from Linux ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:
            continue
        if fields[0] not in ("Z", "X"):
            children.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


# ------------------------------------------------------------------ stand-in solvers (tests)
#
# Solves run in solver processes, so a stand-in must pickle and talk to the test through files.


class GateSolve:
    """A solve that waits, in its solver process, until the test opens the gate.

    Each call writes ``entered-<pid>`` in ``directory`` (the solver process's pid), then waits
    for a file ``open`` there (at most ``wait`` seconds), then solves for real.
    """

    def __init__(self, directory: str, wait: float = 30.0) -> None:
        self.directory = directory
        self.wait = wait

    def __call__(self, position: Any, **options: Any) -> Any:
        from pathlib import Path

        gate = Path(self.directory)
        (gate / f"entered-{os.getpid()}").write_text("", encoding="ascii")
        deadline = time.monotonic() + self.wait
        while not (gate / "open").exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        from rami.solver.api import solve

        return solve(position, **options)

    # test-side helpers

    def entered(self) -> list[int]:
        """Pids of the solver processes that entered, in no order."""
        from pathlib import Path

        return [int(p.name.split("-", 1)[1]) for p in Path(self.directory).glob("entered-*")]

    def wait_entered(self, count: int = 1, timeout: float = 30.0) -> list[int]:
        deadline = time.monotonic() + timeout
        while len(self.entered()) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{count} solve(s) did not start within {timeout} s")
            time.sleep(0.01)
        return self.entered()

    def open(self) -> None:
        from pathlib import Path

        (Path(self.directory) / "open").write_text("", encoding="ascii")


def failing_solve(position: Any, **options: Any) -> Any:
    """A solve that fails as ``options["time_limit"]`` says: 0.25 -> a RuntimeError, 0.5 -> a
    SolverBugError, 0.75 -> its process dies (os._exit); else it solves."""
    limit = options.get("time_limit")
    if limit == 0.25:
        raise RuntimeError("boom")
    if limit == 0.5:
        from rami.errors import SolverBugError

        raise SolverBugError("the referee rejects it")
    if limit == 0.75:
        os._exit(9)
    from rami.solver.api import solve

    return solve(position, **options)


class SchemaChecker:
    """Validate answers against the service's published OpenAPI document (``jsonschema_rs``,
    a test dependency): ``checker.check(method, path, status, body)`` raises on a mismatch."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self._validators: dict[tuple[str, str, str], Any] = {}
        self._paths = [(path, _path_pattern(path)) for path in document.get("paths", {})]

    @classmethod
    def served_by(cls, base: str, timeout: float = 30.0) -> SchemaChecker:
        """The checker of the server at ``base``, from the /openapi.json it publishes."""
        return cls(get_ok(base + "/openapi.json", timeout))

    def operation(self, method: str, path: str) -> str | None:
        """The documented path template ``path`` matches (``/rulesets/{name}``), or None."""
        for template, pattern in self._paths:
            if pattern.fullmatch(path) and method.lower() in self.document["paths"][template]:
                found: str = template
                return found
        return None

    def check(self, method: str, path: str, status: int, body: Any) -> bool:
        """True when checked; False when the path is not a documented operation."""
        import jsonschema_rs

        template = self.operation(method, path.split("?", 1)[0])
        if template is None:
            return False
        responses = self.document["paths"][template][method.lower()]["responses"]
        if str(status) not in responses:
            raise AssertionError(f"{method} {template}: status {status} is not documented")
        content = responses[str(status)].get("content")
        if content is None:
            if method.upper() != "HEAD" and body not in (None, b"", ""):
                raise AssertionError(f"{method} {template} {status}: a body, none documented")
            return True
        key = (method.lower(), template, str(status))
        if key not in self._validators:
            schema = dict(content["application/json"]["schema"])
            schema["components"] = self.document.get("components", {})
            self._validators[key] = jsonschema_rs.validator_for(schema)
        errors = [str(error) for error in self._validators[key].iter_errors(body)]
        if errors:
            raise AssertionError(
                f"{method} {path} {status} does not match its schema: " + "; ".join(errors[:5])
            )
        return True


def _path_pattern(template: str) -> Any:
    import re

    parts = re.split(r"(\{[^}]+\})", template)
    return re.compile("".join("[^/]+" if p.startswith("{") else re.escape(p) for p in parts))
