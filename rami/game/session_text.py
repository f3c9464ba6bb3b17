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
from rami.lang import Language
from rami.phrasebook import BOOKS, say, say_count

#: The person's seat.
HUMAN = 0


def person_name(language: Language) -> str:
    return say("log.you", language)


#: The levels whose word differs in French, as the page says them (a bot is "P2 (débutant)").
_LEVEL_WORDS = ("beginner", "intermediate", "confirmed")


def bot_names(names: Sequence[str], language: Language) -> list[str]:
    """The bots' names (``names`` less seat 0) with their levels' words in ``language``
    ("P2 (beginner)", "P2 (débutant)"), as the page's level menu says them."""
    bots = list(names[1:])
    for level in _LEVEL_WORDS:
        said = say(f"level.{level}", language)
        bots = [name.replace(f"({level})", f"({said})") for name in bots]
    return bots


def _names(names: Sequence[str], language: Language) -> list[str]:
    """The players' names in ``language``: "You" ("Vous"), and each bot with its level's
    word."""
    return [person_name(language), *bot_names(names, language)]


def _cards(cards: Sequence[str], language: Language) -> str:
    return localize_cards(" ".join(cards), language)


def _who(seat: int) -> str:
    """The key suffix of a sentence said of the person or of a bot (their verbs differ)."""
    return "person" if seat == HUMAN else "bot"


def _joined(seats: Sequence[int], who_all: Sequence[str], language: Language) -> str:
    return say("log.and", language).join(who_all[seat] for seat in seats)


def entry_text(entry: dict[str, Any], names: Sequence[str], language: Language) -> str:
    """The sentence of one log entry (as :class:`~rami.game.session.GameSession` logs it)."""
    who_all = _names(names, language)
    kind = entry["kind"]
    if kind == "deal":
        seat = entry["seat"]
        key = f"log.deal.{_who(seat)}"
        return say(key, language, number=entry["round"], who=who_all[seat])
    if kind == "round-over":
        return _round_over(entry, who_all, language)
    if kind == "game-over":
        winners = entry["_winners"]
        count = "person" if HUMAN in winners else "several" if len(winners) > 1 else "one"
        joined = _joined(winners, who_all, language)
        return say(f"log.game-over.{count}", language, winners=joined)
    if kind == "reshuffle":
        return say("log.reshuffle", language, size=entry["stock_size"])
    seat = entry["seat"]
    who = who_all[seat]
    if kind == "claim":
        penalty = f" ({_cards([entry['penalty']], language)})" if entry["penalty"] else ""
        card = _cards([entry["card"]], language)
        return say(f"log.claim.{_who(seat)}", language, who=who, card=card, penalty=penalty)
    if kind == "draw":
        return _draw(entry, who, language)
    return _play(entry, who, language)


def _draw(entry: dict[str, Any], who: str, language: Language) -> str:
    seat, source, card = entry["seat"], entry["source"], entry["card"]
    shown = _cards([card], language) if card else say("log.a-card", language)
    pile = "discard" if source == "discard" else "stock"
    return say(f"log.draw-{pile}.{_who(seat)}", language, who=who, card=shown)


def _play(entry: dict[str, Any], who: str, language: Language) -> str:
    seat, played, discard, left = (
        entry["seat"],
        entry["played"],
        entry["discard"],
        entry["hand_size"],
    )
    if played:
        text = say(f"log.lay.{_who(seat)}", language, who=who, cards=_cards(played, language))
    else:
        text = say(f"log.lay-nothing.{_who(seat)}", language, who=who)
    if discard:
        text += say(f"log.discard.{_who(seat)}", language, card=_cards([discard], language))
    if entry["table"] is not None and not played:
        text += say("log.rearranged", language)
    return text + say_count("log.left", left, language)


def _round_over(entry: dict[str, Any], who_all: Sequence[str], language: Language) -> str:
    reason = entry["_reason"]
    key = f"log.reason.{reason}"
    said = say(key, language) if key in BOOKS[language] else reason
    winners = _joined(entry["_winners"], who_all, language) or say("log.nobody", language)
    scores = ", ".join(
        f"{name} {score:+d}" for name, score in zip(who_all, entry["_scores"], strict=True)
    )
    return say(
        "log.round-over",
        language,
        round=entry["round"],
        reason=said,
        winners=winners,
        scores=scores,
    )


__all__ = ["entry_text", "person_name"]
