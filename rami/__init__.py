"""rami: the reference solver for rami chinois and the manipulation-rummy family.

The domain model imports fast; the solver (and OR-Tools) load only when ``solve`` is first used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

# The review package is loaded here, before the function ``review`` below takes its name: loaded
# later, the package would replace the function as the attribute ``rami.review``.
import rami.review as _review_package  # noqa: F401
from rami import display  # noqa: F401  (pictures in Jupyter: _repr_svg_)
from rami.cards import JOKER, Card, Suit, parse_cards
from rami.errors import (
    IllegalTurnError,
    InvalidPositionError,
    NotationError,
    RamiError,
    UnknownRulesetError,
    UnsupportedError,
)
from rami.melds import Meld, MeldKind, meld_problems
from rami.notation import parse_position, parse_position_any, position_from_json, position_to_json
from rami.position import Position, hand_penalty
from rami.referee import TurnVerdict, validate_turn
from rami.rules import PRESETS, Ruleset, get_ruleset
from rami.solver.solution import Move, MoveKind, Objective, Solution, Status

if TYPE_CHECKING:
    from rami.review import Review
    from rami.solver.alternatives import Alternatives

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "PRESETS",
    "Card",
    "IllegalTurnError",
    "InvalidPositionError",
    "Meld",
    "MeldKind",
    "Move",
    "MoveKind",
    "NotationError",
    "Objective",
    "Position",
    "RamiError",
    "Ruleset",
    "Solution",
    "Status",
    "Suit",
    "TurnVerdict",
    "UnknownRulesetError",
    "UnsupportedError",
    "__version__",
    "get_ruleset",
    "hand_penalty",
    "meld_problems",
    "parse_cards",
    "parse_position",
    "parse_position_any",
    "position_from_json",
    "position_to_json",
    "review",
    "solve",
    "solve_top",
    "validate_turn",
]


def solve(
    position: Position,
    *,
    objective: Objective | str = Objective.POINTS,
    min_moves: bool = True,
    time_limit: float = 10.0,
    wall_clock: bool = True,
) -> Solution:
    """Best legal play for the player to move, proved optimal unless the time limit (wall-clock
    seconds) stops the search; see :func:`rami.solver.api.solve`. OR-Tools loads on first use."""
    from rami.solver.api import solve as _solve

    return _solve(
        position,
        objective=objective,
        min_moves=min_moves,
        time_limit=time_limit,
        wall_clock=wall_clock,
    )


def solve_top(
    position: Position,
    top: int = 3,
    *,
    objective: Objective | str = Objective.POINTS,
    min_moves: bool = True,
    time_limit: float = 10.0,
) -> Alternatives:
    """The ``top`` best turns with distinct signatures, best first (fewer when fewer exist);
    see :func:`rami.solver.alternatives.solve_top`. ``time_limit`` covers the whole search."""
    from rami.solver.alternatives import solve_top as _solve_top

    return _solve_top(
        position, top, objective=objective, min_moves=min_moves, time_limit=time_limit
    )


def review(
    position: Position,
    table_after: Sequence[Meld],
    played: Sequence[Card] | None = None,
    discard: Card | None = None,
    *,
    objective: Objective | str = Objective.POINTS,
    time_limit: float = 10.0,
) -> Review:
    """Review a turn played: the referee's verdict, the comparison with the best turn at every
    level, the key move missed and a grade (see :mod:`rami.review`)."""
    from rami.review import review as _review

    return _review(
        position, table_after, played, discard, objective=objective, time_limit=time_limit
    )
