"""Not feeding the player about to go out: the discard guard of the confirmed bot and above.

A discard that the next player, once opened, can lay off on the table as it stands after the
turn (a run's end, a set's missing suit; a joker fits any table) hands that player a card to
empty the hand with. The guard keeps the bot's chosen discard unless it feeds that player and
another discard the rules allow costs the bot no more (leaves a hand of no more points);
then the costliest such card goes instead, a card that starts no meld first (docs/game.md,
"Bots").

:data:`DISCARD_STATS` counts, for the bots of this process, the discards made, the discards
that fed an opened next player, and those the guard avoided (so "before the guard" is
``fed + avoided``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rami.cards import Card
from rami.game.greedy import accepts, allowed_discards, is_useful
from rami.game.state import View
from rami.melds import Meld

#: Discards made by the guarded bots of this process, those that fed, those avoided.
DISCARD_STATS: dict[str, int] = {"discards": 0, "fed": 0, "avoided": 0}


def feeds(card: Card, table: Sequence[Meld], view: View) -> bool:
    """Can the next player, opened, lay ``card`` off on ``table``?"""
    following = view.next_seat()
    if following == view.seat or not view.opened[following] or not table:
        return False
    if card.is_joker:
        return True
    return any(card in accepts(meld, view.rules) for meld in table)


def guarded_discard(
    view: View,
    table: Sequence[Meld],
    before: Counter[Card],
    chosen: Card,
    taken: Card | None,
) -> Card:
    """``chosen``, or a discard that feeds nobody and costs no more (``before``: the hand
    before the discard). Going out (the last card) is never changed."""
    if sum(before.values()) <= 1:
        return chosen
    DISCARD_STATS["discards"] += 1
    if not feeds(chosen, table, view):
        return chosen
    rules = view.rules
    cost = rules.card_penalty(chosen.rank)
    options = [
        card
        for card in allowed_discards(before, rules, taken)
        if card != chosen and not feeds(card, table, view) and rules.card_penalty(card.rank) >= cost
    ]
    if not options:
        DISCARD_STATS["fed"] += 1
        return chosen
    DISCARD_STATS["avoided"] += 1
    return max(options, key=lambda c: (not is_useful(c, before), rules.card_penalty(c.rank), c))
