"""``rami serve``: run the service under uvicorn (the Typer command only calls :func:`serve`).

What uvicorn is given (:func:`uvicorn_config`), and why:

* the HTTP protocol :class:`rami.service.protocol.GuardedH11Protocol`: header and body read
  deadlines, a connection cap that idle sockets cannot fill, JSON for its own errors
  (``limit_concurrency`` is off: it counted idle sockets and answered plain text);
* ``timeout_keep_alive`` from the settings, and a graceful shutdown bounded by the longest
  request deadline;
* ``proxy_headers`` only with ``forwarded_allow_ips``: X-Forwarded-For is believed from the
  proxies named there and from nobody by default;
* a listening socket bound here (:func:`rami.service.supervise.bind_socket`: SO_REUSEADDR,
  retried while a previous server's processes let go of the port), and workers that end with
  their supervisor (:func:`rami.service.supervise.watch_parent`).

With ``workers`` above 1 the public socket belongs to the front (:mod:`rami.service.front`),
which passes each request to a worker and answers for a worker that ends under a request;
``front=False`` (``--no-front``, or ``RAMI_SERVE_NO_FRONT=1``) keeps uvicorn's own supervisor,
whose workers share the socket.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import socket
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from rami.service.settings import Settings

APP_FACTORY = "rami.service.app:app_from_env"
PROTOCOL = "rami.service.protocol:GuardedH11Protocol"
#: uvicorn's exit status for a server that could not start.
STARTUP_FAILURE = 3
#: Environment variable that turns the front off (as ``front=False``): "1", "true", "yes".
NO_FRONT_ENV = "RAMI_SERVE_NO_FRONT"


def uvicorn_config(
    app: Any,
    settings: Settings,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    log_level: str = "info",
) -> Any:
    """The uvicorn configuration of the service (also what the tests' servers run)."""
    import uvicorn

    from rami.service.protocol import MAX_HEADER_BYTES, protocol_class

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        workers=workers,
        factory=isinstance(app, str),
        log_level=log_level,
        # Worker processes read the settings from the environment, and import the protocol
        # by name (late: the parent watch must start before the heavy imports).
        http=protocol_class(settings) if workers == 1 else PROTOCOL,
        limit_concurrency=None,
        # uvicorn types these as int but takes any number of seconds (asyncio timers).
        timeout_keep_alive=settings.keep_alive_timeout,  # type: ignore[arg-type]
        timeout_graceful_shutdown=settings.shutdown_timeout,  # type: ignore[arg-type]
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        proxy_headers=bool(settings.forwarded_allow_ips),
        forwarded_allow_ips=settings.forwarded_allow_ips or None,
        lifespan="on",
        backlog=2048,
    )
    return config


