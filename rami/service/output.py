"""Library objects to the service's response bodies (:mod:`rami.service.schemas`).

The library's ``to_json`` forms are the command line's and the service's: a solution is
:meth:`Solution.to_json` as it is, a meld :func:`rami.notation.meld_out` (``{"kind": "run"
| "set", "cards": [...]}``, the one shape the service sends). A position is
:func:`rami.notation.position_to_json` with its melds in that shape and ``taken_discard`` always
there (null where it does not apply).
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from rami.hints import make_hint
from rami.lang import ENGLISH, Language
from rami.notation import meld_out

if TYPE_CHECKING:
    from rami.position import Position
    from rami.puzzles.record import Puzzle
    from rami.solver.api import Solution


def solution_json(solution: Solution, language: Language = ENGLISH) -> dict[str, Any]:
    """:meth:`Solution.to_json` (melds as objects, ``discard`` and ``bounds`` always there)."""
    return solution.to_json(language)


def hint_json(solution: Solution, level: int, language: Language = ENGLISH) -> dict[str, Any]:
    """``Hint.to_json()`` (level 3 carries :meth:`Solution.to_json`)."""
    return make_hint(solution, level, language).to_json()


def position_json(position: Position) -> dict[str, Any]:
    """:func:`rami.notation.position_to_json`, melds as objects, ``taken_discard`` always."""
    from rami.notation import position_to_json

    data = position_to_json(position)
    data["table"] = [meld_out(meld) for meld in position.table]
    data.setdefault("taken_discard", None)
    return data


def puzzle_json(puzzle: Puzzle, language: Language = ENGLISH) -> dict[str, Any]:
    """:func:`rami.puzzles.record.public_json` (the puzzle JSON contract of docs/puzzles.md: no
    solution), the goal's text in ``language``, with ``theme_names``: the themes as a player
    reads them (in English the tags themselves, :func:`rami.puzzles.words.theme_name`)."""
    from rami.puzzles.record import public_json
    from rami.puzzles.words import theme_name

    data = public_json(puzzle, language)
    data["theme_names"] = [theme_name(theme, language) for theme in puzzle.themes]
    return data


def daily_json(day: date, puzzle: Puzzle, language: Language = ENGLISH) -> dict[str, Any]:
    """The daily puzzle: :func:`puzzle_json` in ``language``, its position's melds as objects,
    and its date."""
    data = {"date": day.isoformat(), **puzzle_json(puzzle, language)}
    data["position"] = position_json(puzzle.position)
    goal = data["goal"]
    data["goal"] = {
        key: goal.get(key) for key in ("kind", "penalty_after", "cards_played", "shed", "text")
    }
    return data
