"""Request fields to library objects, every failure an :class:`ApiError` naming its field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rami.cards import Card
from rami.errors import NotationError, RamiError
from rami.lang import ENGLISH, FRENCH, Language
from rami.melds import Meld
from rami.notation import meld_from_json, parse_position, position_from_json
from rami.position import COPIES_PER_CARD, Position
from rami.rules import PRESETS
from rami.service.errors import ApiError, notation_error, rami_error

#: Most cards any position can hold: two decks and the largest preset's jokers.
MAX_CARDS = 52 * COPIES_PER_CARD + max(preset.jokers for preset in PRESETS.values())


#: Longest text position accepted, in characters (110 cards need fewer than 1,100).
MAX_TEXT_CHARS = 4096

#: Characters that end a card in the text notation: every card has one suit or is a joker.
_CARD_ENDS = {ENGLISH: "SHDC♠♥♦♣*🃏", FRENCH: "PCKT♠♥♦♣*🃏"}


def text_card_bound(text: str, language: Language = ENGLISH) -> int:
    """An upper bound of the cards in the table and hand of a text position, in one pass of
    ``str.count`` (no parsing): each card has a suit letter or is a joker ("set:" markers,
    whose S (or T) is no suit, are taken off)."""
    cards_part = text.upper().split("/", 2)
    cards_text = "/".join(cards_part[:2])
    return sum(cards_text.count(end) for end in _CARD_ENDS[language]) - cards_text.count("SET")


def check_text_size(
    text: str, field: str, *, max_cards: int | None = None, language: Language = ENGLISH
) -> None:
    """422 at once for a text longer than :data:`MAX_TEXT_CHARS` or naming too many cards,
    before any parsing (the parsing itself then stays well under a millisecond)."""
    if len(text) > MAX_TEXT_CHARS:
        raise ApiError(
            422,
            f"{field}: a text position is at most {MAX_TEXT_CHARS} characters, got {len(text)}",
            field,
        )
    bound = text_card_bound(text, language)
    if bound > (max_cards or MAX_CARDS):
        raise _too_many(bound, field, at_least=True)


def _too_many(count: int, field: str, *, at_least: bool = False) -> ApiError:
    return ApiError(
        422,
        f"{field} holds {'about ' if at_least else ''}{count} cards: two decks and the "
        f"jokers make at most {MAX_CARDS}",
        field,
    )


def _raw_card_count(data: Mapping[str, Any]) -> int:
    """Cards named in a JSON position, counted before parsing (bounds the work done on it)."""
    count = 0
    hand = data.get("hand")
    if isinstance(hand, list):
        count += len(hand)
    table = data.get("table")
    if isinstance(table, list):
        for meld in table:
            if isinstance(meld, list):
                count += len(meld)
            elif isinstance(meld, Mapping) and isinstance(meld.get("cards"), list):
                count += len(meld["cards"])
            else:
                count += 1
    return count


def parse_position_field(
    value: Any, field: str = "position", language: Language = ENGLISH
) -> Position:
    """The ``position`` of a request: the JSON form (an object) or the one-line text notation,
    cards in ``language``.

    Parses only; the caller decides whether an impossible position is an error.
    """
    if isinstance(value, str):
        check_text_size(value, field, language=language)
        try:
            position = parse_position(value, language)
        except RamiError as error:
            raise ApiError(422, f"{field}: {error}", field) from None
        count = position.table_size + len(position.hand)
        if count > MAX_CARDS:
            raise _too_many(count, field)
        return position
    if not isinstance(value, Mapping):
        kind = "null" if value is None else type(value).__name__
        raise ApiError(
            422,
            f"{field}: expected a JSON position object (or a text position), got {kind}",
            field,
        )
    count = _raw_card_count(value)
    if count > MAX_CARDS:
        raise _too_many(count, field)
    taken = value.get("taken_discard")
    if isinstance(taken, str):
        try:
            Card.parse(taken, language)
        except NotationError as error:
            raise ApiError(
                422, f"{field}.taken_discard: {error}", f"{field}.taken_discard"
            ) from None
    try:
        return position_from_json(value, language)
    except RamiError as error:
        raise rami_error(error, field) from None


def checked_position(value: Any, field: str = "position", language: Language = ENGLISH) -> Position:
    """A parsed position that can occur (position.problems() empty), else 422 with every problem
    (their cards in ``language``)."""
    position = parse_position_field(value, field, language)
    problems = position.problems(language)
    if problems:
        raise ApiError(422, "invalid position: " + "; ".join(problems), field, problems)
    return position


def parse_card_field(value: Any, field: str, language: Language = ENGLISH) -> Card:
    if not isinstance(value, str):
        raise ApiError(422, f"{field}: expected a card string, got {value!r}", field)
    try:
        return Card.parse(value, language)
    except NotationError as error:
        raise ApiError(422, f"{field}: {error}", field) from None


def parse_cards_field(
    values: list[Any], field: str, language: Language = ENGLISH
) -> tuple[Card, ...]:
    if len(values) > MAX_CARDS:
        raise _too_many(len(values), field)
    return tuple(
        parse_card_field(item, f"{field}[{index}]", language) for index, item in enumerate(values)
    )


def parse_melds_field(
    values: list[Any], field: str, language: Language = ENGLISH
) -> tuple[Meld, ...]:
    count = sum(len(item) if isinstance(item, list) else 1 for item in values)
    if count > MAX_CARDS:
        raise _too_many(count, field)
    melds = []
    for index, item in enumerate(values):
        try:
            melds.append(meld_from_json(item, f"{field}[{index}]", None, language))
        except NotationError as error:
            raise notation_error(error, "") from None
    total = sum(len(meld) for meld in melds)
    if total > MAX_CARDS:
        raise _too_many(total, field)
    return tuple(melds)
