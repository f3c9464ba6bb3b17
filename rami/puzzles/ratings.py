"""Puzzle and player ratings from first attempts (Glicko-2, :mod:`rami.puzzles.glicko`), and the
puzzle to offer a player next.

Every attempt is read in the order it was stored; only a player's first attempt at a puzzle
counts (a second try knows the answer). A first attempt is a game between the player and the
puzzle, each rated against the other's rating just before it, by these rules (docs/puzzles.md,
"Ratings"):

=====================================================  ============  ====================
first attempt                                          player score  puzzle moved by
=====================================================  ============  ====================
solved, no hint, solution not shown                    1 (a win)     the full update
solved with hints, solution not shown                  0.5           half the update
not solved (checked, solution never shown)             0 (a loss)    the full update
solution shown after at least one check                0 (a loss)    a tenth of the update
given up at once: no check (solution shown or not)     0 (a loss)    nothing
=====================================================  ============  ====================

The puzzle's score is one minus the player's. Before its first rated attempt a puzzle has its
starting rating: the model of human solvers' (:mod:`rami.puzzles.human_model`, shipped in
rami/data/start_ratings.json, deviation :data:`MODEL_DEVIATION`) where the model rated it, else
its tier's (:data:`TIER_START`, deviation 350); a player has the newcomer's 1500.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from rami.puzzles.attempts import Attempt
from rami.puzzles.glicko import START_DEVIATION, Rating, blend, update

#: A puzzle's rating before anyone has played it, by tier (deviation 350: a weak prior).
TIER_START = {"easy": 1200.0, "medium": 1500.0, "hard": 1800.0, "expert": 2100.0}
#: The shipped starting ratings of the model of human solvers (``rami puzzle start-ratings``).
START_RESOURCE = "start_ratings.json"
#: The deviation of a model's starting rating: a weak prior, a little firmer than a tier's.
MODEL_DEVIATION = 300.0
#: How much of its update a puzzle takes from an attempt with hints, or with the solution shown
#: after a check (a solver who gives up at once moves it not at all).
HINT_WEIGHT = 0.5
SOLUTION_WEIGHT = 0.1
#: ``next_puzzle`` looks first among puzzles this close to the player's rating.
NEXT_BAND = 100.0


@dataclass(frozen=True)
class Outcome:
    """What a first attempt means for the ratings: the player's score and the fraction of its
    update the puzzle takes."""

    player_score: float
    puzzle_weight: float

    @property
    def puzzle_score(self) -> float:
        return 1.0 - self.player_score


def outcome(attempt: Attempt) -> Outcome:
    """The rule of the table above."""
    if not attempt.checked:
        return Outcome(0.0, 0.0)
    if attempt.solution_shown:
        return Outcome(0.0, SOLUTION_WEIGHT)
    if not attempt.solved:
        return Outcome(0.0, 1.0)
    if attempt.hints:
        return Outcome(0.5, HINT_WEIGHT)
    return Outcome(1.0, 1.0)


def start_rating(tier: str | None, model: float | None = None) -> Rating:
    """A puzzle's rating before any attempt: the model's (``model``) when it has one, else its
    tier's, else the newcomer's 1500."""
    if model is not None:
        return Rating(model, MODEL_DEVIATION)
    return Rating(TIER_START.get(tier or "", 1500.0), START_DEVIATION)


@cache
def shipped_starts() -> dict[str, float]:
    """The model's starting rating of each shipped puzzle, by id (rami/data/start_ratings.json;
    none when the file is missing: the puzzles then start from their tiers)."""
    try:
        text = resources.files("rami").joinpath("data", START_RESOURCE).read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    puzzles = json.loads(text)["puzzles"]
    return {str(puzzle): float(value["rating"]) for puzzle, value in puzzles.items()}


@dataclass
class Ratings:
    """Ratings folded over the attempts read so far (:meth:`add`, in the order stored).

    ``tiers`` maps a puzzle id to its tier and ``starts`` to the model's starting rating (None:
    the shipped ones, :func:`shipped_starts`; ``{}``: tiers only); ``last_id`` is the number of
    the last attempt read, so that a caller reads only the attempts stored since.
    """

    tiers: Mapping[str, str] = field(default_factory=dict)
    starts: Mapping[str, float] | None = None
    players: dict[str, Rating] = field(default_factory=dict)
    puzzles: dict[str, Rating] = field(default_factory=dict)
    player_games: Counter[str] = field(default_factory=Counter)
    puzzle_games: Counter[str] = field(default_factory=Counter)
    attempts: int = 0
    first_attempts: int = 0
    last_id: int = 0
    _first: dict[str, dict[str, int | None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.starts is None:
            self.starts = shipped_starts()

    def player(self, player: str) -> Rating:
        return self.players.get(player) or Rating()

    def puzzle(self, puzzle: str) -> Rating:
        return self.puzzles.get(puzzle) or self.start(puzzle)

    def start(self, puzzle: str) -> Rating:
        """The puzzle's rating before its first rated attempt (see the module docstring)."""
        return start_rating(self.tiers.get(puzzle), (self.starts or {}).get(puzzle))

    def played(self, player: str) -> set[str]:
        """The puzzles the player has attempted."""
        return set(self._first.get(player, ()))

    def first_attempt(self, player: str, puzzle: str) -> int | None:
        """The number of the player's first attempt at the puzzle (the one rated), if read."""
        return self._first.get(player, {}).get(puzzle)

    def add(self, attempt: Attempt) -> bool:
        """Count one attempt; True when it is the player's first at that puzzle (and rated)."""
        self.attempts += 1
        if attempt.id is not None:
            self.last_id = max(self.last_id, attempt.id)
        seen = self._first.setdefault(attempt.player, {})
        if attempt.puzzle in seen:
            return False
        seen[attempt.puzzle] = attempt.id
        self.first_attempts += 1
        result = outcome(attempt)
        player, puzzle = self.player(attempt.player), self.puzzle(attempt.puzzle)
        self.players[attempt.player] = update(player, [(puzzle, result.player_score)])
        self.player_games[attempt.player] += 1
        if result.puzzle_weight > 0:
            moved = update(puzzle, [(player, result.puzzle_score)])
            self.puzzles[attempt.puzzle] = blend(puzzle, moved, result.puzzle_weight)
            self.puzzle_games[attempt.puzzle] += 1
        return True

    def add_all(self, attempts: Iterable[Attempt]) -> Ratings:
        for attempt in attempts:
            self.add(attempt)
        return self

    def summary(self, limit: int | None = None) -> dict[str, Any]:
        """Counts, then the rated puzzles and players, highest rating first, at most ``limit``
        of each (``rami puzzle ratings --json``)."""
        return {
            "attempts": self.attempts,
            "first_attempts": self.first_attempts,
            "puzzles": [self.puzzle_json(name) for name in _by_rating(self.puzzles)[:limit]],
            "players": [self.player_json(name) for name in _by_rating(self.players)[:limit]],
        }

    def puzzle_json(self, puzzle: str) -> dict[str, Any]:
        return {
            "id": puzzle,
            **self.puzzle(puzzle).to_json(),
            "games": self.puzzle_games[puzzle],
            "tier": self.tiers.get(puzzle),
        }

    def player_json(self, player: str) -> dict[str, Any]:
        return {"id": player, **self.player(player).to_json(), "games": self.player_games[player]}


