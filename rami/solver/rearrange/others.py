"""The next best turn of another signature: the alternatives' search (``rami solve --top``).

Two models, as the solver's two stages: the best play value (levels 1-2, one exact integer)
among the signatures not listed yet, then, that value fixed, the most table cards kept (level 3,
decision 7). Each signature found is forbidden in both by a no-good (:class:`.signed.SignedModel`)
and they are solved again: the k-th round finds the best turn among the signatures not yet
listed, which is the k-th best signature's best turn (its fewest cards moved).

A turn playing no card leaves the table as it is (one answer, see :mod:`rami.solver.alternatives`),
so the model here plays at least one card.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ortools.sat.python import cp_model

from rami.cards import Card
from rami.errors import SolverBugError
from rami.matching import cards_moved
from rami.melds import Meld
from rami.position import Position
from rami.rules import TableJoker
from rami.signature import Signature, answer_signature
from rami.solver.cpsat import Clock, stage_solver
from rami.solver.rearrange.decode import Decoded, decode, realize_table
from rami.solver.rearrange.hints import hint_from_table
from rami.solver.rearrange.model import StageModel
from rami.solver.rearrange.narrate import finish
from rami.solver.rearrange.objective import discard_weight, play_value, play_weights
from rami.solver.rearrange.signed import SignedModel
from rami.solver.rearrange.turn import Turn
from rami.solver.solution import Objective, Solution


def top_refusal(position: Position) -> str | None:
    """What the alternatives' search cannot do for ``position`` (None: it can)."""
    rules = position.rules
    if rules.table_joker is TableJoker.REPLACE_AND_RELAY and any(
        meld.jokers for meld in position.table
    ):
        return (
            f"more than one answer (--top) is not solved yet for {rules.name} tables "
            "holding jokers (pinned jokers)"
        )
    return None


class NextBest:
    """The best turns of a rearranging preset, one signature at a time, in two stages as the
    solver's own search: the best play value among the signatures left (the model without
    slots), then, that value fixed, the most table cards kept (the model with slots)."""

    def __init__(
        self, position: Position, objective: Objective, min_moves: bool, clock: Clock
    ) -> None:
        self.position, self.objective, self.min_moves, self.clock = (
            position,
            objective,
            min_moves,
            clock,
        )
        self.opening = not position.opened and not position.rules.open_and_rearrange_same_turn
        self.plays = self._signed(with_slots=False)
        self.plays.stage.model.maximize(self.plays.stage.play_objective(objective))
        self.keeps: SignedModel | None = None
        #: Signatures found, with their play value, not yet forbidden in the second stage.
        self._waiting: list[tuple[Signature, int | None]] = []
        if min_moves and not self.opening and position.table:
            self.keeps = self._signed(with_slots=True)
            stage = self.keeps.stage
            value = stage.play_objective(objective)
            self.target = stage.model.new_int_var(0, _most(position, objective), "target")
            stage.model.add(value == self.target)
            stage.model.maximize(stage.kept)
        clock.lap("build_ms")

    def _signed(self, with_slots: bool) -> SignedModel:
        stage = StageModel(self.position, with_slots=with_slots, opening=self.opening, exact=True)
        signed = SignedModel(stage)
        stage.model.add(sum(stage.play) + stage.play_jokers >= 1)
        return signed

    def exclude(self, excluded: Signature, played: Sequence[Card] | None = None) -> None:
        """Forbid a signature found (``played``: the cards its best turn played)."""
        self.plays.exclude(excluded)
        if self.keeps is not None:
            value = (
                None
                if played is None
                else play_value(Counter(played), play_weights(self.position, self.objective))
            )
            self._waiting.append((excluded, value))

    def _keeps_exclusions(self, value: int) -> None:
        """The second stage, its play value fixed, needs only the no-goods of signatures that
        can reach that value: without a discard or a joker in the hand, a signature's cards
        played fix its value (a signature found had a better one)."""
        assert self.keeps is not None
        waiting: list[tuple[Signature, int | None]] = []
        for excluded, found_value in self._waiting:
            if found_value is not None and not self._reaches(found_value, value):
                waiting.append((excluded, found_value))  # not at this value (maybe later)
            else:
                self.keeps.exclude(excluded)
        self._waiting = waiting

    def _reaches(self, found: int, value: int) -> bool:
        """Can a signature whose best play value is ``found`` have a turn of ``value``? Its
        real cards played are fixed; without a discard only the jokers played may differ, each
        worth the joker's weight in the play value."""
        if self.position.rules.discard:
            return True
        gap = found - value
        joker = play_weights(self.position, self.objective)[1]
        return gap == 0 or (
            gap > 0 and gap % joker == 0 and gap // joker <= self.plays.stage.counts.hand_jokers
        )

    def next(self) -> tuple[Solution | None, bool]:
        """(the best turn left, or None; whether the search was complete). None and complete:
        no other signature exists; None and incomplete: the time limit ended the search."""
        found = self._solve(self.plays)
        if found is None or isinstance(found, bool):
            return None, bool(found)
        table, decoded, proved, value = found
        expected_moved: int | None = 0 if self.opening else None
        if self.keeps is not None and proved and cards_moved(self.position.table, table) == 0:
            expected_moved = 0  # nothing moved: the last level is at its best already
        elif self.keeps is not None and proved:
            self._keeps_exclusions(value)
            domain = self.keeps.stage.model.proto.variables[self.target.index].domain
            domain[0] = domain[1] = value
            self.keeps.stage.model.clear_hints()  # type: ignore[no-untyped-call]  # untyped in OR-Tools
            hint_from_table(self.keeps.stage, self.position, table, decoded.played, decoded.discard)
            kept = self._solve(self.keeps)
            if kept is None or isinstance(kept, bool):
                proved = False  # stage 2 did not finish: the first table stands, unproved
            else:
                kept_table, kept_decoded, proved, kept_count = kept
                table, decoded = kept_table, kept_decoded
                expected_moved = self.position.table_size - kept_count if proved else None
        turn = Turn(table, decoded.played, decoded.discard, proved, {}, value, expected_moved)
        return finish(self.position, self.objective, self.min_moves, turn), True

    def _solve(self, signed: SignedModel) -> tuple[list[Meld], Decoded, bool, int] | bool | None:
        """(table, decoded, proved, objective) of one solve; True when the model is infeasible
        (no signature left), False when the time limit ended it with nothing found."""
        clock = self.clock
        if clock.out_of_time():
            return False
        solver = stage_solver(clock.deterministic_left(), clock.wall_left())
        status = solver.solve(signed.stage.model)
        clock.lap("search_ms", solver)
        if status == cp_model.INFEASIBLE:
            return True
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return False
        decoded = decode(signed.stage, solver)
        table = realize_table(self.position, decoded, self.opening)
        wanted = signed.signature_of(solver)
        got = answer_signature(table, self.position.rules)
        if got != wanted:
            raise SolverBugError(
                f"alternatives: the model's signature {wanted} is not the table's {got} "
                f"({' | '.join(map(str, table))})"
            )
        return table, decoded, status == cp_model.OPTIMAL, round(solver.objective_value)


def _most(position: Position, objective: Objective) -> int:
    """The largest play value a turn can reach: every card played, the costliest discard."""
    value = play_value(Counter(position.hand), play_weights(position, objective))
    if position.rules.discard and position.hand:
        value += max(discard_weight(position, objective, card) for card in position.hand)
    return value
