"""The lay-off reference's new melds (:mod:`support.layoff_reference`): every legal meld the
cards allow, and every partition of a multiset of cards into them."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind
from rami.rules import Ruleset
from support.second_referee import meld_faults

Cards = tuple[Card, ...]  # a sorted multiset (jokers last)


def multiset(counts: Counter[Card]) -> Cards:
    return tuple(sorted((+counts).elements()))


def card_at(place: int, suit: int) -> Card:
    return Card.of(1 if place == 14 else place, suit)


def _new_melds(available: Counter[Card], rules: Ruleset) -> list[Meld]:
    """Every legal meld (each joker layout apart) whose cards ``available`` holds."""
    jokers = available[JOKER]
    found: list[Meld] = []
    for suit in range(4):
        for low in range(1, rules.top_rank - 1):
            for high in range(low + 2, min(rules.top_rank, low + 12) + 1):
                places = range(low, high + 1)
                held = [p for p in places if available[card_at(p, suit)]]
                missing = len(places) - len(held)
                if missing > jokers:
                    continue
                for extra in range(jokers - missing + 1):
                    for as_joker in itertools.combinations(held, extra):
                        cards = tuple(
                            card_at(p, suit) if p in held and p not in as_joker else JOKER
                            for p in places
                        )
                        meld = Meld(cards, MeldKind.RUN)
                        if not meld_faults(meld, rules):
                            found.append(meld)
    for rank in range(1, 14):
        suits = [s for s in range(4) if available[Card.of(rank, s)]]
        for size in range(1, len(suits) + 1):
            for chosen in itertools.combinations(suits, size):
                for extra in range(min(jokers, 4 - size) + 1):
                    meld = Meld(
                        tuple(Card.of(rank, s) for s in chosen) + (JOKER,) * extra, MeldKind.SET
                    )
                    if len(meld.cards) >= 3 and not meld_faults(meld, rules):
                        found.append(meld)
    return found


class Splitter:
    """Partitions of multisets of cards into legal new melds (exhaustive, memoised)."""

    def __init__(self, available: Counter[Card], rules: Ruleset) -> None:
        self.by_first: dict[Card, list[tuple[Meld, Counter[Card]]]] = {}
        for meld in _new_melds(available, rules):
            first = min(meld.real_cards)
            self.by_first.setdefault(first, []).append((meld, meld.counts()))
        self.memo: dict[Cards, list[tuple[Meld, ...]]] = {}
        self.can_memo: dict[Cards, bool] = {}

    def _choices(self, cards: Cards) -> Iterator[tuple[Meld, Cards]]:
        first = cards[0]  # the smallest real card left: every meld holds a real card
        have = Counter(cards)
        for meld, counts in self.by_first.get(first, ()):
            if not counts - have:
                yield meld, multiset(have - counts)

    def can_split(self, cards: Cards) -> bool:
        if not cards:
            return True
        if cards[0].is_joker:
            return False
        known = self.can_memo.get(cards)
        if known is None:
            known = any(self.can_split(rest) for _, rest in self._choices(cards))
            self.can_memo[cards] = known
        return known

    def splits(self, cards: Cards) -> list[tuple[Meld, ...]]:
        """Every partition of ``cards`` into legal melds (each joker layout apart)."""
        if not cards:
            return [()]
        if cards[0].is_joker:
            return []
        known = self.memo.get(cards)
        if known is None:
            known = [
                (meld, *rest_split)
                for meld, rest in self._choices(cards)
                for rest_split in self.splits(rest)
            ]
            self.memo[cards] = known
        return known


def sub_multisets(cards: Cards) -> Iterator[Cards]:
    counts = Counter(cards)
    kinds = sorted(counts)
    for choice in itertools.product(*(range(counts[card] + 1) for card in kinds)):
        yield tuple(card for card, n in zip(kinds, choice, strict=True) for _ in range(n))
