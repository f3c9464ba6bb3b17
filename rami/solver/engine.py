"""The CP-SAT rearrangement solver (rami chinois, rummikub).

Model (NOTES.md): integer counts of meld templates over card *types*, jokers pooled as a count of
jokers standing for each type. Levels are solved in two stages: first the least penalty / most
cards (both folded into one exact integer objective, since the second level is bounded), then,
with that value fixed, the most table cards kept in place. Each original meld gets a "slot":
one final meld matched to it (any run of its suit or set of its rank holding at least one of its
real cards); kept cards are counted there, so maximising them equals the best one-to-one matching
of decision 7.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from rami.cards import JOKER, NUM_TYPES, Card
from rami.errors import SolverBugError, UnsupportedError
from rami.matching import match_melds
from rami.melds import Meld, MeldKind, stands_for
from rami.position import Position, hand_penalty
from rami.referee import validate_turn
from rami.rules import Ruleset, TableJoker
from rami.solver.api import Objective, Solution, Status
from rami.solver.explain import explain_moves, in_number_order
from rami.solver.realize import MeldSpec, realize
from rami.solver.templates import (
    Template,
    free_templates,
    run_template,
    run_windows,
    runs_containing,
    set_template,
    sets_containing,
)


@dataclass
class _Counts:
    table: list[int]
    hand: list[int]
    table_jokers: int
    hand_jokers: int

    @classmethod
    def of(cls, position: Position) -> _Counts:
        table = [0] * NUM_TYPES
        hand = [0] * NUM_TYPES
        table_counts = position.table_cards
        hand_counts = Counter(position.hand)
        for card, count in table_counts.items():
            if not card.is_joker:
                table[card.index] = count
        for card, count in hand_counts.items():
            if not card.is_joker:
                hand[card.index] = count
        return cls(table, hand, table_counts[JOKER], hand_counts[JOKER])

    @property
    def jokers(self) -> int:
        return self.table_jokers + self.hand_jokers

    def available(self, card_type: int) -> int:
        return self.table[card_type] + self.hand[card_type]


def _fits(template: Template, counts: _Counts, jokers: int) -> bool:
    missing = sum(1 for t in template.types if counts.available(t) == 0)
    return missing <= jokers


@dataclass
class _Slot:
    original: int
    real_types: tuple[int, ...]
    jokers: int
    candidates: list[Template]
    index: dict[tuple[MeldKind, tuple[int, ...]], int] = field(default_factory=dict)
    choose: list[cp_model.IntVar] = field(default_factory=list)
    keep_real: dict[int, cp_model.IntVar] = field(default_factory=dict)
    keep_joker: dict[int, cp_model.IntVar] = field(default_factory=dict)
    #: Places of the slot holding a real card (only tracked when jokers could fill a meld).
    real_at: dict[int, cp_model.IntVar] = field(default_factory=dict)


def _slot_candidates(meld: Meld, rules: Ruleset, counts: _Counts) -> list[Template]:
    real_types = sorted({card.index for card in meld.real_cards})
    found: dict[tuple[MeldKind, tuple[int, ...]], Template] = {}
    # Short windows rely on a shed tail holding a real card; 3+ jokers can make it all jokers.
    short = meld.jokers == 0 and counts.jokers < 3
    if meld.kind is MeldKind.RUN:
        ranks = stands_for(meld, rules)
        suit = meld.real_cards[0].index // 13
        options = run_windows(suit, ranks[0], ranks[-1], rules.top_rank, keeps_jokers=not short)
        for card_type in real_types:
            options += sets_containing(card_type)
            if card_type % 13 == 0:
                # The ace may end at the other end of its suit: A-2-3 from Q-K-A.
                options += runs_containing(card_type, rules.top_rank, short=short)
    else:
        options = []
        for card_type in real_types:
            options += sets_containing(card_type)
            options += runs_containing(card_type, rules.top_rank, short=short)
    if meld.jokers:
        # Its jokers alone may stay together in a meld that shares no real card with it.
        options += free_templates(rules.top_rank)
    for template in options:
        if _fits(template, counts, counts.jokers):
            found.setdefault((template.kind, template.types), template)
    return list(found.values())


class _Model:
    """One CP-SAT model of a turn; stage objectives are swapped on the same model."""

    def __init__(self, position: Position, *, with_slots: bool, opening: bool) -> None:
        self.position = position
        self.rules = position.rules
        self.counts = counts = _Counts.of(position)
        self.opening = opening
        model = self.model = cp_model.CpModel()
        jokers = counts.hand_jokers if opening else counts.jokers
        self.play = [
            model.new_int_var(0, counts.hand[t], f"p{t}") if counts.hand[t] else 0
            for t in range(NUM_TYPES)
        ]
        self.play_jokers = model.new_int_var(0, counts.hand_jokers, "pj")
        self.joker_for = [
            model.new_int_var(0, jokers, f"j{t}") if jokers else 0 for t in range(NUM_TYPES)
        ]
        supply = counts.hand if opening else [
            counts.table[t] + counts.hand[t] for t in range(NUM_TYPES)
        ]
        self.templates: list[Template] = []
        self.uses: list[cp_model.IntVar] = []
        self.use_bounds: list[int] = []
        self.pure: list[tuple[Template, cp_model.IntVar]] = []
        cover: list[list] = [[] for _ in range(NUM_TYPES)]
        for template in free_templates(self.rules.top_rank):
            missing = sum(1 for t in template.types if supply[t] == 0)
            if missing > jokers:
                continue
            bound = min(supply[t] + jokers for t in template.types)
            if bound == 0:
                continue
            var = model.new_int_var(0, bound, f"y{len(self.uses)}")
            self.use_bounds.append(bound)
            self.templates.append(template)
            self.uses.append(var)
            for t in template.types:
                cover[t].append(var)
        # With 3+ jokers a meld could be all jokers; stage 2 then tracks which places are real
        # (levels 1-2 need not: such jokers can always join melds with real cards, NOTES.md).
        self.exact_jokers = with_slots and counts.jokers >= 3
        self.real_cover: list[list] = [[] for _ in range(NUM_TYPES)]
        self.real_in: list[dict[int, cp_model.IntVar]] = []
        if self.exact_jokers:
            for number, (template, var) in enumerate(zip(self.templates, self.uses, strict=True)):
                places: dict[int, cp_model.IntVar] = {}
                bound = self.use_bounds[number]
                for t in template.types:
                    real = model.new_int_var(0, bound, f"ry{number}_{t}")
                    model.add(real <= var)
                    places[t] = real
                    self.real_cover[t].append(real)
                model.add(sum(places.values()) >= var)
                self.real_in.append(places)
        self.slots: list[_Slot] = []
        if with_slots:
            self._add_slots(cover)
        if self.exact_jokers:
            for t in range(NUM_TYPES):
                if self.real_cover[t] or counts.table[t] or counts.hand[t]:
                    model.add(sum(self.real_cover[t]) == counts.table[t] + self.play[t])
        self.open_now = None
        if opening:
            self._add_opening(cover)
        for t in range(NUM_TYPES):
            base = 0 if opening else counts.table[t]
            demand = base + self.play[t] + self.joker_for[t]
            if cover[t] or not isinstance(demand, int) or demand:
                model.add(sum(cover[t]) == demand)
        table_jokers = 0 if opening else counts.table_jokers
        model.add(sum(self.joker_for) == table_jokers + self.play_jokers)
        real_on_table = 0 if opening else sum(counts.table)
        if real_on_table == 0 and counts.hand_jokers:
            # Jokers alone make no meld: a meld needs a real card (RULES.md).
            model.add(self.play_jokers <= counts.hand_jokers * sum(self.play))
        self.shed = sum(
            self.rules.card_penalty(t % 13 + 1) * self.play[t] for t in range(NUM_TYPES)
        ) + self.rules.joker_penalty * self.play_jokers
        self.played = sum(self.play) + self.play_jokers
        hand_size = len(position.hand)
        hand_points = sum(self.rules.card_penalty(card.rank) for card in position.hand)
        self.max_played = hand_size
        self.max_shed = hand_points

    def _add_opening(self, cover: list[list]) -> None:
        model = self.model
        self.open_now = model.new_bool_var("open")
        total = sum(self.uses)
        if self.rules.opening_pure_run:
            pure_cover: list[list] = [[] for _ in range(NUM_TYPES)]
            for template in free_templates(self.rules.top_rank):
                if template.kind is not MeldKind.RUN:
                    continue
                if any(self.counts.hand[t] == 0 for t in template.types):
                    continue
                var = model.new_int_var(0, 2, f"pure{len(self.pure)}")
                self.pure.append((template, var))
                for t in template.types:
                    cover[t].append(var)
                    pure_cover[t].append(var)
            for t in range(NUM_TYPES):
                if pure_cover[t]:
                    model.add(sum(pure_cover[t]) <= self.play[t])
            pure_total = sum(var for _, var in self.pure)
            model.add(pure_total >= self.open_now)
            total = total + pure_total
        if self.rules.opening_points:
            points = sum(
                _template_points(template, self.rules) * var
                for template, var in zip(self.templates, self.uses, strict=True)
            ) + sum(_template_points(template, self.rules) * var for template, var in self.pure)
            model.add(points >= self.rules.opening_points * self.open_now)
        if self.rules.opening_any_meld:
            model.add(total >= self.open_now)
        model.add(total <= len(self.position.hand) * self.open_now)

    def _add_slots(self, cover: list[list]) -> None:
        model = self.model
        counts = self.counts
        keep_real_by_type: list[list] = [[] for _ in range(NUM_TYPES)]
        keep_joker_by_type: list[list] = [[] for _ in range(NUM_TYPES)]
        for index, meld in enumerate(self.position.table):
            slot = _Slot(
                original=index,
                real_types=tuple(sorted({card.index for card in meld.real_cards})),
                jokers=meld.jokers,
                candidates=_slot_candidates(meld, self.rules, counts),
            )
            slot.index = {(t.kind, t.types): n for n, t in enumerate(slot.candidates)}
            slot_cover: dict[int, list] = {}
            for number, template in enumerate(slot.candidates):
                var = model.new_bool_var(f"x{index}_{number}")
                slot.choose.append(var)
                for t in template.types:
                    cover[t].append(var)
                    slot_cover.setdefault(t, []).append(var)
            if not slot.choose:
                self.slots.append(slot)
                continue
            used = sum(slot.choose)
            model.add(used <= 1)
            for t in slot.real_types:
                if t not in slot_cover:
                    continue
                keep = model.new_bool_var(f"k{index}_{t}")
                slot.keep_real[t] = keep
                keep_real_by_type[t].append(keep)
            if slot.jokers:
                for t in sorted(slot_cover):
                    keep = model.new_bool_var(f"kj{index}_{t}")
                    slot.keep_joker[t] = keep
                    keep_joker_by_type[t].append(keep)
                model.add(sum(slot.keep_joker.values()) <= slot.jokers)
            # A matched meld keeps at least one card of its original: else it is a free meld.
            kept_here = sum(slot.keep_real.values()) + sum(slot.keep_joker.values())
            if isinstance(kept_here, int):
                model.add(used == 0)
            else:
                model.add(kept_here >= used)
            for t, vars_covering in slot_cover.items():
                here = sum(vars_covering)
                kept = 0
                if t in slot.keep_real:
                    kept = kept + slot.keep_real[t]
                if t in slot.keep_joker:
                    kept = kept + slot.keep_joker[t]
                if self.exact_jokers:
                    real = model.new_bool_var(f"r{index}_{t}")
                    slot.real_at[t] = real
                    self.real_cover[t].append(real)
                    model.add(real <= here)
                    if t in slot.keep_real:
                        model.add(slot.keep_real[t] <= real)
                    if t in slot.keep_joker:
                        model.add(slot.keep_joker[t] + real <= here)
                elif not isinstance(kept, int):
                    model.add(kept <= here)
            if self.exact_jokers:
                model.add(sum(slot.real_at.values()) >= used)
            self.slots.append(slot)
        self._keep_real_by_type = keep_real_by_type
        self._keep_joker_by_type = keep_joker_by_type
        for t in range(NUM_TYPES):
            if keep_real_by_type[t]:
                model.add(sum(keep_real_by_type[t]) <= counts.table[t] + self.play[t])
            if keep_joker_by_type[t]:
                model.add(sum(keep_joker_by_type[t]) <= self.joker_for[t])
        self.kept = sum(
            sum(slot.keep_real.values()) + sum(slot.keep_joker.values()) for slot in self.slots
        )

    def play_objective(self, objective: Objective):
        if objective is Objective.POINTS:
            return self.shed * (self.max_played + 1) + self.played
        return self.played * (self.max_shed + 1) + self.shed


def _template_points(template: Template, rules: Ruleset) -> int:
    if template.kind is MeldKind.SET:
        rank = template.rank
        value = rules.opening_value(14 if rank == 1 and not rules.tiles else rank)
        return len(template.types) * value
    return sum(rules.opening_value(p) for p in template.positions)


def _solver(deterministic_limit: float) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = 0
    params.max_deterministic_time = deterministic_limit
    # A wall-clock backstop only: the deterministic limit is what keeps answers reproducible.
    params.max_time_in_seconds = 3 * deterministic_limit + 5
    params.linearization_level = 2
    params.cp_model_presolve = False
    return solver


def _value(solver: cp_model.CpSolver, expr) -> int:
    return expr if isinstance(expr, int) else int(solver.value(expr))


def _decode(model: _Model, solver: cp_model.CpSolver) -> _Decoded:
    specs: list[MeldSpec] = []
    for template, var in model.pure:
        specs.extend(MeldSpec(template, pure=True) for _ in range(_value(solver, var)))
    for number, (template, var) in enumerate(zip(model.templates, model.uses, strict=True)):
        copies = _value(solver, var)
        if not copies:
            continue
        if not model.exact_jokers:
            specs.extend(MeldSpec(template) for _ in range(copies))
            continue
        # Deal each type's real cards round the copies in turn: every copy gets one.
        real_sets: list[set[int]] = [set() for _ in range(copies)]
        turn = 0
        for t, real in model.real_in[number].items():
            for _ in range(_value(solver, real)):
                real_sets[turn % copies].add(t)
                turn += 1
        specs.extend(MeldSpec(template, real_places=frozenset(real)) for real in real_sets)
    for slot in model.slots:
        for template, var in zip(slot.candidates, slot.choose, strict=True):
            if _value(solver, var):
                real_places = (
                    frozenset(t for t, v in slot.real_at.items() if _value(solver, v))
                    if model.exact_jokers else None
                )
                specs.append(MeldSpec(
                    template,
                    original=slot.original,
                    real_places=real_places,
                    keep_real=frozenset(t for t, v in slot.keep_real.items() if _value(solver, v)),
                    keep_joker=frozenset(
                        t for t, v in slot.keep_joker.items() if _value(solver, v)
                    ),
                ))
    played: Counter[Card] = Counter()
    for t in range(NUM_TYPES):
        count = _value(solver, model.play[t])
        if count:
            played[Card(t)] = count
    jokers = _value(solver, model.play_jokers)
    if jokers:
        played[JOKER] = jokers
    joker_for = Counter({t: _value(solver, model.joker_for[t]) for t in range(NUM_TYPES)})
    return _Decoded(specs, played, +joker_for)


def _check_supported(position: Position) -> None:
    rules = position.rules
    if not rules.rearrangement or rules.discard:
        raise UnsupportedError(
            f"turn solving for {rules.name} (no rearrangement or a discard) is not implemented "
            "yet; supported: rami-chinois, rummikub"
        )
    if rules.table_joker is not TableJoker.FREE:
        raise UnsupportedError(f"the joker rule of {rules.name} is not implemented in the solver")
    if rules.open_and_rearrange_same_turn and not position.opened:
        raise UnsupportedError(
            "opening and rearranging in the same turn (decision 1 flag) is not solved yet"
        )


def solve_position(
    position: Position, objective: Objective, *, min_moves: bool, time_limit: float
) -> Solution:
    _check_supported(position)
    clock = _Clock()
    opening = not position.opened
    # Stage 1 (penalty and cards, one exact objective) runs on the lean model without slots.
    model = _Model(position, with_slots=False, opening=opening)
    solver = _solver(time_limit)
    play_value = model.play_objective(objective)
    model.model.maximize(play_value)
    clock.lap("build_ms")
    status = solver.solve(model.model)
    clock.lap("search_ms")
    bounds: dict[str, int] = {}
    if status == cp_model.OPTIMAL:
        proved = True
    elif status == cp_model.FEASIBLE:
        proved = False
        bounds["play_objective"] = int(solver.best_objective_bound)
    else:
        return _no_play(position, objective, min_moves, "no play found within the time limit")
    decoded = _decode(model, solver)
    if not decoded.played:
        return _no_play(position, objective, min_moves, _why_nothing(position), proved, bounds)
    table = _realize(position, decoded, opening)
    if not (min_moves and not opening and proved):
        return clock.stamp(
            _finish(position, objective, min_moves, table, decoded.played, proved, bounds)
        )
    # Stage 2: the same play value, the most table cards kept in the meld matched to their own.
    best_play = round(solver.objective_value)
    keeper = _Model(position, with_slots=True, opening=False)
    keeper.model.add(keeper.play_objective(objective) == best_play)
    keeper.model.maximize(keeper.kept)
    _hint_from_table(keeper, position, table, decoded.played)
    clock.lap("build_ms")
    stage2 = solver.solve(keeper.model)
    clock.lap("search_ms")
    total = sum(len(meld) for meld in position.table)
    if stage2 == cp_model.OPTIMAL:
        expected_moved: int | None = total - round(solver.objective_value)
    elif stage2 == cp_model.FEASIBLE:
        proved = False
        expected_moved = None
        bounds["cards_moved_at_least"] = total - int(solver.best_objective_bound)
    else:
        raise SolverBugError(f"stage 2 lost the stage 1 solution (status {stage2})")
    decoded = _decode(keeper, solver)
    table = _realize(position, decoded, opening)
    return clock.stamp(_finish(
        position, objective, min_moves, table, decoded.played, proved, bounds, expected_moved
    ))


class _Clock:
    """Splits a solve's time into model building, CP-SAT search and the rest."""

    def __init__(self) -> None:
        self.timings = {"build_ms": 0.0, "search_ms": 0.0, "finish_ms": 0.0}
        self.last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.timings[name] += (now - self.last) * 1000
        self.last = now

    def stamp(self, solution: Solution) -> Solution:
        self.lap("finish_ms")
        return replace(solution, timings={k: round(v, 3) for k, v in self.timings.items()})


