"""A two-seat :class:`View` written as text, for the tests of bots, advice and hints."""

from __future__ import annotations

from rami.cards import Card, parse_cards
from rami.game import View
from rami.notation import parse_table
from rami.rules import get_ruleset


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


def seat_view(
    rules: str,
    hand: str,
    table: str = "-",
    *,
    phase: str = "play",
    opened: bool = False,
    other_opened: bool = True,
    pile: str = "",
    draws: tuple[str, ...] = (),
    claim: str | None = None,
    drawn: str | None = None,
    taken: str | None = None,
    stock: int = 40,
    other: int = 12,
) -> View:
    """Seat 0's view: ``hand`` and ``table`` in the notation, the discard ``pile`` (top last),
    the other seat holding ``other`` cards (opened unless ``other_opened`` is False), no score
    yet."""
    return View(
        rules=get_ruleset(rules),
        seat=0,
        phase=phase,
        hand=parse_cards(hand),
        table=parse_table(table),
        discard_pile=parse_cards(pile),
        stock_size=stock,
        hand_sizes=(len(parse_cards(hand)), other),
        opened=(opened, other_opened),
        active=(True, True),
        known=((), ()),
        scores=(0, 0),
        draws=draws,
        claim_card=_card(claim),
        drawn=_card(drawn),
        taken_discard=_card(taken),
    )
