"""rami: the reference solver for rami chinois and the manipulation-rummy family.

The domain model imports fast; the solver (and OR-Tools) load only when ``solve`` is first used.
"""

from __future__ import annotations

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
    "solve",
    "validate_turn",
]


def solve(
    position: Position,
    *,
    objective: Objective | str = Objective.POINTS,
    min_moves: bool = True,
    time_limit: float = 10.0,
) -> Solution:
    """Best legal play for the player to move, proved optimal unless the time limit (wall-clock
    seconds) stops the search; see :func:`rami.solver.api.solve`. OR-Tools loads on first use."""
    from rami.solver.api import solve as _solve

    return _solve(position, objective=objective, min_moves=min_moves, time_limit=time_limit)
