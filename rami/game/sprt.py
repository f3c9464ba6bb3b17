"""Statistics of paired matches: Elo from scores, pair-based intervals, the sequential test.

A *pair* is one deal played once per seat rotation (two players: twice, seats swapped), each
game scored for the candidate as its mean pairwise result against the other seats (win 1, tie
1/2, loss 0). The pair's score is the mean of its games, so the luck of the deal, which both
sides of a pair share, cancels out of it; the pairs are independent, the games of a pair are
not. Every figure here is therefore computed on pair scores, never on games as if they were
independent (docs/game.md, "Matches").

- :func:`elo` turns a score into Elo on the logistic scale, ``-400 log10(1/s - 1)``.
- :func:`interval` is the 95 % interval of the mean pair score, with one pseudo-pair scoring 0
  and one scoring 1 added (as the "plus four" interval does for a proportion), so that a
  sweep (100 pairs won of 100) gives a finite lower bound and an open upper one instead of a
  zero-width interval, and the normal interval never leaves [0, 1].
- :func:`llr` is the generalised sequential probability ratio test on the pair scores (the
  normal approximation used by fishtest, the variance taken with the same two pseudo-pairs, so
  that identical players are told apart from lucky ones only after some 40 pairs): H0 the
  candidate is ``elo0`` stronger, H1 ``elo1``; it stops at ``log((1 - beta) / alpha)`` (H1
  accepted) or ``log(beta / (1 - alpha))`` (H1 rejected), and a match that reaches its last
  pair in between is *inconclusive*.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964
#: Pairs before the sequential test may decide (its variance needs some pairs to mean much).
MIN_PAIRS = 10

ACCEPTED = "accepted"
REJECTED = "rejected"
INCONCLUSIVE = "inconclusive"


def expected_score(elo_gain: float) -> float:
    return float(1.0 / (1.0 + 10.0 ** (-elo_gain / 400.0)))


def elo(score: float) -> float:
    """Elo on the logistic scale; +-inf at scores 1 and 0."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def rounded_elo(value: float) -> float | str:
    """An Elo figure as JSON carries it: rounded to a tenth, ``"+inf"``/``"-inf"`` for an open
    bound (JSON has no infinity)."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return round(value, 1)


def format_elo(value: float | str) -> str:
    """An Elo figure (as :func:`rounded_elo` gives it) as text: ``+123``, ``-inf``."""
    return value if isinstance(value, str) else f"{value:+.0f}"


def mean_variance(values: Sequence[float]) -> tuple[float, float]:
    """Mean and (n - 1) sample variance (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return 0.5, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, sum((value - mean) ** 2 for value in values) / (n - 1)


@dataclass(frozen=True)
class Estimate:
    """A score and its Elo with a 95 % interval (Elo bounds may be infinite)."""

    score: float
    elo: float
    low: float
    high: float
    #: The interval's half-width on the score scale (what pairing shrinks).
    half_width: float


def interval(values: Sequence[float], units: int = 1) -> Estimate:
    """95 % interval of the mean of ``values`` (each the mean of ``units`` games), with a
    pseudo-observation at 0 and one at 1 added; the point estimate is the plain mean."""
    point = sum(values) / len(values) if values else 0.5
    padded = [*values, 0.0, 1.0]
    mean, variance = mean_variance(padded)
    half = Z95 * math.sqrt(variance / len(padded))
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    return Estimate(point, elo(point), elo(low), elo(high), half)


@dataclass(frozen=True)
class Sprt:
    elo0: float
    elo1: float
    alpha: float
    beta: float

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, pair_scores: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 against H0 after these pairs."""
        n = len(pair_scores)
        if n == 0:
            return 0.0
        mean = sum(pair_scores) / n
        # The variance with the two pseudo-pairs of :func:`interval`: ten pairs that all split
        # one game each (the deal decided both) say little, not that the spread is nil.
        _, variance = mean_variance([*pair_scores, 0.0, 1.0])
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)

    def verdict(self, pair_scores: Sequence[float], finished: bool) -> str | None:
        """ACCEPTED (H1), REJECTED (H0), INCONCLUSIVE (the last pair played, no decision),
        or None (go on)."""
        if len(pair_scores) >= MIN_PAIRS:
            value = self.llr(pair_scores)
            if value >= self.upper:
                return ACCEPTED
            if value <= self.lower:
                return REJECTED
        return INCONCLUSIVE if finished else None


def pentanomial(pair_scores: Sequence[float]) -> list[int]:
    """Two-player pairs by their total over the two games: 0, 1/2, 1, 3/2, 2 points."""
    counts = [0] * 5
    for score in pair_scores:
        counts[min(4, max(0, round(score * 4)))] += 1
    return counts
