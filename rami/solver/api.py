"""The typed solver API: ``solve(position) -> Solution``. The CLI and HTTP layers only wrap it.

Routing lives here, in one place: each backend says which positions it takes and what it cannot
do for them (:data:`BACKENDS`); the first that takes a position solves it.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from importlib import import_module

from rami.errors import RamiError, UnsupportedError
from rami.position import Position
from rami.solver.solution import Move, MoveKind, Objective, Solution, Status

__all__ = [
    "BACKENDS",
    "Backend",
    "Move",
    "MoveKind",
    "Objective",
    "Solution",
    "Status",
    "backend_for",
    "solve",
]

SolveFunction = Callable[..., Solution]

#: Of a limit that started before the solve (``started_at``), at most this share is counted
#: as spent: the search always keeps a tenth.
LEAST_SEARCH_SHARE_LEFT = 0.9


def _takes_layoff(position: Position) -> bool:
    # Rami 51, BFmania 51/30, Café Rummy: lay-offs (and joker swaps) only, then a discard;
    # rami fou's opening turn is the same turn (new melds from the hand, then a discard).
    rules = position.rules
    return not rules.rearrangement or (rules.discard and not position.opened)


@dataclass(frozen=True)
class Backend:
    """One solver: which positions it takes, and the module (imported on first use, since it
    loads OR-Tools) whose ``solve_position`` and ``refusal`` it calls."""

    name: str
    takes: Callable[[Position], bool]
    module: str

    def solver(self) -> SolveFunction:
        solve: SolveFunction = import_module(self.module).solve_position
        return solve

    def refusal(self, position: Position) -> str | None:
        """What it cannot solve in ``position`` (None: it can)."""
        refused: str | None = import_module(self.module).refusal(position)
        return refused


BACKENDS: tuple[Backend, ...] = (
    Backend("layoff", _takes_layoff, "rami.solver.layoff"),
    Backend("rearrange", lambda position: position.rules.rearrangement, "rami.solver.rearrange"),
)


def backend_for(position: Position) -> Backend:
    """The backend that solves ``position``; UnsupportedError when none can."""
    for backend in BACKENDS:
        if backend.takes(position):
            reason = backend.refusal(position)
            if reason is not None:
                raise UnsupportedError(reason)
            return backend
    raise UnsupportedError(f"no solver handles {position.rules.option_string}")  # pragma: no cover


def solve(
    position: Position,
    *,
    objective: Objective | str = Objective.POINTS,
    min_moves: bool = True,
    time_limit: float = 10.0,
    wall_clock: bool = True,
    started_at: float | None = None,
) -> Solution:
    """Best legal play for the player to move, proved optimal unless the time limit hits.

    Levels, in strict priority: least hand penalty left, most cards played (swapped by
    ``objective="cards"``), then fewest table cards moved (skipped with ``min_moves=False``).
    ``time_limit`` is wall-clock seconds (and CP-SAT's deterministic seconds): the answer comes
    within ``time_limit x 1.1 + 0.1`` s (docs/solver.md); with ``wall_clock=False`` only the
    deterministic limit counts, so the answer is the same however loaded the machine.
    ``started_at``: the ``time.time()`` at which the caller's promise began (a service request's
    arrival): the seconds since count against the limit, up to nine tenths of it (a request
    that waited longer still gets a tenth of its limit to search, a late answer being worth
    more than none). Every answer is checked by the referee before it is returned.
    """
    if not (isinstance(time_limit, (int, float)) and math.isfinite(time_limit) and time_limit > 0):
        raise RamiError(
            f"the time limit must be a finite positive number of seconds, not {time_limit!r}"
        )
    position = position.checked()
    solve_position = backend_for(position).solver()
    _freeze_imported_objects()
    started = time.perf_counter()
    spent = (
        0.0
        if started_at is None
        else min(max(time.time() - started_at, 0.0), LEAST_SEARCH_SHARE_LEFT * time_limit)
    )
    solution = solve_position(
        position,
        Objective(objective),
        min_moves=min_moves,
        time_limit=time_limit,
        wall_clock=wall_clock,
        spent=spent,
    )
    return replace(solution, solve_ms=(time.perf_counter() - started) * 1000)


@cache
def _freeze_imported_objects() -> None:
    """Move what importing OR-Tools created out of the garbage collector's reach, once.

    Those are some 55,000 long-lived objects: a full collection pass over them took about 30 ms
    (measured) and fell inside whichever solve happened to trigger it, the worst tail of a warm
    process. They live as long as the process anyway (``gc.freeze``).
    """
    gc.freeze()
