"""The parts the lay-off model is built from: the table's melds as the model sees them (an old
run with the places it may grow into and the jokers the hand may swap out, an old set with the
suits it may take), a new meld's window and its copies, and where a card type sits in a run
(:mod:`rami.solver.layoff.model`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rami.melds import MeldKind
from rami.rules import Ruleset, TableJoker

SWAPPING = (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
MAX_RUN = 13


def type_at(suit: int, place: int) -> int:
    """Card type of run place 1..14 in ``suit`` (14 is the ace above the king)."""
    return suit * 13 + (place - 1) % 13


def least_real(rules: Ruleset, size: int) -> int:
    """Real cards a meld of ``size`` cards needs (docs/rules.md row "real cards per meld")."""
    least = max(1, rules.min_real_cards)
    if rules.naturals_at_least_jokers:
        least = max(least, (size + 1) // 2)
    return least


@dataclass
class OldRun:
    index: int
    suit: int
    low: int
    high: int
    #: (place, filled, real) for each place the run may grow into, below then above.
    grow: list[tuple[int, Any, Any]] = field(default_factory=list)
    #: (slot in meld.cards, place, swapped) for each joker the hand could swap out.
    swaps: list[tuple[int, int, Any]] = field(default_factory=list)


@dataclass
class OldSet:
    index: int
    rank: int
    added: dict[int, Any] = field(default_factory=dict)  # suit -> boolean
    jokers: Any = 0  # final number of jokers


@dataclass
class Window:
    """A new-meld template: a run window (places) or a set size (suits), with its copies."""

    kind: MeldKind
    suit_or_rank: int
    places: tuple[int, ...]  # run places, or the suits a set may use
    size: int
    copies: Any
    real: dict[int, Any]  # place (run) or suit (set) -> copies holding a real card there
    points: int
    pure: bool = False
