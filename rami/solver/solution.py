"""What the solver answers: a :class:`Solution` with its :class:`Move` list (value types only).

A leaf module: every backend builds these and every front end (CLI, service, hints, pictures)
reads them, so it imports nothing from the solver.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

from rami.cards import Card
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.phrases import leading_phrase, translate, turn_note
from rami.position import Position


class Objective(Enum):
    """Which of the first two levels comes first; cards moved is always the last level."""

    POINTS = "points"
    CARDS = "cards"


class Status(Enum):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"


class MoveKind(StrEnum):
    """What a move does (a string enum: ``move.kind == "lay"`` holds)."""

    LAY = "lay"  # new meld from the hand
    ADD = "add"  # hand cards onto a meld
    MOVE = "move"  # table cards from one meld to another
    SPLIT = "split"  # a run cut in two, the upper part a new meld
    SHIFT = "shift"  # a run's jokers slide to stand for other cards (nothing else changes)
    REPLACE = "replace"  # a hand card takes a joker's place (rami fou)
    SWAP = "swap"  # a hand card takes a joker's place, the joker goes on (BFmania, Café)
    DISCARD = "discard"  # the card that ends the turn

    @property
    def touches_table(self) -> bool:
        """Takes cards out of a meld already on the table."""
        return self in (MoveKind.MOVE, MoveKind.SPLIT, MoveKind.REPLACE, MoveKind.SWAP)


@dataclass(frozen=True)
class Move:
    """One step a person can do at the table; meld numbers are 1-based, new melds numbered on."""

    kind: MoveKind
    cards: tuple[Card, ...]
    source: int | None
    target: int | None
    text: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", MoveKind(self.kind))

    def said(self, language: Language = ENGLISH) -> str:
        """The move as a person reads it, in ``language``."""
        return translate(self.text, language)

    def to_json(self, language: Language = ENGLISH) -> dict[str, Any]:
        """Cards in the contract's codes whatever the language; ``text`` in ``language``."""
        return {
            "kind": self.kind.value,
            "cards": [str(card) for card in self.cards],
            "from": self.source,
            "to": self.target,
            "text": self.said(language),
        }


@dataclass(frozen=True)
class Solution:
    status: Status
    position: Position
    table: tuple[Meld, ...]
    played: tuple[Card, ...]
    hand: tuple[Card, ...]
    penalty_before: int
    penalty_after: int
    cards_moved: int
    moves: tuple[Move, ...]
    opened: bool
    objective: Objective
    min_moves: bool
    #: Proved bounds per level when a time limit cut the search short (empty when optimal).
    bounds: dict[str, int] = field(default_factory=dict)
    message: str = ""
    solve_ms: float = 0.0
    #: The card discarded to end the turn, for presets that discard (docs/rules.md decision 6).
    discard: Card | None = None
    #: Where the time went: "build_ms" (models), "search_ms" (CP-SAT), "finish_ms" (the rest).
    timings: dict[str, float] = field(default_factory=dict)
    #: The wall clock of the time limit, not CP-SAT's deterministic limit, ended the search (a
    #: loaded machine): the answer may differ from one run to the next.
    stopped_by_clock: bool = False

    @property
    def cards_played(self) -> int:
        return len(self.played)

    def note(self, language: Language = ENGLISH) -> str:
        """``message`` in ``language``."""
        if language is ENGLISH:
            return self.message
        reason = None if self.played else leading_phrase(self.message) or self.message
        return turn_note(self.position, self.played, self.hand, self.penalty_after, self.opened,
                         self.discard, reason, language)

    def to_json(self, language: Language = ENGLISH) -> dict[str, Any]:
        """The contract's JSON: cards in their codes whatever the language, the texts meant
        for people (``moves[].text``, ``message``) in ``language``."""
        data: dict[str, Any] = {
            "status": self.status.value,
            "rules": self.position.rules.option_string,
            "objective": self.objective.value,
            "min_moves": self.min_moves,
            "table": [meld_out(meld) for meld in self.table],
            "played": [str(card) for card in self.played],
            "hand": [str(card) for card in self.hand],
            "opened": self.opened,
            "penalty_before": self.penalty_before,
            "penalty_after": self.penalty_after,
            "cards_played": self.cards_played,
            "cards_moved": self.cards_moved,
            "moves": [move.to_json(language) for move in self.moves],
            "discard": str(self.discard) if self.discard is not None else None,
            "message": self.note(language),
            "ms": round(self.solve_ms, 3),
            "bounds": dict(self.bounds) if self.bounds else None,
            "stopped_by_clock": self.stopped_by_clock,
        }
        return data



def meld_out(meld: Meld) -> dict[str, Any]:
    """The one shape a meld is sent in: ``{"kind": "run" | "set", "cards": [...]}``."""
    return {"kind": meld.kind.value, "cards": [str(card) for card in meld.cards]}
