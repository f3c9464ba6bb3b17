"""The two-stage search: stage 1 (penalty and cards, one exact objective), then stage 2 (the
most table cards kept, decision 7), with the in-place fast path before both."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace

from ortools.sat.python import cp_model

from rami.cards import Card
from rami.errors import SolverBugError
from rami.matching import cards_kept, cards_moved
from rami.melds import MIN_MELD, Meld
from rami.position import Position
from rami.solver.answer import no_legal_turn, why_nothing
from rami.solver.cpsat import Clock, OutOfTime, stage_solver
from rami.solver.glpkplay import SMALL_TABLE_CARDS
from rami.solver.in_place import InPlace, lay_whole_hand, searches
from rami.solver.playmodel import PlayVariables, play_model_for
from rami.solver.rearrange.decode import (
    decode,
    realize_relaxed,
    realize_table,
    table_pieces,
)
from rami.solver.rearrange.going_out import go_out_in_place
from rami.solver.rearrange.hints import hint_from_table
from rami.solver.rearrange.model import StageModel
from rami.solver.rearrange.objective import (
    discard_weight,
    play_bounds,
    play_value,
    play_weights,
)
from rami.solver.rearrange.repair import one_move_table
from rami.solver.rearrange.small_table import small_table_turn
from rami.solver.rearrange.turn import Turn, nothing_in_time
from rami.solver.solution import Objective

#: From this many table cards on, max-play's stage 1 branches on its LP (see ``search``).
LP_SEARCH_TABLE_CARDS = 30


#: From this many table cards on, max-play tries the in-place fast path first (see _in_place).
IN_PLACE_MAX_PLAY_TABLE_CARDS = 70

#: Loading a stage 2 model costs CP-SAT, before any search, 10-17% of the time Python took to
#: build it (measured on 100-card tables; 57 ms at load 12): a solve is not started with less
#: wall time left than this share of the last build, since it could only stop at once.
SOLVE_LOAD_SHARE = 0.2


def _in_place(position: Position, min_moves: bool) -> InPlace:
    """The fast path's answer, where trying it pays.

    With the full objective it always pays: a turn found saves both stages, and "none exists"
    saves stage 2's zero-move question. Max-play only gains the first, worth a model solve
    (about 2-3 ms), and pays every failed search (up to 1.8 ms): measured over the suites,
    the search found such turns on 5 of 144 positions of 20-60 table cards and on 68 of 96 of
    80-100 cards, and where two hand cards or more had no place yet, on 1 of 23.
    """
    if min_moves:
        return lay_whole_hand(position)
    if position.table_size < IN_PLACE_MAX_PLAY_TABLE_CARDS:
        return InPlace(None)
    return lay_whole_hand(position, max_unplaced=1)


@dataclass
class _FirstModel:
    """Stage 1's model, with how to search it."""

    model: StageModel | PlayVariables
    #: Stage 1's objective is the play value times this, plus a bonus below it.
    scale: int = 1
    lp_search: bool = False  # branch on the LP, no root cut rounds (see _first_model)
    no_lay_off: bool = False  # the fast path proved no table lays the whole hand in place


