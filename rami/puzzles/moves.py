"""An answer given as moves (the move language of ``rami solve``, :mod:`rami.moves`), replayed
into a final table.

One move per line or separated by ``;``; the solver's lines are accepted as printed, numbering
(``1.``) and all. Melds are numbered as ``rami solve`` numbers them: the table's melds 1..n keep
their numbers, a new meld takes the next number (n+1, then n+2...), and a meld emptied by the
moves keeps its number. Only the final table is judged (by the referee); the moves only have to
be possible (:class:`rami.moves.Layout`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rami.melds import Meld
from rami.moves import GRAMMAR, VERBS, Layout, Move, MoveError, MoveKind, parse_move
from rami.position import Position

_NUMBERING = re.compile(r"^\s*\d+[.)]\s+")


@dataclass(frozen=True)
class Replayed:
    """The final table the moves reach, in meld-number order, and each meld's number."""

    table: tuple[Meld, ...]
    numbers: tuple[int, ...]


def split_moves(text: str) -> list[str]:
    """The moves of an answer: one per line or separated by ``;`` (blank parts dropped)."""
    parts = []
    for line in text.replace(";", "\n").splitlines():
        line = _NUMBERING.sub("", line).strip().rstrip(".")
        if line:
            parts.append(line)
    return parts


def looks_like_moves(text: str) -> bool:
    """Does this answer start with a move verb (rather than a table of melds)?"""
    parts = split_moves(text)
    if not parts:
        return False
    first = parts[0].split(maxsplit=1)[0].lower()
    return first in VERBS


def _label(number: int, text: str) -> str:
    return f"move {number} ({text!r})"


def parse_moves(text: str) -> list[tuple[str, Move]]:
    """Each move of the answer with its label (``move 2 ('add 8C to 3')``); MoveError names
    the first that does not parse."""
    parts = split_moves(text)
    if not parts:
        raise MoveError("no move given: " + GRAMMAR)
    moves = []
    for number, part in enumerate(parts, start=1):
        try:
            move = parse_move(part)
        except MoveError as error:
            raise MoveError(f"{_label(number, part)}: {error}") from None
        if move.kind is MoveKind.DISCARD:
            raise MoveError(f"{_label(number, part)}: rami chinois has no discard")
        moves.append((_label(number, part), move))
    return moves


def replay(position: Position, moves: Sequence[tuple[str, Move]]) -> Replayed:
    """The final table the moves make from the position's table and hand (MoveError names the
    first move that cannot be made)."""
    layout = Layout.start(position.rules, position.table, position.hand)
    for label, move in moves:
        try:
            layout, _ = layout.apply(move)
        except MoveError as error:
            raise MoveError(f"{label}: {error}") from None
    numbered = layout.numbered()
    return Replayed(tuple(meld for _, meld in numbered), tuple(number for number, _ in numbered))


def answer_table(position: Position, text: str) -> Replayed:
    """Parse and replay an answer given as moves."""
    return replay(position, parse_moves(text))


_MELD_AFTER = re.compile(r"^meld (\d+) after the turn")


def renumber_reasons(reasons: Sequence[str], numbers: Sequence[int]) -> tuple[str, ...]:
    """The referee numbers the melds of the final table 1, 2, 3... in list order; after moves
    the player knows them by the moves' numbers (a meld emptied keeps its number)."""

    def fix(reason: str) -> str:
        found = _MELD_AFTER.match(reason)
        if found is None:
            return reason
        index = int(found.group(1)) - 1
        if not 0 <= index < len(numbers):
            return reason
        return f"meld {numbers[index]} after the moves" + reason[found.end() :]

    return tuple(fix(reason) for reason in reasons)


__all__ = [
    "MoveError",
    "Replayed",
    "answer_table",
    "looks_like_moves",
    "parse_moves",
    "renumber_reasons",
    "replay",
    "split_moves",
]
