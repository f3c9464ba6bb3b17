"""One checked solve for the known-answer tests: the answer is legal by both referees, its
penalty, hand and cards moved are the referees' own, every meld is valid, and where the table
was rearranged the moves replay to the new table."""

from __future__ import annotations

from typing import Any

from rami import parse_position, solve
from rami.melds import is_valid
from rami.referee import validate_turn
from rami.solver.explain import replay_moves
from rami.solver.solution import MoveKind, Solution, Status
from support.second_referee import judge


def checked_solve(text: str, *, proved: bool = True, **options: Any) -> Solution:
    """Solve a position written in notation and check the answer as a user would."""
    position = parse_position(text)
    solution = solve(position, **options)
    for verdict in (
        validate_turn(position, solution.table, solution.played, solution.discard),
        judge(position, solution.table, solution.played, solution.discard),
    ):
        assert verdict.legal, verdict.problems
        assert verdict.penalty_after == solution.penalty_after
        assert verdict.hand_after == solution.hand
        assert verdict.cards_moved == solution.cards_moved
    assert all(is_valid(meld, position.rules) for meld in solution.table)
    if proved:
        assert solution.status is Status.OPTIMAL, solution.bounds
    if position.opened and position.rules.rearrangement:
        table_moves = [move for move in solution.moves if move.kind is not MoveKind.DISCARD]
        piles = replay_moves(position.table, table_moves, solution.played)
        assert sorted(sorted(p.elements()) for p in piles.values()) == sorted(
            sorted(meld.cards) for meld in solution.table
        ), "replaying the moves must give the new table"
    return solution
