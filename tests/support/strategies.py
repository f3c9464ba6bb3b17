"""Hypothesis strategies that build positions card by card, so that a failure shrinks to a small
position (fewer melds, shorter runs, fewer jokers, a smaller hand), not to a seed.

Every position drawn is valid: melds follow docs/rules.md ("Common to every preset"), no card is
drawn more than the two decks hold, no more jokers than the preset has.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind
from rami.position import COPIES_PER_CARD, Position
from rami.rules import Ruleset


def _run(suit: int, start: int, length: int, jokers: frozenset[int], rules: Ruleset) -> Meld:
    cards = tuple(
        JOKER if index in jokers else Card.of((start + index - 1) % 13 + 1, suit)
        for index in range(length)
    )
    return Meld(cards, MeldKind.RUN)


@st.composite
def melds(draw: st.DrawFn, rules: Ruleset, most_jokers: int) -> Meld:
    """One legal meld: a run (suit, first place, length, joker places) or a set."""
    least_real = max(1, rules.min_real_cards)
    if draw(st.booleans()):
        length = draw(st.integers(3, 6))
        start = draw(st.integers(1, rules.top_rank - length + 1))
        places = st.sets(st.integers(0, length - 1), max_size=min(most_jokers, length - least_real))
        jokers = frozenset(draw(places))
        meld = _run(draw(st.integers(0, 3)), start, length, jokers, rules)
    else:
        rank = draw(st.integers(1, 13))
        suits = draw(st.lists(st.integers(0, 3), min_size=least_real, max_size=4, unique=True))
        room = min(most_jokers, 4 - len(suits))
        jokers = draw(st.integers(max(0, 3 - len(suits)), max(room, 3 - len(suits))))
        meld = Meld(
            tuple(Card.of(rank, suit) for suit in sorted(suits)) + (JOKER,) * jokers, MeldKind.SET
        )
    if rules.naturals_at_least_jokers and meld.jokers > len(meld.real_cards):
        return draw(melds(rules, 0))
    return meld


@st.composite
def positions(
    draw: st.DrawFn,
    rules: Ruleset,
    *,
    opened: bool | None = None,
    most_melds: int = 3,
    most_hand: int = 5,
) -> Position:
    """A valid position under ``rules``: up to ``most_melds`` melds, up to ``most_hand`` cards."""
    used: Counter[Card] = Counter()
    table: list[Meld] = []
    for _ in range(draw(st.integers(0, most_melds))):
        meld = draw(melds(rules, rules.jokers - used[JOKER]))
        counts = Counter(meld.cards)
        if meld.jokers > rules.jokers - used[JOKER] or any(
            used[card] + count > COPIES_PER_CARD
            for card, count in counts.items()
            if not card.is_joker
        ):
            continue
        used += counts
        table.append(meld)
    hand: list[Card] = []
    for _ in range(draw(st.integers(1, most_hand))):
        if used[JOKER] < rules.jokers and draw(st.integers(0, 9)) == 0:
            card = JOKER
        else:
            card = Card(draw(st.integers(0, 51)))
            if used[card] >= COPIES_PER_CARD:
                continue
        used[card] += 1
        hand.append(card)
    is_opened = draw(st.booleans()) if opened is None else opened
    return Position(tuple(table), tuple(hand), is_opened, rules).checked()
