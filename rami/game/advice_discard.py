"""The discard the advice names at the play (:mod:`rami.game.advice`): the discard as a move,
and why that card is the one to let go, in plain words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rami.cards import Card
from rami.game.advice_text import text
from rami.game.expert import ExpertBot
from rami.game.state import View
from rami.lang import Language


def discard_move(card: Card, hand_after: Sequence[Card], language: Language) -> str:
    import rami.phrases as phrases

    said = phrases.DISCARD if hand_after else phrases.DISCARD_GOING_OUT
    return said.say(language, card=str(card))


def why_discard(
    view: View, bot: ExpertBot, card: Card, left: Counter[Card], language: Language
) -> str:
    """Why ``card`` is the one to let go (``left``: the hand after the discard)."""
    from rami.game.expert import _outs
    from rami.game.greedy import allowed_discards, is_useful

    before = Counter(left)
    before[card] += 1
    if not +left:
        return text("why out", language, card=card)
    taken = view.position().taken_discard
    allowed = allowed_discards(before, view.rules, taken)
    if len(set(allowed)) == 1:
        return text("why only", language, card=card)
    choice = bot.choose_discard(before, view, taken)
    if choice is not None and choice != card:
        return text("why guarded", language, card=card, other=choice)
    if not is_useful(card, before):
        return text("why alone", language, card=card)
    outs, complete = (
        _outs(card, before, view.unseen(), view.rules) if not card.is_joker else (1, True)
    )
    if not (outs or complete):
        return text("why dead", language, card=card)
    return text("why fewest", language, card=card)
