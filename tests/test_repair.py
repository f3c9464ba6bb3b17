"""Stage 2's shortcut: a table moving one card (rami/solver/rearrange/repair.py).

The engine answers with such a table, as optimal, only where a table moving nothing is known not
to exist. These tests check that every table the shortcut finds is legal, lays exactly the cards
given and moves at most one card; that the engine's answers agree with the exhaustive reference
on random positions where the shortcut fires; and that on known positions it decides without
the slot model (or with the untouched question alone), with the same answer as without it.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest
from support.reference import reference_solve

from rami import parse_position, solve
from rami.generate import medium_position, small_position
from rami.matching import cards_moved
from rami.position import Position
from rami.referee import validate_turn
from rami.rules import get_ruleset
from rami.solver.api import Status
from rami.solver.rearrange import stages
from rami.solver.rearrange.repair import one_move_table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import benchlib


class _Recorder:
    """Wraps stages' one_move_table, slot models and solvers to see which path decided."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, disabled: bool = False) -> None:
        self.tables: list[tuple[Position, Counter, list]] = []
        self.slot_models = 0
        self.stage2_statuses: list[int] = []
        recorder = self
        original_model = stages.StageModel
        original_solver = stages.stage_solver

        def shortcut(position, played):
            table = None if disabled else one_move_table(position, played)
            if table is not None:
                recorder.tables.append((position, Counter(played), table))
            return table

        class Model(original_model):  # type: ignore[misc, valid-type]
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                if kwargs.get("with_slots"):
                    recorder.slot_models += 1

        def solver(*args, **kwargs):
            made = original_solver(*args, **kwargs)
            inner = made.solve

            def solve_and_record(model, *more):
                status = inner(model, *more)
                if recorder.slot_models:
                    recorder.stage2_statuses.append(int(status))
                return status

            made.solve = solve_and_record  # type: ignore[method-assign]
            return made

        monkeypatch.setattr(stages, "one_move_table", shortcut)
        monkeypatch.setattr(stages, "StageModel", Model)
        monkeypatch.setattr(stages, "stage_solver", solver)


def _suite_position(suite: str, index: int) -> Position:
    return benchlib.load_suite(benchlib.SUITES_DIR / f"{suite}.jsonl")[index].position


def _answer(solution) -> tuple:
    return (solution.status, solution.penalty_after, solution.cards_played, solution.cards_moved)


def test_a_set_from_a_run_end_needs_no_slot_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """8S 8D need the run's 8H: one card moved, and nothing else lays them."""
    position = parse_position("5H 6H 7H 8H | 2C 3C 4C / 8S 8D / rami-chinois opened")
    recorder = _Recorder(monkeypatch)
    got = solve(position, min_moves=True)
    assert (got.status, got.cards_played, got.cards_moved) == (Status.OPTIMAL, 2, 1)
    assert recorder.tables and recorder.slot_models == 0
    assert validate_turn(position, got.table, got.played).legal


@pytest.mark.parametrize(
    "suite,index", [("rami-chinois-100", 18), ("rami-chinois-100", 0), ("rummikub-100", 12)]
)
def test_whole_hands_decided_without_slot_model(
    monkeypatch: pytest.MonkeyPatch, suite: str, index: int
) -> None:
    position = _suite_position(suite, index)
    recorder = _Recorder(monkeypatch)
    got = solve(position, min_moves=True)
    assert recorder.tables and recorder.slot_models == 0
    assert got.cards_moved == 1 and got.status is Status.OPTIMAL
    monkeypatch.undo()
    without = _Recorder(monkeypatch, disabled=True)
    assert _answer(solve(position, min_moves=True)) == _answer(got)
    assert without.slot_models >= 1


@pytest.mark.parametrize(
    "suite,index", [("rami-chinois-020", 9), ("rami-chinois-040", 3), ("rami-chinois-100", 10)]
)
def test_the_untouched_question_proves_the_shortcut(
    monkeypatch: pytest.MonkeyPatch, suite: str, index: int
) -> None:
    """Where a table moving nothing might exist, the relaxation with nothing moved is asked;
    infeasible, it proves the one-move table optimal and stage 2 ends there."""
    position = _suite_position(suite, index)
    recorder = _Recorder(monkeypatch)
    got = solve(position, min_moves=True)
    assert recorder.tables and recorder.slot_models == 1
    assert recorder.stage2_statuses == [3]  # INFEASIBLE, and no other stage-2 solve
    assert got.cards_moved == 1 and got.status is Status.OPTIMAL
    monkeypatch.undo()
    _Recorder(monkeypatch, disabled=True)
    assert _answer(solve(position, min_moves=True)) == _answer(got)


def _fired_positions(count: int, label: str) -> list[Position]:
    """Random small and medium positions of rami chinois and Rummikub, opened."""
    found = []
    for rules_name in ("rami-chinois", "rami-chinois[jokers=0]", "rummikub"):
        rules = get_ruleset(rules_name)
        rng = random.Random(f"repair {label} {rules_name}")
        for _ in range(count):
            maker = medium_position if rng.random() < 0.5 else small_position
            found.append(maker(rng, rules))
    return found


def _check_against_reference(monkeypatch: pytest.MonkeyPatch, positions: list[Position]) -> int:
    """Every position: the engine's optimum is the reference's, proved, and legal; every
    shortcut table is legal, lays exactly its cards and moves at most one. Returns how many
    positions the shortcut found a table for."""
    fired = 0
    for position in positions:
        recorder = _Recorder(monkeypatch)
        got = solve(position, min_moves=True)
        monkeypatch.undo()
        expected = reference_solve(position, "points")
        where = f"\nposition: {position}\nsolver: {got.cards_moved} moved, {got.status.value}"
        assert got.status is Status.OPTIMAL, "not proved" + where
        assert (got.penalty_after, got.cards_played, got.cards_moved) == (
            expected.penalty_after,
            expected.cards_played,
            expected.cards_moved,
        ), f"different optimum (reference moves {expected.cards_moved})" + where
        assert validate_turn(position, got.table, got.played).legal, where
        for stage_position, played, table in recorder.tables:
            verdict = validate_turn(stage_position, table, list(played.elements()))
            assert verdict.legal, f"shortcut table rejected {verdict.problems}" + where
            assert cards_moved(stage_position.table, table) <= 1, where
            laid = Counter(card for meld in table for card in meld.cards)
            assert laid - stage_position.table_cards == played, where
        fired += bool(recorder.tables)
    return fired


def test_against_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    fired = _check_against_reference(monkeypatch, _fired_positions(120, "fast"))
    assert fired >= 20  # the shortcut is exercised (about 1 position in 8)


@pytest.mark.slow
def test_against_the_reference_many(monkeypatch: pytest.MonkeyPatch) -> None:
    fired = _check_against_reference(monkeypatch, _fired_positions(1500, "slow"))
    assert fired >= 300
