"""The lay-off reference's table (:mod:`support.layoff_reference`): every legal future of each
table meld (lay-offs around it, joker swaps where the preset allows them), and every
combination of them over the table."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind, stands_for
from rami.position import Position
from rami.rules import Ruleset, TableJoker
from support.layoff_reference_melds import Cards, card_at, multiset
from support.second_referee import meld_faults


@dataclass(frozen=True)
class _Grown:
    """One legal future of a table meld: the meld after, hand cards it takes, jokers it takes
    from the hand (negative: jokers it gives up)."""

    meld: Meld
    reals: Counter[Card]
    jokers: int


def _grown_runs(
    meld: Meld, hand: Counter[Card], jokers: int, swap: bool, rules: Ruleset
) -> list[_Grown]:
    places = stands_for(meld, rules)
    suit = meld.real_cards[0].index // 13
    low, high = places[0], places[-1]
    swappable = [
        p
        for p, card in zip(places, meld.cards, strict=True)
        if card.is_joker and swap and hand[card_at(p, suit)]
    ]
    out: list[_Grown] = []
    for new_low in range(low, 0, -1):
        below = range(new_low, low)
        if sum(1 for p in below if not hand[card_at(p, suit)]) > jokers:
            break
        for new_high in range(high, rules.top_rank + 1):
            grown = [*below, *range(high + 1, new_high + 1)]
            held = [p for p in grown if hand[card_at(p, suit)]]
            missing = len(grown) - len(held)
            if missing > jokers:
                break
            for extra in range(jokers - missing + 1):
                for as_joker in itertools.combinations(held, extra):
                    for size in range(len(swappable) + 1):
                        for swapped in itertools.combinations(swappable, size):
                            cards = []
                            for place in range(new_low, new_high + 1):
                                card = card_at(place, suit)
                                if low <= place <= high:
                                    old = meld.cards[place - low]
                                    cards.append(card if place in swapped else old)
                                else:
                                    real = place in held and place not in as_joker
                                    cards.append(card if real else JOKER)
                            after = Meld(tuple(cards), MeldKind.RUN)
                            if meld_faults(after, rules):
                                continue
                            reals = Counter(after.real_cards) - Counter(meld.real_cards)
                            if reals - hand:
                                continue
                            out.append(_Grown(after, reals, after.jokers - meld.jokers))
    return out


def _grown_sets(
    meld: Meld, hand: Counter[Card], jokers: int, swap: bool, rules: Ruleset
) -> list[_Grown]:
    rank = meld.real_cards[0].rank
    present = {card.suit for card in meld.real_cards}
    missing = [s for s in range(4) if s not in present and hand[Card.of(rank, s)]]
    out: list[_Grown] = []
    for size in range(len(missing) + 1):
        for added in itertools.combinations(missing, size):
            for final_jokers in range(5):
                freed = meld.jokers - final_jokers
                if freed > 0 and (not swap or freed > size):
                    continue  # a joker leaves a set only for a missing suit laid in its place
                if final_jokers - meld.jokers > jokers:
                    continue
                cards = (*meld.real_cards, *(Card.of(rank, s) for s in added))
                after = Meld(cards + (JOKER,) * final_jokers, MeldKind.SET)
                if meld_faults(after, rules):
                    continue
                reals = Counter(Card.of(rank, s) for s in added)
                out.append(_Grown(after, reals, final_jokers - meld.jokers))
    return out


def table_futures(position: Position) -> dict[tuple[Cards, int], list[tuple[Meld, ...]]]:
    """Every combination of meld futures, by (hand real cards left, net jokers laid)."""
    rules = position.rules
    hand = Counter(card for card in position.hand if not card.is_joker)
    swap = rules.table_joker in (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
    table_jokers = sum(meld.jokers for meld in position.table)
    jokers = Counter(position.hand)[JOKER] + (table_jokers if swap else 0)
    options = [
        (_grown_runs if meld.kind is MeldKind.RUN else _grown_sets)(meld, hand, jokers, swap, rules)
        for meld in position.table
    ]
    futures: dict[tuple[Cards, int], list[tuple[Meld, ...]]] = {}

    def walk(number: int, left: Counter[Card], net: int, melds: tuple[Meld, ...]) -> None:
        if number == len(options):
            futures.setdefault((multiset(left), net), []).append(melds)
            return
        for grown in options[number]:
            if grown.reals - left:
                continue
            walk(number + 1, left - grown.reals, net + grown.jokers, (*melds, grown.meld))

    walk(0, hand, 0, ())
    return futures
