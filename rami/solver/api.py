"""The typed solver API: ``solve(position) -> Solution``. The CLI and HTTP layers only wrap it."""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from typing import Any

from rami.cards import Card
from rami.errors import SolverBugError
from rami.melds import Meld
from rami.notation import meld_to_json
from rami.position import Position
from rami.referee import TurnVerdict, validate_turn


class Objective(Enum):
    """Which of the first two levels comes first; cards moved is always the last level."""

    POINTS = "points"
    CARDS = "cards"


class Status(Enum):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"


@dataclass(frozen=True)
class Move:
    """One step a person can do at the table; meld numbers are 1-based, new melds numbered on."""

    kind: str
    cards: tuple[Card, ...]
    source: int | None
    target: int | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": [str(card) for card in self.cards],
            "from": self.source,
            "to": self.target,
            "text": self.text,
        }


@dataclass(frozen=True)
class Solution:
    status: Status
    position: Position
    table: tuple[Meld, ...]
    played: tuple[Card, ...]
    hand: tuple[Card, ...]
    penalty_before: int
    penalty_after: int
    cards_moved: int
    moves: tuple[Move, ...]
    opened: bool
    objective: Objective
    min_moves: bool
    #: Proved bounds per level when a time limit cut the search short (empty when optimal).
    bounds: dict[str, int] = field(default_factory=dict)
    message: str = ""
    solve_ms: float = 0.0
    #: The card discarded to end the turn, for presets that discard (RULES.md decision 6).
    discard: Card | None = None
    #: Where the time went: "build_ms" (models), "search_ms" (CP-SAT), "finish_ms" (the rest).
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def cards_played(self) -> int:
        return len(self.played)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "status": self.status.value,
            "rules": self.position.rules.option_string,
            "objective": self.objective.value,
            "min_moves": self.min_moves,
            "table": [meld_to_json(meld) for meld in self.table],
            "played": [str(card) for card in self.played],
            "hand": [str(card) for card in self.hand],
            "opened": self.opened,
            "penalty_before": self.penalty_before,
            "penalty_after": self.penalty_after,
            "cards_played": self.cards_played,
            "cards_moved": self.cards_moved,
            "moves": [move.to_json() for move in self.moves],
            "discard": str(self.discard) if self.discard is not None else None,
            "message": self.message,
            "ms": round(self.solve_ms, 3),
        }
        if self.bounds:
            data["bounds"] = dict(self.bounds)
        return data

    def _repr_svg_(self) -> str:
        """Jupyter shows a solution as a picture of the new table (:func:`rami.svg.solution`)."""
        from rami.svg import solution

        return solution(self)


def refereed(
    position: Position,
    table: Sequence[Meld],
    played: Sequence[Card],
    discard: Card | None = None,
) -> TurnVerdict:
    """The independent referee's verdict on a solver's answer; a rejection is a solver bug."""
    verdict = validate_turn(position, table, played, discard)
    if not verdict.legal:
        raise SolverBugError(
            f"the referee rejects the solver's answer for {position}: "
            f"{'; '.join(verdict.problems)} (table {' | '.join(map(str, table))}, "
            f"played {' '.join(map(str, played)) or '-'}, discard {discard})"
        )
    return verdict


def costliest_discard(position: Position) -> Card | None:
    """The card to discard after playing nothing: the costliest one the rules let go
    (decision 8: the card just taken only as the last one; Café: a joker only as the last
    one). None when no card may go. A player left unopened under a flat penalty scores the
    same whatever goes: a joker is then kept, as the most useful card for opening later."""
    rules = position.rules
    hand = Counter(position.hand)
    last = len(position.hand) == 1
    allowed = [
        card for card in hand
        if last or not (
            card == position.taken_discard
            or (card.is_joker and rules.joker_kept_until_last)
        )
    ]
    if not allowed:
        return None
    flat = not position.opened and rules.unopened_flat_penalty is not None
    return max(
        allowed,
        key=lambda card: (not (flat and card.is_joker), rules.card_penalty(card.rank), card.index),
    )


def honest_status(
    proved: bool, verdict: TurnVerdict, model_moved: int | None, bounds: dict[str, int]
) -> Status:
    """OPTIMAL only when the search proved it and, where the model counted the cards moved,
    the referee's exact matching counts the same (else the model's count goes in ``bounds``)."""
    if model_moved is not None and verdict.cards_moved != model_moved:
        bounds["cards_moved_model"] = model_moved
        return Status.FEASIBLE
    return Status.OPTIMAL if proved else Status.FEASIBLE


def solve(
    position: Position,
    *,
    objective: Objective | str = Objective.POINTS,
    min_moves: bool = True,
    time_limit: float = 10.0,
) -> Solution:
    """Best legal play for the player to move, proved optimal unless the time limit hits.

    Levels, in strict priority: least hand penalty left, most cards played (swapped by
    ``objective="cards"``), then fewest table cards moved (skipped with ``min_moves=False``).
    Every answer is checked by the independent referee before it is returned.
    """
    rules = position.rules
    if not rules.rearrangement or (rules.discard and not position.opened):
        # Rami 51, BFmania 51/30, Café Rummy: lay-offs (and joker swaps) only, then a discard;
        # rami fou's opening turn is the same turn (new melds from the hand, then a discard).
        from rami.solver.layoff import solve_layoff as solve_position
    else:
        from rami.solver.engine import solve_position
    _freeze_imported_objects()

    started = time.perf_counter()
    solution = solve_position(
        position.checked(), Objective(objective), min_moves=min_moves, time_limit=time_limit
    )
    elapsed = (time.perf_counter() - started) * 1000
    return _with_time(solution, elapsed)


@cache
def _freeze_imported_objects() -> None:
    """Move what importing OR-Tools created out of the garbage collector's reach, once.

    Those are some 55,000 long-lived objects: a full collection pass over them took about 30 ms
    (measured) and fell inside whichever solve happened to trigger it, the worst tail of a warm
    process. They live as long as the process anyway (``gc.freeze``).
    """
    gc.freeze()


def _with_time(solution: Solution, elapsed_ms: float) -> Solution:
    from dataclasses import replace

    return replace(solution, solve_ms=elapsed_ms)
