"""Re-checks of a puzzle record: everything wrong with it, judged again from its position.

:func:`verify` asks the judge (:mod:`rami.puzzles.evaluate`) and the difficulty metrics
(:mod:`rami.puzzles.difficulty`) again: the position is legal and a sound puzzle of its kind,
the recorded solution is legal, reaches the goal, is the only signature that does and moves the
fewest table cards, and the metrics, tier, id and themes reproduce (``rami puzzle check``, the
pack's tests).
"""

from __future__ import annotations

from collections import Counter

from rami.cards import Card
from rami.puzzles.difficulty import Metrics
from rami.puzzles.evaluate import Evaluation
from rami.puzzles.record import Puzzle, puzzle_id
from rami.puzzles.themes import themes
from rami.signature import signature


def verify(puzzle: Puzzle) -> list[str]:
    """Everything wrong with a puzzle: empty for a sound puzzle whose metrics reproduce."""
    from rami.errors import SolverBugError
    from rami.puzzles.model import UndecidedError

    try:
        return _verify(puzzle)
    except UndecidedError as error:
        return [f"undecided: {error}"]
    except SolverBugError as error:
        return [f"internal solver error (a bug, please report it): {error}"]


def _verify(puzzle: Puzzle) -> list[str]:
    from rami.puzzles.difficulty import measure
    from rami.puzzles.evaluate import (
        Rejected,
        _check_position,
        check_needs_rearrangement,
        solutions_up_to,
        solve_goal,
    )
    from rami.referee import validate_turn

    problems: list[str] = []
    position = puzzle.position
    record = puzzle.record
    try:
        _check_position(position)
        kind, goal, solution = solve_goal(position)
    except Rejected as error:
        return [str(error)]
    if record.get("rules") not in (None, position.rules.option_string):
        problems.append(f"rules {record.get('rules')!r} differ from the position's")
    if kind != puzzle.kind:
        problems.append(f"the position is a {kind} puzzle, the record says {puzzle.kind}")
    for key in ("penalty_after", "cards_played", "shed"):
        if puzzle.goal.get(key) != goal[key]:
            problems.append(
                f"goal {key}: the record says {puzzle.goal.get(key)}, the solver finds {goal[key]}"
            )
    if problems:
        return problems
    try:
        check_needs_rearrangement(position, kind, goal)
    except Rejected as error:
        problems.append(str(error))
    before = position.table_cards
    after: Counter[Card] = Counter()
    for meld in puzzle.solution:
        after.update(meld.cards)
    played = tuple(sorted((after - before).elements()))
    verdict = validate_turn(position, list(puzzle.solution), played)
    if not verdict.legal:
        return [*problems, "the recorded solution is illegal: " + "; ".join(verdict.problems)]
    if verdict.penalty_after != goal["penalty_after"]:
        problems.append("the recorded solution does not reach the goal")
    intended = signature(puzzle.solution, position.rules)
    if record.get("signature") not in (None, intended.text()):
        problems.append("the recorded signature is not the solution's")
    found = solutions_up_to(position, kind, goal, limit=2)
    if found != [intended]:
        if len(found) > 1:
            problems.append("cooked: " + " / ".join(s.text() for s in found))
        else:
            problems.append("the counting model does not find the recorded solution")
    if verdict.cards_moved != solution.cards_moved:
        problems.append(
            f"the recorded solution moves {verdict.cards_moved} table cards, "
            f"the fewest is {solution.cards_moved}"
        )
    metrics = measure(position, goal, puzzle.solution, played, solution.cards_moved)
    evaluation = Evaluation(position, kind, goal, puzzle.solution, played, intended, metrics)
    return problems + _record_problems(puzzle, evaluation)


def _record_problems(puzzle: Puzzle, evaluation: Evaluation) -> list[str]:
    """What the record says that the evaluation of its solution does not reproduce: the
    metrics, tier and score, superfluous melds, the id and the themes."""
    from rami.puzzles.difficulty import tier_of
    from rami.puzzles.evaluate import superfluous_melds

    problems: list[str] = []
    position, record, metrics = puzzle.position, puzzle.record, evaluation.metrics
    if metrics != puzzle.metrics:
        changed = [
            f"{name} {getattr(puzzle.metrics, name)} -> {getattr(metrics, name)}"
            for name in Metrics.__dataclass_fields__
            if getattr(puzzle.metrics, name) != getattr(metrics, name)
        ]
        problems.append("metrics do not reproduce: " + ", ".join(changed))
    difficulty = record.get("difficulty", {})
    if difficulty.get("tier") != tier_of(metrics.score) or difficulty.get("score") != metrics.score:
        problems.append(
            f"tier/score {difficulty.get('tier')}/{difficulty.get('score')} should be "
            f"{tier_of(metrics.score)}/{metrics.score}"
        )
    extra = superfluous_melds(evaluation)
    if extra:
        problems.append(
            "superfluous meld(s): " + ", ".join(f"{i + 1} ({position.table[i]})" for i in extra)
        )
    if puzzle.id != puzzle_id(position):
        problems.append(f"id {puzzle.id} is not the position's ({puzzle_id(position)})")
    if "themes" in record:
        tagged = list(themes(position, puzzle.solution))
        if record["themes"] != tagged:
            problems.append(f"themes {record['themes']} should be {tagged}")
    return problems
