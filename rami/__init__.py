"""rami: the reference solver for rami chinois and the manipulation-rummy family.

The domain model imports fast; the solver (and OR-Tools) load only when ``solve`` is first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from rami.solver.api import Solution

__version__ = "0.1.0"

__all__ = [
    "JOKER",
    "PRESETS",
    "Card",
    "IllegalTurnError",
    "InvalidPositionError",
    "Meld",
    "MeldKind",
    "NotationError",
    "Position",
    "RamiError",
    "Ruleset",
    "Solution",
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


def solve(position: Position, **options: Any) -> Solution:
    """Best legal play for the player to move; see :func:`rami.solver.api.solve`."""
    from rami.solver.api import solve as _solve

    return _solve(position, **options)


def __getattr__(name: str) -> Any:
    if name == "Solution":
        from rami.solver.api import Solution

        return Solution
    raise AttributeError(f"module 'rami' has no attribute {name!r}")
