"""Crafted deals for the game engine's tests (test_game_deal.py, _stock, _scores and _view): a deal
holding the whole deck with the hands, the turned card and the top of the stock given, a round
started on it, cards and tables written in notation."""

from __future__ import annotations

from collections import Counter

from rami.cards import Card, parse_cards
from rami.game import Deal, GameOptions, Round
from rami.game.deck import make_deck
from rami.melds import Meld
from rami.notation import parse_table
from rami.rules import PRESETS, get_ruleset

ALL = list(PRESETS)


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def crafted(name: str, hands: list[str], discard: str | None = None, stock: str = "") -> Deal:
    """A deal holding the whole deck: these hands, this turned card, this stock on top (top
    first), the rest of the deck under it in card order."""
    rules = get_ruleset(name)
    deck = Counter(make_deck(rules))
    dealt = [cards(hand) for hand in hands]
    top = cards(stock)
    for part in [*dealt, top, cards(discard or "")]:
        deck.subtract(part)
    assert all(count >= 0 for count in deck.values())
    return Deal(
        tuple(dealt), Card.parse(discard) if discard else None, top + tuple(sorted(deck.elements()))
    )


def start(
    name: str,
    hands: list[str],
    discard: str | None = None,
    stock: str = "",
    first: int = 0,
    **options: int,
) -> Round:
    rules = get_ruleset(name)
    return Round(
        rules,
        GameOptions(**options).resolved(rules),
        crafted(name, hands, discard, stock),
        first=first,
        active=[True] * len(hands),
        deal_sizes=False,
    )


def table(text: str) -> tuple[Meld, ...]:
    return parse_table(text)


def hand_of(rnd: Round, seat: int) -> tuple[Card, ...]:
    return tuple(sorted(rnd.state.hands[seat].elements()))
