"""Glicko-2 (rami.puzzles.glicko) against the worked example of Glickman's paper, and the
properties the puzzle ratings lean on."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from rami.puzzles.glicko import Rating, blend, expected, g, update

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [Rating(1400, 30), Rating(1550, 100), Rating(1700, 300)]


def test_the_papers_worked_example() -> None:
    after = update(PLAYER, zip(OPPONENTS, [1.0, 0.0, 0.0], strict=True), tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    # The paper prints sigma' = 0.05999 (five decimals of 0.0599960).
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.volatility < 0.06


def test_the_papers_intermediate_quantities() -> None:
    # Step 3 of the example: g(phi_j) and E for each opponent.
    assert [round(g(o.phi), 4) for o in OPPONENTS] == [0.9955, 0.9531, 0.7242]
    assert [round(expected(PLAYER, o), 3) for o in OPPONENTS] == [0.639, 0.432, 0.303]


def test_a_period_without_games_widens_the_deviation_only() -> None:
    after = update(PLAYER, [])
    assert after.rating == PLAYER.rating and after.volatility == PLAYER.volatility
    assert after.deviation == pytest.approx(math.hypot(200, 0.06 * 173.7178))
    assert update(Rating(), []).deviation == 350  # capped at a newcomer's


def test_a_win_raises_a_loss_lowers_and_both_narrow() -> None:
    opponent = Rating(1500, 100)
    won = update(Rating(), [(opponent, 1.0)])
    lost = update(Rating(), [(opponent, 0.0)])
    drawn = update(Rating(), [(opponent, 0.5)])
    assert won.rating > 1500 > lost.rating
    assert won.rating - 1500 == pytest.approx(1500 - lost.rating)
    assert drawn.rating == pytest.approx(1500)
    assert max(won.deviation, lost.deviation, drawn.deviation) < 350
    # Beating a much stronger opponent is worth more than beating a weaker one.
    assert update(Rating(), [(Rating(1900, 100), 1.0)]).rating > won.rating


def test_blend_moves_part_of_the_way() -> None:
    before, after = Rating(1500, 300, 0.06), Rating(1600, 200, 0.07)
    assert blend(before, after, 0.0) == before and blend(before, after, 1.0) == after
    half = blend(before, after, 0.5)
    assert (half.rating, half.deviation) == (1550, 250)
    assert half.volatility == pytest.approx(0.065)


@pytest.mark.parametrize(
    "bad",
    [
        lambda: Rating(float("nan")),
        lambda: Rating(1500, 0),
        lambda: Rating(1500, 350, -1),
        lambda: update(PLAYER, [(PLAYER, 1.5)]),
        lambda: update(PLAYER, [], tau=0),
        lambda: blend(PLAYER, PLAYER, 2),
    ],
)
def test_bad_values_are_refused(bad: Callable[[], object]) -> None:
    with pytest.raises(ValueError):
        bad()
