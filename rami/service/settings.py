"""Service limits as frozen data, with defaults, checks, and the ``RAMI_SERVICE_*`` environment."""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass

ENV_PREFIX = "RAMI_SERVICE_"

#: Old environment names still read (new name -> old name).
ENV_ALIASES = {"solver_processes": "SOLVER_THREADS"}

_SECONDS = (
    "default_time_limit",
    "max_time_limit",
    "deadline_slack",
    "header_timeout",
    "body_timeout",
    "keep_alive_timeout",
)
_COUNTS = ("max_body_bytes", "solver_processes", "max_pending", "max_connections")


@dataclass(frozen=True)
class Settings:
    """Every bound the HTTP service puts on a request (docs/service.md, "Limits")."""

    #: Largest request body accepted, in bytes; a larger one gets 413.
    max_body_bytes: int = 64 * 1024
    #: Solver time limit (seconds, CP-SAT deterministic time) when the request names none.
    default_time_limit: float = 5.0
    #: A client's ``time_limit`` is capped to this.
    max_time_limit: float = 10.0
    #: Solver processes (per server worker) that run solves and turn checks, off the event
    #: loop; a solve nobody waits for any more is stopped by ending its process.
    solver_processes: int = 2
    #: Solve/check jobs admitted at once (running plus queued); more get 503 "busy".
    max_pending: int = 128
    #: Wall-clock seconds a job may take beyond twice its time limit (two solver stages,
    #: queueing) before the request is answered 503; the request never waits longer.
    deadline_slack: float = 20.0
    #: Open connections per worker. Beyond it the connection that has waited longest for its
    #: request headers is closed to make room; when every connection has a request under way,
    #: the new one is answered a JSON 503.
    max_connections: int = 2048
    #: Seconds a connection has to send complete request headers (from its opening, or from
    #: the end of the previous response); past it the connection is closed (408 when a partial
    #: request was sent).
    header_timeout: float = 10.0
    #: Seconds a request has to send its whole body once its headers are in (408 past it).
    body_timeout: float = 15.0
    #: Seconds an idle keep-alive connection stays open after a response.
    keep_alive_timeout: float = 5.0
    #: Puzzle pack (JSON lines) of the /puzzles endpoints; empty: the pack shipped with rami.
    puzzle_pack: str = ""
    #: Web origins allowed to call the API from a browser (CORS); empty: CORS off.
    cors_origins: tuple[str, ...] = ()
    #: Serve the interactive pages /docs and /redoc (they load scripts from a public CDN).
    docs: bool = False
    #: Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed ("127.0.0.1,10.0.0.2",
    #: or "*"); empty: the headers are ignored and the client is the TCP peer.
    forwarded_allow_ips: str = ""

    def __post_init__(self) -> None:
        for field in _COUNTS:
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{field} must be a whole number >= 1, got {value!r}")
        for field in _SECONDS:
            value = getattr(self, field)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not (math.isfinite(value) and value > 0)
            ):
                raise ValueError(f"{field} must be a positive number of seconds, got {value!r}")
        for field in ("puzzle_pack", "forwarded_allow_ips"):
            if not isinstance(getattr(self, field), str):
                raise ValueError(f"{field} must be a string, got {getattr(self, field)!r}")
        if not isinstance(self.docs, bool):
            raise ValueError(f"docs must be true or false, got {self.docs!r}")
        origins = self.cors_origins
        if isinstance(origins, str) or not all(
            isinstance(origin, str) and origin.strip() for origin in origins
        ):
            raise ValueError(f"cors_origins must be a list of origins, got {origins!r}")
        object.__setattr__(self, "cors_origins", tuple(origin.strip() for origin in origins))
        if self.default_time_limit > self.max_time_limit:
            raise ValueError(
                f"default_time_limit ({self.default_time_limit}) exceeds "
                f"max_time_limit ({self.max_time_limit})"
            )

    def time_limit(self, requested: float | None) -> float:
        """The time limit a request gets: its own, capped to the server maximum.

        The request schemas refuse anything but a finite positive number (422); a value that
        got past them anyway (``nan`` compares false with everything, so ``min`` would keep
        it) is a ValueError, never an unbounded search."""
        if requested is None:
            return self.default_time_limit
        seconds = float(requested)
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"time_limit must be a finite positive number, got {requested!r}")
        return min(seconds, self.max_time_limit)

    def deadline(self, time_limit: float) -> float:
        """Wall-clock seconds after which a request is answered whatever the solver does."""
        return 2 * time_limit + self.deadline_slack

    @property
    def shutdown_timeout(self) -> float:
        """Seconds a graceful shutdown waits for requests in flight: the longest deadline."""
        return self.deadline(self.max_time_limit)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Defaults overridden by ``RAMI_SERVICE_MAX_BODY_BYTES=...`` and the like."""
        environ = os.environ if environ is None else environ
        changes: dict[str, object] = {}
        for field in dataclasses.fields(cls):
            name = ENV_PREFIX + field.name.upper()
            raw = environ.get(name)
            if raw is None and field.name in ENV_ALIASES:
                name = ENV_PREFIX + ENV_ALIASES[field.name]
                raw = environ.get(name)
            if raw is None or not raw.strip():
                continue
            kind = str(field.type)
            try:
                changes[field.name] = _parse(kind, raw)
            except ValueError:
                expected = {"int": "whole number", "float": "number", "bool": "true or false"}.get(
                    kind, "value"
                )
                raise ValueError(f"{name}={raw!r}: expected a {expected}") from None
        return cls(**changes)  # type: ignore[arg-type]

    def to_env(self) -> dict[str, str]:
        """The environment that makes :meth:`from_env` give these settings (worker processes)."""
        env = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, tuple):
                text = ",".join(value)
            elif isinstance(value, bool):
                text = "true" if value else "false"
            else:
                text = str(value)
            env[ENV_PREFIX + field.name.upper()] = text
        return env


def _parse(kind: str, raw: str) -> object:
    if kind == "int":
        return int(raw)
    if kind == "float":
        return float(raw)
    if kind == "bool":
        lowered = raw.strip().lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ValueError(raw)
    if kind.startswith("tuple"):
        return tuple(item.strip() for item in raw.split(",") if item.strip())
    return raw
