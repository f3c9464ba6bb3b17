"""Position notation: a one-line text form (like FEN) and a JSON form, both round-tripping.

The text form is the position's own (:mod:`rami.position`, as a FEN is a board's); this module
adds the JSON form and reads either, and offers both under one name.

Text grammar (docs/notation.md)::

    position := table " / " hand [ " / " settings ]
    table    := "-" | meld { " | " meld }
    meld     := [ ("run" | "set") ":" ] card { " " card }
    hand     := "-" | card { " " card }
    settings := { ruleset | "opened" | "not-opened" | "discard=" card }

Canonical: ``7H 8H 9H | QS QD QC | 2D 3D * 5D / TH JS AD * / rami-chinois opened``.

Errors are :class:`NotationError` (or :class:`UnknownRulesetError` for the ruleset), whose
``loc`` is the path of the field at fault: ``("table", 2, 1)`` for the second card of the third
meld, ``("hand", 0)``, ``("settings",)``... JSON is decoded by :func:`loads_json`, which refuses
input nested deeper than :data:`MAX_JSON_DEPTH` levels before decoding it (a position needs 4).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from rami.cards import Card
from rami.errors import Loc, NotationError, RamiError, UnknownRulesetError, shown
from rami.lang import ENGLISH, Language
from rami.melds import Meld, MeldKind
from rami.position import (
    BOM,
    EMPTY,
    Position,
    format_position,
    format_table,
    parse_position,
    parse_table,
)
from rami.rules import DEFAULT_RULES, get_ruleset

__all__ = [
    "BOM",
    "EMPTY",
    "MAX_JSON_DEPTH",
    "DuplicateKeyError",
    "duplicate_key_message",
    "duplicate_key_path",
    "format_position",
    "format_table",
    "json_depth",
    "json_value_kind",
    "loads_json",
    "loc_text",
    "meld_from_json",
    "meld_to_json",
    "parse_position",
    "parse_position_any",
    "parse_table",
    "position_from_json",
    "position_to_json",
    "unique_keys",
]


#: Nesting levels a JSON document may have (a position has 4: object, table, meld, cards; a
#: puzzle record 5). Deeper documents are refused before decoding, never a RecursionError.
MAX_JSON_DEPTH = 32

#: JSON strings, skipped by the depth scan (their brackets do not nest anything).
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def json_depth(text: str, stop: int = MAX_JSON_DEPTH) -> int:
    """How deep the brackets of a JSON text nest, outside strings (stops counting past ``stop``).

    Cheap: a text with ``stop`` brackets or fewer is not scanned at all.
    """
    if text.count("[") + text.count("{") <= stop:
        return min(text.count("[") + text.count("{"), stop)
    depth = peak = 0
    for match in re.finditer(r'[\[\]{}]|"(?:[^"\\]|\\.)*"', text, re.DOTALL):
        char = match.group(0)
        if char in "[{":
            depth += 1
            if depth > peak:
                peak = depth
                if peak > stop:
                    return peak
        elif char in "]}":
            depth -= 1
    return peak


class DuplicateKeyError(ValueError):
    """A JSON object names one key twice (raised by :func:`unique_keys` while decoding)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"duplicate key {key!r}")
        self.key = key


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of :func:`json.loads` that refuses a key given twice in one object
    (json keeps the last one silently: ``{"hand": ["TH"], "hand": ["KS"]}`` would be KS)."""
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return data


class _Pairs(list[tuple[str, Any]]):
    """A JSON object as its list of pairs (duplicates kept), to find where a key repeats."""


def duplicate_key_path(text: str | bytes) -> Loc | None:
    """The path of the key given twice that :func:`unique_keys` stops at (the key last:
    ``("position", "hand")``), or None when there is none or the text does not decode.

    The decoder completes an object after the objects inside it, so the objects are searched
    in that order (depth first, children before their parent, in document order)."""
    try:
        tree = json.loads(text, object_pairs_hook=_Pairs)
    except (ValueError, RecursionError):
        return None
    stack: list[tuple[Any, Loc, bool]] = [(tree, (), False)]
    while stack:  # without recursion: the document may nest deeply
        value, path, expanded = stack.pop()
        if isinstance(value, _Pairs):
            if expanded:
                seen: set[str] = set()
                for key, _ in value:
                    if key in seen:
                        return (*path, key)
                    seen.add(key)
                continue
            stack.append((value, path, True))
            stack.extend((item, (*path, key), False) for key, item in reversed(value))
        elif isinstance(value, list):
            stack.extend(
                (item, (*path, index), False) for index, item in reversed(list(enumerate(value)))
            )
    return None


def loc_text(loc: Loc) -> str:
    """A path as a field name: ``("position", "table", 2)`` -> ``position.table[2]``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def duplicate_key_message(key: str, loc: Loc | None) -> str:
    """What a duplicate key is refused with (the CLI and the service say the same)."""
    parent = loc_text(loc[:-1]) if loc else ""
    where = f" in {parent}" if parent else ""
    return (
        f"duplicate key {key!r}{where}: a JSON object may give each key once "
        "(which one would count is ambiguous)"
    )


