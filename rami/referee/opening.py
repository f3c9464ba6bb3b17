"""The opening requirement, for the referee: judged on the new melds laid from the hand, or, when
the opening turn may also rearrange the table, on the cards played (an exact search).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind, is_pure_run, meld_problems, opening_points
from rami.rules import Ruleset


def opens_from_hand(new_melds: Sequence[Meld], played_jokers: int, rules: Ruleset) -> bool:
    """Do these new melds make the opening, with no more jokers than the hand laid?"""
    return not opening_problems(new_melds, rules) and (
        sum(meld.jokers for meld in new_melds) <= played_jokers
    )


def opening_problems(new_melds: Sequence[Meld], rules: Ruleset) -> list[str]:
    problems = []
    valid = [meld for meld in new_melds if not meld_problems(meld, rules)]
    if rules.opening_any_meld and not valid:
        problems.append("opening needs at least one valid meld")
    if rules.opening_pure_run and not any(is_pure_run(meld) for meld in valid):
        problems.append(
            "opening needs a pure run (3+ cards in a row of one suit, no joker: a tierce franche)"
        )
    if rules.opening_points:
        points = sum(opening_points(meld, rules) for meld in valid)
        if points < rules.opening_points:
            problems.append(
                f"opening counts {points} points: {rules.name} needs at least "
                f"{rules.opening_points}"
            )
    return problems


def opening_problems_from_cards(played: Counter[Card], rules: Ruleset) -> list[str]:
    """Opening requirement met by some disjoint valid melds of the cards played from the hand.

    Used when the opening turn may also rearrange the table (``open_and_rearrange_same_turn``):
    the opening melds need not survive intact, so whether the played cards hold an opening is
    decided by an exact search.
    """
    problems = []
    if rules.opening_any_meld and not _can_open(played, rules, need_pure=False, target=1):
        problems.append("opening needs at least one valid meld")
    if rules.opening_pure_run and not _can_open(played, rules, need_pure=True, target=0):
        problems.append(
            "opening needs a pure run (3+ cards in a row of one suit, no joker: a tierce franche)"
        )
    if rules.opening_points and not _can_open(
        played, rules, need_pure=rules.opening_pure_run, target=rules.opening_points
    ):
        problems.append(
            f"the cards played do not make {rules.opening_points} opening points"
            f"{' with a pure run' if rules.opening_pure_run else ''}: {rules.name} needs at "
            f"least {rules.opening_points}"
        )
    return problems


def _can_open(played: Counter[Card], rules: Ruleset, *, need_pure: bool, target: int) -> bool:
    """Do some disjoint valid melds of ``played`` count >= ``target`` opening points (and hold a
    pure run when ``need_pure``)? Branch and bound; ``target`` 1 asks for any meld at all."""
    top_joker = rules.opening_value(rules.top_rank)

    def bound(card: Card) -> int:
        if card.is_joker:
            return top_joker
        return rules.opening_value(14 if card.rank == 1 and rules.ace_high else card.rank)

    failed: dict[tuple[tuple[Card, ...], int, bool], int] = {}
    melds_cache: dict[tuple[object, ...], list[Meld]] = {}

    def search(real: tuple[Card, ...], jokers: int, pure_done: bool, points: int) -> bool:
        if points >= target and (pure_done or not need_pure) and (target > 0 or pure_done):
            return True
        if not real:
            return False
        key = (real, jokers, pure_done)
        if failed.get(key, -1) >= points:
            return False
        if points + sum(map(bound, real)) + jokers * top_joker < target:
            failed[key] = max(points, failed.get(key, -1))
            return False
        first, rest = real[0], Counter(real[1:])
        near = tuple(
            card for card in real[1:] if card.suit == first.suit or card.rank == first.rank
        )
        cache_key = (first, near, jokers)
        if cache_key not in melds_cache:
            melds_cache[cache_key] = _melds_with(first, Counter(near), jokers, rules)
        for meld in melds_cache[cache_key]:
            used = Counter(meld.real_cards)
            used[first] -= 1  # a valid meld holds `first` once
            left = tuple(sorted((rest - used).elements()))
            if search(
                left,
                jokers - meld.jokers,
                pure_done or is_pure_run(meld),
                points + opening_points(meld, rules),
            ):
                return True
        if search(real[1:], jokers, pure_done, points):  # `first` stays out of the opening
            return True
        failed[key] = max(points, failed.get(key, -1))
        return False

    real = tuple(sorted(card for card in played.elements() if not card.is_joker))
    return search(real, played[JOKER], False, 0)


def _melds_with(first: Card, others: Counter[Card], jokers: int, rules: Ruleset) -> list[Meld]:
    """Every valid meld holding ``first``, other real cards from ``others``, <= ``jokers``."""
    melds: list[Meld] = []
    suit = first.suit
    assert suit is not None
    values = (1, 14) if first.rank == 1 and rules.ace_high else (first.rank,)
    for value in values:
        for length in range(3, rules.max_run_length + 1):
            last_start = min(value, rules.top_rank - length + 1)
            for start in range(max(1, value - length + 1), last_start + 1):
                slots: list[Card | None] = []
                optional: list[int] = []
                needed = 0
                for position in range(start, start + length):
                    if position == value:
                        slots.append(first)
                        continue
                    card = Card.of((position - 1) % 13 + 1, suit)
                    if others[card]:
                        optional.append(len(slots))
                        slots.append(card)
                    else:
                        needed += 1
                        slots.append(None)
                if needed > jokers:
                    continue
                for extra in range(jokers - needed + 1):
                    for chosen in combinations(optional, extra):
                        cards = tuple(
                            JOKER if card is None or index in chosen else card
                            for index, card in enumerate(slots)
                        )
                        meld = Meld(cards, MeldKind.RUN)
                        if not meld_problems(meld, rules):
                            melds.append(meld)
    other_suits = [
        card for card in (Card.of(first.rank, s) for s in range(4) if s != suit) if others[card]
    ]
    for size in range(len(other_suits) + 1):
        for chosen_cards in combinations(other_suits, size):
            for joker_count in range(min(jokers, 3 - size) + 1):
                total = 1 + size + joker_count
                if total < 3:
                    continue
                meld = Meld((first, *chosen_cards) + (JOKER,) * joker_count, MeldKind.SET)
                if not meld_problems(meld, rules):
                    melds.append(meld)
    return melds
