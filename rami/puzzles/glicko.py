"""Glicko-2, from Glickman's "Example of the Glicko-2 system" (2012): one rating period at a time.

A :class:`Rating` is what the paper calls r, RD and sigma (rating, rating deviation, volatility),
on the Glicko scale (a new player: 1500, 350, 0.06). :func:`update` is the paper's steps 2 to 8
for one player and the games of one period (each against an opponent's rating as it stood at
the start of the period); a period without games only widens the deviation (step 6).
:func:`blend` moves a rating only part of the way to its update (a game that says little).

Puzzles and players are rated alike: an attempt is a game between the two
(:mod:`rami.puzzles.ratings` decides the scores). Pure arithmetic: no I/O, no state.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

#: The paper's scale factor between the Glicko scale and the Glicko-2 scale (400 / ln 10).
SCALE = 173.7178
#: The rating, deviation and volatility of a newcomer (the paper's defaults).
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
#: The system constant tau: how fast the volatility may change (the paper suggests 0.3 to 1.2;
#: its example uses 0.5).
TAU = 0.5
#: The convergence tolerance of the volatility iteration (step 5).
EPSILON = 0.000001


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the Glicko scale: ``rating`` (r), ``deviation`` (RD), ``volatility``
    (sigma)."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"rating must be a finite number, got {self.rating!r}")
        for name in ("deviation", "volatility"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a finite positive number, got {value!r}")

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale (step 2)."""
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale (step 2)."""
        return self.deviation / SCALE

    @classmethod
    def from_glicko2(cls, mu: float, phi: float, volatility: float) -> Rating:
        """Back to the Glicko scale (step 8)."""
        return cls(SCALE * mu + START_RATING, SCALE * phi, volatility)

    def to_json(self) -> dict[str, float]:
        return {
            "rating": round(self.rating, 2),
            "deviation": round(self.deviation, 2),
            "volatility": round(self.volatility, 6),
        }


def g(phi: float) -> float:
    """How much a game against an opponent of deviation ``phi`` counts (step 3)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expected(player: Rating, opponent: Rating) -> float:
    """E: the score the player is expected to make against the opponent (step 3)."""
    return 1.0 / (1.0 + math.exp(-g(opponent.phi) * (player.mu - opponent.mu)))


def _volatility(phi: float, volatility: float, v: float, delta: float, tau: float) -> float:
    """The new volatility sigma' (step 5: the Illinois algorithm on f)."""
    a = math.log(volatility * volatility)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    games: Iterable[tuple[Rating, float]],
    *,
    tau: float = TAU,
    max_deviation: float = START_DEVIATION,
) -> Rating:
    """The player's rating after one rating period: ``games`` are (opponent's rating at the
    start of the period, score: 1 a win, 0.5 a draw, 0 a loss). Without games only the
    deviation grows (step 6). The deviation never exceeds ``max_deviation``."""
    if not (math.isfinite(tau) and tau > 0):
        raise ValueError(f"tau must be a finite positive number, got {tau!r}")
    played = list(games)
    for _, score in played:
        if not (0.0 <= score <= 1.0):
            raise ValueError(f"a score is between 0 and 1, got {score!r}")
    mu, phi, sigma = player.mu, player.phi, player.volatility
    cap = max_deviation / SCALE
    if not played:
        return Rating.from_glicko2(mu, min(math.sqrt(phi * phi + sigma * sigma), cap), sigma)
    impact = 0.0  # sum of g(phi_j)^2 E (1 - E)
    surprise = 0.0  # sum of g(phi_j) (s_j - E)
    for opponent, score in played:
        weight = g(opponent.phi)
        chance = expected(player, opponent)
        impact += weight * weight * chance * (1.0 - chance)
        surprise += weight * (score - chance)
    v = 1.0 / impact  # step 3
    delta = v * surprise  # step 4
    new_sigma = _volatility(phi, sigma, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    new_mu = mu + new_phi * new_phi * surprise
    return Rating.from_glicko2(new_mu, min(new_phi, cap), new_sigma)  # step 8


def blend(before: Rating, after: Rating, weight: float) -> Rating:
    """``before`` moved the fraction ``weight`` (0 to 1) of the way to ``after``: rating,
    deviation and volatility alike (0 keeps ``before``, 1 gives ``after``)."""
    if not (0.0 <= weight <= 1.0):
        raise ValueError(f"weight must be between 0 and 1, got {weight!r}")
    if weight == 1.0:
        return after
    if weight == 0.0:
        return before

    def mix(old: float, new: float) -> float:
        return old + weight * (new - old)

    return Rating(
        mix(before.rating, after.rating),
        mix(before.deviation, after.deviation),
        mix(before.volatility, after.volatility),
    )
