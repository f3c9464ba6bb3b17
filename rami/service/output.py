"""Library objects to the service's response bodies (:mod:`rami.service.schemas`).

The library's ``to_json`` forms are the command line's; the service sends the same data with
one meld shape everywhere, ``{"kind": "run" | "set", "cards": [...]}``, and every field of its
response models present (null where it does not apply).
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from rami.hints import make_hint

if TYPE_CHECKING:
    from rami.melds import Meld
    from rami.position import Position
    from rami.puzzles.record import Puzzle
    from rami.solver.api import Solution

#: Record fields the daily puzzle leaves out: they give the answer away.
SPOILERS = ("solution", "signature")


def meld_json(meld: Meld) -> dict[str, Any]:
    return {"kind": meld.kind.value, "cards": [str(card) for card in meld.cards]}


def solution_json(solution: Solution) -> dict[str, Any]:
    """``Solution.to_json()`` with melds as objects, ``discard`` and ``bounds`` always there."""
    data = solution.to_json()
    data["table"] = [meld_json(meld) for meld in solution.table]
    data.setdefault("discard", None if solution.discard is None else str(solution.discard))
    data["bounds"] = dict(data["bounds"]) if data.get("bounds") else None
    return data


def hint_json(solution: Solution, level: int) -> dict[str, Any]:
    """``Hint.to_json()``; level 3 carries the solution as :func:`solution_json` gives it."""
    data = make_hint(solution, level).to_json()
    if "solution" in data:
        data["solution"] = solution_json(solution)
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
    """The daily puzzle: its record without :data:`SPOILERS`, position and difficulty in the
    service's shapes, and every optional field present."""
    shown = {key: value for key, value in puzzle.record.items() if key not in SPOILERS}
    themes = getattr(puzzle, "themes", None)
    if themes is None:
        themes = shown.get("themes") or ()
    return {
        "date": day.isoformat(),
        **shown,
        "position": position_json(puzzle.position),
        "difficulty": puzzle.metrics.to_json(),
        "themes": list(themes),
        "seed": shown.get("seed"),
        "profile": shown.get("profile"),
        "version": shown.get("version"),
    }
