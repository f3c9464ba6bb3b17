"""Library objects to the service's response bodies (:mod:`rami.service.schemas`).

The library's ``to_json`` forms are the command line's; the service sends the same data with
one meld shape everywhere, ``{"kind": "run" | "set", "cards": [...]}``, and every field of its
response models present (null where it does not apply).
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from rami.hints import make_hint
from rami.lang import ENGLISH, Language

if TYPE_CHECKING:
    from rami.melds import Meld
    from rami.position import Position
    from rami.puzzles.record import Puzzle
    from rami.solver.api import Solution

def meld_json(meld: Meld) -> dict[str, Any]:
    return {"kind": meld.kind.value, "cards": [str(card) for card in meld.cards]}


def solution_json(solution: Solution, language: Language = ENGLISH) -> dict[str, Any]:
    """``Solution.to_json()`` with melds as objects, ``discard`` and ``bounds`` always there."""
    data = solution.to_json(language)
    data["table"] = [meld_json(meld) for meld in solution.table]
    data.setdefault("discard", None if solution.discard is None else str(solution.discard))
    data["bounds"] = dict(data["bounds"]) if data.get("bounds") else None
    return data


def hint_json(solution: Solution, level: int, language: Language = ENGLISH) -> dict[str, Any]:
    """``Hint.to_json()``; level 3 carries the solution as :func:`solution_json` gives it."""
    data = make_hint(solution, level, language).to_json()
    if "solution" in data:
        data["solution"] = solution_json(solution, language)
    return data


def position_json(position: Position) -> dict[str, Any]:
    return {
        "rules": position.rules.option_string,
        "table": [meld_json(meld) for meld in position.table],
        "hand": [str(card) for card in position.hand],
        "opened": position.opened,
        "taken_discard": (
            None if position.taken_discard is None else str(position.taken_discard)
        ),
    }


def daily_json(day: date, puzzle: Puzzle) -> dict[str, Any]:
    """The daily puzzle: :func:`rami.puzzles.record.public_json` (the puzzle JSON contract of
    docs/puzzles.md: no solution), its position's melds as objects, and its date."""
    from rami.puzzles.record import public_json

    data = {"date": day.isoformat(), **public_json(puzzle)}
    data["position"] = position_json(puzzle.position)
    goal = data["goal"]
    data["goal"] = {key: goal.get(key) for key in ("kind", "penalty_after", "cards_played",
                                                   "shed", "text")}
    return data
