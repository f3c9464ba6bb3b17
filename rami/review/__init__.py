"""The review of a turn played: legal or not, how it compares with the best turn, what it
missed, and a grade an app can show (``rami review``, ``POST /review``, :func:`review`).

The turn is judged by the referee (:func:`rami.referee.validate_turn`) and compared with the
solver's best turn (:func:`rami.solver.api.solve`) at every level: points left, cards played,
table cards moved. The grade goes by the points lost against the best (see :data:`GRADES`); the
missed move is the key move of the best turn (a split or a move of table cards first, as
``rami hint --level 2`` picks it) that the turn played does not make.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rami.cards import Card, parse_cards
from rami.errors import NotationError
from rami.lang import ENGLISH, Language
from rami.melds import Meld
from rami.notation import parse_position_any
from rami.phrasebook import say, say_count
from rami.phrases import grade_word, plural, word
from rami.position import EMPTY, Position, hand_penalty, parse_table
from rami.referee import TurnVerdict, validate_turn
from rami.solver.solution import Move, MoveKind, Objective, Solution, Status

#: The grades, best first, and the most points a turn may lose against the best to get each
#: (``best`` also plays as many cards as the best turn; past the last bound: ``blunder``).
GRADES: tuple[tuple[str, int], ...] = (
    ("best", 0),
    ("good", 4),
    ("inaccuracy", 9),
    ("mistake", 19),
)
BLUNDER = "blunder"
GRADE_NAMES = (*(name for name, _ in GRADES), BLUNDER)


def grade_for(points_lost: int, cards_short: int) -> str:
    """The grade of a turn that loses ``points_lost`` points against the best turn and plays
    ``cards_short`` cards fewer than it (see :data:`GRADES`)."""
    if points_lost <= 0:
        return "best" if cards_short <= 0 else "good"
    for name, most in GRADES[1:]:
        if points_lost <= most:
            return name
    return BLUNDER


def played_from_tables(position: Position, table_after: Sequence[Meld]) -> tuple[Card, ...]:
    """The cards a turn laid, read from the tables: those on the table after it that were not
    on the table before (for a review given no ``played``)."""
    after: Counter[Card] = Counter(card for meld in table_after for card in meld.cards)
    return tuple(sorted((after - position.table_cards).elements()))


@dataclass(frozen=True)
class Review:
    """The verdict on one turn and its comparison with the best turn."""

    position: Position
    table_after: tuple[Meld, ...]
    played: tuple[Card, ...]
    discard: Card | None
    verdict: TurnVerdict
    best: Solution
    #: The turn as moves (empty when it is illegal).
    moves: tuple[Move, ...]
    #: The best turn's key move that the turn played lacks (None: it misses none).
    missed: Move | None

    @property
    def legal(self) -> bool:
        return self.verdict.legal

    @property
    def penalty_before(self) -> int:
        position = self.position
        return hand_penalty(position.hand, position.rules, position.opened)

    @property
    def points_lost(self) -> int | None:
        """Penalty points left beyond the best turn's (None for an illegal turn)."""
        if not self.legal:
            return None
        return self.verdict.penalty_after - self.best.penalty_after

    @property
    def cards_short(self) -> int | None:
        return self.best.cards_played - len(self.played) if self.legal else None

    @property
    def grade(self) -> str | None:
        """best, good, inaccuracy, mistake or blunder (None for an illegal turn)."""
        if self.points_lost is None or self.cards_short is None:
            return None
        return grade_for(self.points_lost, self.cards_short)

    @property
    def better_than_best(self) -> bool:
        """The turn beats a best turn that the time limit kept from being proved."""
        lost = self.points_lost
        return lost is not None and lost < 0

    def text_lines(self, language: Language = ENGLISH) -> list[str]:
        """The review as a person reads it, in ``language`` (``review.*`` in the phrase book)."""
        if not self.legal:
            lines = [
                say("review.illegal", language),
                *(f"  - {problem}" for problem in self.verdict.problems_in(language)),
            ]
        else:
            grade = grade_word(self.grade, language) if self.grade else ""
            lost = _points_lost_text(self.points_lost or 0, language)
            lines = [say("review.grade", language, grade=grade, lost=lost)]
            best = self.best
            for label, mine, theirs in (
                ("review.penalty-left", self.verdict.penalty_after, best.penalty_after),
                ("review.cards-played", len(self.played), best.cards_played),
                ("review.cards-moved", self.verdict.cards_moved, best.cards_moved),
            ):
                said = say(label, language)
                lines.append(say("review.row", language, label=said, mine=mine, best=theirs))
        if self.missed is not None:
            lines.append(say("review.missed", language, move=self.missed.said(language)))
        if self.best.status is not Status.OPTIMAL:
            lines.append(say("review.not-proved", language))
        moves = plural(len(self.best.moves), "move", language, "coup")
        lines.append(say("review.best-turn", language, moves=moves))
        lines.extend(
            f"  {number}. {move.said(language)}" for number, move in enumerate(self.best.moves, 1)
        )
        if not self.best.moves:
            lines.append(f"  {word('no move', language)}")
        return lines

    def to_json(self, language: Language = ENGLISH) -> dict[str, Any]:
        """Cards in the contract's codes; the texts meant for people in ``language``."""
        verdict = self.verdict
        return {
            "legal": self.legal,
            "problems": verdict.problems_in(language),
            "grade": self.grade,
            "points_lost": self.points_lost,
            "turn": {
                "played": [str(card) for card in self.played],
                "discard": str(self.discard) if self.discard is not None else None,
                "penalty_after": verdict.penalty_after if self.legal else None,
                "cards_played": len(self.played),
                "cards_moved": verdict.cards_moved if self.legal else None,
                "opened_after": verdict.opened_after if self.legal else None,
                "moves": [move.to_json(language) for move in self.moves],
            },
            "best": self.best.to_json(language),
            "missed": self.missed.to_json(language) if self.missed is not None else None,
            "grades": {name: most for name, most in GRADES},
        }


