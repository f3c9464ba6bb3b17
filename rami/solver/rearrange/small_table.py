"""Max-play on a small table, solved by GLPK's branch and cut (:mod:`rami.solver.glpkplay`)
instead of CP-SAT: the proved optimum's turn, for the two-stage search
(:mod:`rami.solver.rearrange.stages`)."""

from __future__ import annotations

from collections import Counter

from rami.errors import SolverBugError
from rami.position import Position
from rami.solver.answer import why_nothing
from rami.solver.cpsat import Clock
from rami.solver.glpkplay import HANG_CAP_MS, WALL_CAP_MS, glpk_for
from rami.solver.playmodel import PlayBounds, PlayModel
from rami.solver.rearrange.decode import decode_values, realize_table
from rami.solver.rearrange.turn import Turn


def small_table_turn(
    position: Position,
    play: PlayModel,
    limits: PlayBounds,
    weights: tuple[list[int], int],
    clock: Clock,
) -> Turn | None:
    """Max-play on a small table, solved by GLPK (:mod:`rami.solver.glpkplay`): the proved
    optimum's turn, or None where GLPK gave none CP-SAT should not be asked for."""
    wall = clock.wall_left()
    cap = HANG_CAP_MS if wall is None else int(min(wall * 1000, WALL_CAP_MS))
    found = glpk_for(play, position.rules.top_rank).solve(limits, weights, cap)
    if found is None:
        return None
    decoded = decode_values(play.variables, found.values)
    if not decoded.played:
        return Turn(
            list(position.table),
            Counter(),
            None,
            True,
            {},
            found.objective,
            message=why_nothing(position),
        )
    try:
        table = realize_table(position, decoded, opening=False)
    except SolverBugError:
        return None  # the realisation failed on this table: CP-SAT's may not
    return Turn(table, decoded.played, None, True, {}, found.objective)
