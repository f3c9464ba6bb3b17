"""The second referee's opening requirement (point 4 of the spec): on the new melds as they
lie, and on the cards played (some disjoint valid melds of them open, decision 1 flag)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import product

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind
from rami.rules import Ruleset
from support.second_referee.melds import (
    LARGEST_SET,
    LONGEST_RUN,
    SMALLEST_MELD,
    card_at,
    highest_place,
    is_pure_run,
    meld_points,
    real_cards,
    valid,
)


def opening_faults(melds: Sequence[Meld], rules: Ruleset) -> list[str]:
    """Point 4 of the spec, judged on ``melds`` (all valid)."""
    faults: list[str] = []
    if not melds:
        faults.append("no new meld is laid: a player not yet opened must open to play cards")
        return faults
    if rules.opening_pure_run and not any(is_pure_run(meld) for meld in melds):
        faults.append("the opening holds no pure run (tierce franche)")
    if rules.opening_points > 0:
        points = sum(meld_points(meld, rules) for meld in melds)
        if points < rules.opening_points:
            faults.append(f"the opening counts {points} points, {rules.opening_points} needed")
    return faults


def _melds_with_first(
    first: Card, others: Counter[Card], jokers: int, rules: Ruleset
) -> Iterator[Meld]:
    """Every valid meld holding ``first`` once, other real cards from ``others``, jokers <= n."""
    top = highest_place(rules)
    suit = int(first.suit)
    places = (1, 14) if first.rank == 1 and top == 14 else (first.rank,)
    for place in places:
        for length in range(SMALLEST_MELD, LONGEST_RUN + 1):
            for start in range(max(1, place - length + 1), min(place, top - length + 1) + 1):
                choices: list[tuple[Card, ...]] = []
                for spot in range(start, start + length):
                    if spot == place:
                        choices.append((first,))
                        continue
                    card = card_at(spot, suit)
                    choices.append((card, JOKER) if others[card] > 0 else (JOKER,))
                if sum(1 for choice in choices if choice == (JOKER,)) > jokers:
                    continue
                for cards in product(*choices):
                    if cards.count(JOKER) <= jokers:
                        meld = Meld(tuple(cards), MeldKind.RUN)
                        if valid(meld, rules):
                            yield meld
    mates = [Card.of(first.rank, other) for other in range(4) if other != suit]
    mates = [card for card in mates if others[card] > 0]
    for mask in range(1 << len(mates)):
        chosen = [card for bit, card in enumerate(mates) if mask >> bit & 1]
        for extra in range(0, min(jokers, LARGEST_SET - 1 - len(chosen)) + 1):
            cards = (first, *chosen) + (JOKER,) * extra
            if len(cards) >= SMALLEST_MELD:
                meld = Meld(cards, MeldKind.SET)
                if valid(meld, rules):
                    yield meld


def cards_hold_opening(played: Counter[Card], rules: Ruleset) -> bool:
    """Do some disjoint valid melds of the played cards meet the opening requirement?"""
    impossible = -1
    memo: dict[tuple[tuple[Card, ...], int, bool, bool], int] = {}

    def best(real: tuple[Card, ...], jokers: int, need_pure: bool, need_meld: bool) -> int:
        """Most opening points of disjoint melds of these cards (-1 when the needs fail)."""
        if not real:
            return impossible if need_pure or need_meld else 0
        key = (real, jokers, need_pure, need_meld)
        if key in memo:
            return memo[key]
        first, rest = real[0], real[1:]
        result = best(rest, jokers, need_pure, need_meld)
        others = Counter(rest)
        for meld in _melds_with_first(first, others, jokers, rules):
            used = Counter(real_cards(meld.cards))
            used[first] -= 1
            left = tuple(sorted((others - used).elements()))
            tail = best(left, jokers - meld.jokers, need_pure and not is_pure_run(meld), False)
            if tail != impossible:
                result = max(result, tail + meld_points(meld, rules))
        memo[key] = result
        return result

    real = tuple(sorted(real_cards(list(played.elements()))))
    points = best(real, played[JOKER], rules.opening_pure_run, True)
    return points != impossible and points >= rules.opening_points
