"""The re-split of a candidate's draw: cards (and jokers) partitioned at random into valid melds.

:func:`resplit` is a randomised exact search, under a budget of :data:`SPLIT_BUDGET` nodes, that
tries the melds holding the lowest card left in random order, those its caller wants to avoid
(the target's own melds) last. Each card's meld list (:func:`_melds_with`) is a pure function of
the cards of its suit and rank left, so the lists are kept across re-splits and candidates.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind, is_valid
from rami.rules import Ruleset
from rami.solver.templates import type_at

SPLIT_BUDGET = 3000


def _card_at(position: int, suit: int) -> Card:
    return Card(type_at(suit, position))


#: ``_CARDS_AT[suit][position]``: the card at run position 1..14 of a suit (index 0 unused).
_CARDS_AT: tuple[tuple[Card, ...], ...] = tuple(
    (JOKER, *(_card_at(position, suit) for position in range(1, 15))) for suit in range(4)
)


def _melds_with(
    first: Card, cards: Counter[Card], jokers: int, rules: Ruleset, max_run: int
) -> list[Meld]:
    """Valid melds holding ``first`` and other cards of ``cards`` (jokers fill gaps only).

    Runs come by position of ``first``, then length, then start; then sets by size (the order
    matters: the re-split shuffles this list with the candidate's random generator).
    """
    found: list[Meld] = []
    suit = first.index // 13
    top = rules.top_rank
    row = _CARDS_AT[suit]
    own = (1, 14) if first.rank == 1 and top == 14 else (first.rank,)
    for position in own:
        # Which run positions hold a card of ``cards`` (``first``'s own always does).
        held = [False, *(cards[row[p]] > 0 or p == position for p in range(1, top + 1))]
        for length in range(3, max_run + 1):
            for start in range(max(1, position - length + 1), position + 1):
                end = start + length - 1
                if end > top:
                    break
                if not (held[start] and held[end]):
                    continue
                if length - sum(held[start : end + 1]) > jokers:
                    continue
                meld = Meld(
                    tuple(row[p] if held[p] else JOKER for p in range(start, end + 1)), MeldKind.RUN
                )
                if is_valid(meld, rules):
                    found.append(meld)
    others = [s for s in range(4) if s != suit and cards[Card.of(first.rank, s)] > 0]
    for size in range(len(others) + 1):
        for chosen in combinations(others, size):
            for extra in range(min(jokers, 3 - size) + 1):
                if 3 <= 1 + size + extra <= 4:
                    real = sorted([first, *(Card.of(first.rank, s) for s in chosen)])
                    found.append(Meld((*real, *(JOKER,) * extra), MeldKind.SET))
    return found


#: The cards whose presence decides :func:`_melds_with`'s list for a card: its suit's, and its
#: rank's in the other suits.
_NEIGHBOURS: dict[Card, tuple[Card, ...]] = {
    card: (
        *(Card(card.index // 13 * 13 + rank) for rank in range(13)),
        *(Card.of(card.rank, suit) for suit in range(4) if suit != card.index // 13),
    )
    for card in (Card(index) for index in range(52))
}


class _OutOfBudget(Exception):
    pass


#: :func:`_melds_with`'s lists, kept across re-splits and candidates: a list is a pure function
#: of (card, jokers left, the pattern of its suit's and rank's cards left, rules, longest run),
#: and a run meets the same few patterns again and again (the windows are small). Kept per
#: process: 1,500 hard-2 candidates without jokers list 58,387 melds lists in 21,083 re-splits
#: with a cache per re-split, 3,436 with this one (with jokers 5,924). Cleared past
#: :data:`MELDS_CACHE_SIZE` entries (0.76 kB each, measured: 15 MB at most).
_MELDS_CACHE: dict[
    tuple[Ruleset, int], dict[tuple[Card, int, int], list[tuple[Meld, tuple[Card, ...], int]]]
] = {}
MELDS_CACHE_SIZE = 20_000


def resplit(
    rng: random.Random,
    cards: Counter[Card],
    jokers: int,
    rules: Ruleset,
    avoid: Callable[[Meld], int],
    max_run: int = 8,
) -> list[Meld] | None:
    """A random partition of ``cards`` (and ``jokers``) into valid melds.

    Melds are tried in random order, those with a higher ``avoid(meld)`` last.
    """
    nodes = 0
    # A card's melds depend only on which cards of its suit and of its rank are left (and on the
    # jokers left): the search meets the same few patterns again and again.
    listed = _MELDS_CACHE.setdefault((rules, max_run), {})
    if len(listed) > MELDS_CACHE_SIZE:
        listed.clear()

    def search(left: dict[Card, int], jokers_left: int) -> list[Meld] | None:
        """``left``: the cards still to place, each with a positive count."""
        nonlocal nodes
        nodes += 1
        if nodes > SPLIT_BUDGET:
            raise _OutOfBudget
        if not left:
            return [] if jokers_left == 0 else None
        first = min(left)
        pattern = 0
        for card in _NEIGHBOURS[first]:
            pattern = pattern * 2 + (card in left)
        key = (first, jokers_left, pattern)
        melds = listed.get(key)
        if melds is None:
            melds = listed[key] = [
                (meld, meld.real_cards, meld.jokers)
                for meld in _melds_with(first, Counter(left), jokers_left, rules, max_run)
            ]
        options = list(melds)
        rng.shuffle(options)
        options.sort(key=lambda option: avoid(option[0]))
        for meld, used, jokers in options:
            rest = dict(left)
            for card in used:  # a meld holds each card once
                if rest[card] > 1:
                    rest[card] -= 1
                else:
                    del rest[card]
            found = search(rest, jokers_left - jokers)
            if found is not None:
                return [meld, *found]
        return None

    real = {card: n for card, n in cards.items() if not card.is_joker and n > 0}
    # Jokers that find no gap go to the ends of runs or into sets afterwards.
    for placed in range(jokers, -1, -1):
        try:
            melds = search(real, placed)
        except _OutOfBudget:
            return None
        if melds is None:
            continue
        return _absorb(rng, melds, jokers - placed, rules)
    return None


def _absorb(
    rng: random.Random, melds: list[Meld], jokers: int, rules: Ruleset
) -> list[Meld] | None:
    from rami.puzzles.greedy import lay_off

    for _ in range(jokers):
        spots = [
            (i, grown)
            for i, meld in enumerate(melds)
            if (grown := lay_off(meld, JOKER, rules)) is not None
        ]
        if not spots:
            return None
        index, grown = rng.choice(spots)
        melds[index] = grown
    return melds
