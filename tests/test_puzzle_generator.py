"""The puzzle generator's speed-ups change nothing they should not: the fast meld listing of the
re-split gives the same melds in the same order as the plain one, and a candidate is judged
the same however early the judge may stop (docs/puzzles.md, "Throughput")."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind, is_valid
from rami.puzzles.generator import _card_at, _melds_with, rules_for
from rami.rules import Ruleset


def _melds_with_plainly(first: Card, cards: Counter[Card], jokers: int, rules: Ruleset,
                        max_run: int) -> list[Meld]:
    """The re-split's meld listing as first written (window by window, card by card)."""
    from itertools import combinations

    found: list[Meld] = []
    suit = first.index // 13
    own = (1, 14) if first.rank == 1 and rules.top_rank == 14 else (first.rank,)
    for position in own:
        for length in range(3, max_run + 1):
            for start in range(position - length + 1, position + 1):
                end = start + length - 1
                if start < 1 or end > rules.top_rank:
                    continue
                laid = []
                used = 0
                for p in range(start, end + 1):
                    card = _card_at(p, suit)
                    if p == position or cards[card] > 0:
                        laid.append(card)
                    else:
                        laid.append(JOKER)
                        used += 1
                if used > jokers or laid[0].is_joker or laid[-1].is_joker:
                    continue
                meld = Meld(tuple(laid), MeldKind.RUN)
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


@pytest.mark.parametrize("jokers", [0, 4])
def test_fast_meld_listing_is_the_plain_one(jokers: int) -> None:
    rules = rules_for(jokers)
    rng = random.Random(f"melds-with-{jokers}")
    for _ in range(600):
        suits = rng.sample(range(4), rng.randint(1, 4))
        low = rng.randint(1, 10)
        region = [Card.of(rank, suit) for suit in suits
                  for rank in range(low, min(low + rng.randint(3, 7), 14))]
        cards = Counter(rng.choices(region, k=rng.randint(1, 14)))
        if rng.random() < 0.3:
            cards[Card.of(1, rng.choice(suits))] += 1  # an ace, low or high
        first = min(cards)
        for max_run in (7, 8):
            for free in range(jokers + 1):
                assert _melds_with(first, cards, free, rules, max_run) == _melds_with_plainly(
                    first, cards, free, rules, max_run
                ), (first, cards, free, max_run)
