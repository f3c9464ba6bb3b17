"""CP-SAT models for puzzles: count solutions up to signature, and the lay-off-only best play.

Both models count meld templates over card *types* (rami.solver.templates): runs of 3-5 places
(every longer run cuts into those, and the signature ignores cuts) and sets written as their
real suits plus a number of jokers. Jokers in runs are pooled per (suit, position). A joker that
finds no place in a template is "parked": it is absorbed by some meld (any run can grow by one
place, any set of three by one), which never changes the signature (jokers do not enter it).

Every solve is deterministic: one worker, a fixed random seed and a deterministic time limit.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from copy import copy

from ortools.sat.python import cp_model

from rami.cards import NUM_TYPES
from rami.position import Position
from rami.puzzles.layoff_templates import add_layoffs, add_new_melds
from rami.puzzles.play_templates import add_run_templates, add_set_templates
from rami.signature import SetKey, Signature
from rami.solver.counts import CardCounts
from rami.solver.cpsat import Expr, Model, count_solver, puzzle_solver

#: Deterministic-time budget of one puzzle solve (about seconds of work on one core).
DEFAULT_LIMIT = 20.0


class UndecidedError(RuntimeError):
    """A solve hit its deterministic time limit: the question stays open (never guessed)."""


def make_solver(limit: float = DEFAULT_LIMIT) -> cp_model.CpSolver:
    """The puzzle questions' solver, as :func:`rami.solver.cpsat.puzzle_solver` sets it up."""
    return puzzle_solver(limit)


def positions_of(card_type: int, top_rank: int) -> tuple[int, ...]:
    rank = card_type % 13 + 1
    if rank == 1 and top_rank == 14:
        return (1, 14)
    return (rank,)


def _value(solver: cp_model.CpSolver, expr: Expr) -> int:
    return expr if isinstance(expr, int) else int(solver.value(expr))


#: :meth:`PlayModel.of`'s models, never solved or constrained, by position (the oldest goes).
_BUILT: dict[Position, PlayModel] = {}
BUILT_KEPT = 4


