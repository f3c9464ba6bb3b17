"""The move language: one :class:`Move` for what the solver says and what a person types.

A move is one step at the table (docs/notation.md, "Moves"): its :class:`MoveKind`, its cards,
the meld they come from (None: the hand) and the meld they go to (None: the next new meld). The
solver writes its moves (:mod:`rami.solver.explain`); :func:`parse_move` reads a typed one
(:mod:`rami.moves.parse`); :class:`Layout` applies moves to a table and a hand
(:mod:`rami.moves.layout`); :func:`meld_numbers` numbers the melds of a turn's table
(:mod:`rami.moves.numbers`). The game (:mod:`rami.game.moves`), the puzzles' answers
(:mod:`rami.puzzles.moves`), the hints and the review all use these.

A move that does not parse, or whose cards are not where it says, raises :class:`MoveError`,
a :class:`rami.errors.NotationError`: whether the table reached is legal is the referee's to
say (:class:`rami.errors.IllegalTurnError`), not the move language's.
"""

from __future__ import annotations

from rami.moves.layout import Layout, arrange_like, laid_out
from rami.moves.move import Move, MoveError, MoveKind
from rami.moves.numbers import meld_numbers, numbered
from rami.moves.parse import GRAMMAR, VERBS, parse_move, read_move

__all__ = [
    "GRAMMAR",
    "VERBS",
    "Layout",
    "Move",
    "MoveError",
    "MoveKind",
    "arrange_like",
    "laid_out",
    "meld_numbers",
    "numbered",
    "parse_move",
    "read_move",
]
