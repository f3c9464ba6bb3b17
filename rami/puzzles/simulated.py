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
from rami.puzzles.ratings import TIER_START, Ratings, next_puzzle, shipped_starts

#: The simulated clock: day 0, and the time between two attempts.
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
STEP = timedelta(seconds=30)
#: The model's rates (see above).
HINT_RESCUE = 0.25
SHOW_AFTER_CHECKS = 0.40
GIVE_UP_AT_ONCE = 0.10


def solve_chance(skill: float, difficulty: float) -> float:
    return float(1.0 / (1.0 + 10.0 ** ((difficulty - skill) / 400.0)))


def attempt(
    rng: random.Random, puzzle: str, player: str, skill: float, difficulty: float, at: datetime
) -> Attempt:
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
    def spread(
        cls, puzzles: int, players: int, seed: int = 0, low: float = 1000.0, high: float = 2200.0
    ) -> World:
        """Difficulties and skills drawn uniformly from [low, high]; synthetic ids."""
        rng = random.Random(f"rami-sim-world:{seed}")
        return cls(
            {f"rc-{index:010x}": rng.uniform(low, high) for index in range(puzzles)},
            {f"sim-solver-{index:04d}": rng.uniform(low, high) for index in range(players)},
        )

    def correlations(self, ratings: Ratings) -> dict[str, float]:
        """Rank correlations of the ratings with the truth: puzzles (rating against
        difficulty) and players (rating against skill)."""
        puzzles = sorted(self.difficulty)
        players = sorted(self.skill)
        return {
            "puzzles": spearman(
                [ratings.puzzle(p).rating for p in puzzles], [self.difficulty[p] for p in puzzles]
            ),
            "players": spearman(
                [ratings.player(p).rating for p in players], [self.skill[p] for p in players]
            ),
        }


def play(
    world: World,
    rounds: int,
    *,
    seed: int = 0,
    tiers: Mapping[str, str] | None = None,
    starts: Mapping[str, float] | None = None,
    record: Callable[[Attempt], Attempt] | None = None,
    choose: Callable[[Ratings, str, list[str]], str | None] = next_puzzle,
    checkpoints: Sequence[int] = (),
) -> tuple[Ratings, list[dict[str, Any]]]:
    """Each round, every solver (in id order) attempts the puzzle ``choose`` offers (by
    default :func:`next_puzzle` on the ratings so far); ``record`` stores each attempt and
    returns it numbered (default: numbered in order, kept in memory). ``tiers`` and ``starts``
    give the puzzles' starting ratings, as :class:`Ratings` takes them. The ratings, and the
    correlations after each round listed in ``checkpoints``."""
    rng = random.Random(f"rami-sim-play:{seed}")
    ratings = Ratings(tiers=dict(tiers or {}), starts=None if starts is None else dict(starts))
    ids = sorted(world.difficulty)
    history: list[dict[str, Any]] = []
    clock = EPOCH
    for round_number in range(1, rounds + 1):
        for player in sorted(world.skill):
            chosen = choose(ratings, player, ids)
            if chosen is None:
                continue
            made = attempt(
                rng, chosen, player, world.skill[player], world.difficulty[chosen], clock
            )
            clock += STEP
            stored = record(made) if record else replace(made, id=ratings.last_id + 1)
            ratings.add(stored)
        if round_number in checkpoints:
            history.append(
                {"round": round_number, "attempts": ratings.attempts, **world.correlations(ratings)}
            )
    return ratings, history


#: The starting ratings the experiment compares, and the truths it draws difficulties around.
STARTS = ("tier", "model", "none")
TRUTHS = ("tier", "between", "model")
#: The spread (standard deviation) of a true difficulty around what its truth says.
TRUTH_NOISE = 150.0


def truth(
    puzzles: Sequence[Any], kind: str, seed: int = 0, noise: float = TRUTH_NOISE
) -> dict[str, float]:
    """True difficulties of shipped puzzles (``puzzles``: records of
    :mod:`rami.puzzles.record`) drawn around their tier's starting rating (``"tier"``), the
    model's (``"model"``) or halfway between (``"between"``), plus Gaussian noise."""
    if kind not in TRUTHS:
        raise ValueError(f"a truth is one of {', '.join(TRUTHS)}, not {kind!r}")
    rng = random.Random(f"rami-sim-truth:{kind}:{seed}")
    model = shipped_starts()

    def centre(puzzle: Any) -> float:
        tier, rated = TIER_START[puzzle.tier], model[puzzle.id]
        return {"tier": tier, "model": rated, "between": (tier + rated) / 2}[kind]

    return {p.id: centre(p) + rng.gauss(0.0, noise) for p in puzzles}


def compare_starts(
    puzzles: Sequence[Any], *, players: int = 200, rounds: int = 30, seed: int = 0
) -> list[dict[str, Any]]:
    """The experiment of docs/puzzles.md, "The simulated experiment": for each truth and each
    kind of starting rating (the tiers', the model's, or 1500 for all: ``"none"``), the rank
    correlations after 10 %, 50 % and 100 % of the rounds. Solvers' skills are uniform over
    1000..2200."""
    tiers = {p.id: p.tier for p in puzzles}
    skills = World.spread(puzzles=0, players=players, seed=seed).skill
    marks = sorted({max(1, rounds // 10), max(1, rounds // 2), rounds})
    rows = []
    for kind in TRUTHS:
        world = World(truth(puzzles, kind, seed), skills)
        for start in STARTS:
            _, history = play(
                world,
                rounds,
                seed=seed,
                tiers=tiers if start == "tier" else {},
                starts=shipped_starts() if start == "model" else {},
                checkpoints=marks,
            )
            rows.append({"truth": kind, "start": start, "history": history})
    return rows
