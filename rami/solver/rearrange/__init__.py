"""The CP-SAT rearrangement solver (rami chinois, rummikub, rami fou once opened).

Model (docs/rules.md decisions 6 and 7; docs/solver.md): integer counts of meld
templates over card *types*, jokers pooled as a count of jokers standing for each type. Levels
are solved in two stages: first the least penalty / most cards (both folded into one exact
integer objective, since the second level is bounded), then, with that value fixed, the most
table cards kept in place. Each original meld gets a "slot": one final meld matched to it (any
run of its suit or set of its rank holding at least one of its real cards); kept cards are
counted there, so maximising them equals the best one-to-one matching of decision 7.

Rami fou adds the discard (one more choice in the objective) and pinned table jokers, which need
the slots in both stages (:mod:`.pinned`). The decision 1 flag adds "witness" melds: the cards
played must hold the opening (``StageModel._add_opening_witness``).

The stages, one module each:

* :mod:`.slots`: where an original meld may go (lanes of a suit, sets of a rank);
* :mod:`.model` and :mod:`.slotmodel`: the CP-SAT model of a stage, its slots, pins and cuts;
* :mod:`.objective`: the levels of decision 6 folded into one integer;
* :mod:`.decode`: a CP-SAT solution read back as melds;
* :mod:`.hints`: warm starts from a known table;
* :mod:`.repair`: a table moving one card, found without a model (stage 2's shortcut);
* :mod:`.stages`: stage 1 then stage 2;
* :mod:`.pinned`: rami fou's search around its pinned jokers;
* :mod:`.narrate`: the answer, its moves told step by step, the referee's check.
"""

from __future__ import annotations

from rami.errors import IllegalTurnError
from rami.position import Position
from rami.rules import TableJoker
from rami.solver.cpsat import Clock
from rami.solver.rearrange.narrate import finish
from rami.solver.rearrange.pinned import search_pinned
from rami.solver.rearrange.stages import search
from rami.solver.solution import Objective, Solution


def solve_position(
    position: Position,
    objective: Objective,
    *,
    min_moves: bool,
    time_limit: float,
    wall_clock: bool = True,
    spent: float = 0.0,
) -> Solution:
    """The best turn of an opened player (or the opening turn) of a rearranging preset."""
    rules = position.rules
    if rules.discard and not position.hand:
        raise IllegalTurnError(
            [
                f"no legal turn exists: {rules.name} ends every turn with a discard "
                "and the hand is empty"
            ]
        )
    clock = Clock(
        time_limit,
        wall_clock=wall_clock,
        cards=position.table_size + len(position.hand),
        spent=spent,
    )
    if rules.table_joker is TableJoker.REPLACE_AND_RELAY and any(
        meld.jokers for meld in position.table
    ):
        turn = search_pinned(position, objective, min_moves, time_limit, clock)
    else:
        turn = search(position, objective, min_moves, time_limit, clock)
    return clock.stamp(finish(position, objective, min_moves, turn))


def refusal(position: Position) -> str | None:
    """What this backend cannot solve for ``position`` (None: it can)."""
    rules = position.rules
    if rules.table_joker not in (TableJoker.FREE, TableJoker.REPLACE_AND_RELAY):
        return f"the rearrangement solver does not handle the joker rule of {rules.name}"
    if (
        not position.opened
        and rules.open_and_rearrange_same_turn
        and (rules.discard or rules.opening_any_meld)
    ):
        return (
            f"opening and rearranging in the same turn (decision 1 flag) is solved for "
            f"rami-chinois and rummikub, not {rules.name}"
        )
    return None
