"""The puzzle judge's models built fast (docs/puzzles.md): the same models as built the plain way.

``rami.solver.cpsat.Model`` skips OR-Tools' pre-PEP 8 aliases (0.32 ms a model) and
``PlayModel.of`` copies a position's counting model instead of building it again; both promise
the very same proto, so every verdict stays the same (tests/test_puzzle_generator.py checks the
records against digests of the code before them). These tests hold the promise itself, and fail
if an OR-Tools upgrade changes what ``Model`` relies on.
"""

from __future__ import annotations

import random

from ortools.sat.python import cp_model

from rami import parse_position
from rami.generate import random_position
from rami.puzzles.model import PlayModel
from rami.rules import get_ruleset
from rami.solver.cpsat import Model


def _text(model: cp_model.CpModel) -> str:
    return str(model.proto)


def _build(model: cp_model.CpModel) -> None:
    x = model.new_int_var(0, 5, "x")
    flag = model.new_bool_var("b")
    model.add(x + 2 * flag <= 4).only_enforce_if(flag)
    model.add_bool_or([flag, ~flag])
    model.maximize(x)


def test_model_is_a_cp_model_without_the_aliases():
    plain, fast = cp_model.CpModel(), Model()
    assert hasattr(plain, "AddBoolOr"), "OR-Tools no longer adds the aliases: Model can go"
    assert not hasattr(fast, "AddBoolOr"), "the hook Model overrides was renamed"
    _build(plain)
    _build(fast)
    assert _text(fast) == _text(plain)
    solver = cp_model.CpSolver()
    assert solver.solve(fast) == cp_model.OPTIMAL and solver.objective_value == 5  # b off


def test_a_clone_is_the_same_model_and_stands_alone():
    model = Model()
    _build(model)
    clone = model.clone()
    assert isinstance(clone, Model) and _text(clone) == _text(model)
    clone.add(clone.get_int_var_from_proto_index(0) == 1)
    assert _text(clone) != _text(model)


def test_copied_play_models_equal_fresh_ones_and_keep_no_constraint():
    rng = random.Random(7)
    rules = get_ruleset("rami-chinois")
    positions = [parse_position("4H 5H 6H | 7S 7D 7C / 7H 3H * / rami-chinois opened")]
    positions += [
        random_position(rng, rules=rules, table_cards=12, hand_cards=5, jokers=jokers)
        for jokers in (0, 1, 2)
    ]
    for position in positions:
        fresh = _text(PlayModel(position).model)
        first = PlayModel.of(position)
        assert _text(first.model) == fresh
        first.require_all_played()
        first.require_played(2)
        assert _text(first.model) != fresh
        again = PlayModel.of(position)
        assert _text(again.model) == fresh, "a copy must not see another copy's constraints"
        assert again.find() == PlayModel(position).find()
