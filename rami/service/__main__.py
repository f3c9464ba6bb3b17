"""``python -m rami.service [--host H] [--port P] [--workers N]``: the same as ``rami serve``."""

from __future__ import annotations

import argparse

from rami.service.cli import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m rami.service", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="interface to listen on")
    parser.add_argument("--port", type=int, default=8000, help="TCP port")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    args = parser.parse_args(argv)
    serve(args.host, args.port, args.workers, log_level=args.log_level)


if __name__ == "__main__":
    main()
