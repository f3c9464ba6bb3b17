"""The sentences of the advice a player gets at a game's decisions (:mod:`rami.game.advice`),
and of the draws the table refuses, in English and in French.

Plain words for a player: what to do and why, never the rules' decision numbers or the
engine's names. Cards are given as :class:`~rami.cards.Card` or :class:`~rami.melds.Meld` and
written in the language asked (a joker is "a joker", "un joker").
"""

from __future__ import annotations

from collections.abc import Iterable

from rami.cards import Card
from rami.lang import FRENCH, Language
from rami.melds import Meld

#: Each sentence in English, then in French; ``{card}`` and ``{meld}`` fields are written by
#: :func:`text` in the language asked.
_SENTENCES: dict[str, tuple[str, str]] = {
    "stock only": (
        "Draw from the stock: it is the only place to draw from now.",
        "Piochez dans le talon : c'est le seul endroit où piocher maintenant.",
    ),
    "take lays": (
        "Take {card} from the discard pile: you can lay it this turn, in {meld}.",
        "Prenez {card} dans la défausse : vous pouvez la poser ce tour-ci, dans {meld}.",
    ),
    "take builds": (
        "Take {card} from the discard pile: it completes a meld in your hand towards your opening.",
        "Prenez {card} dans la défausse : elle complète une combinaison de votre "
        "main pour votre ouverture.",
    ),
    "stock useless": (
        "Draw from the stock: {card} makes no meld with your hand or the table.",
        "Piochez dans le talon : {card} ne fait aucune combinaison avec votre main "
        "ni avec la table.",
    ),
    "stock stuck": (
        "Draw from the stock: after taking {card} you could not end your turn (a "
        "card taken from the discard pile may not be discarded in the same turn).",
        "Piochez dans le talon : après avoir pris {card}, vous ne pourriez pas "
        "finir votre tour (une carte prise dans la défausse ne peut pas être "
        "redéfaussée au même tour).",
    ),
    "stock not laid": (
        "Draw from the stock: {card} cannot be laid this turn.",
        "Piochez dans le talon : {card} ne peut pas être posée ce tour-ci.",
    ),
    "stock no meld yet": (
        "Draw from the stock: {card} cannot be laid this turn, and it "
        "completes no meld in your hand towards your opening.",
        "Piochez dans le talon : {card} ne peut pas être posée ce tour-ci, et "
        "elle ne complète aucune combinaison de votre main pour votre "
        "ouverture.",
    ),
    "stock not in opening": (
        "Draw from the stock: {card} cannot be laid in your opening this "
        "turn, and a card taken from the discard pile must be.",
        "Piochez dans le talon : {card} ne peut pas être posée dans votre "
        "ouverture ce tour-ci, et une carte prise dans la défausse doit "
        "l'être.",
    ),
    "stock no gain": (
        "Draw from the stock: laying {card} would not leave you fewer points than "
        "a card from the stock.",
        "Piochez dans le talon : poser {card} ne vous laisserait pas moins de "
        "points qu'une carte du talon.",
    ),
    "claim": (
        "Claim {card}: with it and the penalty card your hand is worth more than "
        "waiting for your turn.",
        "Réclamez {card} : avec elle et la carte de pénalité, votre main vaut mieux "
        "qu'en attendant votre tour.",
    ),
    "claim lays": (
        "Claim {card}: with it and the penalty card your hand is worth more than "
        "waiting for your turn; you can lay it in {meld}.",
        "Réclamez {card} : avec elle et la carte de pénalité, votre main vaut mieux "
        "qu'en attendant votre tour ; vous pouvez la poser dans {meld}.",
    ),
    "pass empty stock": (
        "Pass: the stock is empty, there is no penalty card to take.",
        "Passez : le talon est vide, il n'y a pas de carte de pénalité.",
    ),
    "pass useless": (
        "Pass: {card} makes no meld with your hand or the table.",
        "Passez : {card} ne fait aucune combinaison avec votre main ni avec la table.",
    ),
    "pass no gain": (
        "Pass: {card} and a penalty card would leave you worse off than waiting for your turn.",
        "Passez : {card} et une carte de pénalité vous laisseraient moins bien "
        "placé qu'en attendant votre tour.",
    ),
    "best turn": ("Your best turn ({count}):", "Votre meilleur tour ({count}) :"),
    "why out": (
        "{card} is your last card: you go out.",
        "{card} est votre dernière carte : vous sortez.",
    ),
    "why dead": (
        "{card}: no card still unseen would make a meld with it.",
        "{card} : aucune carte encore cachée ne ferait de combinaison avec elle.",
    ),
    "why alone": (
        "{card}: it makes no meld with your other cards.",
        "{card} : elle ne fait aucune combinaison avec vos autres cartes.",
    ),
    "why fewest": (
        "{card}: of the cards you may let go, the fewest unseen cards would complete it.",
        "{card} : des cartes que vous pouvez lâcher, c'est celle que le moins de "
        "cartes cachées compléteraient.",
    ),
    "why guarded": (
        "{card}: {other} would let the next player lay it.",
        "{card} : {other} permettrait au joueur suivant de la poser.",
    ),
    "why only": (
        "{card}: the only card you may let go.",
        "{card} : la seule carte que vous pouvez lâcher.",
    ),
    "jokers only": (
        "Discard {card}: your hand holds jokers only, and no meld can take them.",
        "Défaussez {card} : votre main n'a que des jokers, et aucune combinaison "
        "ne peut les prendre.",
    ),
    "from start": (
        "Your moves so far do not lead to a turn the rules accept: this hint starts "
        "from the start of your turn ('undo' to get back there).",
        "Vos coups jusqu'ici ne mènent pas à un tour que les règles acceptent : cet "
        "indice part du début de votre tour ('undo' pour y revenir).",
    ),
    "no hint": (
        "No hint this time (an internal error, logged for a report). Your game goes on.",
        "Pas d'indice cette fois (une erreur interne, notée pour un rapport). Votre "
        "partie continue.",
    ),
    "cannot follow": (
        "you could not end your turn after taking {card} (a card taken from the "
        "discard pile may not be discarded in the same turn): draw from the "
        "stock",
        "vous ne pourriez pas finir votre tour après avoir pris {card} (une carte "
        "prise dans la défausse ne peut pas être redéfaussée au même tour) : "
        "piochez dans le talon",
    ),
    "cannot lay": (
        "you could not lay {card} this turn, and a card taken from the discard pile "
        "must be laid in the same turn: draw from the stock",
        "vous ne pourriez pas poser {card} ce tour-ci, et une carte prise dans la "
        "défausse doit être posée au même tour : piochez dans le talon",
    ),
    "cannot lay opening": (
        "you could not lay {card} in your opening this turn, and a card "
        "taken from the discard pile must be laid in the same turn, in the "
        "opening: draw from the stock",
        "vous ne pourriez pas poser {card} dans votre ouverture ce tour-ci, "
        "et une carte prise dans la défausse doit être posée au même tour, "
        "dans l'ouverture : piochez dans le talon",
    ),
    "must lay": ("you must lay {card} this turn", "vous devez poser {card} ce tour-ci"),
    "must lay opening": (
        "you must lay {card} this turn, in your opening",
        "vous devez poser {card} ce tour-ci, dans votre ouverture",
    ),
}


def card_name(card: Card, language: Language) -> str:
    """A card in a sentence: its notation, a joker in words."""
    if card.is_joker:
        return "un joker" if language is FRENCH else "a joker"
    return card.text(language)


def cards_name(cards: Iterable[Card], language: Language) -> str:
    return " ".join(card.text(language) for card in cards)


def meld_name(meld: Meld, language: Language) -> str:
    return meld.text(language)


def moves_count(count: int, language: Language) -> str:
    if language is FRENCH:
        return f"{count} coup{'s' if count > 1 else ''}"
    return f"{count} move{'s' if count != 1 else ''}"


def text(key: str, language: Language, **fields: object) -> str:
    """The sentence ``key`` in ``language``; Card and Meld fields written in it."""
    english, french = _SENTENCES[key]
    written = {
        name: card_name(value, language)
        if isinstance(value, Card)
        else meld_name(value, language)
        if isinstance(value, Meld)
        else value
        for name, value in fields.items()
    }
    return (french if language is FRENCH else english).format(**written)


__all__ = ["card_name", "cards_name", "meld_name", "moves_count", "text"]
