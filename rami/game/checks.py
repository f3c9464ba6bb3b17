"""The engine's own checks of a turn, beside the referee's (:mod:`rami.game.rounds`): the
position the referee judges a turn in, what only a whole game can check, and the cards of a
deal or a game against the deck.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from itertools import chain

from rami.cards import Card
from rami.game.actions import Play
from rami.game.deck import Deal
from rami.game.presets import DrawRule, GameRules
from rami.game.state import RoundState
from rami.melds import Meld
from rami.position import Position
from rami.rules import Ruleset


def judged_position(rules: Ruleset, position: Position, play: Play) -> Position:
    """The position the referee judges the turn in.

    One gap in the rules is filled here: under Café Rummy a joker is never discarded except
    as the last card, so a player left holding only jokers that cannot be laid (all the
    sets on the table full, say) could never end the turn. The engine then lets one joker
    go (docs/game.md): the referee judges that turn with the rule lifted, every other
    check unchanged.
    """
    if rules.joker_kept_until_last and play.discard is not None and play.discard.is_joker:
        left = Counter(position.hand) - Counter(play.played)
        if left and all(card.is_joker for card in left):
            relaxed = dataclasses.replace(rules, joker_kept_until_last=False)
            return dataclasses.replace(position, rules=relaxed)
    return position


def engine_problems(
    rules: Ruleset,
    game: GameRules,
    table: Sequence[Meld],
    taken: Card | None,
    position: Position,
    play: Play,
) -> list[str]:
    """The checks that are the engine's, not the referee's: Rummikub's draw for a player who
    plays no tile, and decision 10's card taken from the discard pile (``taken``)."""
    problems = []
    played = Counter(play.played)
    if game.draw is DrawRule.NONE and not played and not same_table(play.table, table):
        problems.append(
            f"{rules.name}: a player who plays no tile draws one and leaves the table as it was"
        )
    if game.draw is DrawRule.LAID_ONLY and taken is not None:
        card = taken
        if not played[card]:
            problems.append(
                f"{card} was taken from the discard pile: {rules.name} lets the top discard "
                "be taken only to lay it this turn (decision 10)"
            )
        elif not position.opened and not any(
            card in meld.cards and not (meld.counts() - played) for meld in play.table
        ):
            problems.append(
                f"{card} was taken from the discard pile: a player not yet opened may take "
                "it only by opening with it, in a new meld (decision 10)"
            )
    return problems


def _meld_key(meld: Meld) -> tuple[object, ...]:
    return (meld.kind.value, tuple(sorted(meld.cards)) if meld.kind.value == "set" else meld.cards)


def same_table(first: Sequence[Meld], second: Sequence[Meld]) -> bool:
    """The same melds, in any order (a set's cards in any order)."""
    if len(first) != len(second):
        return False
    if tuple(first) == tuple(second):
        return True
    return Counter(map(_meld_key, first)) == Counter(map(_meld_key, second))


def deck_difference(what: str, got: Counter[Card], want: Counter[Card]) -> str:
    """What ``got`` holds that ``want`` does not, and the reverse (cards not conserved)."""
    extra = got - want
    missing = want - got
    parts = []
    if extra:
        parts.append("extra " + " ".join(str(c) for c in sorted(extra.elements())))
    if missing:
        parts.append("missing " + " ".join(str(c) for c in sorted(missing.elements())))
    return f"{what} is not the deck: {', '.join(parts)}"


def deal_problems(
    deal: Deal,
    game: GameRules,
    rules_name: str,
    active: Sequence[bool],
    deck: Counter[Card],
    sizes: bool,
) -> list[str]:
    """What is wrong with a deal for the seats in play: the number of hands, each hand's size
    (with ``sizes``; a seat out of the game is dealt nothing), the card turned to start the
    discard pile, and the whole deck dealt."""
    problems = []
    players = len(active)
    if len(deal.hands) != players:
        problems.append(f"the deal has {len(deal.hands)} hands for {players} seats")
    for seat, hand in enumerate(deal.hands):
        want = game.deal if seat < players and active[seat] else 0
        if len(hand) != want and (sizes or not want):
            problems.append(f"seat {seat} is dealt {len(hand)} cards, not {want}")
    if (deal.discard is not None) != game.first_discard:
        problems.append(
            f"{rules_name} {'turns' if game.first_discard else 'turns no'} card "
            "to start the discard pile"
        )
    dealt = Counter(deal.stock)
    for hand in deal.hands:
        dealt.update(hand)
    if deal.discard is not None:
        dealt[deal.discard] += 1
    if dealt != deck:
        problems.append(deck_difference("the deal", dealt, deck))
    return problems


def lost_cards(state: RoundState, deck: Counter[Card]) -> str | None:
    """How the cards of a round in play (stock, discard pile, hands, table) differ from the
    deck (None: every card is accounted for)."""
    counts = Counter(
        chain(
            state.stock,
            state.discard,
            *(hand.elements() for hand in state.hands.values()),
            *(meld.cards for meld in state.table),
        )
    )
    return None if counts == deck else deck_difference("the game", counts, deck)
