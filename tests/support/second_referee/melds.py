"""The second referee's meld rules (docs/rules.md): run places, meld validity, opening points
and the key of a meld left as it was."""

from __future__ import annotations

from collections.abc import Sequence

from rami.cards import Card
from rami.melds import Meld, MeldKind
from rami.rules import Ruleset

SMALLEST_MELD = 3
LARGEST_SET = 4
LONGEST_RUN = 13
NO_SUIT = -1


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(str(card) for card in cards) or "-"


def highest_place(rules: Ruleset) -> int:
    """Highest run place: 14 is the ace above the king (never in Rummikub)."""
    return 14 if rules.ace_high and not rules.tiles else 13


def card_at(place: int, suit: int) -> Card:
    return Card.of(1 if place == 14 else place, suit)


def real_cards(cards: Sequence[Card]) -> list[Card]:
    return [card for card in cards if not card.is_joker]


def run_places(cards: Sequence[Card], rules: Ruleset) -> int | None:
    """The place (1..14) of the first card of ``cards`` read as a run, or None if they are not one.

    Only checks that the real cards are of one suit and sit at consecutive places in the order
    given, within 1..highest place; lengths are checked by :func:`meld_faults`.
    """
    top = highest_place(rules)
    suit = NO_SUIT
    starts: set[int] | None = None
    for index, card in enumerate(cards):
        if card.is_joker:
            continue
        if suit == NO_SUIT:
            suit = int(card.suit)
        elif int(card.suit) != suit:
            return None
        places = (1, 14) if card.rank == 1 and top == 14 else (card.rank,)
        here = {place - index for place in places}
        starts = here if starts is None else starts & here
    if not starts:
        return None
    fitting = [start for start in starts if start >= 1 and start + len(cards) - 1 <= top]
    return min(fitting) if fitting else None


def run_suit(meld: Meld) -> int:
    return int(real_cards(meld.cards)[0].suit)


def run_cards(meld: Meld, rules: Ruleset) -> list[Card]:
    """The card each place of a valid run stands for (jokers included)."""
    start = run_places(meld.cards, rules)
    assert start is not None
    suit = run_suit(meld)
    return [card_at(start + index, suit) for index in range(len(meld.cards))]


def meld_faults(meld: Meld, rules: Ruleset) -> list[str]:
    """Why ``meld`` is not a legal meld under ``rules`` (empty when it is)."""
    cards = meld.cards
    real = real_cards(cards)
    jokers = len(cards) - len(real)
    text = cards_text(cards)
    faults: list[str] = []
    if not real:
        faults.append(f"{text}: a meld needs a real card")
        return faults
    if len(real) < rules.min_real_cards:
        faults.append(f"{text}: fewer than {rules.min_real_cards} real cards")
    if rules.naturals_at_least_jokers and jokers > len(real):
        faults.append(f"{text}: more jokers than natural cards")
    if meld.kind is MeldKind.RUN:
        if not SMALLEST_MELD <= len(cards) <= LONGEST_RUN:
            faults.append(f"{text}: a run has 3 to 13 cards")
        elif run_places(cards, rules) is None:
            faults.append(f"{text}: not a run of one suit in consecutive places")
    elif meld.kind is MeldKind.SET:
        if not SMALLEST_MELD <= len(cards) <= LARGEST_SET:
            faults.append(f"{text}: a set has 3 or 4 cards")
        if len({card.rank for card in real}) > 1:
            faults.append(f"{text}: a set holds one rank")
        if len({card.suit for card in real}) < len(real):
            faults.append(f"{text}: a set holds each suit once")
    else:  # pragma: no cover - MeldKind has two members
        faults.append(f"{text}: unknown meld kind {meld.kind!r}")
    return faults


def valid(meld: Meld, rules: Ruleset) -> bool:
    return not meld_faults(meld, rules)


def is_pure_run(meld: Meld) -> bool:
    return (
        meld.kind is MeldKind.RUN
        and len(meld.cards) >= SMALLEST_MELD
        and not any(card.is_joker for card in meld.cards)
    )


def opening_value_of(place: int, rules: Ruleset) -> int:
    """Opening points of a card at run place ``place`` (or of a set of that rank, 14 = ace)."""
    if rules.tiles:
        return place
    if place == 1:
        return 1
    if place == 14:
        return 11
    return min(place, 10)


def meld_points(meld: Meld, rules: Ruleset) -> int:
    if meld.kind is MeldKind.SET:
        rank = real_cards(meld.cards)[0].rank
        place = 14 if rank == 1 and not rules.tiles else rank
        return len(meld.cards) * opening_value_of(place, rules)
    start = run_places(meld.cards, rules)
    assert start is not None
    return sum(opening_value_of(start + index, rules) for index in range(len(meld.cards)))


def same_meld_key(meld: Meld) -> tuple[object, ...]:
    """A meld left untouched: same kind, same cards (a set's order does not count)."""
    if meld.kind is MeldKind.SET:
        return (MeldKind.SET, tuple(sorted(int(card) for card in meld.cards)))
    return (MeldKind.RUN, tuple(int(card) for card in meld.cards))
