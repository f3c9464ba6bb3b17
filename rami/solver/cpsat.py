"""CP-SAT solvers as the project sets them up, and the clock every solve is timed by.

One place for the parameter profiles (the rearrangement stages, the lay-off turn, the puzzle
questions) and for time: a solve gets CP-SAT's deterministic limit, which keeps answers
reproducible on any machine, and the wall-clock time left of the limit the caller promised a
waiting person (:class:`Clock`), so a loaded machine cannot stretch a 1 s limit into 5 s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ortools.sat.python import cp_model, cp_model_helper

if TYPE_CHECKING:
    from rami.solver.solution import Solution

#: A CP-SAT linear expression, a variable or an int constant. OR-Tools' stubs do not say that
#: these mix (``0 + var``, ``3 * var``, ``sum`` of a mix), so models type them as this.
Expr = Any

#: Every solve runs on one worker with a fixed seed: the same input gives the same answer.
SEED = 0
#: Wall time granted past the deterministic limit of a single solve when no clock is given.
BACKSTOP_FACTOR, BACKSTOP_S = 3, 5.0
#: The promise: an answer within ``limit x PROMISE_FACTOR + PROMISE_S`` seconds of wall time.
PROMISE_FACTOR, PROMISE_S = 1.1, 0.1
#: What the answer's finish (its melds matched, moves told, the referee's check) costs per card
#: of the position on a quiet machine, 1.7 times the p99 of its CPU time over 144 positions of
#: the slowest suites (0.087 ms a card, 4.9 ms at most), and the part of the promise's slack
#: kept for the rest of the process.
FINISH_S_PER_CARD, SLACK_KEPT_S = 0.00015, 0.03
#: The CPU share a solve is assumed to get at the least (at load 13 on 2 cores it got 0.06).
LEAST_CPU_SHARE = 0.05


class Model(cp_model.CpModel):
    """A CP-SAT model without OR-Tools' pre-PEP 8 aliases (``AddBoolOr`` for ``add_bool_or``,
    ...), which :class:`cp_model.CpModel` sets on every new model through ``dir()``: 0.32 ms a
    model (measured, OR-Tools 9.15), a few percent of puzzle generation, which builds several
    small models per candidate. The model proto is the same, so every solve is too; nothing
    here calls the aliases."""

    def _add_pre_pep8_methods(self) -> None:
        pass

    def clone(self) -> Model:
        clone = Model()
        clone.proto.copy_from(self.proto)
        clone.rebuild_constant_map()
        return clone


def _base(deterministic_limit: float, wall_limit: float | None) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = SEED
    params.max_deterministic_time = max(deterministic_limit, 0.0)
    backstop = BACKSTOP_FACTOR * deterministic_limit + BACKSTOP_S
    params.max_time_in_seconds = max(0.0, backstop if wall_limit is None else wall_limit)
    # CP-SAT would take Ctrl-C for a time limit and report the best answer as found; the
    # caller (the CLI, the service) decides what an interrupt means.
    params.catch_sigint_signal = False
    return solver


def stage_solver(deterministic_limit: float, wall_limit: float | None = None) -> cp_model.CpSolver:
    """The rearrangement engine's stages (docs/benchmarks.md): presolve costs more than it saves
    on these small models, and the LP relaxation at level 1 with no extra cuts, symmetry or
    probing gave the lowest medians and tails for both stages."""
    solver = _base(deterministic_limit, wall_limit)
    params = solver.parameters
    params.cp_model_presolve = False
    params.linearization_level = 1
    params.add_cg_cuts = False
    params.add_mir_cuts = False
    params.add_zero_half_cuts = False
    params.add_clique_cuts = False
    params.symmetry_level = 0
    params.cp_model_probing_level = 0
    return solver


def pinned_solver(deterministic_limit: float, wall_limit: float | None = None) -> cp_model.CpSolver:
    """Rami fou's pinned slot models (:mod:`rami.solver.rearrange.pinned`): the stages' profile
    with the LP at level 2, which also linearises the pins' constraints. Measured on the 23
    rami fou suite positions with table jokers and 150 random ones (docs/benchmarks.md,
    "Tried"; the play value and the cards kept then still in two models): the
    same values everywhere, CPU sums 0.71x and 0.83x, deterministic 0.59x and 0.65x. Level 2
    on every stage was worse (the same table): only these models gain from it."""
    solver = stage_solver(deterministic_limit, wall_limit)
    solver.parameters.linearization_level = 2
    return solver


def layoff_solver(deterministic_limit: float, wall_limit: float | None = None) -> cp_model.CpSolver:
    """The lay-off turn: measured on 400 positions of 20-60 table cards, hands of 8-15,
    presolve off halves the median search; the LP (level 2) keeps the tail short."""
    solver = _base(deterministic_limit, wall_limit)
    solver.parameters.linearization_level = 2
    solver.parameters.cp_model_presolve = False
    return solver


def puzzle_solver(deterministic_limit: float) -> cp_model.CpSolver:
    """The puzzle questions (counting solutions, near misses): the LP at level 2."""
    solver = _base(deterministic_limit, None)
    solver.parameters.linearization_level = 2
    return solver


def count_solver(deterministic_limit: float) -> cp_model.CpSolver:
    """The puzzle questions that ask only whether a play exists (counting signatures one
    no-good at a time, the greedy player's steps): no presolve and no LP. Their answers are
    exact whatever the parameters (feasible or not; a count is a count), so only the time
    changes: on 964 such models of hard-2 and expert-2 candidates (seeds 7 and 41, with and
    without jokers; each solved twice by each, alternating), 4.74 s against 6.82 s with
    :func:`puzzle_solver`'s parameters, the same answers, the slowest 67 ms against 59 ms and
    at most 0.041 deterministic seconds of the limit's 20. Presolve off alone, or the LP
    level alone, gained nothing (measured on 322 of them)."""
    solver = _base(deterministic_limit, None)
    solver.parameters.linearization_level = 0
    solver.parameters.cp_model_presolve = False
    return solver


def upper_bound(model: cp_model.CpModel, expr: Expr) -> int:
    """The largest value ``expr`` (a linear expression of ``model``'s variables) can take by
    its variables' domains alone."""
    if isinstance(expr, int):
        return expr
    flat = cp_model_helper.FlatIntExpr(expr)
    total = flat.offset
    for var, coeff in zip(flat.vars, flat.coeffs, strict=True):
        # (The proto's repeated fields read index -1 as 0: list them first.)
        domain = list(model.proto.variables[var.index].domain)
        total += coeff * (domain[-1] if coeff > 0 else domain[0])
    return total


class OutOfTime(Exception):
    """The promised wall time ran out while a model was being built: the caller answers with
    what it has (a model that cannot be solved in time is not worth finishing)."""


class Clock:
    """Splits a solve's time into model building, CP-SAT search and the rest, and keeps the
    wall-clock promise of its time limit."""

    def __init__(
        self,
        time_limit: float | None = None,
        *,
        wall_clock: bool = True,
        cards: int = 0,
        spent: float = 0.0,
    ) -> None:
        self.timings = {"build_ms": 0.0, "search_ms": 0.0, "finish_ms": 0.0, "search_dtime": 0.0}
        self.last = time.perf_counter()
        #: ``spent``: seconds of the promise gone before this solve (a service request's wait
        #: and reading); the promise's slack covers the caller's answering after it.
        self.started = self.last - spent
        self.solve_started = self.last
        self.cpu_started = time.process_time()
        self.time_limit = time_limit
        #: Cards in the position (table and hand): what the finish's cost grows with.
        self.cards = cards
        #: False: the limit is CP-SAT's deterministic time only, so the answer never depends on
        #: the machine's load (self-play, whose games must replay the same from their seed).
        self.wall_clock = wall_clock
        #: Set when a solve stopped because the wall clock ran out, not the deterministic limit.
        self.cut_by_clock = False

    def lap(self, name: str, solver: cp_model.CpSolver | None = None) -> None:
        now = time.perf_counter()
        self.timings[name] += (now - self.last) * 1000
        self.last = now
        if solver is not None:
            # CP-SAT's deterministic time: the same on any machine, load or not.
            response = solver.response_proto
            self.timings["search_dtime"] += response.deterministic_time
            limit = solver.parameters.max_time_in_seconds
            if response.status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and (
                response.wall_time >= 0.95 * limit
                and response.deterministic_time < solver.parameters.max_deterministic_time
            ):
                self.cut_by_clock = True

    def deterministic_left(self, floor: float = 0.05) -> float:
        """The deterministic budget left of the time limit (at least ``floor``)."""
        limit = self.time_limit if self.time_limit is not None else 10.0
        return max(limit - self.timings["search_dtime"], floor)

    def wall_left(self) -> float | None:
        """Seconds of the promised wall time left for searching (None: no promise): the limit,
        less what the finish is expected to take beyond the promise's slack."""
        if self.time_limit is None or not self.wall_clock:
            return None
        elapsed = time.perf_counter() - self.started
        return max(self.time_limit - elapsed - self.finish_reserve(), 0.0)

    def finish_reserve(self) -> float:
        """Seconds to stop searching early so that the finish, which no limit interrupts, ends
        within the promise: none on a quiet machine (the slack covers it). On a loaded one the
        finish stretches as everything else did so far, measured by the share of the wall time
        this process got the CPU for (at load 12 on 2 cores, about a sixth: a 100-card finish
        took 45-150 ms)."""
        assert self.time_limit is not None
        slack = (PROMISE_FACTOR - 1) * self.time_limit + PROMISE_S - SLACK_KEPT_S
        quiet = FINISH_S_PER_CARD * self.cards
        elapsed = time.perf_counter() - self.solve_started
        if elapsed < 0.02 or quiet / LEAST_CPU_SHARE <= slack:
            return 0.0  # too soon to judge, or the slack holds the finish at any load
        cpu = time.process_time() - self.cpu_started
        share = min(max(cpu / elapsed, LEAST_CPU_SHARE), 1.0)
        return max(quiet / share - slack, 0.0)

    def rewind(self, solver: cp_model.CpSolver) -> cp_model.CpSolver:
        """``solver`` with its wall limit set to what is left now: a solver made before a model
        was built, or used for a solve already, would otherwise grant that time again."""
        left = self.wall_left()
        if left is not None:
            solver.parameters.max_time_in_seconds = left
        return solver

    def affords(self, seconds: float) -> bool:
        """Is there wall time left for a step expected to take ``seconds`` (building a model
        as large as one built already)? A step that cannot end in time is not started."""
        left = self.wall_left()
        if left is not None and left < seconds:
            self.cut_by_clock = True
            return False
        return True

    def out_of_time(self) -> bool:
        """The promised wall time is spent: no further stage should start."""
        left = self.wall_left()
        if left is not None and left <= 0:
            self.cut_by_clock = True
            return True
        return False

    def check(self) -> None:
        """Raise :class:`OutOfTime` once the promised wall time is spent (the steps no CP-SAT
        limit interrupts call it: building a stage 2 model takes 20-70 ms of Python, several
        times that on a loaded machine, and rami fou builds up to six)."""
        if self.out_of_time():
            raise OutOfTime

    def stage(
        self,
        profile: Callable[[float, float | None], cp_model.CpSolver] = stage_solver,
        floor: float = 0.05,
    ) -> cp_model.CpSolver:
        """A solver for the next stage, bounded by both budgets left."""
        return profile(self.deterministic_left(floor), self.wall_left())

    def stamp(self, solution: Solution) -> Solution:
        self.lap("finish_ms")
        return replace(
            solution,
            timings={k: round(v, 3) for k, v in self.timings.items()},
            stopped_by_clock=self.cut_by_clock and solution.status.value != "optimal",
        )
