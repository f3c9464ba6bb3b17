"""Position notation: a one-line text form (like FEN) and a JSON form, both round-tripping.

Text grammar (docs/notation.md)::

    position := table " / " hand [ " / " settings ]
    table    := "-" | meld { " | " meld }
    meld     := [ ("run" | "set") ":" ] card { " " card }
    hand     := "-" | card { " " card }
    settings := { ruleset | "opened" | "not-opened" | "discard=" card }

Canonical: ``7H 8H 9H | QS QD QC | 2D 3D * 5D / TH JS AD * / rami-chinois opened``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rami.cards import Card, format_cards, parse_cards
from rami.errors import NotationError
from rami.melds import Meld, MeldKind
from rami.position import Position
from rami.rules import DEFAULT_RULES, Ruleset, get_ruleset

EMPTY = "-"


def parse_table(text: str) -> tuple[Meld, ...]:
    text = text.strip()
    if text in ("", EMPTY):
        return ()
    melds = []
    for number, chunk in enumerate(text.split("|"), start=1):
        if not chunk.strip():
            raise NotationError(f"meld {number} is empty in table {text!r}")
        try:
            melds.append(Meld.parse(chunk))
        except NotationError as error:
            raise NotationError(f"meld {number} ({chunk.strip()!r}): {error}") from None
    return tuple(melds)


def format_table(table: tuple[Meld, ...] | list[Meld]) -> str:
    return " | ".join(str(meld) for meld in table) if table else EMPTY


def parse_position(text: str) -> Position:
    """Parse the one-line text notation. Raises NotationError with the part at fault."""
    if "\n" in text.strip():
        raise NotationError("a text position is one line; use JSON for multi-line input")
    sections = text.split("/")
    if len(sections) not in (2, 3):
        raise NotationError(
            f"expected 'TABLE / HAND [/ SETTINGS]' with '/' between sections, got {text!r}"
        )
    table = parse_table(sections[0])
    hand_text = sections[1].strip()
    try:
        hand = () if hand_text in ("", EMPTY) else parse_cards(hand_text)
    except NotationError as error:
        raise NotationError(f"hand: {error}") from None
    rules: Ruleset = DEFAULT_RULES
    opened = False
    taken: Card | None = None
    seen_rules = False
    for word in (sections[2].split() if len(sections) == 3 else []):
        lowered = word.lower()
        if lowered == "opened":
            opened = True
        elif lowered in ("not-opened", "new"):
            opened = False
        elif lowered.startswith("discard="):
            taken = Card.parse(word.split("=", 1)[1])
        elif not seen_rules:
            rules = get_ruleset(word)
            seen_rules = True
        else:
            raise NotationError(
                f"unexpected setting {word!r}: settings are a ruleset, 'opened' and 'discard=CARD'"
            )
    return Position(table, hand, opened, rules, taken)


def format_position(position: Position) -> str:
    settings = [position.rules.option_string]
    if position.opened:
        settings.append("opened")
    if position.taken_discard is not None:
        settings.append(f"discard={position.taken_discard}")
    hand = format_cards(position.hand) if position.hand else EMPTY
    return f"{format_table(position.table)} / {hand} / {' '.join(settings)}"


def meld_to_json(meld: Meld) -> list[str] | dict[str, Any]:
    cards = [str(card) for card in meld.cards]
    if meld.needs_kind_marker:
        return {"kind": meld.kind.value, "cards": cards}
    return cards


def _cards_from_json(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise NotationError(f"{where}: expected a list of cards, got {type(value).__name__}")
    cards = []
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise NotationError(f"{where}[{index}]: expected a card string, got {item!r}")
        try:
            cards.append(Card.parse(item))
        except NotationError as error:
            raise NotationError(f"{where}[{index}]: {error}") from None
    return tuple(cards)


def meld_from_json(value: Any, where: str = "meld") -> Meld:
    if isinstance(value, Mapping):
        unknown = set(value) - {"kind", "cards"}
        if unknown:
            raise NotationError(f"{where}: unknown field(s) {sorted(unknown)}")
        kind = value.get("kind")
        if kind not in ("run", "set"):
            raise NotationError(f"{where}.kind: expected 'run' or 'set', got {kind!r}")
        cards = _cards_from_json(value.get("cards"), f"{where}.cards")
        if not cards:
            raise NotationError(f"{where}: empty meld")
        return Meld(cards, MeldKind(kind))
    if isinstance(value, str):
        try:
            return Meld.parse(value)
        except NotationError as error:
            raise NotationError(f"{where}: {error}") from None
    cards = _cards_from_json(value, where)
    if not cards:
        raise NotationError(f"{where}: empty meld")
    return Meld.of(cards)


POSITION_FIELDS = {"rules", "table", "hand", "opened", "taken_discard"}


def position_from_json(data: Any) -> Position:
    """Build a position from the JSON form (already decoded)."""
    if not isinstance(data, Mapping):
        raise NotationError(f"a JSON position is an object, got {type(data).__name__}")
    unknown = set(data) - POSITION_FIELDS
    if unknown:
        raise NotationError(
            f"unknown field(s) {sorted(unknown)} in JSON position; "
            f"fields are {sorted(POSITION_FIELDS)}"
        )
    rules_name = data.get("rules", DEFAULT_RULES.name)
    if not isinstance(rules_name, str):
        raise NotationError(f"rules: expected a ruleset name, got {rules_name!r}")
    rules = get_ruleset(rules_name)
    table_data = data.get("table", [])
    if not isinstance(table_data, list):
        raise NotationError(f"table: expected a list of melds, got {type(table_data).__name__}")
    table = tuple(
        meld_from_json(meld, f"table[{index}]") for index, meld in enumerate(table_data)
    )
    hand = _cards_from_json(data.get("hand", []), "hand")
    opened = data.get("opened", False)
    if not isinstance(opened, bool):
        raise NotationError(f"opened: expected true or false, got {opened!r}")
    taken_raw = data.get("taken_discard")
    if taken_raw is not None and not isinstance(taken_raw, str):
        raise NotationError(f"taken_discard: expected a card string, got {taken_raw!r}")
    taken = Card.parse(taken_raw) if taken_raw is not None else None
    return Position(table, hand, opened, rules, taken)


def position_to_json(position: Position) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rules": position.rules.option_string,
        "table": [meld_to_json(meld) for meld in position.table],
        "hand": [str(card) for card in position.hand],
        "opened": position.opened,
    }
    if position.taken_discard is not None:
        data["taken_discard"] = str(position.taken_discard)
    return data


def parse_position_any(text: str) -> Position:
    """Parse either form: JSON when the text starts with ``{``, the text notation otherwise."""
    stripped = text.strip()
    if not stripped:
        raise NotationError("empty position")
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise NotationError(
                f"malformed JSON at line {error.lineno} column {error.colno}: {error.msg}"
            ) from None
        return position_from_json(data)
    return parse_position(stripped)
