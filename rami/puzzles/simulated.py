"""Simulated solvers of known skill on puzzles of known difficulty: the ratings pipeline tested
without players (docs/puzzles.md, "Ratings: the simulated experiment").

A solver of skill s knows the answer to a puzzle of difficulty d with the chance of the
logistic model Glicko-2 itself assumes, ``1 / (1 + 10 ** ((d - s) / 400))``. One who knows
solves it, no hint. One who does not: a hint rescues a quarter of them (solved with one hint);
of the rest, 40 in 100 check wrong answers and then show the solution, 10 in 100 show it
without a check (giving up at once), and the others leave after wrong checks, unsolved.
Everything is drawn from one seeded ``random.Random``: the same seed, the same attempts.

:func:`play` asks :func:`rami.puzzles.ratings.next_puzzle` what each solver attempts (as the
page asks ``GET /puzzles/next``) and folds the attempts into :class:`Ratings`;
:func:`spearman` is the rank correlation the experiment reports.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from rami.puzzles.attempts import Attempt
from rami.puzzles.ratings import Ratings, next_puzzle

#: The simulated clock: day 0, and the time between two attempts.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
STEP = timedelta(seconds=30)
#: The model's rates (see above).
HINT_RESCUE = 0.25
SHOW_AFTER_CHECKS = 0.40
GIVE_UP_AT_ONCE = 0.10


def solve_chance(skill: float, difficulty: float) -> float:
    return float(1.0 / (1.0 + 10.0 ** ((difficulty - skill) / 400.0)))


def attempt(rng: random.Random, puzzle: str, player: str, skill: float, difficulty: float,
            at: datetime) -> Attempt:
    """One simulated attempt by the model above."""
    think = int(min(600_000, 20_000 * math.exp((difficulty - skill) / 400 + rng.gauss(0, 0.3))))
    wrong = 1 + int(rng.random() * 3)
    if rng.random() < solve_chance(skill, difficulty):
        return Attempt(puzzle, player, True, think, 0, False, 0, at)
    if rng.random() < HINT_RESCUE:
        return Attempt(puzzle, player, True, think, 1, False, wrong - 1, at)
    draw = rng.random()
    if draw < SHOW_AFTER_CHECKS:
        return Attempt(puzzle, player, False, think, 0, True, wrong, at)
    if draw < SHOW_AFTER_CHECKS + GIVE_UP_AT_ONCE:
        return Attempt(puzzle, player, False, None, 0, True, 0, at)
    return Attempt(puzzle, player, False, think, 0, False, wrong, at)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (ties take their average rank)."""
    if len(xs) != len(ys) or len(xs) < 2:
        raise ValueError("two sequences of the same length, at least 2")
    rx, ry = _ranks(xs), _ranks(ys)
    mean = (len(xs) + 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(rx, ry, strict=True))
    var_x = sum((a - mean) ** 2 for a in rx)
    var_y = sum((b - mean) ** 2 for b in ry)
    return cov / math.sqrt(var_x * var_y)


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=lambda index: values[index])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            ranks[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return ranks


@dataclass(frozen=True)
class World:
    """Puzzles by id with their true difficulty, solvers by id with their true skill."""

    difficulty: dict[str, float]
    skill: dict[str, float]

    @classmethod
    def spread(cls, puzzles: int, players: int, seed: int = 0, low: float = 1000.0,
               high: float = 2200.0) -> World:
        """Difficulties and skills drawn uniformly from [low, high]; synthetic ids."""
        rng = random.Random(f"rami-sim-world:{seed}")
        return cls({f"rc-{index:010x}": rng.uniform(low, high) for index in range(puzzles)},
                   {f"sim-solver-{index:04d}": rng.uniform(low, high)
                    for index in range(players)})

    def correlations(self, ratings: Ratings) -> dict[str, float]:
        """Rank correlations of the ratings with the truth: puzzles (rating against
        difficulty) and players (rating against skill)."""
        puzzles = sorted(self.difficulty)
        players = sorted(self.skill)
        return {
            "puzzles": spearman([ratings.puzzle(p).rating for p in puzzles],
                                [self.difficulty[p] for p in puzzles]),
            "players": spearman([ratings.player(p).rating for p in players],
                                [self.skill[p] for p in players]),
        }


def play(world: World, rounds: int, *, seed: int = 0, tiers: Mapping[str, str] | None = None,
         record: Callable[[Attempt], Attempt] | None = None,
         choose: Callable[[Ratings, str, list[str]], str | None] = next_puzzle,
         checkpoints: Sequence[int] = ()) -> tuple[Ratings, list[dict[str, Any]]]:
    """Each round, every solver (in id order) attempts the puzzle ``choose`` offers (by
    default :func:`next_puzzle` on the ratings so far); ``record`` stores each attempt and
    returns it numbered (default: numbered in order, kept in memory). The ratings, and the
    correlations after each round listed in ``checkpoints``."""
    rng = random.Random(f"rami-sim-play:{seed}")
    ratings = Ratings(tiers=dict(tiers or {}))
    ids = sorted(world.difficulty)
    history: list[dict[str, Any]] = []
    clock = EPOCH
    for round_number in range(1, rounds + 1):
        for player in sorted(world.skill):
            chosen = choose(ratings, player, ids)
            if chosen is None:
                continue
            made = attempt(rng, chosen, player, world.skill[player], world.difficulty[chosen],
                           clock)
            clock += STEP
            stored = record(made) if record else replace(made, id=ratings.last_id + 1)
            ratings.add(stored)
        if round_number in checkpoints:
            history.append({"round": round_number, "attempts": ratings.attempts,
                            **world.correlations(ratings)})
    return ratings, history
