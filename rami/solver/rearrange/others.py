"""The next best turn of another signature: the alternatives' search (``rami solve --top``).

One model holds every level at once: the play value of stage 1 (levels 1-2, one exact integer)
times one more than the table's size, plus the table cards kept (level 3, decision 7), so one
solve finds the best turn left. Each signature found is forbidden by a no-good
(:class:`.signed.SignedModel`) and the same model is solved again: the k-th solve finds the best
turn among the signatures not yet listed, which is the k-th best signature's best turn.

A turn playing no card leaves the table as it is (one answer, see :mod:`rami.solver.alternatives`),
so the model here plays at least one card.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from rami.errors import SolverBugError
from rami.position import Position
from rami.puzzles.signature import Signature, answer_signature
from rami.rules import TableJoker
from rami.solver.cpsat import Clock, stage_solver
from rami.solver.rearrange.decode import decode, realize_table
from rami.solver.rearrange.model import StageModel
from rami.solver.rearrange.narrate import finish
from rami.solver.rearrange.signed import SignedModel
from rami.solver.rearrange.stages import Turn
from rami.solver.solution import Objective, Solution


def top_refusal(position: Position) -> str | None:
    """What the alternatives' search cannot do for ``position`` (None: it can)."""
    rules = position.rules
    if rules.table_joker is TableJoker.REPLACE_AND_RELAY and any(
        meld.jokers for meld in position.table
    ):
        return (f"more than one answer (--top) is not solved yet for {rules.name} tables "
                "holding jokers (pinned jokers)")
    return None


class NextBest:
    """The best turns of a rearranging preset, one signature at a time."""

    def __init__(
        self, position: Position, objective: Objective, min_moves: bool, clock: Clock
    ) -> None:
        self.position, self.objective, self.min_moves, self.clock = (
            position, objective, min_moves, clock
        )
        self.opening = not position.opened and not position.rules.open_and_rearrange_same_turn
        stage = self.stage = StageModel(
            position, with_slots=not self.opening, opening=self.opening, exact=True
        )
        self.signed = SignedModel(stage)
        stage.model.add(sum(stage.play) + stage.play_jokers >= 1)
        self.scale = position.table_size + 1 if min_moves and stage.slots else 1
        value = stage.play_objective(objective) * self.scale
        if self.scale > 1:
            value = value + stage.kept
        stage.model.maximize(value)
        clock.lap("build_ms")

    def exclude(self, excluded: Signature) -> None:
        self.signed.exclude(excluded)

    def next(self) -> tuple[Solution | None, bool]:
        """(the best turn left, or None; whether the search was complete). None and complete:
        no other signature exists; None and incomplete: the time limit ended the search."""
        clock = self.clock
        if clock.out_of_time():
            return None, False
        solver = stage_solver(clock.deterministic_left(), clock.wall_left())
        status = solver.solve(self.stage.model)
        clock.lap("search_ms", solver)
        if status == cp_model.INFEASIBLE:
            return None, True
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None, False
        decoded = decode(self.stage, solver)
        table = realize_table(self.position, decoded, self.opening)
        wanted = self.signed.signature_of(solver)
        got = answer_signature(table, self.position.rules)
        if got != wanted:
            raise SolverBugError(
                f"alternatives: the model's signature {wanted} is not the table's {got} "
                f"({' | '.join(map(str, table))})"
            )
        objective_value = round(solver.objective_value)
        expected_moved: int | None = 0 if self.opening else None
        if self.scale > 1:
            kept = objective_value % self.scale
            expected_moved = self.position.table_size - kept
        turn = Turn(
            table, decoded.played, decoded.discard, status == cp_model.OPTIMAL, {},
            objective_value // self.scale, expected_moved,
        )
        return finish(self.position, self.objective, self.min_moves, turn), True