@contextlib.contextmanager
def _forked_workers() -> Iterator[None]:
    """uvicorn starts its workers with ``spawn``: each imports FastAPI and the app anew, which
    takes seconds on a loaded machine (a restart after a crash then answers late). Where
    ``fork`` exists, the app is imported here once and the workers are forked with it loaded
    (nothing in this process runs threads yet); elsewhere uvicorn's own way is kept."""
    import multiprocessing

    from uvicorn import _subprocess

    if "fork" not in multiprocessing.get_all_start_methods() or not hasattr(_subprocess, "spawn"):
        yield
        return
    import rami.service.app  # noqa: F401 - loaded once, before the workers fork

    spawn = _subprocess.spawn
    _subprocess.spawn = multiprocessing.get_context("fork")  # type: ignore[assignment]
    try:
        yield
    finally:
        _subprocess.spawn = spawn


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    *,
    settings: Settings | None = None,
    log_level: str = "info",
    bind_retry: float = 5.0,
    cors_origins: Sequence[str] | None = None,
    docs: bool | None = None,
    forwarded_allow_ips: str | None = None,
    db: str | None = None,
    front: bool | None = None,
) -> None:
    """Serve the API on ``host:port`` until interrupted (Ctrl-C or SIGTERM stops it cleanly).

    Loopback only by default; ``host="0.0.0.0"`` listens on every interface. With ``workers``
    above 1, uvicorn runs that many processes, each building the app from the ``RAMI_SERVICE_*``
    environment (``settings``, when given, is exported there first); they end with this one.
    ``cors_origins``, ``docs`` and ``forwarded_allow_ips``, when given, override ``settings``
    (the ``--cors-origin``, ``--docs`` and ``--forwarded-allow-ips`` options). ``db`` is the
    puzzle attempts database (``--db``, :mod:`rami.service.attempts`), checked here. ``front``
    (default: on unless :data:`NO_FRONT_ENV` says otherwise) puts the front process before
    more than one worker (:mod:`rami.service.front`).
    """
    from rami.service.protocol import FD_RESERVE, raise_fd_limit
    from rami.service.supervise import bind_socket

    if workers < 1:
        raise ValueError(f"workers must be 1 or more, got {workers}")
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be 0..65535, got {port}")
    settings = _overridden(settings or Settings.from_env(), cors_origins, docs, forwarded_allow_ips)
    if db is not None:
        from rami.service.attempts import DB_ENV, checked_database

        os.environ[DB_ENV] = checked_database(db)
    # Room for the connection cap: the soft open-files limit is often 1024.
    raise_fd_limit(settings.max_connections + 4 * FD_RESERVE)
    if front is None:
        front = os.environ.get(NO_FRONT_ENV, "").strip().lower() not in ("1", "true", "yes")
    config = _config(settings, host, port, workers, log_level)
    try:
        sock = bind_socket(host, port, retry_seconds=bind_retry)
    except OSError as error:
        raise SystemExit(f"error: cannot listen on {host}:{port}: {error.strerror}") from None
    shown = f"[{host}]" if ":" in host else host
    logging.getLogger("uvicorn.error").info(
        "Uvicorn running on http://%s:%d (Press CTRL+C to quit)", shown, sock.getsockname()[1]
    )
    try:
        _run(sock, config, settings, workers, front=front, log_level=log_level)
    finally:
        sock.close()


def _overridden(
    settings: Settings,
    cors_origins: Sequence[str] | None,
    docs: bool | None,
    forwarded_allow_ips: str | None,
) -> Settings:
    """``settings`` with the options given on the command line in place of its own."""
    changes: dict[str, Any] = {}
    if cors_origins:
        changes["cors_origins"] = tuple(cors_origins)
    if docs is not None:
        changes["docs"] = docs
    if forwarded_allow_ips is not None:
        changes["forwarded_allow_ips"] = forwarded_allow_ips
    return dataclasses.replace(settings, **changes)


def _config(settings: Settings, host: str, port: int, workers: int, log_level: str) -> Any:
    """uvicorn's configuration: the app built here for one worker; for more, the factory each
    worker runs, with the settings exported to the environment for it."""
    from rami.service.supervise import SUPERVISOR_ENV, EarlyParentWatch

    if workers == 1:
        from rami.service.app import create_app

        return uvicorn_config(
            create_app(settings), settings, host=host, port=port, log_level=log_level
        )
    os.environ.update(settings.to_env())
    os.environ[SUPERVISOR_ENV] = str(os.getpid())
    config = uvicorn_config(
        APP_FACTORY, settings, host=host, port=port, workers=workers, log_level=log_level
    )
    # (with the front, this configuration only sets up the logging)
    config.rami_parent_watch = EarlyParentWatch(os.getpid(), settings.shutdown_timeout + 5)
    return config


def _run(
    sock: socket.socket,
    config: Any,
    settings: Settings,
    workers: int,
    *,
    front: bool,
    log_level: str,
) -> None:
    """Serve on the bound socket until interrupted: the front before the workers, uvicorn's
    own supervisor, or one server (exit status :data:`STARTUP_FAILURE` if it never started)."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    if workers > 1 and front:
        from rami.service.front import run_front

        run_front(sock, settings, workers, log_level)
        return
    if workers > 1:
        with _forked_workers():
            Multiprocess(config, sockets=[sock]).run()
        return
    server = uvicorn.Server(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run(sockets=[sock])
    if not server.started:
        sys.exit(STARTUP_FAILURE)
