"""Meld templates: melds as tuples of card types, jokers pooled (docs/solver.md).

A template names the card types a meld covers, in order for runs; whether each place holds a real
card or a joker is decided separately, by counts. Free melds need only runs of 3-5 and sets of 3-4:
every longer run cuts into runs of 3-5 (den Hertog & Hulshof).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

from rami.melds import MeldKind

FREE_RUN_LENGTHS = (3, 4, 5)


@dataclass(frozen=True, slots=True)
class Template:
    kind: MeldKind
    types: tuple[int, ...]
    #: Run positions (1..14, 14 = ace above the king); empty for sets.
    positions: tuple[int, ...] = ()

    @property
    def suit(self) -> int:
        return self.types[0] // 13

    @property
    def rank(self) -> int:
        return self.types[0] % 13 + 1


def type_at(suit: int, position: int) -> int:
    """Card type of run position 1..14 in ``suit`` (14 is the ace again)."""
    return suit * 13 + (position - 1) % 13


def run_template(suit: int, low: int, high: int) -> Template:
    positions = tuple(range(low, high + 1))
    return Template(MeldKind.RUN, tuple(type_at(suit, p) for p in positions), positions)


def set_template(rank: int, suits: tuple[int, ...]) -> Template:
    return Template(MeldKind.SET, tuple(suit * 13 + rank - 1 for suit in suits))


@cache
def free_templates(top_rank: int) -> tuple[Template, ...]:
    """Runs of 3-5 and sets of 3-4: enough to decompose any table (jokers pooled)."""
    templates: list[Template] = []
    for suit in range(4):
        for length in FREE_RUN_LENGTHS:
            for low in range(1, top_rank - length + 2):
                templates.append(run_template(suit, low, low + length - 1))
    for rank in range(1, 14):
        for size in (3, 4):
            for suits in combinations(range(4), size):
                templates.append(set_template(rank, suits))
    return tuple(templates)


@cache
def sets_containing(card_type: int) -> tuple[Template, ...]:
    rank = card_type % 13 + 1
    suit = card_type // 13
    return tuple(
        set_template(rank, suits)
        for size in (3, 4)
        for suits in combinations(range(4), size)
        if suit in suits
    )


@cache
def long_runs(top_rank: int, longest: int) -> tuple[Template, ...]:
    """Runs of 6 cards up to ``longest``: the alternatives' model (``exact``) lays a run with
    two jokers or more as one template, so that no piece of it holds a single real card."""
    return tuple(
        run_template(suit, low, low + length - 1)
        for suit in range(4)
        for length in range(FREE_RUN_LENGTHS[-1] + 1, longest + 1)
        for low in range(1, top_rank - length + 2)
    )
