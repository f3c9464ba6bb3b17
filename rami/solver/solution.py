"""What the solver answers: a :class:`Solution` with its :class:`Move` list (value types only;
:class:`Move` and :class:`MoveKind` are the move language's, :mod:`rami.moves`).

A leaf module: every backend builds these and every front end (CLI, service, hints, pictures)
reads them, so it imports nothing from the solver.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from rami.cards import Card
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.moves import Move, MoveKind, numbered
from rami.notation import meld_out
from rami.phrases import leading_phrase, turn_note
from rami.position import Position


class Objective(Enum):
    """Which of the first two levels comes first; cards moved is always the last level."""

    POINTS = "points"
    CARDS = "cards"


class Status(Enum):
    OPTIMAL = "optimal"
    FEASIBLE = "feasible"


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
    #: Why the turn plays nothing, as the solver said it (a sentence of the phrase book, said in
    #: every language from its phrase; "": :func:`rami.phrases.why_nothing` says it from the
    #: position). None: not kept, the note's English is read back.
    reason: str | None = None

    def numbered_table(self) -> list[tuple[int, Meld]]:
        """The new table with the numbers its melds go by in :attr:`moves`, in that order (the
        old table's melds keep theirs, new melds are numbered on)."""
        return numbered(self.position.table, self.table)

    @property
    def cards_played(self) -> int:
        return len(self.played)

    def note(self, language: Language = ENGLISH) -> str:
        """``message`` in ``language``."""
        if language is ENGLISH:
            return self.message
        if self.played or self.reason is not None:
            reason = self.reason or None
        else:
            reason = leading_phrase(self.message) or self.message
        return turn_note(
            self.position,
            self.played,
            self.hand,
            self.penalty_after,
            self.opened,
            self.discard,
            reason,
            language,
        )

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


__all__ = ["Move", "MoveKind", "Objective", "Solution", "Status", "meld_out"]
