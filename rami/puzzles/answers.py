"""Answers to a puzzle: read (a final table, as text or JSON, or moves replayed on the
puzzle's position) and judged (does it reach the goal, and is it the intended solution?).

What ``rami puzzle check --answer`` and ``POST /puzzles/check`` answer with is
:class:`AnswerVerdict`; the puzzle itself is a record of :mod:`rami.puzzles.record`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rami.cards import Card
from rami.errors import NotationError
from rami.melds import Meld
from rami.notation import meld_from_json, parse_table
from rami.puzzles.record import Puzzle, _decoded, _plural
from rami.signature import signature


@dataclass(frozen=True)
class AnswerVerdict:
    solved: bool
    intended: bool
    legal: bool
    reasons: tuple[str, ...]
    penalty_after: int | None = None
    cards_played: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "solved": self.solved,
            "intended": self.intended,
            "legal": self.legal,
            "reasons": list(self.reasons),
            "penalty_after": self.penalty_after,
            "cards_played": self.cards_played,
        }


def parse_answer(text: str) -> tuple[Meld, ...]:
    """A final table: text notation ``meld | meld | ...`` or a JSON list of melds."""
    stripped = text.strip()
    if not stripped:
        raise NotationError("empty answer: give the final table, melds separated by '|'")
    if stripped.startswith("["):
        data = _decoded(stripped, "answer: malformed JSON")
        if not isinstance(data, list):
            raise NotationError("answer: a JSON answer is a list of melds")
        return tuple(meld_from_json(meld, f"answer[{i}]") for i, meld in enumerate(data))
    if "/" in stripped:
        raise NotationError("answer: give the final table only (melds separated by '|'), no '/'")
    return parse_table(stripped)


@dataclass(frozen=True)
class Answer:
    """An answer read: the final table, and the melds' numbers when it was given as moves."""

    table: tuple[Meld, ...]
    numbers: tuple[int, ...] | None = None


def read_answer(puzzle: Puzzle, text: str) -> Answer:
    """An answer as a final table (``meld | meld | ...`` or a JSON list of melds) or as moves
    (the move language of ``rami solve``, :mod:`rami.puzzles.moves`), replayed on the puzzle's
    position. NotationError (a MoveError for moves) names the part at fault."""
    from rami.puzzles.moves import answer_table, looks_like_moves

    if looks_like_moves(text):
        replayed = answer_table(puzzle.position, text)
        return Answer(replayed.table, replayed.numbers)
    return Answer(parse_answer(text))


def check_answer(
    puzzle: Puzzle, table: Sequence[Meld], numbers: Sequence[int] | None = None
) -> AnswerVerdict:
    """Does this final table solve the puzzle, and is it the intended solution?

    Any legal final table that reaches the goal solves it; it is *intended* when its signature
    is the solution's. ``numbers`` (an answer given as moves) are the melds' numbers, which the
    reasons then use.
    """
    verdict = _check_answer(puzzle, table)
    if numbers is not None and not verdict.legal:
        from rami.puzzles.moves import renumber_reasons

        verdict = AnswerVerdict(
            False,
            False,
            False,
            renumber_reasons(verdict.reasons, numbers),
            verdict.penalty_after,
            verdict.cards_played,
        )
    return verdict


def _check_answer(puzzle: Puzzle, table: Sequence[Meld]) -> AnswerVerdict:
    from rami.referee import validate_turn

    position = puzzle.position
    before = position.table_cards
    after: Counter[Card] = Counter()
    for meld in table:
        after.update(meld.cards)
    played = tuple(sorted((after - before).elements()))
    verdict = validate_turn(position, list(table), played)
    if not verdict.legal:
        return AnswerVerdict(False, False, False, tuple(verdict.problems))
    goal_penalty = int(puzzle.goal["penalty_after"])
    count = len(played)
    if verdict.penalty_after > goal_penalty:
        if puzzle.kind == "empty-hand":
            reason = (
                f"legal, but it plays {count} of {_plural(len(position.hand), 'card')}: "
                f"the goal is to play {'them all' if len(position.hand) > 1 else 'it'} "
                f"(left: "
                f"{' '.join(map(str, verdict.hand_after))})"
            )
        else:
            reason = (
                f"legal, but it leaves {_plural(verdict.penalty_after, 'point')} in "
                f"hand: the best play leaves {goal_penalty}"
            )
        return AnswerVerdict(False, False, True, (reason,), verdict.penalty_after, count)
    intended = signature(table, position.rules) == signature(puzzle.solution, position.rules)
    reason = (
        "solved: this is the intended solution"
        if intended
        else "solved, by another route than the intended solution (it still counts)"
    )
    return AnswerVerdict(True, intended, True, (reason,), verdict.penalty_after, count)
