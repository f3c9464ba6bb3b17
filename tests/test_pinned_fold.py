"""Rami fou's pinned models: the play value and the cards kept folded into one objective, for
the full objective and for max-play (rami/solver/rearrange/pinned.py, docs/solver.md "Rami fou's
two matchings"), against the two models it replaced; and the bound the fold's scale rests on.

docs/rules.md decision 6 (penalty, then cards played, then cards moved) and decisions 5 and 7
(pins, cards moved): one model maximising ``play x scale + kept`` must give the best play value
and, at that value, the most cards kept, exactly as a play-value model then a keeper bound to
that value do. A scale no larger than the most cards kept would trade a unit of play value for
cards kept and fail here.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from ortools.sat.python import cp_model

import rami.solver.rearrange.pinned as pinned
from rami.generate import medium_position, random_position
from rami.rules import get_ruleset
from rami.solver.api import solve
from rami.solver.cpsat import Clock, pinned_solver, upper_bound
from rami.solver.rearrange.model import StageModel
from rami.solver.rearrange.pinned import _pinned_stages
from rami.solver.rearrange.stages import Turn

RULES = get_ruleset("rami-fou")


def test_upper_bound_reads_every_domain_end():
    """Known answers, a negative lower bound and a negative coefficient included (the model's
    proto reads a domain's index -1 as 0: the bound must not)."""
    model = cp_model.CpModel()
    a = model.new_int_var(-2, 3, "a")
    b = model.new_int_var(5, 9, "b")
    c = model.new_bool_var("c")
    assert upper_bound(model, 7) == 7
    assert upper_bound(model, a) == 3
    assert upper_bound(model, 2 * a + 1) == 7
    assert upper_bound(model, -3 * a) == 6
    assert upper_bound(model, a - b + 4 * c) == 3 - 5 + 4
    assert upper_bound(model, sum([a, b, c])) == 13


def two_models(position, objective: str) -> tuple[int, int] | None:
    """The best play value, then the most cards kept at it: two pinned slot models, each
    solved to optimality (None if either is not)."""
    play_model = StageModel(position, with_slots=True, opening=False, pinned=True)
    play_model.model.maximize(play_model.play_objective(objective))
    solver = pinned_solver(20.0)
    if solver.solve(play_model.model) != cp_model.OPTIMAL:
        return None
    best = round(solver.objective_value)
    keeper = StageModel(position, with_slots=True, opening=False, pinned=True)
    keeper.model.add(keeper.play_objective(objective) == best)
    keeper.model.maximize(keeper.kept)
    solver = pinned_solver(20.0)
    if solver.solve(keeper.model) != cp_model.OPTIMAL:
        return None
    return best, round(solver.objective_value)


def positions_with_table_jokers(seed: int, count: int):
    rng = random.Random(seed)
    found = 0
    while found < count:
        if rng.random() < 0.5:
            position = medium_position(rng, RULES, opened=True, max_jokers=4)
        else:
            try:
                position = random_position(
                    rng,
                    rules=RULES,
                    table_cards=rng.randint(15, 30),
                    hand_cards=rng.randint(5, 10),
                    jokers=4,
                )
            except ValueError:
                continue
        if any(meld.jokers for meld in position.table):
            found += 1
            yield position


#: Positions with table jokers per objective: (seed, count) in make test, then in make test-slow.
SAMPLES = pytest.mark.parametrize(
    ("seed", "count"), [(11, 10), pytest.param(1100, 60, marks=pytest.mark.slow)]
)


@SAMPLES
@pytest.mark.parametrize("objective", ["points", "cards"])
def test_one_folded_model_gives_what_two_models_gave(objective, seed, count):
    compared = 0
    for position in positions_with_table_jokers(seed, count):
        expected = two_models(position, objective)
        assert expected is not None, str(position)
        best, kept = expected
        empty = Turn([], Counter(), None, False, {})
        for min_moves in (True, False):
            folded = _pinned_stages(
                position,
                objective,
                min_moves,
                20.0,
                Clock(None, wall_clock=False),
                empty,
                None,
                None,
                set(),
                whole=False,
                cut=False,
            )
            assert folded.play_proved, str(position)
            assert folded.best_play == best, str(position)
            # Max-play proves no count of cards moved: the answer's status must not claim one.
            least_moved = max(0, position.table_size - kept) if min_moves else None
            assert folded.least_moved == least_moved, str(position)
        # Max-play given the proved ceiling stops at the first table reaching it, unhinted.
        stopped = _pinned_stages(
            position,
            objective,
            False,
            20.0,
            Clock(None, wall_clock=False),
            empty,
            best,
            None,
            set(),
            whole=False,
            cut=False,
        )
        assert stopped.play_proved and stopped.best_play == best, str(position)
        compared += 1
    assert compared == count


class _NeverStops(cp_model.CpSolverSolutionCallback):
    def __init__(self, enough: int) -> None:
        super().__init__()
        self.enough = enough

    def on_solution_callback(self) -> None:
        pass


@SAMPLES
@pytest.mark.parametrize("objective", ["points", "cards"])
def test_max_play_stopping_at_the_ceiling_keeps_every_value(objective, seed, count, monkeypatch):
    """Max-play's pinned searches stop at the first table reaching the free relaxation's proved
    ceiling (pinned._StopAt): the penalty, the cards played and the status must be those of
    searches run to their end."""
    # Other positions than the fold's test (make test's sample: seed 23, its seed before).
    positions = list(positions_with_table_jokers(seed + 12, count))
    stopped = [
        solve(position, objective=objective, min_moves=False, wall_clock=False)
        for position in positions
    ]
    monkeypatch.setattr(pinned, "_StopAt", _NeverStops)
    for position, early in zip(positions, stopped, strict=True):
        full = solve(position, objective=objective, min_moves=False, wall_clock=False)
        assert (early.penalty_after, early.cards_played, early.status) == (
            full.penalty_after,
            full.cards_played,
            full.status,
        ), str(position)
