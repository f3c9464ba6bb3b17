"""Service limits as frozen data, with defaults, checks, and the ``RAMI_SERVICE_*`` environment."""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass

ENV_PREFIX = "RAMI_SERVICE_"


@dataclass(frozen=True)
class Settings:
    """Every bound the HTTP service puts on a request (docs/service.md, "Limits")."""

    #: Largest request body accepted, in bytes; a larger one gets 413.
    max_body_bytes: int = 64 * 1024
    #: Solver time limit (seconds, CP-SAT deterministic time) when the request names none.
    default_time_limit: float = 5.0
    #: A client's ``time_limit`` is capped to this.
    max_time_limit: float = 10.0
    #: Threads that run solves and turn checks, off the event loop.
    solver_threads: int = 2
    #: Solve/check jobs admitted at once (running plus queued); more get 503 "busy".
    max_pending: int = 32
    #: Wall-clock seconds a job may take beyond twice its time limit (two solver stages,
    #: queueing) before the request is answered 503; the request never waits longer.
    deadline_slack: float = 20.0
    #: Open connections and requests uvicorn serves at once; beyond that it answers 503.
    max_connections: int = 256
    #: Puzzle pack (JSON lines) of the /puzzles endpoints; empty: the pack shipped with rami.
    puzzle_pack: str = ""

    def __post_init__(self) -> None:
        for field in ("max_body_bytes", "solver_threads", "max_pending", "max_connections"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{field} must be a whole number >= 1, got {value!r}")
        for field in ("default_time_limit", "max_time_limit", "deadline_slack"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                math.isfinite(value) and value > 0
            ):
                raise ValueError(f"{field} must be a positive number of seconds, got {value!r}")
        if not isinstance(self.puzzle_pack, str):
            raise ValueError(f"puzzle_pack must be a path or '', got {self.puzzle_pack!r}")
        if self.default_time_limit > self.max_time_limit:
            raise ValueError(
                f"default_time_limit ({self.default_time_limit}) exceeds "
                f"max_time_limit ({self.max_time_limit})"
            )

    def time_limit(self, requested: float | None) -> float:
        """The time limit a request gets: its own, capped to the server maximum."""
        if requested is None:
            return self.default_time_limit
        return min(float(requested), self.max_time_limit)

    def deadline(self, time_limit: float) -> float:
        """Wall-clock seconds after which a request is answered whatever the solver does."""
        return 2 * time_limit + self.deadline_slack

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Defaults overridden by ``RAMI_SERVICE_MAX_BODY_BYTES=...`` and the like."""
        environ = os.environ if environ is None else environ
        changes: dict[str, object] = {}
        for field in dataclasses.fields(cls):
            raw = environ.get(ENV_PREFIX + field.name.upper())
            if raw is None or not raw.strip():
                continue
            kind = {"int": int, "float": float}.get(str(field.type), str)
            try:
                changes[field.name] = kind(raw)
            except ValueError:
                raise ValueError(
                    f"{ENV_PREFIX}{field.name.upper()}={raw!r}: expected a "
                    f"{'whole number' if kind is int else 'number'}"
                ) from None
        return cls(**changes)  # type: ignore[arg-type]

    def to_env(self) -> dict[str, str]:
        """The environment that makes :meth:`from_env` give these settings (worker processes)."""
        return {
            ENV_PREFIX + field.name.upper(): str(getattr(self, field.name))
            for field in dataclasses.fields(self)
        }