@dataclass
class _Decoded:
    specs: list[MeldSpec]
    played: Counter[Card]
    joker_for: Counter[int]


def _realize(position: Position, decoded: _Decoded, opening: bool) -> list[Meld]:
    real = Counter({card: n for card, n in decoded.played.items() if not card.is_joker})
    if opening:
        return list(position.table) + realize(
            decoded.specs, real, decoded.joker_for, position.rules, ()
        )
    real += Counter({card: n for card, n in position.table_cards.items() if not card.is_joker})
    return realize(decoded.specs, real, decoded.joker_for, position.rules, position.table)


def _template_of(meld: Meld, rules: Ruleset) -> Template:
    """The template a realised meld covers (set jokers stand for the first missing suits)."""
    if meld.kind is MeldKind.RUN:
        ranks = stands_for(meld, rules)
        suit = meld.real_cards[0].index // 13
        return run_template(suit, ranks[0], ranks[-1])
    rank = meld.real_cards[0].rank
    suits = sorted(card.index // 13 for card in meld.real_cards)
    spare = [suit for suit in range(4) if suit not in suits]
    return set_template(rank, tuple(sorted(suits + spare[: meld.jokers])))


def _joker_types(meld: Meld, template: Template) -> list[int]:
    if meld.kind is MeldKind.RUN:
        return [t for t, card in zip(template.types, meld.cards, strict=True) if card.is_joker]
    real = {card.index for card in meld.real_cards}
    return [t for t in template.types if t not in real]


def _free_pieces(template: Template) -> list[Template]:
    if template.kind is MeldKind.SET or len(template.types) <= 5:
        return [template]
    pieces = []
    low, high = template.positions[0], template.positions[-1]
    while high - low + 1 > 5:
        pieces.append(run_template(template.suit, low, low + 2))
        low += 3
    pieces.append(run_template(template.suit, low, high))
    return pieces


def _hint_from_table(
    model: _Model, position: Position, table: list[Meld], played: Counter[Card]
) -> None:
    """Hint stage 2 with stage 1's table, each meld kept in the slot of its best match."""
    rules = position.rules
    matched = match_melds(position.table, table)
    owner = {target: index for index, target in enumerate(matched) if target >= 0}
    free_index = {(t.kind, t.types): n for n, t in enumerate(model.templates)}
    free_count = [0] * len(model.templates)
    joker_for = [0] * NUM_TYPES
    hints: list[tuple[cp_model.IntVar, int]] = []
    chosen: dict[int, tuple[Template, Meld]] = {}
    for index, meld in enumerate(table):
        template = _template_of(meld, rules)
        for t in _joker_types(meld, template):
            joker_for[t] += 1
        slot = model.slots[owner[index]] if index in owner else None
        if slot is not None and (template.kind, template.types) in slot.index:
            chosen[slot.original] = (template, meld)
            continue
        for piece in _free_pieces(template):
            key = (piece.kind, piece.types)
            if key not in free_index:
                return
            free_count[free_index[key]] += 1
    for slot in model.slots:
        pick = chosen.get(slot.original)
        picked_number = slot.index[(pick[0].kind, pick[0].types)] if pick else -1
        for number, var in enumerate(slot.choose):
            hints.append((var, int(number == picked_number)))
        real_there = {card.index for card in pick[1].real_cards} if pick else set()
        jokers_there = _joker_types(pick[1], pick[0]) if pick else []
        for t, var in slot.keep_real.items():
            hints.append((var, int(t in real_there)))
        kept_jokers = set(jokers_there[: slot.jokers])
        for t, var in slot.keep_joker.items():
            hints.append((var, int(t in kept_jokers)))
    hints += list(zip(model.uses, free_count, strict=True))
    hints += [(v, joker_for[t]) for t, v in enumerate(model.joker_for) if not isinstance(v, int)]
    hints += [
        (v, played[Card(t)]) for t, v in enumerate(model.play) if not isinstance(v, int)
    ]
    hints.append((model.play_jokers, played[JOKER]))
    for var, value in hints:
        model.model.add_hint(var, value)


def _finish(
    position: Position,
    objective: Objective,
    min_moves: bool,
    table: list[Meld],
    played: Counter[Card],
    proved: bool,
    bounds: dict[str, int],
    expected_moved: int | None = None,
) -> Solution:
    rules = position.rules
    played_cards = tuple(sorted(played.elements()))
    table = in_number_order(position.table, table)
    verdict = validate_turn(position, table, played_cards)
    if not verdict.legal:
        raise SolverBugError(
            f"the referee rejects the solver's answer for {position}: {'; '.join(verdict.problems)}"
            f" (table {' | '.join(map(str, table))})"
        )
    status = Status.OPTIMAL if proved else Status.FEASIBLE
    if expected_moved is not None and verdict.cards_moved != expected_moved:
        # The model's count and the exact matching disagree: never claim a proof then.
        status = Status.FEASIBLE
        bounds["cards_moved_model"] = expected_moved
    moves = explain_moves(position.table, table, played_cards)
    return Solution(
        status=status,
        position=position,
        table=tuple(table),
        played=played_cards,
        hand=verdict.hand_after,
        penalty_before=hand_penalty(position.hand, rules, position.opened),
        penalty_after=verdict.penalty_after,
        cards_moved=verdict.cards_moved,
        moves=moves,
        opened=verdict.opened_after,
        objective=objective,
        min_moves=min_moves,
        bounds=bounds,
        message=_summary(position, played_cards, verdict.penalty_after),
    )


def _summary(position: Position, played: tuple[Card, ...], penalty_after: int) -> str:
    if len(played) == len(position.hand):
        return f"all {len(played)} cards played"
    return f"{len(played)} of {len(position.hand)} cards played, {penalty_after} points left"


def _why_nothing(position: Position) -> str:
    if not position.hand:
        return "the hand is empty"
    if not position.opened:
        if position.rules.opening_pure_run:
            return "no opening possible: the hand holds no pure run (3+ in a row, no joker)"
        if position.rules.opening_points:
            return (
                f"no opening possible: the hand cannot make {position.rules.opening_points} "
                "points of melds"
            )
    return "no card of the hand can be played"


def _no_play(
    position: Position,
    objective: Objective,
    min_moves: bool,
    message: str,
    proved: bool = False,
    bounds: dict[str, int] | None = None,
) -> Solution:
    penalty = hand_penalty(position.hand, position.rules, position.opened)
    return Solution(
        status=Status.OPTIMAL if proved else Status.FEASIBLE,
        position=position,
        table=position.table,
        played=(),
        hand=position.hand,
        penalty_before=penalty,
        penalty_after=penalty,
        cards_moved=0,
        moves=(),
        opened=position.opened,
        objective=objective,
        min_moves=min_moves,
        bounds=dict(bounds or {}),
        message=message,
    )
