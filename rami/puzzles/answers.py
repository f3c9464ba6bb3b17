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
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.notation import meld_from_json, parse_table
from rami.puzzles.record import Puzzle, _decoded
from rami.puzzles.words import points_reason, short_reason, solved_reason
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
    puzzle: Puzzle,
    table: Sequence[Meld],
    numbers: Sequence[int] | None = None,
    language: Language = ENGLISH,
) -> AnswerVerdict:
    """Does this final table solve the puzzle, and is it the intended solution?

    Any legal final table that reaches the goal solves it; it is *intended* when its signature
    is the solution's. ``numbers`` (an answer given as moves) are the melds' numbers, which the
    reasons then use. The reasons are said in ``language`` (:mod:`rami.puzzles.words`); the
    referee's, as everywhere, with their cards in the language's notation.
    """
    verdict = _check_answer(puzzle, table, language)
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
    if not verdict.legal and language is not ENGLISH:
        from rami.cards import localize_cards

        problems = tuple(localize_cards(reason, language) for reason in verdict.reasons)
        verdict = AnswerVerdict(False, False, False, problems)
    return verdict


def _check_answer(puzzle: Puzzle, table: Sequence[Meld], language: Language) -> AnswerVerdict:
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
            reason = short_reason(count, len(position.hand), verdict.hand_after, language)
        else:
            reason = points_reason(verdict.penalty_after, goal_penalty, language)
        return AnswerVerdict(False, False, True, (reason,), verdict.penalty_after, count)
    intended = signature(table, position.rules) == signature(puzzle.solution, position.rules)
    reason = solved_reason(intended, language)
    return AnswerVerdict(True, intended, True, (reason,), verdict.penalty_after, count)