def loads_json(text: str, what: str = "JSON") -> Any:
    """Decode JSON text; NotationError (never RecursionError) on malformed or too deep input,
    or on an object that gives a key twice (naming the key, ``loc`` its path)."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise NotationError(f"{what} nested more than {MAX_JSON_DEPTH} levels deep")
    try:
        return json.loads(text, object_pairs_hook=unique_keys)
    except DuplicateKeyError as error:
        loc = duplicate_key_path(text)
        raise NotationError(duplicate_key_message(error.key, loc), loc=loc) from None
    except json.JSONDecodeError as error:
        raise NotationError(
            f"malformed {what} at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:  # pragma: no cover - the depth bound comes first
        raise NotationError(f"{what} nested too deeply") from None
    except ValueError as error:  # a number of more than 4,300 digits
        raise NotationError(f"malformed {what}: {error}") from None


def meld_out(meld: Meld) -> dict[str, Any]:
    """The one shape an answer sends a meld in: ``{"kind": "run" | "set", "cards": [...]}``."""
    return {"kind": meld.kind.value, "cards": [str(card) for card in meld.cards]}


def meld_to_json(meld: Meld) -> list[str] | dict[str, Any]:
    """A meld in a position's JSON: its cards, marked with its kind only where they alone
    would not say it."""
    if meld.needs_kind_marker:
        return meld_out(meld)
    return [str(card) for card in meld.cards]


def _cards_from_json(
    value: Any, where: str, loc: Loc = (), language: Language = ENGLISH
) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise NotationError(
            f"{where}: expected a list of cards, got {type(value).__name__}", loc=loc
        )
    cards = []
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise NotationError(
                f"{where}[{index}]: expected a card string, got {shown(item)}", loc=(*loc, index)
            )
        try:
            cards.append(Card.parse(item, language))
        except NotationError as error:
            raise NotationError(f"{where}[{index}]: {error}", loc=(*loc, index)) from None
    return tuple(cards)


def meld_from_json(
    value: Any, where: str = "meld", loc: Loc | None = None, language: Language = ENGLISH
) -> Meld:
    """A meld of the JSON form: a list of cards, ``{"kind", "cards"}`` or a text string."""
    at: Loc = loc if loc is not None else ()
    if isinstance(value, Mapping):
        unknown = set(value) - {"kind", "cards"}
        if unknown:
            names = sorted(map(str, unknown))
            raise NotationError(f"{where}: unknown field(s) {shown(names)}", loc=(*at, names[0]))
        kind = value.get("kind")
        if not isinstance(kind, str) or kind not in ("run", "set"):
            raise NotationError(
                f"{where}.kind: expected 'run' or 'set', got {shown(kind)}", loc=(*at, "kind")
            )
        cards = _cards_from_json(value.get("cards"), f"{where}.cards", (*at, "cards"), language)
        if not cards:
            raise NotationError(f"{where}: empty meld", loc=at)
        return Meld(cards, MeldKind(kind))
    if isinstance(value, str):
        try:
            return Meld.parse(value, language)
        except NotationError as error:
            raise NotationError(f"{where}: {error}", loc=at) from None
    cards = _cards_from_json(value, where, at, language)
    if not cards:
        raise NotationError(f"{where}: empty meld", loc=at)
    return Meld.of(cards)


POSITION_FIELDS = {"rules", "table", "hand", "opened", "taken_discard"}


def position_from_json(data: Any, language: Language = ENGLISH) -> Position:
    """Build a position from the JSON form (already decoded), cards in ``language``."""
    if not isinstance(data, Mapping):
        raise NotationError(f"a JSON position is an object, got {type(data).__name__}")
    unknown = set(data) - POSITION_FIELDS
    if unknown:
        names = sorted(map(str, unknown))
        raise NotationError(
            f"unknown field(s) {shown(names)} in JSON position; "
            f"fields are {sorted(POSITION_FIELDS)}",
            loc=(names[0],),
        )
    rules_name = data.get("rules", DEFAULT_RULES.name)
    if not isinstance(rules_name, str):
        raise NotationError(
            f"rules: expected a ruleset name, got {shown(rules_name)}", loc=("rules",)
        )
    try:
        rules = get_ruleset(rules_name)
    except UnknownRulesetError as error:
        raise UnknownRulesetError(str(error), loc=("rules",)) from None
    table_data = data.get("table", [])
    if not isinstance(table_data, list):
        raise NotationError(
            f"table: expected a list of melds, got {type(table_data).__name__}", loc=("table",)
        )
    table = tuple(
        meld_from_json(meld, f"table[{index}]", ("table", index), language)
        for index, meld in enumerate(table_data)
    )
    hand = _cards_from_json(data.get("hand", []), "hand", ("hand",), language)
    opened = data.get("opened", False)
    if not isinstance(opened, bool):
        raise NotationError(f"opened: expected true or false, got {shown(opened)}", loc=("opened",))
    taken_raw = data.get("taken_discard")
    if taken_raw is not None and not isinstance(taken_raw, str):
        raise NotationError(
            f"taken_discard: expected a card string, got {shown(taken_raw)}", loc=("taken_discard",)
        )
    try:
        taken = Card.parse(taken_raw, language) if taken_raw is not None else None
    except NotationError as error:
        raise NotationError(f"taken_discard: {error}", loc=("taken_discard",)) from None
    return Position(table, hand, opened, rules, taken)


def position_to_json(position: Position) -> dict[str, Any]:
    """The JSON form; its cards are always the canonical English codes (the contract's)."""
    data: dict[str, Any] = {
        "rules": position.rules.option_string,
        "table": [meld_to_json(meld) for meld in position.table],
        "hand": [str(card) for card in position.hand],
        "opened": position.opened,
    }
    if position.taken_discard is not None:
        data["taken_discard"] = str(position.taken_discard)
    return data


def _json_kind(value: Any) -> str:
    """The JSON name of a decoded value's type: object, array, string, number..."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {"str": "string", "list": "array", "dict": "object"}.get(
        type(value).__name__, type(value).__name__
    )


#: What a JSON document that is not an object may start with (text positions never parse).
_JSON_START = re.compile(r'[\[{"\d]|-?\d|true\b|false\b|null\b|-?Infinity\b|NaN\b')


def json_value_kind(text: str) -> str | None:
    """The JSON kind of ``text`` when it is a whole JSON document that is not an object
    (``"array"``, ``"number"``, ``"null"``...), else None. Never raises."""
    stripped = text.strip()
    if not stripped or stripped.startswith("{") or not _JSON_START.match(stripped):
        return None
    try:
        return _json_kind(loads_json(stripped))
    except RamiError:
        return None


def parse_position_any(text: str, language: Language = ENGLISH) -> Position:
    """Parse either form: JSON when the text starts with ``{``, the text notation otherwise;
    cards in ``language``."""
    stripped = text.strip().lstrip(BOM).strip()
    if not stripped:
        raise NotationError("empty position")
    if stripped.startswith("{"):
        return position_from_json(loads_json(stripped), language)
    # No text position starts with '[': that is JSON (or malformed JSON), never the notation.
    kind = (
        _json_kind(loads_json(stripped))
        if stripped.startswith("[")
        else (json_value_kind(stripped))
    )
    if kind is not None:
        raise NotationError(
            f"a JSON {kind} is not a position: expected 'TABLE / HAND [/ SETTINGS]' "
            "or a JSON object"
        )
    return parse_position(stripped, language)
