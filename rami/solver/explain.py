"""Moves a person can follow at the table to go from the old table to the new one.

Melds are numbered as the player sees them (:func:`rami.moves.meld_numbers`): the old table's
melds 1..n keep their numbers (the new meld matched to each, decision 7), new melds are numbered
on from n+1. Replaying the moves on the old table gives the new one (``replay_moves``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import rami.phrases as phrases
from rami.cards import Card, format_cards
from rami.errors import SolverBugError
from rami.melds import Meld, MeldKind
from rami.moves import Layout, Move, MoveKind, meld_numbers, numbered


def in_number_order(before: Sequence[Meld], after: Sequence[Meld]) -> list[Meld]:
    """The new table listed in the order of the numbers the move list gives its melds."""
    return [meld for _, meld in numbered(before, after)]


def _span(meld: Meld) -> str:
    if meld.kind is MeldKind.RUN and len(meld.cards) > 3:
        return f"{meld.cards[0]}..{meld.cards[-1]}"
    return format_cards(meld.cards)


def _end_block(original: Meld, cards: Counter[Card]) -> tuple[int, int] | None:
    """If ``cards`` are the top or bottom block of a run (2+ cards), its slice bounds."""
    size = sum(cards.values())
    if original.kind is not MeldKind.RUN or size < 2 or size >= len(original.cards):
        return None
    for low, high in ((len(original.cards) - size, len(original.cards)), (0, size)):
        if Counter(original.cards[low:high]) == cards:
            return low, high
    return None


#: The cards of each changed meld before and after, by number (counted once for both uses).
Counted = dict[int, tuple[Counter[Card], Counter[Card]]]
#: The cards arriving in each meld of the new table by number, each with the number of the
#: old meld it leaves (None: from the hand).
Arrivals = dict[int, list[tuple[int | None, Card]]]


def explain_moves(
    before: Sequence[Meld], after: Sequence[Meld], played: Sequence[Card]
) -> tuple[Move, ...]:
    numbers = meld_numbers(before, after)
    leftovers, counted = _leftovers(before, after, numbers)
    arrivals = _arrivals(before, after, played, numbers, leftovers, counted)
    return _moves(before, after, numbers, arrivals)


def _leftovers(
    before: Sequence[Meld], after: Sequence[Meld], numbers: Sequence[int]
) -> tuple[dict[int, Counter[Card]], Counted]:
    """The cards each old meld gives away, by number, and the cards of each changed meld."""
    by_number = {number: index for index, number in enumerate(numbers)}
    leftovers: dict[int, Counter[Card]] = {}
    counted: Counted = {}
    for index, meld in enumerate(before):
        number = index + 1
        target = by_number.get(number)
        if target is not None and after[target].cards == meld.cards:
            leftovers[number] = Counter()  # most melds stay as they were
            continue
        own = meld.counts()
        kept = after[target].counts() if target is not None else Counter()
        counted[number] = own, kept
        leftovers[number] = own - kept
    return leftovers, counted


def _arrivals(
    before: Sequence[Meld],
    after: Sequence[Meld],
    played: Sequence[Card],
    numbers: Sequence[int],
    leftovers: dict[int, Counter[Card]],
    counted: Counted,
) -> Arrivals:
    """Where each card a meld of the new table needs comes from: the first old meld giving
    that card away, else the hand (SolverBugError: from nowhere, or a card left over)."""
    hand = Counter(played)
    donors: dict[Card, list[int]] = {}
    for number in sorted(leftovers):
        for card, count in leftovers[number].items():
            donors.setdefault(card, []).extend([number] * count)
    arrivals: Arrivals = {}
    for index, meld in enumerate(after):
        number = numbers[index]
        if number > len(before):
            needed = meld.counts()
        elif before[number - 1].cards == meld.cards:
            arrivals[number] = []
            continue
        else:
            own, here = counted[number]
            needed = here - own
        sources: list[tuple[int | None, Card]] = []
        for card in sorted(needed.elements()):
            waiting = donors.get(card)
            donor = waiting.pop(0) if waiting else None
            if donor is not None:
                leftovers[donor][card] -= 1
            elif hand[card] > 0:
                hand[card] -= 1
            else:
                raise SolverBugError(f"{card} in meld {number} comes from nowhere")
            sources.append((donor, card))
        arrivals[number] = sources
    if any(+count for count in leftovers.values()) or +hand:
        raise SolverBugError("some cards of the turn have no place on the new table")
    return arrivals


def _moves(
    before: Sequence[Meld], after: Sequence[Meld], numbers: Sequence[int], arrivals: Arrivals
) -> tuple[Move, ...]:
    """The moves, meld by meld in number order: new melds laid or cut off first, then the
    hand's cards added, then the table's cards moved."""
    creating: list[Move] = []
    moving: list[Move] = []
    adding: list[Move] = []
    for index in sorted(range(len(after)), key=lambda i: numbers[i]):
        number = numbers[index]
        groups: dict[int | None, list[Card]] = {}
        for donor, card in arrivals[number]:
            groups.setdefault(donor, []).append(card)
        is_new = number > len(before)
        if is_new and list(groups) == [None]:
            cards = tuple(after[index].cards)
            creating.append(
                Move(
                    MoveKind.LAY,
                    cards,
                    None,
                    number,
                    phrases.LAY.say(cards=format_cards(cards), target=number),
                )
            )
            continue
        first = True
        for donor in sorted(groups, key=lambda d: (d is None, d or 0)):
            cards = tuple(groups[donor])
            if donor is None:
                adding.append(
                    Move(
                        MoveKind.ADD,
                        cards,
                        None,
                        number,
                        phrases.ADD.say(cards=format_cards(cards), target=number),
                    )
                )
                continue
            moves = creating if is_new and first else moving
            moves.append(_from_meld(before[donor - 1], donor, cards, number, is_new and first))
            first = False
    # Hand cards go down before table cards leave a meld, so melds shrink as little as possible.
    return tuple(creating + adding + moving)


def _from_meld(
    original: Meld, donor: int, cards: tuple[Card, ...], number: int, may_split: bool
) -> Move:
    """Cards of old meld ``donor`` going to meld ``number``: a split where they are an end
    block of a run starting a new meld, else a move."""
    block = _end_block(original, Counter(cards)) if may_split else None
    if block is None:
        return Move(
            MoveKind.MOVE,
            cards,
            donor,
            number,
            phrases.MOVE.say(cards=format_cards(cards), source=donor, target=number),
        )
    low, high = block
    cut = original.cards[low - 1] if low else original.cards[high - 1]
    piece = Meld(original.cards[low:high], MeldKind.RUN)
    return Move(
        MoveKind.SPLIT,
        tuple(original.cards[low:high]),
        donor,
        number,
        phrases.SPLIT.say(
            run=_span(original), source=donor, cut=cut, piece=_span(piece), target=number
        ),
    )


def replay_moves(
    before: Sequence[Meld], moves: Sequence[Move], hand: Sequence[Card]
) -> dict[int, Counter[Card]]:
    """Apply moves to the old table (:class:`rami.moves.Layout`); returns the cards of each
    non-empty meld by number (MoveError: a move whose cards are not where it says)."""
    layout = Layout.start(None, before, hand)
    for move in moves:
        layout, _ = layout.apply(move)
    return {number: Counter(pile) for number, pile in enumerate(layout.piles, start=1) if pile}


__all__ = ["explain_moves", "in_number_order", "meld_numbers", "replay_moves"]