def search(
    position: Position, objective: Objective, min_moves: bool, time_limit: float, clock: Clock
) -> Turn:
    """Stage 1 (penalty and cards, one exact objective), then stage 2 (cards moved)."""
    if clock.out_of_time():
        return nothing_in_time(position)  # (rami fou's last resort, when all time is spent)
    going_out = go_out_in_place(position)
    if going_out is not None:
        # Optimal at every level with nothing left to prove: out, nothing moved.
        clock.lap("search_ms")
        played = Counter(going_out.played)
        value = play_value(played, play_weights(position, objective)) + discard_weight(
            position, objective, going_out.discard
        )
        return Turn(going_out.table, played, going_out.discard, True, {}, value, expected_moved=0)
    # The opening turn lays new melds from the hand only, unless the decision 1 flag lets the
    # opener rearrange the table in the same turn.
    opening = not position.opened and not position.rules.open_and_rearrange_same_turn
    first = _first_model(position, objective, min_moves, opening, clock)
    if isinstance(first, Turn):
        return first
    # Made once the model is known: the small-table path never needs one.
    solver = stage_solver(time_limit, clock.wall_left())
    if first.lp_search:
        solver.parameters.max_cut_rounds_at_level_zero = 0
        solver.parameters.search_branching = cp_model.LP_SEARCH
    clock.lap("build_ms")
    status = clock.rewind(solver).solve(first.model.model)
    clock.lap("search_ms", solver)
    bounds: dict[str, int] = {}
    if status == cp_model.OPTIMAL:
        proved = True
    elif status == cp_model.FEASIBLE:
        proved = False
        bounds.update(
            play_bounds(position, objective, int(solver.best_objective_bound) // first.scale)
        )
    elif status == cp_model.INFEASIBLE and position.rules.discard:
        # Playing nothing is always in the model but for the discard: no card may go.
        raise no_legal_turn(position)
    else:
        return nothing_in_time(position)
    decoded = decode(first.model, solver)
    best_play = round(solver.objective_value) // first.scale
    if not decoded.played:
        return Turn(
            list(position.table),
            Counter(),
            decoded.discard,
            proved,
            bounds,
            best_play,
            message=why_nothing(position),
        )
    table = realize_table(position, decoded, opening)
    if not (min_moves and not opening and proved):
        return Turn(table, decoded.played, decoded.discard, proved, bounds, best_play)
    keeping = _Keeping(
        position,
        objective,
        time_limit,
        clock,
        decoded.played,
        best_play,
        table,
        decoded.discard,
        bounds,
    )
    return _stage2(keeping, solver, first.no_lay_off)


def _first_model(
    position: Position, objective: Objective, min_moves: bool, opening: bool, clock: Clock
) -> _FirstModel | Turn:
    """Stage 1's model, or the turn where the fast path or GLPK found it without one."""
    # Stage 1 runs on the lean model without slots, prebuilt and re-bounded for an opened
    # player of a preset without discard.
    if not position.opened or position.rules.discard:
        stage = StageModel(position, with_slots=False, opening=opening)
        stage.model.maximize(stage.play_objective(objective))
        return _FirstModel(stage)
    weights = play_weights(position, objective)
    in_place = _in_place(position, min_moves)
    if in_place.table is not None:
        # Optimal at every level with nothing left to prove: all played, nothing moved.
        clock.lap("search_ms")
        played = Counter(position.hand)
        return Turn(
            in_place.table, played, None, True, {}, play_value(played, weights), expected_moved=0
        )
    clock.lap("search_ms")
    if min_moves:
        # Among the plays of the best value, prefer one keeping the table's own melds: stage
        # 1's table is stage 2's hint, and a hint near the optimum halves stage 2's search
        # (docs/benchmarks.md, "Tried"). Measured on the 40- and 60-card suites (one
        # interleaved run): medians 6-23% and sums of times 11-27% lower. A bonus of 1 per
        # template used stays below one unit of the play value once that is scaled past the
        # most templates a table can hold.
        scale = (position.table_size + len(position.hand)) // MIN_MELD + 1
        per_type, per_joker = weights
        model = play_model_for(position.rules).load(
            position,
            [weight * scale for weight in per_type],
            per_joker * scale,
            dict.fromkeys(table_pieces(position), 1),
        )
        return _FirstModel(model, scale, no_lay_off=in_place.none_exists)
    play = play_model_for(position.rules)
    limits = play.bounds(position)
    if position.table_size <= SMALL_TABLE_CARDS:
        # GLPK first (the CP-SAT model is written only where it gives no answer).
        clock.lap("build_ms")
        small = small_table_turn(position, play, limits, weights, clock)
        clock.lap("search_ms")
        if small is not None:
            return small
    model = play.load(position, *weights, bounds=limits)
    # Measured on this model alone (144 positions of 60-100 cards, 10 interleaved rounds): branching
    # on the LP and no root cut rounds take 12% off the median and 18% off the p90 wall time and
    # 30% off the deterministic time, same optima, all proved. On 20-card tables it was up to 25%
    # slower. Max-play only: the table it finds is another of the equally good ones, and as stage
    # 2's hint those made the full objective's tails longer (p99 x1.25 over the suites, one A/B).
    lp_search = position.table_size >= LP_SEARCH_TABLE_CARDS
    return _FirstModel(model, lp_search=lp_search, no_lay_off=in_place.none_exists)


@dataclass
class _Keeping:
    """Stage 2's state: the best table so far for stage 1's play, and what is known of it."""

    position: Position
    objective: Objective
    time_limit: float
    clock: Clock
    played: Counter[Card]  # the cards stage 1 played (the hint's)
    best_play: int
    table: list[Meld]
    discard: Card | None
    bounds: dict[str, int]
    proved: bool = True
    expected_moved: int | None = None

    def turn(self) -> Turn:
        played = Counter(card for meld in self.table for card in meld.cards)
        played -= self.position.table_cards
        return Turn(
            self.table,
            played,
            self.discard,
            self.proved,
            self.bounds,
            self.best_play,
            self.expected_moved,
        )


def _stage2(keeping: _Keeping, solver: cp_model.CpSolver, no_lay_off: bool) -> Turn:
    """Stage 2: the same play value, the most table cards kept in the meld matched to their
    own: a table moving nothing or one card where one is found at once, else _keep_most."""
    position, clock, played = keeping.position, keeping.clock, keeping.played
    # A turn moving nothing is optimal as soon as it is found. Where the whole hand is played,
    # the fast path has looked for one; else the in-place search looks for one laying stage
    # 1's cards, and CP-SAT is not asked: on the suites that question (the model with nothing
    # moved) never succeeded for a part of the hand (0 of 84 asked; 2 of 33 for whole hands)
    # and cost 3-16% of the full objective's time on 20-80 cards. Presets the search does not
    # handle (those that discard) still ask the model.
    whole_hand = sum(played.values()) == len(position.hand)
    part_in_place = not whole_hand and searches(position)
    if part_in_place:
        laid = lay_whole_hand(replace(position, hand=tuple(played.elements())))
        if laid.table is not None:
            clock.lap("search_ms")
            return Turn(laid.table, played, None, True, {}, keeping.best_play, 0)
    # A table moving one card, where taking one card off a meld lets the rest go down in place
    # (repair.py): optimal at once where no table moves nothing (the fast path ran to its end
    # on the whole hand, which is then the only play of this value: every card weighs), else
    # the untouched question below decides, and else it is the hint.
    one_move = one_move_table(position, played) if searches(position) else None
    if one_move is not None:
        moved_one = cards_moved(position.table, one_move)
        if moved_one == 0 or (whole_hand and no_lay_off):
            clock.lap("search_ms")
            return Turn(one_move, played, None, True, {}, keeping.best_play, moved_one)
        keeping.table, keeping.discard = one_move, None
    # Elsewhere the model is asked for such a turn first (not where the fast path proved
    # there is none): far quicker, when there is one, than letting the search climb there.
    # Where a one-move table is known, the question also proves it optimal (infeasible: a
    # relaxation of every table moving nothing).
    ask_untouched = one_move is not None or not (no_lay_off if whole_hand else part_in_place)
    return _keep_most(keeping, solver, ask_untouched, one_move is not None)


def _keep_most(
    keeping: _Keeping, solver: cp_model.CpSolver, ask_untouched: bool, one_move: bool
) -> Turn:
    """A relaxation first (jokers may fill a meld alone): when a table realises its bound, the
    bound is the optimum; otherwise the exact model, hinted with what the relaxation found."""
    position, clock = keeping.position, keeping.clock
    #: Seconds the last model took to build: stage 2's are larger than stage 1's.
    last_build = clock.timings["build_ms"] / 1000
    for relaxed in (True, False):
        if clock.out_of_time() or not clock.affords(last_build):
            keeping.proved = False  # stage 2 never ran to its end: the cards moved not proved
            break
        budget = max(keeping.time_limit - solver.response_proto.deterministic_time, 0.05)
        solver = stage_solver(budget, clock.wall_left())
        started = time.perf_counter()
        try:
            keeper = StageModel(
                position, with_slots=True, opening=False, relaxed=relaxed, clock=clock
            )
        except OutOfTime:
            keeping.proved = False
            break
        last_build = time.perf_counter() - started
        if not clock.affords(SOLVE_LOAD_SHARE * last_build):
            keeping.proved = False  # CP-SAT would spend the time left loading the model
            break
        keeper.model.add(keeper.play_objective(keeping.objective) == keeping.best_play)
        keeper.model.maximize(keeper.kept)
        asked = relaxed and ask_untouched
        if (asked and _untouched(keeping, keeper, solver, one_move, last_build)) or (
            _solve_keeper(keeping, keeper, solver, relaxed)
        ):
            break
    return keeping.turn()


def _untouched(
    keeping: _Keeping,
    keeper: StageModel,
    solver: cp_model.CpSolver,
    one_move: bool,
    last_build: float,
) -> bool:
    """Ask the model for a table moving nothing (then keep it), or, with a one-move table
    known, prove that none exists (then that one is optimal). True: stage 2 is over."""
    position, clock = keeping.position, keeping.clock
    untouched = keeper.nothing_moves()
    clock.lap("build_ms")
    asked = clock.rewind(solver).solve(keeper.model)
    if asked == cp_model.INFEASIBLE and one_move:
        clock.lap("search_ms", solver)
        keeping.expected_moved = 1
        return True
    if asked == cp_model.OPTIMAL:
        clock.lap("search_ms", solver)
        decoded_keep = decode(keeper, solver)
        candidate = realize_relaxed(position, decoded_keep)
        if candidate is not None and cards_moved(position.table, candidate) == 0:
            keeping.table, keeping.discard = candidate, decoded_keep.discard
            keeping.expected_moved = 0
            return True
    clock.lap("search_ms", solver)
    domain = keeper.model.proto.variables[untouched.index].domain
    domain[0] = domain[1] = 0
    if not clock.affords(SOLVE_LOAD_SHARE * last_build):
        keeping.proved = False
        return True
    return False


def _solve_keeper(
    keeping: _Keeping, keeper: StageModel, solver: cp_model.CpSolver, relaxed: bool
) -> bool:
    """Solve one stage 2 model hinted with the best table so far; keep its table if it keeps
    as many table cards. True: stage 2 is over (proved, or no better bound to look for)."""
    position, clock = keeping.position, keeping.clock
    hint_from_table(keeper, position, keeping.table, keeping.played, keeping.discard)
    clock.lap("build_ms")
    stage2 = clock.rewind(solver).solve(keeper.model)
    clock.lap("search_ms", solver)
    if stage2 not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if stage2 == cp_model.UNKNOWN:
            keeping.proved = False
            return True
        raise SolverBugError(f"stage 2 lost the stage 1 solution (status {stage2})")
    decoded_keep = decode(keeper, solver)
    candidate = (
        realize_relaxed(position, decoded_keep)
        if relaxed
        else realize_table(position, decoded_keep, opening=False)
    )
    if candidate is not None and (
        cards_kept(position.table, candidate) >= cards_kept(position.table, keeping.table)
    ):
        keeping.table, keeping.discard = candidate, decoded_keep.discard
    bound = position.table_size - int(solver.best_objective_bound)
    if stage2 == cp_model.OPTIMAL and cards_moved(position.table, keeping.table) == bound:
        keeping.expected_moved = bound
        return True
    if stage2 == cp_model.FEASIBLE or not relaxed:
        keeping.proved = False
        keeping.bounds["cards_moved_at_least"] = max(0, bound)
        return True
    return False
