"""``python -m rami.service [--host H] [--port P] [--workers N] [--cors-origin O] [--docs]
[--forwarded-allow-ips IPS] [--no-front]``: the same as ``rami serve``."""

from __future__ import annotations

import argparse

from rami.service.cli import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m rami.service", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    parser.add_argument("--port", type=int, default=8000, help="TCP port")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    parser.add_argument(
        "--cors-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="allow a web page of this origin to call the API (CORS); repeatable",
    )
    parser.add_argument(
        "--docs",
        action="store_true",
        default=None,
        help="serve /docs and /redoc (their scripts load from a public CDN)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="believe X-Forwarded-For from these proxies (comma-separated, or '*')",
    )
    parser.add_argument(
        "--no-front",
        dest="front",
        action="store_false",
        default=None,
        help="with --workers above 1: no front process, the workers share the socket "
        "(a worker's death then loses its requests)",
    )
    args = parser.parse_args(argv)
    try:
        serve(
            args.host,
            args.port,
            args.workers,
            log_level=args.log_level,
            cors_origins=args.cors_origin,
            docs=args.docs,
            forwarded_allow_ips=args.forwarded_allow_ips,
            front=args.front,
        )
    except ValueError as error:
        parser.error(str(error))


if __name__ == "__main__":
    main()
