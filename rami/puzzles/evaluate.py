"""Soundness of a puzzle position: the judge every puzzle passes, made or checked.

A position is a sound puzzle of its kind when

* it is a valid rami-chinois position of a player who has opened;
* ``empty-hand``: the whole hand can be played, but not by new melds and lay-offs alone;
  ``best-score``: the hand cannot be emptied, and the least penalty left needs a rearrangement
  (new melds and lay-offs alone shed less);
* exactly one signature (rami.signature) reaches the goal: all cards played, or the
  least penalty left;
* nothing on the table is superfluous: a meld the solution leaves untouched stays only when it
  is a decoy (taking it away changes the near-solutions or the greedy player's fate).

A sound puzzle's difficulty (its metrics, score and tier, and the bounds on its score that let
a judge asked for one tier stop early) is :mod:`rami.puzzles.difficulty`'s.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from rami.cards import Card
from rami.errors import SolverBugError
from rami.melds import Meld
from rami.position import Position, hand_penalty
from rami.puzzles.difficulty import (
    NEAR_CAP,
    TIERS,
    Metrics,
    _measure_solution,
    _metrics,
    _tier_range,
    _untouched,
    greedy_fails,
    near_solutions,
    score_bounds,
)
from rami.signature import Signature, signature

if TYPE_CHECKING:
    from rami.puzzles.model import PlayModel
    from rami.solver.solution import Solution

KINDS = ("empty-hand", "best-score")
SOLVE_LIMIT = 10.0


class Rejected(Exception):
    """The position is not a sound puzzle (the reason says why)."""


@dataclass(frozen=True)
class Evaluation:
    position: Position
    kind: str
    goal: dict[str, Any]
    solution: tuple[Meld, ...]
    played: tuple[Card, ...]
    signature: Signature
    metrics: Metrics


def _check_position(position: Position) -> None:
    problems = position.problems()
    if problems:
        raise Rejected("invalid position: " + "; ".join(problems))
    if not position.opened:
        raise Rejected("a puzzle position is one of a player who has opened")
    rules = position.rules
    if rules.name != "rami-chinois":
        raise Rejected(f"puzzles are made for rami-chinois, not {rules.name}")
    if not position.hand:
        raise Rejected("the hand is empty")


def solve_goal(
    position: Position, kind: str | None = None, *, min_moves: bool = True
) -> tuple[str, dict[str, Any], Any]:
    """Kind, goal and the solver's solution (least penalty, then fewest cards moved; with
    ``min_moves=False`` the goal only, the solution any that reaches it)."""
    from rami.solver.api import Status, solve

    # CP-SAT's deterministic limit only: a puzzle's verdict must not depend on the load.
    solution = solve(position, min_moves=min_moves, time_limit=SOLVE_LIMIT, wall_clock=False)
    if solution.status is not Status.OPTIMAL:
        raise Rejected("the solver did not prove its answer optimal within the limit")
    found = "empty-hand" if not solution.hand else "best-score"
    if kind is not None and kind != found:
        raise Rejected(f"the position is a {found} puzzle, not {kind}")
    goal = {
        "penalty_after": solution.penalty_after,
        "cards_played": len(solution.played),
        "shed": solution.penalty_before - solution.penalty_after,
    }
    return found, goal, solution


def check_needs_rearrangement(
    position: Position, kind: str, goal: dict[str, Any], layoff: tuple[int, int] | None = None
) -> None:
    """Reject a position whose goal is reached without a rearrangement. ``layoff``: the best
    play by new melds and lay-offs alone (:func:`rami.puzzles.model.layoff_best`), when known."""
    from rami.puzzles.model import layoff_best

    shed, played = layoff if layoff is not None else layoff_best(position)
    if kind == "empty-hand" and played == len(position.hand):
        raise Rejected("the hand empties by new melds and lay-offs alone")
    if kind == "best-score" and shed >= goal["shed"]:
        raise Rejected("the best score needs no rearrangement")


def _goal_model(position: Position, kind: str, goal: dict[str, Any]) -> PlayModel:
    from rami.puzzles.model import PlayModel

    model = PlayModel.of(position)
    if kind == "empty-hand":
        model.require_all_played()
    else:
        model.require_shed(goal["shed"])
    return model


def other_solutions(
    position: Position, kind: str, goal: dict[str, Any], intended: Signature, limit: int = 1
) -> list[Signature]:
    """Signatures reaching the goal other than ``intended`` (up to ``limit``)."""
    from rami.puzzles.model import count_signatures

    return count_signatures(_goal_model(position, kind, goal), limit=limit, exclude=[intended])


def solutions_up_to(
    position: Position, kind: str, goal: dict[str, Any], limit: int = 2
) -> list[Signature]:
    """Every signature reaching the goal, up to ``limit`` (a sound puzzle has exactly one)."""
    from rami.puzzles.model import count_signatures

    return count_signatures(_goal_model(position, kind, goal), limit=limit)


def evaluate(
    position: Position, kind: str | None = None, *, prune: bool = True, tier: str | None = None
) -> Evaluation:
    """Judge a position; raise :class:`Rejected` unless it is a sound puzzle.

    With ``prune``, untouched melds that are not decoys are taken off the table first (the
    returned evaluation is of the pruned position). A solve that hits its time limit rejects
    the position (undecided is never taken for sound).

    With ``tier``, a sound puzzle of another tier is rejected too, as early as bounds on its
    score allow (:func:`score_bounds`): the generator asking for one tier stops judging a
    candidate as soon as it cannot be of that tier, never one that would be.
    """
    from rami.puzzles.model import UndecidedError

    if tier is not None and tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}: choose from {', '.join(TIERS)}")
    try:
        return _evaluate(position, kind, prune=prune, tier=tier)
    except UndecidedError as error:
        raise Rejected(f"undecided: {error}") from None


def _check_tier(tier: str | None, bounds: tuple[int, int]) -> None:
    if tier is None:
        return
    low, high = bounds
    floor, ceiling = _tier_range(tier)
    if high < floor or (ceiling is not None and low > ceiling):
        raise Rejected(f"not {tier}: its score can only be {low}..{high}")


def _sound_solve(
    position: Position, kind: str | None, layoff: tuple[int, int]
) -> tuple[str, dict[str, Any], Solution]:
    """Kind, goal and solution (fewest cards moved) of a position that needs a rearrangement
    and has one signature reaching its goal; :class:`Rejected` otherwise.

    The goal comes first from the solve without its fewest-moves stage (a quarter of the full
    solve's time, measured on hard-2 candidates with jokers), and the tests that need only
    the goal come before the full solve: the lay-off test and the cooked test, which reject
    most of the candidates they see. The cooked test excludes the signature of the first
    solve's table instead of the intended one's: both tables reach the goal and are plays of
    the model (which holds every legal final table), so another signature exists exactly when
    one differs from the first's, or when the intended table's differs from it (checked after
    the full solve). The verdict is the one of excluding the intended signature; only the time
    differs: the full solve (0.75 of it) is skipped for those rejected candidates.
    """
    kind, goal, first = solve_goal(position, kind, min_moves=False)
    if goal["cards_played"] < 2 and kind == "best-score":
        raise Rejected("the best play lays a single card")
    check_needs_rearrangement(position, kind, goal, layoff)
    first_signature = signature(first.table, position.rules)
    if other_solutions(position, kind, goal, first_signature):
        raise Rejected("cooked: a second solution reaches the goal")
    found, full_goal, solution = solve_goal(position, kind)
    if (found, full_goal) != (kind, goal):  # pragma: no cover - the same first stage
        raise SolverBugError(
            f"the solves with and without fewest moves differ on the goal "
            f"of {position}: {goal} and {full_goal}"
        )
    if signature(solution.table, position.rules) != first_signature:
        raise Rejected("cooked: a second solution reaches the goal")
    return kind, goal, solution


def _near_limit(tier: str | None, bounds: tuple[int, int]) -> int:
    """How far the near-solutions need counting: to :data:`NEAR_CAP`, or, for a tier asked for,
    only until they make the score too high for it. Each 3 near-solutions add 1 to the score,
    so once ``3 * (ceiling - low + 1)`` are found the score is above the tier's ceiling
    whatever the count (the check after the count rejects it, as it would with the full count);
    below that the count is exact. The count is the dearest test (30% of the CPU of hard-2 with
    jokers, seed 7); the candidates it stops early are those too hard for the tier.
    """
    if tier is None:
        return NEAR_CAP
    ceiling = _tier_range(tier)[1]
    if ceiling is None:
        return NEAR_CAP
    return min(NEAR_CAP, 3 * (ceiling - bounds[0] + 1))


def _evaluate(position: Position, kind: str | None, *, prune: bool, tier: str | None) -> Evaluation:
    from rami.puzzles.model import layoff_best

    _check_position(position)
    # The lay-off test before the solve: when new melds and lay-offs play the whole hand, the
    # position is rejected whatever the solve says (the goal is then all cards played, reached
    # without a rearrangement; a solve that fails or a tier's bounds would reject it as well),
    # so its solve is skipped. Without jokers 55% of the hard-2 candidates drawn (636 of 1,160,
    # seed 7) end here; the solve is the dearest step of each. The others pay nothing more: the
    # lay-off test was asked of every one of them anyway, except the few the solve rejects
    # (the best play lays a single card, or the tier's bounds rule it out).
    layoff = layoff_best(position)
    if layoff[1] == len(position.hand):
        raise Rejected("the hand empties by new melds and lay-offs alone")
    kind, goal, solution = _sound_solve(position, kind, layoff)
    _check_tier(tier, score_bounds(position, kind, solution.cards_moved))
    fails = greedy_fails(position, goal)
    bounds = score_bounds(position, kind, solution.cards_moved, fails)
    _check_tier(tier, bounds)
    if tier is not None and not (prune and _untouched(position.table, tuple(solution.table))):
        # Nothing to prune: every metric but the near-solutions is known now, exactly.
        low = _metrics(
            position,
            goal,
            tuple(solution.table),
            tuple(solution.played),
            solution.cards_moved,
            fails,
            0,
        ).score
        bounds = (low, low + NEAR_CAP // 3)
        _check_tier(tier, bounds)
    near = near_solutions(position, goal["cards_played"], limit=_near_limit(tier, bounds))
    _check_tier(tier, score_bounds(position, kind, solution.cards_moved, fails, near))
    metrics = _metrics(
        position,
        goal,
        tuple(solution.table),
        tuple(solution.played),
        solution.cards_moved,
        fails,
        near,
    )
    # The position with a superfluous meld taken off is not put through the tests again: it
    # passes them (each of its plays with the meld added is a play of this position, so it needs
    # a rearrangement and one signature reaches the goal; its goal and fewest moves are the
    # same), and its solve and metrics come from the test that found the meld superfluous.
    while prune:
        smaller = _prune(position, solution, metrics)
        if smaller is None:
            break
        position, found, goal, solution, metrics = smaller
        if found != kind:  # pragma: no cover - the goal is the same (see above)
            raise Rejected(f"the position is a {found} puzzle, not {kind}")
    if tier is not None and metrics.tier != tier:
        raise Rejected(f"not {tier}: a {metrics.tier} puzzle (score {metrics.score})")
    return Evaluation(
        position=position,
        kind=kind,
        goal=goal,
        solution=tuple(solution.table),
        played=tuple(solution.played),
        signature=signature(solution.table, position.rules),
        metrics=metrics,
    )


def _decoy_profile(metrics: Metrics) -> tuple[int, bool]:
    return metrics.near_solutions, metrics.greedy_fails


def _prune(
    position: Position, solution: Solution, metrics: Metrics
) -> tuple[Position, str, dict[str, Any], Solution, Metrics] | None:
    """The position without its first superfluous meld (with its kind, goal, solution and
    metrics), or None when none is superfluous.

    A meld is superfluous when taking it away keeps the greedy player's fate and the number of
    near-solutions (:func:`_decoy_profile`). The greedy player is asked first (it is cheaper);
    the near-solutions are counted only up to this position's count: every near-solution of
    the smaller position is one of this position's with the meld added, so it has no more.
    """
    for index in _untouched(position.table, tuple(solution.table)):
        table = position.table[:index] + position.table[index + 1 :]
        if not table:
            continue
        smaller = replace(position, table=table)
        try:
            _check_position(smaller)
            found, goal, smaller_solution = solve_goal(smaller)
        except Rejected:
            continue
        fails = greedy_fails(smaller, goal)
        if fails != metrics.greedy_fails:
            continue
        near = near_solutions(smaller, goal["cards_played"], limit=metrics.near_solutions)
        if near != metrics.near_solutions:
            continue
        smaller_metrics = _metrics(
            smaller,
            goal,
            tuple(smaller_solution.table),
            tuple(smaller_solution.played),
            smaller_solution.cards_moved,
            fails,
            near,
        )
        return smaller, found, goal, smaller_solution, smaller_metrics
    return None


def superfluous_melds(evaluation: Evaluation) -> list[int]:
    """Untouched melds of a judged puzzle that are not decoys (a sound pack has none)."""
    position = evaluation.position
    found = []
    for index in _untouched(position.table, evaluation.solution):
        table = position.table[:index] + position.table[index + 1 :]
        if not table:
            continue
        smaller = replace(position, table=table)
        try:
            _kind, goal, smaller_solution = solve_goal(smaller)
        except Rejected:
            continue
        if _decoy_profile(_measure_solution(smaller, goal, smaller_solution)) == _decoy_profile(
            evaluation.metrics
        ):
            found.append(index)
    return found


def penalty_of(position: Position) -> int:
    return hand_penalty(position.hand, position.rules, position.opened)
