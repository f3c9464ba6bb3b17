"""Time limits are wall-clock promises (docs/solver.md, "Time limits"): the steps no CP-SAT limit
interrupts (building stage 2's model, the answer's finish) give way to the clock too."""

from __future__ import annotations

import time

import pytest

import rami.solver.rearrange.slotmodel as slotmodel
from rami.notation import parse_position
from rami.referee import validate_turn
from rami.solver.cpsat import Clock, OutOfTime
from rami.solver.rearrange.model import StageModel
from rami.solver.rearrange.narrate import finish
from rami.solver.rearrange.stages import search
from rami.solver.solution import Objective, Status

#: Opened, the whole hand can be played but only by moving table cards: stage 2 runs.
REARRANGE = "3H 4H 5H 6H 7H 8H 9H | QS QD QC | 5C 6C 7C / 5S 6H QH 5D KD 8C / rami-chinois opened"


def test_a_spent_clock_stops_a_stage_2_model_mid_build() -> None:
    position = parse_position(REARRANGE)
    clock = Clock(0.01)
    time.sleep(0.02)
    with pytest.raises(OutOfTime):
        StageModel(position, with_slots=True, opening=False, clock=clock)
    # No clock, or a clock of CP-SAT's deterministic time only: the model is built.
    StageModel(position, with_slots=True, opening=False)
    StageModel(position, with_slots=True, opening=False, clock=Clock(0.01, wall_clock=False))


def test_the_clock_running_out_during_stage_2s_build_answers_stage_1s_turn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The slots of stage 2 are built one original meld at a time; once the promised time is
    spent the build stops and the answer is stage 1's turn, legal, marked unproved and cut by
    the clock."""
    position = parse_position(REARRANGE)
    clock = Clock(10.0)
    built: list[int] = []
    options = slotmodel.slot_options

    def slot_options_then_time_runs_out(*args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(1)
        clock.time_limit = 0.0  # the promise is spent from here on
        return options(*args, **kwargs)

    monkeypatch.setattr(slotmodel, "slot_options", slot_options_then_time_runs_out)
    turn = search(position, Objective.POINTS, True, 10.0, clock)
    assert built == [1]  # one meld's slot of the table's three, then the build gave way
    assert not turn.proved and clock.cut_by_clock
    assert turn.played  # stage 1's play stands
    solution = clock.stamp(finish(position, Objective.POINTS, True, turn))
    assert solution.status is Status.FEASIBLE and solution.stopped_by_clock
    verdict = validate_turn(position, list(solution.table), list(solution.played))
    assert verdict.legal, verdict.problems


def test_a_search_with_no_time_left_builds_nothing() -> None:
    position = parse_position(REARRANGE.replace("rami-chinois", "rami-fou"))
    clock = Clock(0.01)
    time.sleep(0.02)
    turn = search(position, Objective.POINTS, True, 0.01, clock)
    assert not turn.played and not turn.proved and turn.discard is not None
    assert clock.timings["build_ms"] == 0 and clock.cut_by_clock


def test_the_finish_is_reserved_only_where_the_promise_s_slack_cannot_hold_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a quiet machine the promise's slack (10% and 0.1 s) covers the finish: the search
    gets the whole limit. Where this process got a tenth of the CPU so far, a 1,000-card finish
    (0.15 s quiet, 1.5 s now) would break a 1 s promise: the search stops that much earlier."""
    clock = Clock(1.0, cards=1000)
    half_a_second_on = clock.solve_started + 0.5
    monkeypatch.setattr(time, "perf_counter", lambda: half_a_second_on)
    monkeypatch.setattr(time, "process_time", lambda: clock.cpu_started + 0.05)
    assert clock.finish_reserve() == pytest.approx(1.5 - 0.17)
    monkeypatch.setattr(time, "process_time", lambda: clock.cpu_started + 0.5)
    assert clock.finish_reserve() == 0.0
    soon = Clock(1.0, cards=1000)
    monkeypatch.setattr(time, "process_time", lambda: soon.cpu_started)
    monkeypatch.setattr(time, "perf_counter", lambda: soon.solve_started + 0.001)
    assert soon.finish_reserve() == 0.0  # too soon to judge: as on a quiet machine


def test_time_spent_before_the_solve_counts_against_the_limit() -> None:
    """A service request that waited 0.3 s of a 1 s promise has 0.7 s left to search; one that
    waited past its whole limit still gets a tenth of it (a late answer beats none)."""
    clock = Clock(1.0, spent=0.3)
    left = clock.wall_left()
    assert left is not None and 0.65 < left <= 0.7
    from rami.solver.api import solve

    position = parse_position(REARRANGE)
    # Counted in full, the hour waited would leave no time: nothing would be played.
    late = solve(position, time_limit=0.5, started_at=time.time() - 3600)
    assert late.played and late.status in (Status.OPTIMAL, Status.FEASIBLE)
    on_time = solve(position, time_limit=1.0, started_at=time.time())
    assert on_time.status is Status.OPTIMAL and on_time.played
