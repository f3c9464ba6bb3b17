"""A table moving one table card, found without a model: stage 2's shortcut.

Where stage 1's cards cannot all be laid without moving a table card, the fewest cards moved is
often one: on the suites, 22 of the 165 positions that reach stage 2, most of them at 60-100
table cards, where stage 2 is slowest. Such a table takes one card off a meld that stays legal
without it (a run's end, a card of a set of four, a joker at a run's end) and lays that card
with the played ones in place. :func:`one_move_table` tries a few such cards with the in-place
search (:mod:`rami.solver.in_place`): cards that could share a meld with a played card that has
no place on the table as it is, jokers first, then from the longest melds. It finds 10 of the
22 on the suites.

A table found this way is a heuristic's answer, never a bound: the engine returns it as optimal
only where a table moving nothing is known not to exist (the in-place search ran to its end, or
stage 2's relaxation with nothing moved is infeasible), and otherwise uses it as stage 2's hint.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from rami.cards import Card
from rami.matching import cards_moved
from rami.melds import Meld, is_valid
from rami.position import Position
from rami.solver.in_place import cards_without_place, lay_whole_hand

#: Cards taken off the table and tried, at most (jokers first, then from the longest melds).
#: On the suites 6 finds the same 10 tables as 12, in 200 instead of 250 ms of failed tries.
MAX_TRIES = 6
#: Hand cards left with no place once the card is in the hand, at most (see lay_whole_hand).
MAX_UNPLACED: int | None = 0
#: Tried only where 1 to this many of the played cards have no place on the table as it is.
#: With none, the in-place search failed for want of nodes and each try costs its whole budget
#: (on the suites: 3 tables found in 47 such positions, 1.4 s of searches); with more, one
#: card seldom serves them all (1 in 74).
MAX_STUCK = 2


def _places(card: Card, top: int) -> tuple[int, ...]:
    return (1, 14) if card.rank == 1 and top == 14 else (card.rank,)


def _near(card: Card, targets: list[Card], top: int, reach: int) -> bool:
    """Could ``card`` share a meld with one of ``targets`` (same rank, or same suit within
    ``reach`` places)?"""
    for target in targets:
        if target.rank == card.rank:
            return True
        if target.suit == card.suit and any(
            abs(a - b) <= reach for a in _places(card, top) for b in _places(target, top)
        ):
            return True
    return False


def _removable(position: Position) -> list[tuple[int, Meld, Card]]:
    """(meld index, the meld without the card, the card) for each card whose meld stays legal
    without it; identical cards of one meld once."""
    found: list[tuple[int, Meld, Card]] = []
    for index, meld in enumerate(position.table):
        if len(meld.cards) <= 3:
            continue
        seen: set[Card] = set()
        for spot, card in enumerate(meld.cards):
            if card in seen:
                continue
            rest = Meld(meld.cards[:spot] + meld.cards[spot + 1 :], meld.kind)
            if is_valid(rest, position.rules):
                seen.add(card)
                found.append((index, rest, card))
    return found


def one_move_table(position: Position, played: Counter[Card]) -> list[Meld] | None:
    """A table laying exactly ``played`` that moves one table card (or none), if taking one
    card off a meld and laying the rest in place finds one; else None."""
    rules = position.rules
    top = rules.top_rank
    hand = tuple(played.elements())
    stuck = cards_without_place(replace(position, hand=hand))
    if not 1 <= len(stuck) <= MAX_STUCK:
        return None
    jokers = sum(1 for card in hand if card.is_joker)
    candidates = [
        entry
        for entry in _removable(position)
        if entry[2].is_joker or _near(entry[2], stuck, top, 2 + jokers)
    ]
    # Jokers first (any card may need one), then by meld size: a long meld spares a card
    # most easily.
    candidates.sort(key=lambda entry: (not entry[2].is_joker, -len(entry[1].cards)))
    for index, rest, card in candidates[:MAX_TRIES]:
        table = (*position.table[:index], rest, *position.table[index + 1 :])
        laid = lay_whole_hand(
            replace(position, table=table, hand=(*hand, card)), max_unplaced=MAX_UNPLACED
        )
        if laid.table is not None and cards_moved(position.table, laid.table) <= 1:
            return laid.table
    return None