def _by_rating(ratings: Mapping[str, Rating]) -> list[str]:
    return sorted(ratings, key=lambda name: (-ratings[name].rating, name))


def _lot(player: str, puzzle: str) -> str:
    return hashlib.sha256(f"rami-next:{player}:{puzzle}".encode()).hexdigest()


def next_puzzle(ratings: Ratings, player: str, puzzles: Sequence[str]) -> str | None:
    """The puzzle to offer ``player`` next, among ``puzzles`` (ids): one not yet attempted
    whose rating is within :data:`NEXT_BAND` of the player's, the first in an order drawn from
    the player's and the puzzle's ids (so players spread over the band); when none is that
    close, the unattempted puzzle nearest the player's rating. None when every puzzle has been
    attempted. The same attempts give the same answer."""
    played = ratings._first.get(player, {})
    fresh = [puzzle for puzzle in dict.fromkeys(puzzles) if puzzle not in played]
    if not fresh:
        return None
    target = ratings.player(player).rating
    distance = {puzzle: abs(ratings.puzzle(puzzle).rating - target) for puzzle in fresh}
    near = [puzzle for puzzle in fresh if distance[puzzle] <= NEXT_BAND]
    if near:
        return min(near, key=lambda puzzle: _lot(player, puzzle))
    return min(fresh, key=lambda puzzle: (distance[puzzle], _lot(player, puzzle)))
