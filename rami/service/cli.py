"""``rami serve``: run the service under uvicorn (the Typer command only calls :func:`serve`)."""

from __future__ import annotations

import os

from rami.service.settings import Settings

APP_FACTORY = "rami.service.app:app_from_env"


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    workers: int = 1,
    *,
    settings: Settings | None = None,
    log_level: str = "info",
) -> None:
    """Serve the API on ``host:port`` until interrupted (Ctrl-C or SIGTERM stops it cleanly).

    Loopback only by default; ``host="0.0.0.0"`` listens on every interface. With ``workers``
    above 1, uvicorn runs that many processes, each building the app from the ``RAMI_SERVICE_*``
    environment (``settings``, when given, is exported there first).
    """
    import uvicorn

    if workers < 1:
        raise ValueError(f"workers must be 1 or more, got {workers}")
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be 0..65535, got {port}")
    settings = settings or Settings.from_env()
    if workers == 1:
        from rami.service.app import create_app

        uvicorn.run(
            create_app(settings),
            host=host,
            port=port,
            log_level=log_level,
            limit_concurrency=settings.max_connections,
        )
        return
    os.environ.update(settings.to_env())
    uvicorn.run(
        APP_FACTORY,
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        limit_concurrency=settings.max_connections,
    )
