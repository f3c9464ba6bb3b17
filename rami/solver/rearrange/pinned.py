"""Rami fou with jokers on the table (decision 5): the search around the pinned jokers."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from rami.cards import Card
from rami.errors import SolverBugError
from rami.matching import cards_moved, match_melds
from rami.melds import Meld, MeldKind
from rami.position import Position
from rami.referee import unpinned_jokers
from rami.rules import Ruleset
from rami.solver.answer import why_nothing
from rami.solver.cpsat import Clock, OutOfTime, pinned_solver, upper_bound
from rami.solver.rearrange.decode import Decoded, decode, realize_table, template_of
from rami.solver.rearrange.going_out import lay_in_place
from rami.solver.rearrange.hints import hint_from_table, hint_solution
from rami.solver.rearrange.model import StageModel
from rami.solver.rearrange.objective import play_bounds
from rami.solver.rearrange.stages import search
from rami.solver.rearrange.turn import Turn
from rami.solver.solution import Objective
from rami.solver.templates import Template


def pins_hold(position: Position, table: list[Meld]) -> bool:
    return not unpinned_jokers(position, table)


def search_pinned(
    position: Position, objective: Objective, min_moves: bool, time_limit: float, clock: Clock
) -> Turn:
    """Rami fou with jokers on the table (decision 5): a joker stays in the meld matched to its
    own unless the card it stands for takes its place.

    Relaxations bound the turn: first free jokers (rami chinois' rules with a discard); then the
    slot model with each meld holding jokers constrained to keep them, or the cards they stand
    for, in its slot (every legal turn is one of its solutions). The referee matches melds by
    the most cards shared, which slots need not be: where a table is rejected, cuts saying the
    mismatched slots share the most cards with their originals are added and the model solved
    again (the slowest step, so a quick restriction runs before it: the slot model keeping
    every real card of a meld holding jokers in it). A turn is optimal where it reaches the
    tightest relaxation's proved bounds. Failing all, the melds holding jokers are left as
    they are.

    Max-play starts from the free relaxation's max-play turn alone: asking the free model for
    the most cards kept as well, for a table more likely to keep the pins, cost the bots' rami
    fou positions more than it saved (docs/benchmarks.md, "Tried"). Where the free
    turn's cards go down with nothing moved, that turn is the answer; else its pinned searches
    stop at the first table reaching the free ceiling.
    """
    free = search(position, objective, min_moves, time_limit, clock)
    hint = free
    if free.proved and pins_hold(position, free.table):
        return free
    if not min_moves and free.proved and free.played and free.discard is not None:
        # Max-play: the free turn's cards laid with nothing moved keep every pin.
        untouched = lay_in_place(position, free.played, free.discard)
        if untouched is not None:
            return replace(
                free,
                table=untouched.table,
                played=Counter(untouched.played),
                discard=untouched.discard,
            )
    bound = _Pinned(None, free.play_value, free.proved, free.expected_moved)
    found: list[Turn] = []
    rejected: set[int] = set()
    for whole, cut in ((False, False), (True, False), (False, True)):
        if clock.out_of_time():
            break  # the wall clock of the time limit: answer with what is found
        budget = max(time_limit - clock.timings["search_dtime"], 0.05)
        floor = max(
            (turn.play_value for turn in found if turn.play_value is not None), default=None
        )
        attempt = _pinned_stages(
            position,
            objective,
            min_moves,
            budget,
            clock,
            hint,
            bound.best_play if bound.play_proved else None,
            floor,
            rejected,
            whole=whole,
            cut=cut,
        )
        rejected |= attempt.rejected
        if not whole and attempt.play_proved:
            bound = attempt
        if attempt.turn is not None:
            found.append(attempt.turn)
            hint = attempt.turn
        judged = [_judged(position, objective, min_moves, turn, bound) for turn in found]
        if any(turn.proved for turn in judged):
            return next(turn for turn in judged if turn.proved)
    if not found:
        found.append(_with_jokers_untouched(position, objective, min_moves, time_limit, clock))
    return min(
        (_judged(position, objective, min_moves, turn, bound) for turn in found),
        key=lambda t: (-(t.play_value or 0), cards_moved(position.table, t.table)),
    )


def _judged(
    position: Position, objective: Objective, min_moves: bool, turn: Turn, bound: _Pinned
) -> Turn:
    """A legal turn, optimal where it reaches a relaxation's proved bounds."""
    bounds = dict(turn.bounds)
    proved = turn.proved and bound.play_proved and turn.play_value == bound.best_play
    if bound.play_proved and bound.best_play is not None and not proved:
        bounds.update(play_bounds(position, objective, bound.best_play))
    expected_moved = None
    if min_moves and proved:
        moved = cards_moved(position.table, turn.table)
        proved = moved == bound.least_moved
        if proved:
            expected_moved = moved
        elif bound.least_moved is not None:
            bounds["cards_moved_at_least"] = bound.least_moved
    return replace(turn, proved=proved, bounds=bounds, expected_moved=expected_moved)


@dataclass
class _Pinned:
    """A model's answer: a turn the referee accepts (or None), and the model's bounds."""

    turn: Turn | None
    best_play: int | None = None
    play_proved: bool = False
    #: Fewest cards moved any of the model's tables of value ``best_play`` may have.
    least_moved: int | None = None
    #: Originals its rejected tables mismatched.
    rejected: set[int] = field(default_factory=set)


def _pinned_stages(
    position: Position,
    objective: Objective,
    min_moves: bool,
    time_limit: float,
    clock: Clock,
    hint: Turn,
    ceiling: int | None,
    floor: int | None,
    rejected: set[int],
    *,
    whole: bool,
    cut: bool,
) -> _Pinned:
    """Both stages on a pinned slot model, with matching cuts added where a table broke them
    if ``cut`` (from the start for the originals in ``rejected``, mismatched by earlier
    models). ``ceiling``: a proved bound on the play value; ``floor``: the value of a legal
    turn found; ``hint``'s table hints the search. The turn's ``proved`` says only that its
    search ended.

    The model's one objective holds both stages: the play value times ``scale``, more than any
    count of cards kept, plus the cards kept. Its optimum is the best play value and, at that
    value, the most cards kept: one model built and solved where a play-value model and a
    keeper took two (docs/benchmarks.md, "Tried"). Max-play folds
    too: the cards kept steer its search to tables the referee's matching accepts, and its
    answers move fewer cards. Where the referee rejects the table, the next attempt follows:
    running the keeper as well, for another table of the same values, cost more than it
    found."""
    deadline = clock.timings["search_dtime"] + time_limit
    try:
        model = StageModel(
            position,
            with_slots=True,
            opening=False,
            pinned=True,
            pinned_whole=whole,
            matching_cuts=cut,
            clock=clock,
        )
    except OutOfTime:
        return _Pinned(None)
    play = model.play_objective(objective)
    scale = upper_bound(model.model, model.kept) + 1
    model.model.maximize(play * scale + model.kept)
    if ceiling is not None:
        model.model.add(play <= ceiling)
    if floor is not None and not whole:
        model.model.add(play >= floor)
    if hint.played:
        hint_from_table(model, position, hint.table, hint.played, hint.discard)
    if cut:
        model.add_matching_cuts(rejected)
    clock.lap("build_ms")
    # Max-play needs no proof of the cards kept: a table reaching a proved ceiling is optimal.
    enough = None if min_moves or ceiling is None else ceiling * scale
    found = _solve_cutting(position, model, clock, deadline, cut, scale=scale, enough=enough)
    if found is None:
        return _Pinned(None, rejected=model.rejected)
    proved, value, turn = found
    best_play = value // scale
    if not proved:
        return _Pinned(turn, best_play, proved, rejected=model.rejected)
    least_moved = max(0, position.table_size - (value - best_play * scale)) if min_moves else None
    if turn is None:
        return _Pinned(None, best_play, True, least_moved, model.rejected)
    if least_moved is not None and cards_moved(position.table, turn.table) > least_moved:
        turn = _kept_on_slots(
            position, objective, clock, deadline, cut, best_play, turn, model.cut, whole
        )
    return _Pinned(turn, best_play, proved, least_moved, model.rejected)


def _kept_on_slots(
    position: Position,
    objective: Objective,
    clock: Clock,
    deadline: float,
    cut: bool,
    best_play: int,
    turn: Turn,
    cuts: set[int],
    whole: bool,
) -> Turn:
    """Where the relaxed count of cards kept leaves the turn unproved, its search may have
    chased credit no table earns: look again counting cards kept on the slots alone (a
    restriction: every table it finds is a candidate) and keep the turn moving fewer cards."""
    if clock.out_of_time():
        return turn
    try:
        keeper = StageModel(
            position,
            with_slots=True,
            opening=False,
            pinned=True,
            pinned_whole=whole,
            credited=False,
            matching_cuts=cut,
            clock=clock,
        )
    except OutOfTime:
        return turn
    keeper.add_matching_cuts(cuts)
    keeper.model.add(keeper.play_objective(objective) == best_play)
    keeper.model.maximize(keeper.kept)
    hint_from_table(keeper, position, turn.table, turn.played, turn.discard)
    clock.lap("build_ms")
    found = _solve_cutting(position, keeper, clock, deadline, cut, best_play)
    if found is None or found[2] is None:
        return turn
    other = found[2]
    if cards_moved(position.table, other.table) < cards_moved(position.table, turn.table):
        return other
    return turn


def _solve_cutting(
    position: Position,
    model: StageModel,
    clock: Clock,
    deadline: float,
    cut: bool,
    play_value: int | None = None,
    scale: int = 1,
    enough: int | None = None,
) -> tuple[bool, int, Turn | None] | None:
    """Solve, and if ``cut``, add matching cuts for the melds a rejected table mismatched until
    the referee accepts the table or no cut is left to add. Returns (proved, value, turn or
    None), None when no solution was found; the value is the last (tightest) model's. The
    turn's play value is ``play_value`` where given, else the model's value divided by
    ``scale`` (the objective's play value times ``scale`` plus the cards kept). ``enough``: a
    value no solution can pass at a proved play value (max-play's ceiling times ``scale``): the
    search stops at the first solution worth it, as proved, unless the referee rejects its
    table."""
    while True:
        if clock.out_of_time():
            return None
        budget = max(deadline - clock.timings["search_dtime"], 0.05)
        solver = pinned_solver(budget, clock.wall_left())
        stop = _StopAt(enough) if enough is not None else None
        status = solver.solve(model.model, stop)
        clock.lap("search_ms", solver)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if status not in (cp_model.UNKNOWN, cp_model.INFEASIBLE):
                raise SolverBugError(f"pinned model status {solver.status_name(status)}")
            return None
        value = round(solver.objective_value)
        # Stopped at ``enough``, a proved ceiling: the play value is proved, the cards kept not.
        stopped = stop is not None and value >= stop.enough
        proved = status == cp_model.OPTIMAL or stopped
        decoded = decode(model, solver)
        # The pieces of runs cut around their pinned jokers (decision 5), matched to nothing.
        decoded.specs += model.piece_specs(list(solver.response_proto.solution))
        table = realize_table(position, decoded, False)
        turn = _pinned_turn(
            position, table, decoded.discard, value // scale if play_value is None else play_value
        )
        if turn is None and stopped and status != cp_model.OPTIMAL:
            # Rejected before the search ended: let it run on to the most cards kept.
            enough = None
            hint_solution(model, solver)
            clock.lap("build_ms")
            continue
        if turn is not None or not proved:
            return proved, value, turn
        mismatched = _mismatched(position, decoded, table)
        model.rejected |= mismatched
        if not cut or not model.add_matching_cuts(mismatched):
            return proved, value, None
        hint_solution(model, solver)
        clock.lap("build_ms")


class _StopAt(cp_model.CpSolverSolutionCallback):
    """Stops the search at the first solution worth ``enough``."""

    def __init__(self, enough: int) -> None:
        super().__init__()
        self.enough = enough

    def on_solution_callback(self) -> None:
        if self.objective_value >= self.enough:
            self.stop_search()


def _mismatched(position: Position, decoded: Decoded, table: list[Meld]) -> set[int]:
    """Originals whose slot is not the meld the referee matches them to, and the melds whose
    jokers the referee finds unpinned."""
    slot_of = {spec.original: spec.template for spec in decoded.specs if spec.original is not None}
    matched = match_melds(position.table, table)
    found = set(unpinned_jokers(position, table))
    for index, target in enumerate(matched):
        template = slot_of.get(index)
        if (template is None) != (target < 0) or (
            template is not None and not _holds(template, table[target], position.rules)
        ):
            found.add(index)
    return found


def _holds(template: Template, meld: Meld, rules: Ruleset) -> bool:
    """``meld`` is a laying of ``template`` (a set's jokers may stand for any missing suit)."""
    if meld.kind is not template.kind or len(meld.cards) != len(template.types):
        return False
    if meld.kind is MeldKind.RUN:
        return template_of(meld, rules) == template
    return all(card.index in template.types for card in meld.real_cards)


def _pinned_turn(
    position: Position, table: list[Meld], discard: Card | None, best_play: int
) -> Turn | None:
    """The turn of a pinned model's table, or None where the referee's matching unpins a joker."""
    if not pins_hold(position, table):
        return None
    played = Counter(card for meld in table for card in meld.cards) - position.table_cards
    if not played:
        table = list(position.table)
    return Turn(
        table,
        played,
        discard,
        True,
        {},
        best_play,
        message=None if played else why_nothing(position),
    )


def _with_jokers_untouched(
    position: Position, objective: Objective, min_moves: bool, time_limit: float, clock: Clock
) -> Turn:
    """A legal rami fou turn whatever happens: melds holding jokers stay as they are, the rest of
    the table is solved freely."""
    untouched = [meld for meld in position.table if meld.jokers]
    rest = replace(position, table=tuple(meld for meld in position.table if not meld.jokers))
    turn = search(rest, objective, min_moves, time_limit, clock)
    return replace(turn, table=untouched + turn.table)
