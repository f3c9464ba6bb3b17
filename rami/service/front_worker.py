"""A server worker behind the front (:mod:`rami.service.front`): ``python -m
rami.service.front_worker SOCKET LOG_LEVEL`` serves the app (from the ``RAMI_SERVICE_*``
environment) under uvicorn on the Unix socket ``SOCKET``, with the service's HTTP protocol, and
ends with the front (:func:`rami.service.supervise.watch_parent`, started before anything heavy
is imported).

The front names the client in ``X-Forwarded-For`` / ``X-Forwarded-Proto`` (having applied the
``--forwarded-allow-ips`` rule itself): the worker believes them from its only peer, the front.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    from rami.service.settings import Settings
    from rami.service.supervise import watch_parent

    path, log_level = (sys.argv[1:] if argv is None else argv)[:2]
    settings = Settings.from_env()
    watch_parent(grace=settings.shutdown_timeout + 5)

    import dataclasses

    import uvicorn

    from rami.service.cli import APP_FACTORY, STARTUP_FAILURE, uvicorn_config

    config = uvicorn_config(
        APP_FACTORY, dataclasses.replace(settings, forwarded_allow_ips="*"), log_level=log_level
    )
    config.uds = path
    server = uvicorn.Server(config)
    server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)


if __name__ == "__main__":
    main()