class PlayModel:
    """Every final table reachable in one turn (after opening), as template counts.

    ``sig_runs[(suit, position)]`` and ``sig_sets[(rank, suits)]`` are the signature as linear
    expressions; ``shed`` and ``played`` measure the play.
    """

    def __init__(self, position: Position) -> None:
        self.position = position
        rules = self.rules = position.rules
        supply = self.supply = CardCounts.of(position)
        avail = [supply.available(t) for t in range(NUM_TYPES)]
        model = self.model = Model()
        self.play: list[Expr] = [
            model.new_int_var(0, supply.hand[t], f"p{t}") if supply.hand[t] else 0
            for t in range(NUM_TYPES)
        ]
        self.play_jokers = model.new_int_var(0, supply.hand_jokers, "pj")
        joker_places: list[Expr] = []  # the jokers each template holds
        self.sig_runs = add_run_templates(model, avail, supply.jokers, rules.top_rank, joker_places)
        self.sig_sets, set_real = add_set_templates(model, avail, supply.jokers, joker_places)
        self._add_card_balance(set_real)
        if joker_places:
            model.add(sum(joker_places) <= supply.table_jokers + self.play_jokers)
        self.shed = (
            sum(rules.card_penalty(t % 13 + 1) * self.play[t] for t in range(NUM_TYPES))
            + rules.joker_penalty * self.play_jokers
        )
        self.played = sum(self.play) + self.play_jokers
        self.hand_size = len(position.hand)
        self._nogoods = 0

    def _add_card_balance(self, set_real: dict[int, list[Expr]]) -> None:
        """Every card type: the melds hold exactly the table's copies plus the ones played."""
        model, top = self.model, self.rules.top_rank
        for t in range(NUM_TYPES):
            suit = t // 13
            real = sum(set_real[t]) + sum(
                self.sig_runs[(suit, p)] for p in positions_of(t, top) if (suit, p) in self.sig_runs
            )
            demand = self.supply.table[t] + self.play[t]
            if isinstance(real, int) and isinstance(demand, int):
                if real != demand:
                    model.add_bool_or([])  # the table itself cannot be laid out: infeasible
                continue
            model.add(real == demand)

    @classmethod
    def of(cls, position: Position) -> PlayModel:
        """A new model of ``position``, the same as ``PlayModel(position)`` (the same proto,
        variable for variable and constraint for constraint, so every solve of it is the same),
        copied from one built before: a candidate's judging asks several questions of the
        position (cooked, near-solutions, every step of the greedy player), each a fresh model
        it then constrains. Building one took 1.5-2 ms of Python; copying it, ~0.05 ms."""
        base = _BUILT.get(position)
        if base is None:
            if len(_BUILT) >= BUILT_KEPT:
                _BUILT.pop(next(iter(_BUILT)))
            base = _BUILT[position] = cls(position)
        model = copy(base)
        model.model = base.model.clone()
        return model

    # -- goals -------------------------------------------------------------------------------

    def require_all_played(self) -> None:
        for t, var in enumerate(self.play):
            if not isinstance(var, int):
                self.model.add(var == self.supply.hand[t])
        self.model.add(self.play_jokers == self.supply.hand_jokers)

    def require_shed(self, shed: int) -> None:
        self.model.add(self.shed == shed)

    def require_played(self, count: int) -> None:
        self.model.add(self.played == count)

    # -- signatures --------------------------------------------------------------------------

    def _components(self) -> list[tuple[Expr, int, tuple[int, int] | SetKey]]:
        """(expression, kind, key) in a fixed order; kind 0 = run place, 1 = set key."""
        return [
            *((expr, 0, key) for key, expr in self.sig_runs.items()),
            *((expr, 1, key) for key, expr in self.sig_sets.items()),
        ]

    def signature_of(self, solver: cp_model.CpSolver) -> Signature:
        runs = {key: _value(solver, expr) for key, expr in self.sig_runs.items()}
        sets = Counter({key: _value(solver, expr) for key, expr in self.sig_sets.items()})
        return Signature.build({k: v for k, v in runs.items() if v}, +sets)

    def exclude(self, signature: Signature) -> None:
        """Add a no-good: the final table must not have this signature."""
        known_runs = set(self.sig_runs)
        for suit in range(4):
            for position in range(1, 15):
                if signature.run_count(suit, position) and (suit, position) not in known_runs:
                    return  # the model cannot reach this signature anyway
        wanted_sets = signature.set_counts()
        if any(key not in self.sig_sets for key in wanted_sets):
            return
        differs = []
        for key, expr in self.sig_runs.items():
            differs.append(self._differs(expr, signature.run_count(*key)))
        for set_key, expr in self.sig_sets.items():
            differs.append(self._differs(expr, wanted_sets.get(set_key, 0)))
        self.model.add_bool_or(differs)

    def _differs(self, expr: Expr, value: int) -> cp_model.IntVar:
        flag = self.model.new_bool_var(f"ng{self._nogoods}")
        self._nogoods += 1
        self.model.add(expr != value).only_enforce_if(flag)
        return flag

    # -- solving -----------------------------------------------------------------------------

    def find(self, limit: float = DEFAULT_LIMIT) -> Signature | None:
        """A signature satisfying every constraint so far, or None when there is none."""
        solver = count_solver(limit)
        status = solver.solve(self.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return self.signature_of(solver)
        if status == cp_model.INFEASIBLE:
            return None
        raise UndecidedError(f"signature search undecided (status {solver.status_name(status)})")

    def best_shed(self, limit: float = DEFAULT_LIMIT) -> int:
        self.model.maximize(self.shed)
        solver = make_solver(limit)
        status = solver.solve(self.model)
        self.model.clear_objective()  # type: ignore[no-untyped-call]  # untyped in OR-Tools
        if status != cp_model.OPTIMAL:
            raise UndecidedError(f"best shed undecided (status {solver.status_name(status)})")
        return round(solver.objective_value)


def count_signatures(
    model: PlayModel,
    *,
    limit: int,
    exclude: Sequence[Signature] = (),
    time_limit: float = DEFAULT_LIMIT,
) -> list[Signature]:
    """Distinct signatures of ``model``'s plays, up to ``limit`` of them (solve, exclude, again).

    ``exclude`` are excluded first and not counted.
    """
    for excluded in exclude:
        model.exclude(excluded)
    found: list[Signature] = []
    while len(found) < limit:
        signature = model.find(time_limit)
        if signature is None:
            break
        if signature in found or signature in exclude:  # pragma: no cover - a model bug
            raise AssertionError(f"no-good did not exclude {signature}")
        found.append(signature)
        model.exclude(signature)
    return found


# ---------------------------------------------------------------------------------- lay-offs


class LayoffModel:
    """The best play without touching table cards: lay-offs onto table melds and new melds.

    A lay-off adds hand cards (or hand jokers) to the ends of a table run or to a table set that
    misses that suit; new melds come from the hand alone (and may take lay-offs themselves,
    which is just a longer new meld).
    """

    def __init__(self, position: Position) -> None:
        rules = position.rules
        top = rules.top_rank
        supply = CardCounts.of(position)
        hand = supply.hand
        hand_jokers = supply.hand_jokers
        model = self.model = Model()
        self.play: list[Expr] = [
            model.new_int_var(0, hand[t], f"p{t}") if hand[t] else 0 for t in range(NUM_TYPES)
        ]
        self.play_jokers = model.new_int_var(0, hand_jokers, "pj")
        places: dict[tuple[int, int], list[Expr]] = defaultdict(list)
        set_real: dict[int, list[Expr]] = defaultdict(list)
        joker_uses: list[Expr] = []

        add_layoffs(model, position, hand, hand_jokers, places, set_real, joker_uses)
        add_new_melds(model, hand, hand_jokers, top, places, set_real, joker_uses)
        real_in_runs: dict[tuple[int, int], Expr] = {}
        for key, cover in sorted(places.items()):
            if hand_jokers:
                held = model.new_int_var(0, hand_jokers, f"jx{key[0]}_{key[1]}")
                model.add(held <= sum(cover))
                joker_uses.append(held)
                real_in_runs[key] = sum(cover) - held
            else:
                real_in_runs[key] = sum(cover)
        for t in range(NUM_TYPES):
            suit = t // 13
            in_runs = [
                real_in_runs[(suit, p)] for p in positions_of(t, top) if (suit, p) in real_in_runs
            ]
            if not in_runs and not set_real.get(t) and isinstance(self.play[t], int):
                continue  # 0 == 0: what the sums below find for most types, skipped faster
            real = sum(set_real[t]) + sum(in_runs)
            if isinstance(real, int) and isinstance(self.play[t], int):
                continue
            model.add(real == self.play[t])
        if joker_uses:
            model.add(sum(joker_uses) <= self.play_jokers)
        self.shed = (
            sum(rules.card_penalty(t % 13 + 1) * self.play[t] for t in range(NUM_TYPES))
            + rules.joker_penalty * self.play_jokers
        )
        self.played = sum(self.play) + self.play_jokers
        self.hand_size = len(position.hand)

    def best(self, limit: float = DEFAULT_LIMIT) -> tuple[int, int]:
        """(most penalty shed, cards played with it) without rearranging the table."""
        self.model.maximize(self.shed * (self.hand_size + 1) + self.played)
        solver = make_solver(limit)
        status = solver.solve(self.model)
        if status != cp_model.OPTIMAL:
            raise UndecidedError(f"lay-off play undecided (status {solver.status_name(status)})")
        return _value(solver, self.shed), _value(solver, self.played)


def layoff_best(position: Position, limit: float = DEFAULT_LIMIT) -> tuple[int, int]:
    """(most penalty shed, cards played) by new melds and lay-offs alone."""
    return LayoffModel(position).best(limit)