def _points_lost_text(lost: int, language: Language = ENGLISH) -> str:
    if lost < 0:
        return say_count("review.better", -lost, language)
    if lost == 0:
        return say("review.no-loss", language)
    return say_count("review.lost", lost, language)


def _move_key(move: Move, old_melds: int) -> tuple[object, ...]:
    """What makes two moves the same step: the kind, the cards, the old meld they come from
    and, for an old meld, the one they go to (new melds are numbered by each turn's own list)."""
    target = move.target if move.target is not None and move.target <= old_melds else None
    return (move.kind, tuple(sorted(move.cards)), move.source, target)


def missed_move(best: Solution, moves: Sequence[Move]) -> Move | None:
    """The key move of ``best`` that ``moves`` lack: the first such move that takes cards from
    the table, else the first such move (a discard only when nothing else differs)."""
    old = len(best.position.table)
    made = {_move_key(move, old) for move in moves}
    lacking = [move for move in best.moves if _move_key(move, old) not in made]
    for move in lacking:
        if move.kind.touches_table:
            return move
    for move in lacking:
        if move.kind is not MoveKind.DISCARD:
            return move
    return lacking[0] if lacking else None


def turn_moves(
    position: Position, table_after: Sequence[Meld], played: Sequence[Card]
) -> tuple[Move, ...]:
    """A legal turn told as moves, in the solver's move language."""
    from rami.solver.explain import explain_moves, in_number_order

    if not played:
        return ()
    table = in_number_order(position.table, table_after)
    return explain_moves(position.table, table, tuple(sorted(played)))


def _table_of(table_after: str | Sequence[Meld | str]) -> tuple[Meld, ...]:
    """The table after the turn as melds: ``rami review --table``'s text notation (``3H 4H 5H |
    QS QD QC``, ``-`` for empty) or melds, each a :class:`Meld` or its text."""
    if isinstance(table_after, str):
        return parse_table(table_after)
    melds = []
    for number, meld in enumerate(table_after, start=1):
        if isinstance(meld, Meld):
            melds.append(meld)
        elif isinstance(meld, str):
            try:
                melds.append(Meld.parse(meld))
            except NotationError as error:
                raise NotationError(f"table after the turn, meld {number}: {error}") from None
        else:
            raise NotationError(
                f"table after the turn, meld {number}: expected a Meld or its text "
                f"('3H 4H 5H'), got {type(meld).__name__}"
            )
    return tuple(melds)


def _cards_of(cards: str | Sequence[Card | str]) -> tuple[Card, ...]:
    """Cards given as :class:`Card` objects, their texts, or one text (``"7H 8H"``, ``-``)."""
    if isinstance(cards, str):
        return parse_cards(cards) if cards.strip() not in ("", EMPTY) else ()
    return tuple(card if isinstance(card, Card) else Card.parse(card) for card in cards)


def review(
    position: Position | str,
    table_after: str | Sequence[Meld | str],
    played: str | Sequence[Card | str] | None = None,
    discard: Card | str | None = None,
    *,
    objective: Objective | str = Objective.POINTS,
    time_limit: float = 10.0,
    best: Solution | None = None,
) -> Review:
    """Review the turn that left ``table_after`` (``played``: the cards laid from the hand,
    read from the tables when None; ``discard``: the card that ended it). ``best`` is the
    solver's answer for ``position`` when the caller has it already.

    The position, the table, the cards and the discard may be given as text, in the notation
    ``rami review`` takes (``"3H 4H 5H | QS QD QC"``, ``"7H 8H"``, ``"9C"``); bad text raises
    :class:`~rami.errors.NotationError`."""
    from rami.solver.api import solve

    if isinstance(position, str):
        position = parse_position_any(position)
    position = position.checked()
    table = _table_of(table_after)
    laid = _cards_of(played) if played is not None else played_from_tables(position, table)
    if isinstance(discard, str):
        discard = Card.parse(discard)
    verdict = validate_turn(position, table, laid, discard)
    if best is None:
        best = solve(position, objective=objective, time_limit=time_limit)
    moves: tuple[Move, ...] = ()
    if verdict.legal:
        moves = turn_moves(position, table, laid)
        if discard is not None:
            from rami.solver.answer import discard_move

            moves = (*moves, discard_move(discard, verdict.hand_after))
    grade_is_best = (
        verdict.legal
        and grade_for(verdict.penalty_after - best.penalty_after, best.cards_played - len(laid))
        == "best"
    )
    missed = None if grade_is_best else missed_move(best, moves)
    return Review(position, table, laid, discard, verdict, best, moves, missed)


__all__ = [
    "BLUNDER",
    "GRADES",
    "GRADE_NAMES",
    "Review",
    "grade_for",
    "missed_move",
    "played_from_tables",
    "review",
    "turn_moves",
]
