"""The game log of a :class:`rami.game.session.GameSession` in words, in English or in French.

The session logs each event as data (who, which cards, the round's reason and scores); the
``text`` of an entry is written here, in the language the person reads, when the log is sent.
Cards are written in the language's notation (``KH``; in French ``R♥``); the person is "You"
("Vous"), a bot "P2 (beginner)" ("P2 (débutant)").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rami.cards import localize_cards
from rami.lang import FRENCH, Language

#: The person's seat.
HUMAN = 0

_REASONS = {
    "out": ("a player went out", "un joueur est sorti"),
    "stock": ("the stock ran out", "le talon est épuisé"),
    "cap": ("the turn cap was reached", "le nombre maximal de tours est atteint"),
    "blocked": ("nobody could play", "personne ne pouvait jouer"),
    "turn-limit": (
        "the engine's turn limit was reached",
        "la limite de tours du moteur est atteinte",
    ),
}


def person_name(language: Language) -> str:
    return "Vous" if language is FRENCH else "You"


#: The levels' words in French, as the page says them (a bot is "P2 (débutant)").
_LEVELS_FR = {"beginner": "débutant", "intermediate": "intermédiaire", "confirmed": "confirmé"}


def bot_names(names: Sequence[str], language: Language) -> list[str]:
    """The bots' names (``names`` less seat 0) with their levels' words in ``language``
    ("P2 (beginner)", "P2 (débutant)"), as the page's level menu says them."""
    bots = list(names[1:])
    if language is FRENCH:
        for english, french in _LEVELS_FR.items():
            bots = [name.replace(f"({english})", f"({french})") for name in bots]
    return bots


def _names(names: Sequence[str], language: Language) -> list[str]:
    """The players' names in ``language``: "You" ("Vous"), and each bot with its level's
    word."""
    return [person_name(language), *bot_names(names, language)]


def _cards(cards: Sequence[str], language: Language) -> str:
    return localize_cards(" ".join(cards), language)


def _verb(seat: int, person: str, bot: str) -> str:
    """The verb said of the person (``person``) or of a bot (``bot``)."""
    return person if seat == HUMAN else bot


def entry_text(entry: dict[str, Any], names: Sequence[str], language: Language) -> str:
    """The sentence of one log entry (as :class:`~rami.game.session.GameSession` logs it)."""
    fr = language is FRENCH
    who_all = _names(names, language)
    kind = entry["kind"]
    if kind == "deal":
        seat, number = entry["seat"], entry["round"]
        if fr:
            return (
                f"Manche {number} : vous commencez."
                if seat == HUMAN
                else f"Manche {number} : {who_all[seat]} commence."
            )
        return f"Round {number}: {who_all[seat]} {_verb(seat, 'play', 'plays')} first."
    if kind == "round-over":
        return _round_over(entry, who_all, language)
    if kind == "game-over":
        winners = entry["_winners"]
        joined = (" et " if fr else " and ").join(who_all[seat] for seat in winners)
        if fr:
            verb = "gagnez" if HUMAN in winners else "gagnent" if len(winners) > 1 else "gagne"
            return f"Fin de la partie : {joined} {verb}."
        verb = "win" if winners == [HUMAN] or len(winners) > 1 else "wins"
        return f"Game over: {joined} {verb}."
    if kind == "reshuffle":
        size = entry["stock_size"]
        if fr:
            return (
                f"La défausse (sauf sa carte du dessus) est mélangée en un nouveau talon de "
                f"{size} cartes."
            )
        return f"The discard pile (less its top) is shuffled into a new stock of {size} cards."
    seat = entry["seat"]
    who = who_all[seat]
    if kind == "claim":
        penalty = f" ({_cards([entry['penalty']], language)})" if entry["penalty"] else ""
        card = _cards([entry["card"]], language)
        if fr:
            verbs = ("réclamez", "prenez") if seat == HUMAN else ("réclame", "prend")
            return f"{who} {verbs[0]} {card} et {verbs[1]} une carte de pénalité{penalty}."
        verbs = ("claim", "take") if seat == HUMAN else ("claims", "takes")
        return f"{who} {verbs[0]} {card} and {verbs[1]} a penalty card{penalty}."
    if kind == "draw":
        return _draw(entry, who, language)
    return _play(entry, who, language)


def _draw(entry: dict[str, Any], who: str, language: Language) -> str:
    seat, source, card = entry["seat"], entry["source"], entry["card"]
    shown = _cards([card], language) if card else None
    if language is FRENCH:
        if source == "discard":
            verb = _verb(seat, "prenez", "prend")
            return f"{who} {verb} {shown} dans la défausse."
        verb = _verb(seat, "piochez", "pioche")
        return f"{who} {verb} {shown or 'une carte'}."
    verb = _verb(seat, "draw", "draws")
    pile = "the discard pile" if source == "discard" else "the stock"
    return f"{who} {verb} {shown or 'a card'} from {pile}."


def _play(entry: dict[str, Any], who: str, language: Language) -> str:
    seat, played, discard, left = (
        entry["seat"],
        entry["played"],
        entry["discard"],
        entry["hand_size"],
    )
    if language is FRENCH:
        text = (
            f"{who} {_verb(seat, 'posez', 'pose')} {_cards(played, language)}"
            if played
            else f"{who} ne {_verb(seat, 'posez', 'pose')} rien"
        )
        if discard:
            text += f", {_verb(seat, 'défaussez', 'défausse')} {_cards([discard], language)}"
        if entry["table"] is not None and not played:
            text += " (la table réarrangée)"
        return f"{text} ({left} carte{'s' if left > 1 else ''} en main)."
    verb = _verb(seat, "lay", "lays")
    text = f"{who} {verb} {_cards(played, language)}" if played else f"{who} {verb} nothing"
    if discard:
        text += f", {_verb(seat, 'discard', 'discards')} {discard}"
    if entry["table"] is not None and not played:
        text += " (the table rearranged)"
    return f"{text} ({left} card{'s' if left != 1 else ''} left)."


def _round_over(entry: dict[str, Any], who_all: Sequence[str], language: Language) -> str:
    fr = language is FRENCH
    reason = entry["_reason"]
    said = _REASONS.get(reason, (reason, reason))[1 if fr else 0]
    winners = (" et " if fr else " and ").join(who_all[seat] for seat in entry["_winners"])
    scores = ", ".join(
        f"{name} {score:+d}" for name, score in zip(who_all, entry["_scores"], strict=True)
    )
    if fr:
        return (
            f"Fin de la manche {entry['round']} : {said} ; gagnée par "
            f"{winners or 'personne'}. Scores : {scores}."
        )
    return f"Round {entry['round']} over: {said}; won by {winners or 'nobody'}. Scores {scores}."


__all__ = ["entry_text", "person_name"]
