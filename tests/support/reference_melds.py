"""The exhaustive reference's card space and meld enumeration (:mod:`support.reference`):
multisets of card types packed in integers, every legal meld the available cards allow, the
candidate melds of a search, and a meld's opening points and purity."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rami.cards import JOKER, Card, Suit
from rami.errors import UnsupportedError
from rami.melds import (
    MAX_SET,
    MIN_MELD,
    Meld,
    MeldKind,
    arrange,
)
from rami.rules import Ruleset
from support.second_referee import meld_faults, opening_value_of, run_places

BITS = 3  # bits per card type in a packed count vector (counts 0..7; at most 2 copies, 6 jokers)
FIELD = (1 << BITS) - 1
IMPOSSIBLE = -(10**9)


@dataclass(frozen=True)
class Candidate:
    """One legal meld as a multiset of card types, packed over a card space."""

    code: int  # packed counts
    parts: tuple[tuple[int, int], ...]  # (shift, count) per card type it holds
    first: int  # index of its smallest real card type
    meld: Meld  # one legal way to lay it
    points: int  # best opening points over its legal layouts (0 when not asked for)
    pure: bool  # a pure run (decision 3)


class Space:
    """The card types of a multiset, indexed 0..n-1 in card order (the joker last)."""

    def __init__(self, cards: Iterable[Card]) -> None:
        self.types: tuple[Card, ...] = tuple(sorted(set(cards)))
        self.index = {card: number for number, card in enumerate(self.types)}
        reals = [number for number, card in enumerate(self.types) if not card.is_joker]
        self.real_mask = sum(FIELD << (BITS * number) for number in reals)

    def pack(self, counts: Counter[Card]) -> int:
        code = 0
        for card, count in counts.items():
            if count:
                if count > FIELD:
                    raise UnsupportedError(f"{count} copies of {card} do not fit the reference")
                code += count << (BITS * self.index[card])
        return code

    def first_real(self, code: int) -> int:
        """Index of the smallest real card type in ``code``, -1 when it holds none."""
        real = code & self.real_mask
        if not real:
            return -1
        return ((real & -real).bit_length() - 1) // BITS


def fits(candidate: Candidate, code: int) -> bool:
    return all(((code >> shift) & FIELD) >= count for shift, count in candidate.parts)


def _run_card(position_rank: int, suit: int) -> Card:
    return Card.of(1 if position_rank == 14 else position_rank, suit)


def _legal_melds(available: Counter[Card], rules: Ruleset) -> Iterator[Meld]:
    """Every legal laying (runs with jokers in place, sets) of cards drawn from ``available``.

    Layings that hold the same multiset are all produced (they may score different opening
    points); the caller deduplicates.
    """
    jokers = available[JOKER]
    least_real = max(1, rules.min_real_cards)
    for suit in Suit:
        for start in range(1, rules.top_rank + 1):
            for length in range(MIN_MELD, rules.max_run_length + 1):
                end = start + length - 1
                if end > rules.top_rank:
                    break
                window = [_run_card(rank, suit) for rank in range(start, end + 1)]
                present = [slot for slot, card in enumerate(window) if available[card] > 0]
                missing = length - len(present)
                if missing > jokers or len(present) < least_real:
                    continue
                spare = min(jokers - missing, len(present) - least_real)
                for extra in range(spare + 1):
                    for to_joker in itertools.combinations(present, extra):
                        real = set(present).difference(to_joker)
                        cards = tuple(
                            card if slot in real else JOKER for slot, card in enumerate(window)
                        )
                        yield Meld(cards, MeldKind.RUN)
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(available):
        if not card.is_joker and available[card] > 0:
            by_rank.setdefault(card.rank, []).append(card)
    for rank in sorted(by_rank):
        suits = by_rank[rank]
        for size in range(least_real, min(len(suits), MAX_SET) + 1):
            for real in itertools.combinations(suits, size):
                for extra in range(0, min(jokers, MAX_SET - size) + 1):
                    if size + extra >= MIN_MELD:
                        yield Meld(tuple(real) + (JOKER,) * extra, MeldKind.SET)


def candidate_melds(
    space: Space, available: Counter[Card], rules: Ruleset, with_points: bool
) -> dict[int, list[Candidate]]:
    """Candidate melds over ``space`` that fit in ``available``, grouped by smallest real type."""
    best_points: dict[int, int] = {}
    counts_of: dict[int, Counter[Card]] = {}
    for meld in _legal_melds(available, rules):
        counts = meld.counts()
        if any(count > available[card] for card, count in counts.items()):
            continue
        code = space.pack(counts)
        if code not in counts_of:
            counts_of[code] = counts
            best_points[code] = 0
        if with_points:
            # Decision 2: a joker counts as the card it stands for; the player picks the layout.
            best_points[code] = max(best_points[code], meld_points(meld, rules))
    grouped: dict[int, list[Candidate]] = {}
    for code, counts in counts_of.items():
        cards = sorted(counts.elements())
        meld = arrange(cards, rules)
        if meld is None or meld_faults(meld, rules):  # pragma: no cover - a domain bug
            raise AssertionError(f"reference: {cards} listed as a meld but arrange() refuses it")
        parts = tuple((BITS * space.index[card], count) for card, count in sorted(counts.items()))
        first = space.first_real(code)
        grouped.setdefault(first, []).append(
            Candidate(code, parts, first, meld, best_points[code], is_pure(meld))
        )
    for group in grouped.values():
        # Larger melds first: the search finds a partition sooner.
        group.sort(key=lambda candidate: (-len(candidate.meld), candidate.code))
    return grouped


def _sub_multisets(counts: Counter[Card]) -> Iterator[Counter[Card]]:
    cards = sorted(counts)
    for choice in itertools.product(*(range(counts[card] + 1) for card in cards)):
        yield Counter({card: n for card, n in zip(cards, choice, strict=True) if n})


def is_pure(meld: Meld) -> bool:
    """A pure run (decision 3): a run of three or more cards, no joker."""
    return meld.kind is MeldKind.RUN and len(meld.cards) >= MIN_MELD and not meld.jokers


def meld_points(meld: Meld, rules: Ruleset) -> int:
    """Opening points of a laid meld (decision 2), counted with the second referee's places."""
    if meld.kind is MeldKind.SET:
        rank = meld.real_cards[0].rank
        return len(meld.cards) * opening_value_of(
            14 if rank == 1 and not rules.tiles else rank, rules
        )
    start = run_places(meld.cards, rules)
    assert start is not None
    return sum(opening_value_of(start + index, rules) for index in range(len(meld.cards)))
