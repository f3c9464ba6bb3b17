"""What a player may do, as small values with a JSON form, and the errors of a game.

A player answers each request of the engine (see :class:`rami.game.state.View.phase`) with one
action: :class:`Draw` ("draw"), :class:`Play` ("play": the table after, the cards played, the
discard), :class:`Claim` ("claim", rami fou's out-of-turn claim, yes or no).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rami.cards import Card
from rami.errors import NotationError, RamiError
from rami.melds import Meld
from rami.notation import meld_from_json, meld_to_json

STOCK = "stock"
DISCARD = "discard"
SOURCES = (STOCK, DISCARD)


class IllegalActionError(RamiError):
    """An action the rules refuse: the referee's reasons, or the engine's own (draws, decision
    10, phase). Never applied: the game state is left as it was."""

    def __init__(self, problems: Sequence[str], where: str = "") -> None:
        self.problems = list(problems)
        self.where = where
        text = "; ".join(self.problems)
        super().__init__(f"{where}: {text}" if where else text)


class GameInternalError(AssertionError):
    """A bot (or the solver behind it) proposed what the referee refuses, or the engine lost a
    card: always a bug, reported with the position, the turn and the reason."""


@dataclass(frozen=True)
class Draw:
    source: str

    def to_json(self) -> dict[str, Any]:
        return {"action": "draw", "source": self.source}


@dataclass(frozen=True)
class Play:
    """One turn after the draw: the whole table after it, the cards that left the hand for the
    table, and the discard (None where the preset does not discard, or to go out by laying)."""

    table: tuple[Meld, ...]
    played: tuple[Card, ...] = ()
    discard: Card | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "table", tuple(self.table))
        object.__setattr__(self, "played", tuple(self.played))

    def to_json(self) -> dict[str, Any]:
        return {
            "action": "play",
            "table": [meld_to_json(meld) for meld in self.table],
            "played": [str(card) for card in self.played],
            "discard": None if self.discard is None else str(self.discard),
        }


@dataclass(frozen=True)
class Claim:
    take: bool

    def to_json(self) -> dict[str, Any]:
        return {"action": "claim", "take": self.take}


Action = Draw | Play | Claim


def card_from_json(value: Any, where: str) -> Card:
    if not isinstance(value, str):
        raise NotationError(f"{where}: expected a card string, got {value!r}")
    try:
        return Card.parse(value)
    except NotationError as error:
        raise NotationError(f"{where}: {error}") from None


def cards_from_json(value: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise NotationError(f"{where}: expected a list of cards, got {type(value).__name__}")
    return tuple(card_from_json(item, f"{where}[{index}]") for index, item in enumerate(value))


def table_from_json(value: Any, where: str) -> tuple[Meld, ...]:
    if not isinstance(value, list):
        raise NotationError(f"{where}: expected a list of melds, got {type(value).__name__}")
    return tuple(meld_from_json(meld, f"{where}[{index}]") for index, meld in enumerate(value))


def action_from_json(data: Any) -> Action:
    """Read an action back from its JSON form (``Action.to_json()``)."""
    if not isinstance(data, dict):
        raise NotationError(f"an action is a JSON object, got {type(data).__name__}")
    kind = data.get("action")
    if kind == "draw":
        source = data.get("source")
        if source not in SOURCES:
            raise NotationError(f"draw.source: expected 'stock' or 'discard', got {source!r}")
        return Draw(source)
    if kind == "play":
        discard = data.get("discard")
        return Play(
            table_from_json(data.get("table", []), "table"),
            cards_from_json(data.get("played", []), "played"),
            None if discard is None else card_from_json(discard, "discard"),
        )
    if kind == "claim":
        take = data.get("take")
        if not isinstance(take, bool):
            raise NotationError(f"claim.take: expected true or false, got {take!r}")
        return Claim(take)
    raise NotationError(f"action: expected 'draw', 'play' or 'claim', got {kind!r}")
