"""The engine's own checks of a turn, beside the referee's (:mod:`rami.game.rounds`): the
position the referee judges a turn in, what only a whole game can check, and the cards of a
deal or a game against the deck.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence

from rami.cards import Card
from rami.game.actions import Play
from rami.game.presets import DrawRule, GameRules
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
