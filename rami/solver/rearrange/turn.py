"""A turn the two-stage search found (:mod:`rami.solver.rearrange.stages`), before it is
checked and explained, and the turn when the time limit left none: nothing played, the
costliest card discarded."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import rami.phrases as phrases
from rami.cards import Card
from rami.melds import Meld
from rami.position import Position
from rami.solver.answer import costliest_discard


@dataclass
class Turn:
    """A turn found by the search, before it is checked and explained."""

    table: list[Meld]
    played: Counter[Card]
    discard: Card | None
    proved: bool
    bounds: dict[str, int]
    #: The stage-1 objective (levels 1-2 folded, see play_weights), or None when no search ran.
    play_value: int | None = None
    #: Cards moved as stage 2 counted them (None: stage 2 did not run or did not prove it).
    expected_moved: int | None = None
    #: Set when nothing is played: why.
    message: str | None = None


def nothing_in_time(position: Position) -> Turn:
    """No turn found within the time limit: nothing played (and the costliest discard)."""
    return Turn(
        list(position.table),
        Counter(),
        fallback_discard(position),
        False,
        {},
        message=phrases.NOTHING_IN_TIME.say(),
    )


def fallback_discard(position: Position) -> Card | None:
    return costliest_discard(position) if position.rules.discard else None
