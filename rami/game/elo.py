"""Elo ratings per bot level from game results: a Bradley-Terry fit, bootstrap intervals.

Each game gives pairwise results between seats of different levels: a seat ranked above
another (winners first, then by total: lower penalties, or higher Rummikub scores) scores 1,
a tie 1/2. The strengths are fitted by Hunter's MM algorithm, with half a win and half a loss
against every other level as a prior so that a level that never wins keeps a finite rating;
``Elo = 400 log10(strength / anchor)``, the anchor (``beginner`` if present) at 0. The 95%
interval comes from a bootstrap over games with a seeded generator, two pseudo-games per pair
of levels added to what it draws from (one won by each side, as :func:`rami.game.sprt.interval`
adds pseudo-pairs), so that a sweep, where every resample is the same, still has a width; and
a level that won (lost) every comparison with the anchor has no upper (lower) bound, ``+inf``
(``-inf``): nothing its results show bounds it.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

#: (level of seat i, level of seat j, score of i against j) for one game.
Pair = tuple[str, str, float]


@dataclass(frozen=True)
class Rating:
    level: str
    elo: float
    low: float | None
    high: float | None


def game_pairs(levels: Sequence[str], ranks: Sequence[tuple[int, ...]]) -> list[Pair]:
    """Pairwise results of one game; ``ranks[i]`` sorts seat i (smaller is better)."""
    pairs = []
    for i in range(len(levels)):
        for j in range(i + 1, len(levels)):
            if levels[i] == levels[j]:
                continue
            if ranks[i] < ranks[j]:
                score = 1.0
            elif ranks[i] > ranks[j]:
                score = 0.0
            else:
                score = 0.5
            pairs.append((levels[i], levels[j], score))
    return pairs


def fit(
    games: Sequence[Sequence[Pair]], levels: Sequence[str], iterations: int = 200
) -> dict[str, float]:
    """Bradley-Terry strengths (as Elo, first level at 0) from the games' pairs."""
    index = {level: k for k, level in enumerate(levels)}
    size = len(levels)
    wins = [[0.0] * size for _ in range(size)]
    count = [[0.0] * size for _ in range(size)]
    for a in range(size):
        for b in range(size):
            if a != b:
                wins[a][b] += 0.5
                count[a][b] += 1.0
    for pairs in games:
        for first, second, score in pairs:
            a, b = index[first], index[second]
            wins[a][b] += score
            wins[b][a] += 1.0 - score
            count[a][b] += 1.0
            count[b][a] += 1.0
    strength = [1.0] * size
    for _ in range(iterations):
        new = []
        for a in range(size):
            total = sum(wins[a])
            denominator = sum(
                count[a][b] / (strength[a] + strength[b]) for b in range(size) if b != a
            )
            new.append(total / denominator if denominator else strength[a])
        scale = new[0]
        strength = [value / scale for value in new]
    return {level: 400 * math.log10(strength[index[level]]) for level in levels}


def ratings(
    games: Sequence[Sequence[Pair]], levels: Sequence[str], seed: int = 0, samples: int = 200
) -> list[Rating]:
    """Elo per level with a 95% bootstrap interval (None when fewer than two levels)."""
    levels = list(dict.fromkeys(levels))
    if "beginner" in levels:
        levels.remove("beginner")
        levels.insert(0, "beginner")
    if len(levels) < 2 or not games:
        return [Rating(level, 0.0, None, None) for level in levels]
    point = fit(games, levels)
    rng = random.Random(seed)
    pool = list(games) + [
        [(first, second, score)]
        for first, second in itertools.combinations(levels, 2)
        for score in (1.0, 0.0)
    ]
    draws: dict[str, list[float]] = {level: [] for level in levels}
    for _ in range(samples):
        sample = [pool[rng.randrange(len(pool))] for _ in pool]
        for level, value in fit(sample, levels, iterations=60).items():
            draws[level].append(value)
    out = []
    anchor = levels[0]
    for level in levels:
        if level == anchor:  # the anchor: 0 by definition
            out.append(Rating(level, 0.0, None, None))
            continue
        values = sorted(draws[level])
        low = values[int(0.025 * (len(values) - 1))]
        high = values[math.ceil(0.975 * (len(values) - 1))]
        against = _scores_against(games, level, anchor)
        if against and min(against) == 1.0:
            high = math.inf
        if against and max(against) == 0.0:
            low = -math.inf
        out.append(Rating(level, point[level], low, high))
    return out


def _scores_against(games: Sequence[Sequence[Pair]], level: str, anchor: str) -> list[float]:
    """The level's scores in its comparisons with the anchor."""
    scores = []
    for pairs in games:
        for first, second, score in pairs:
            if (first, second) == (level, anchor):
                scores.append(score)
            elif (first, second) == (anchor, level):
                scores.append(1.0 - score)
    return scores
