"""The sentences of the advice a player gets at a game's decisions (:mod:`rami.game.advice`),
and of the draws the table refuses, in English and in French (``advice.<key>`` in the phrase
book, :mod:`rami.phrasebook`).

Plain words for a player: what to do and why, never the rules' decision numbers or the
engine's names. Cards are given as :class:`~rami.cards.Card` or :class:`~rami.melds.Meld` and
written in the language asked (a joker is "a joker", "un joker").
"""

from __future__ import annotations

from collections.abc import Iterable

from rami.cards import Card
from rami.lang import Language
from rami.melds import Meld
from rami.phrasebook import say
from rami.phrases import plural


def card_name(card: Card, language: Language) -> str:
    """A card in a sentence: its notation, a joker in words."""
    if card.is_joker:
        return say("advice.a-joker", language)
    return card.text(language)


def cards_name(cards: Iterable[Card], language: Language) -> str:
    return " ".join(card.text(language) for card in cards)


def meld_name(meld: Meld, language: Language) -> str:
    return meld.text(language)


def moves_count(count: int, language: Language) -> str:
    return plural(count, "move", language, "coup")


def text(key: str, language: Language, **fields: object) -> str:
    """The sentence ``key`` in ``language``; Card and Meld fields written in it."""
    written = {
        name: card_name(value, language)
        if isinstance(value, Card)
        else meld_name(value, language)
        if isinstance(value, Meld)
        else value
        for name, value in fields.items()
    }
    return say(f"advice.{key}", language, **written)


__all__ = ["card_name", "cards_name", "meld_name", "moves_count", "text"]
