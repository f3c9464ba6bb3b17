"""``python -m rami.service [--host H] [--port P] [--workers N] [--cors-origin O] [--docs]
[--forwarded-allow-ips IPS]``: the same as ``rami serve``."""

from __future__ import annotations

import argparse
import dataclasses

from rami.service.cli import serve
from rami.service.settings import Settings


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m rami.service", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    parser.add_argument("--port", type=int, default=8000, help="TCP port")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    parser.add_argument(
        "--cors-origin", action="append", default=None, metavar="ORIGIN",
        help="allow a web page of this origin to call the API (CORS); repeatable",
    )
    parser.add_argument(
        "--docs", action="store_true", default=None,
        help="serve /docs and /redoc (their scripts load from a public CDN)",
    )
    parser.add_argument(
        "--forwarded-allow-ips", default=None, metavar="IPS",
        help="believe X-Forwarded-For from these proxies (comma-separated, or '*')",
    )
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    changes: dict[str, object] = {}
    if args.cors_origin:
        changes["cors_origins"] = tuple(args.cors_origin)
    if args.docs:
        changes["docs"] = True
    if args.forwarded_allow_ips is not None:
        changes["forwarded_allow_ips"] = args.forwarded_allow_ips
    try:
        settings = dataclasses.replace(settings, **changes)  # type: ignore[arg-type]
        serve(args.host, args.port, args.workers, settings=settings, log_level=args.log_level)
    except ValueError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
