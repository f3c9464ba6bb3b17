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
from rami.matching import cards_kept, cards_moved, match_melds
from rami.melds import Meld, MeldKind, stands_for
from rami.position import Position, hand_penalty
from rami.rules import Ruleset, TableJoker
from rami.solver.api import Objective, Solution, Status, honest_status, refereed
from rami.solver.counts import CardCounts
from rami.solver.explain import explain_moves, in_number_order
from rami.solver.playmodel import PlayVariables, play_model_for
from rami.solver.realize import MeldSpec, realize
from rami.solver.templates import (
    Template,
    free_templates,
    run_template,
    set_template,
    sets_containing,
    type_at,
)


def _fits(template: Template, counts: CardCounts, jokers: int) -> bool:
    missing = sum(1 for t in template.types if counts.available(t) == 0)
    return missing <= jokers


class _Lane:
    """A run of one suit matched to an original meld, as an interval of positions.

    ``cover[p]`` says the run holds position p; ``start[p]`` that it begins there. Cheaper for
    CP-SAT than one boolean per possible run (NOTES.md: the LP is what proves optimality).
    """

    def __init__(self, model: cp_model.CpModel, name: str, suit: int, low: int, high: int):
        self.suit, self.low, self.high = suit, low, high
        self.used = model.new_bool_var(f"{name}u")
        self.cover = {p: model.new_bool_var(f"{name}a{p}") for p in range(low, high + 1)}
        self.start = {p: model.new_bool_var(f"{name}s{p}") for p in range(low, high + 1)}
        model.add(sum(self.start.values()) == self.used)
        for p in range(low, high + 1):
            model.add(self.start[p] <= self.cover[p])
            if p == low:
                model.add(self.cover[p] <= self.start[p])
            else:
                model.add(self.cover[p] <= self.cover[p - 1] + self.start[p])
        model.add(sum(self.cover.values()) >= 3 * self.used)
        if low == 1 and high == 14:
            model.add(self.cover[1] + self.cover[14] <= 1)

    def template(self, values) -> Template | None:
        held = [p for p, var in self.cover.items() if _value(values, var)]
        return run_template(self.suit, held[0], held[-1]) if held else None

    def hint(self, template: Template | None) -> list[tuple[cp_model.IntVar, int]]:
        low, high = (template.positions[0], template.positions[-1]) if template else (0, -1)
        hints = [(self.used, int(template is not None))]
        hints += [(var, int(low <= p <= high)) for p, var in self.cover.items()]
        hints += [(var, int(p == low)) for p, var in self.start.items()]
        return hints


@dataclass
class _Slot:
    original: int
    real_types: tuple[int, ...]
    jokers: int
    lanes: list[_Lane] = field(default_factory=list)
    sets: list[tuple[Template, cp_model.IntVar]] = field(default_factory=list)
    keep_real: dict[int, cp_model.IntVar] = field(default_factory=dict)
    keep_joker: dict[int, cp_model.IntVar] = field(default_factory=dict)
    #: Places of the slot holding a real card (only tracked when jokers could fill a meld).
    real_at: dict[int, cp_model.IntVar] = field(default_factory=dict)
    #: In the relaxation: how many of its jokers stay together away from its real cards.
    alone: cp_model.IntVar | None = None

    @property
    def used(self):
        return sum(lane.used for lane in self.lanes) + sum(var for _, var in self.sets)

    def chosen(self, values) -> Template | None:
        for lane in self.lanes:
            if _value(values, lane.used):
                return lane.template(values)
        for template, var in self.sets:
            if _value(values, var):
                return template
        return None

    def hint(self, template: Template | None) -> list[tuple[cp_model.IntVar, int]]:
        """Hints choosing ``template``; None when the slot cannot hold it."""
        hints: list[tuple[cp_model.IntVar, int]] = []
        placed = template is None
        for lane in self.lanes:
            fits = (
                not placed and template.kind is MeldKind.RUN and template.suit == lane.suit
                and lane.low <= template.positions[0] and template.positions[-1] <= lane.high
            )
            hints += lane.hint(template if fits else None)
            placed = placed or fits
        for candidate, var in self.sets:
            fits = not placed and candidate == template
            hints.append((var, int(fits)))
            placed = placed or fits
        return hints if placed else []


def _slot_options(
    meld: Meld, rules: Ruleset, counts: CardCounts, relaxed: bool
) -> tuple[list[tuple[int, int, int]], list[Template]]:
    """Runs (as lanes: suit and position range) and other melds that may be matched to ``meld``.

    A run keeping real cards within [a, b] need reach no more than 4 past them: a longer tail
    of 3+ cards can leave as a run of its own. That tail may be all jokers, which only the
    ``relaxed`` model (an upper bound on cards kept) allows, so with 3+ jokers about the exact
    model gets the whole suit; so does a meld with jokers, whose kept jokers may stand anywhere,
    and one with an ace, which may move to the other end of its suit.
    """
    top = rules.top_rank
    short = meld.jokers == 0 and (relaxed or counts.jokers < 3)
    real_types = sorted({card.index for card in meld.real_cards})
    has_ace = any(t % 13 == 0 for t in real_types)
    lanes: list[tuple[int, int, int]] = []
    if meld.kind is MeldKind.RUN:
        ranks = stands_for(meld, rules)
        suit = real_types[0] // 13
        if short and not has_ace:
            lanes.append((suit, max(1, ranks[0] - 4), min(top, ranks[-1] + 4)))
        else:
            lanes.append((suit, 1, top))
    else:
        rank = meld.real_cards[0].rank
        for t in real_types:
            if short and rank != 1:
                lanes.append((t // 13, max(1, rank - 4), min(top, rank + 4)))
            else:
                lanes.append((t // 13, 1, top))
    lanes = [_trim_lane(lane, meld, rules, counts) for lane in lanes]
    options: list[Template] = []
    for t in real_types:
        options += sets_containing(t)
    if meld.jokers and not relaxed:
        # Its jokers alone may stay together in a meld that shares no real card with it.
        options += free_templates(top)
    found: dict[tuple[MeldKind, tuple[int, ...]], Template] = {}
    for template in options:
        if _fits(template, counts, counts.jokers):
            found.setdefault((template.kind, template.types), template)
    return [lane for lane in lanes if lane[2] - lane[1] >= 2], list(found.values())


def _trim_lane(
    lane: tuple[int, int, int], meld: Meld, rules: Ruleset, counts: CardCounts
) -> tuple[int, int, int]:
    """Without jokers a run cannot cross a card that is nowhere: cut the lane there."""
    suit, low, high = lane
    if counts.jokers:
        return lane
    present = [counts.available(type_at(suit, p)) > 0 for p in range(low, high + 1)]
    keep = {card.index for card in meld.real_cards if card.index // 13 == suit}
    anchors = [p for p in range(low, high + 1) if type_at(suit, p) in keep]
    if not anchors:
        return (suit, low, low)
    first = last = anchors[0]
    while first > low and present[first - 1 - low]:
        first -= 1
    last = max(anchors)
    while last < high and present[last + 1 - low]:
        last += 1
    return (suit, first, last)


class _Model:
    """A CP-SAT model built for one position: the opening turn, or stage 2 with its slots.

    (Stage 1 of an opened player runs on the prebuilt model of ``playmodel``.)
    """

    def __init__(
        self, position: Position, *, with_slots: bool, opening: bool, relaxed: bool = False
    ) -> None:
        self.relaxed = relaxed
        self.position = position
        self.rules = position.rules
        self.counts = counts = CardCounts.of(position)
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
        self.exact_jokers = with_slots and not relaxed and counts.jokers >= 3
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
            )
            lanes, sets = _slot_options(meld, self.rules, counts, self.relaxed)
            slot_cover: dict[int, list] = {}
            for number, (suit, low, high) in enumerate(lanes):
                lane = _Lane(model, f"l{index}_{number}", suit, low, high)
                slot.lanes.append(lane)
                for p, var in lane.cover.items():
                    t = type_at(suit, p)
                    cover[t].append(var)
                    slot_cover.setdefault(t, []).append(var)
            for number, template in enumerate(sets):
                var = model.new_bool_var(f"x{index}_{number}")
                slot.sets.append((template, var))
                for t in template.types:
                    cover[t].append(var)
                    slot_cover.setdefault(t, []).append(var)
            if not slot.lanes and not slot.sets:
                self.slots.append(slot)
                continue
            used = slot.used
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
        for t in range(NUM_TYPES):
            if keep_real_by_type[t]:
                model.add(sum(keep_real_by_type[t]) <= counts.table[t] + self.play[t])
            if keep_joker_by_type[t]:
                model.add(sum(keep_joker_by_type[t]) <= self.joker_for[t])
        self.kept = sum(
            sum(slot.keep_real.values()) + sum(slot.keep_joker.values()) for slot in self.slots
        )
        if self.relaxed:
            # A meld's jokers may stay together where none of its real cards is: counted, not
            # placed (any table realising it is checked against the exact matching).
            alone = []
            for slot in self.slots:
                if not slot.jokers:
                    continue
                var = model.new_int_var(0, slot.jokers, f"o{slot.original}")
                model.add(var <= slot.jokers * (1 - slot.used))
                slot.alone = var
                alone.append(var)
            if alone:
                kept_jokers = [v for slot in self.slots for v in slot.keep_joker.values()]
                model.add(sum(alone) + sum(kept_jokers) <= sum(self.joker_for))
                self.kept = self.kept + sum(alone)

    def nothing_moves(self) -> cp_model.IntVar:
        """A switch, on at first, that makes every table card stay in its own meld."""
        switch = self.model.new_int_var(1, 1, "untouched")
        for slot in self.slots:
            for keep in slot.keep_real.values():
                self.model.add(keep >= switch)
            if slot.jokers:
                self.model.add(sum(slot.keep_joker.values()) >= slot.jokers * switch)
            if len(slot.keep_real) < len(slot.real_types):
                self.model.add(switch == 0)
        return switch

    def play_objective(self, objective: Objective):
        weights, joker_weight = play_weights(self.position, objective)
        return sum(
            weight * var for weight, var in zip(weights, self.play, strict=True) if weight
        ) + joker_weight * self.play_jokers


def play_weights(position: Position, objective: Objective) -> tuple[list[int], int]:
    """Weights per card type (and per joker) whose weighted sum of cards played orders plays
    exactly as the first two levels do: the second level is bounded, so it cannot outweigh
    one unit of the first."""
    rules = position.rules
    penalty = [rules.card_penalty(t % 13 + 1) for t in range(NUM_TYPES)]
    if objective is Objective.POINTS:
        scale = len(position.hand) + 1
        return [p * scale + 1 for p in penalty], rules.joker_penalty * scale + 1
    scale = sum(rules.card_penalty(card.rank) for card in position.hand) + 1
    return [scale + p for p in penalty], scale + rules.joker_penalty


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
    # Measured on seeded tables of 20-90 cards (docs/benchmarks.md): presolve costs more than
    # it saves on these small models, and the LP relaxation at level 1 with no extra cuts,
    # symmetry or probing gave the lowest medians and tails for both stages.
    params.cp_model_presolve = False
    params.linearization_level = 1
    params.add_cg_cuts = False
    params.add_mir_cuts = False
    params.add_zero_half_cuts = False
    params.add_clique_cuts = False
    params.symmetry_level = 0
    params.cp_model_probing_level = 0
    return solver


def _value(values, expr) -> int:
    """Value of a variable (or constant) in a solution read once as a list."""
    return expr if isinstance(expr, int) else int(values[expr.index])


def _decode(model: _Model | PlayVariables, solver: cp_model.CpSolver) -> _Decoded:
    values = list(solver.response_proto.solution)
    specs: list[MeldSpec] = []
    for template, var in model.pure:
        specs.extend(MeldSpec(template, pure=True) for _ in range(_value(values, var)))
    for number, (template, var) in enumerate(zip(model.templates, model.uses, strict=True)):
        copies = _value(values, var)
        if not copies:
            continue
        if not model.exact_jokers:
            specs.extend(MeldSpec(template) for _ in range(copies))
            continue
        # Deal each type's real cards round the copies in turn: every copy gets one.
        real_sets: list[set[int]] = [set() for _ in range(copies)]
        turn = 0
        for t, real in model.real_in[number].items():
            for _ in range(_value(values, real)):
                real_sets[turn % copies].add(t)
                turn += 1
        specs.extend(MeldSpec(template, real_places=frozenset(real)) for real in real_sets)
    for slot in model.slots:
        template = slot.chosen(values)
        if template is None:
            continue
        real_places = (
            frozenset(t for t, v in slot.real_at.items() if _value(values, v))
            if model.exact_jokers else None
        )
        specs.append(MeldSpec(
            template,
            original=slot.original,
            real_places=real_places,
            keep_real=frozenset(t for t, v in slot.keep_real.items() if _value(values, v)),
            keep_joker=frozenset(t for t, v in slot.keep_joker.items() if _value(values, v)),
        ))
    played: Counter[Card] = Counter()
    for t in range(NUM_TYPES):
        count = _value(values, model.play[t])
        if count:
            played[Card(t)] = count
    jokers = _value(values, model.play_jokers)
    if jokers:
        played[JOKER] = jokers
    joker_for = Counter({t: _value(values, model.joker_for[t]) for t in range(NUM_TYPES)})
    return _Decoded(specs, played, +joker_for)


def _check_supported(position: Position) -> None:
    rules = position.rules
    if rules.table_joker is not TableJoker.FREE or rules.discard:
        raise UnsupportedError(
            f"turn solving for {rules.name} (jokers pinned to their meld, a discard to end the "
            "turn) is not implemented; solved: rami-chinois, rummikub, rami-51, bfmania-51, "
            "bfmania-30, cafe-rummy"
        )
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
    # Stage 1 (penalty and cards, one exact objective) runs on the lean model without slots,
    # prebuilt and re-bounded for an opened player.
    solver = _solver(time_limit)
    if opening:
        model = _Model(position, with_slots=False, opening=True)
        model.model.maximize(model.play_objective(objective))
    else:
        model = play_model_for(position.rules).load(position, *play_weights(position, objective))
    clock.lap("build_ms")
    status = solver.solve(model.model)
    clock.lap("search_ms", solver)
    bounds: dict[str, int] = {}
    if status == cp_model.OPTIMAL:
        proved = True
    elif status == cp_model.FEASIBLE:
        proved = False
        bounds.update(_play_bounds(position, objective, int(solver.best_objective_bound)))
    else:
        return clock.stamp(
            _no_play(position, objective, min_moves, "no play found within the time limit")
        )
    decoded = _decode(model, solver)
    if not decoded.played:
        return clock.stamp(
            _no_play(position, objective, min_moves, _why_nothing(position), proved, bounds)
        )
    table = _realize(position, decoded, opening)
    if not (min_moves and not opening and proved):
        return clock.stamp(
            _finish(position, objective, min_moves, table, decoded.played, proved, bounds)
        )
    # Stage 2: the same play value, the most table cards kept in the meld matched to their own.
    # A relaxation first (jokers may fill a meld alone): when a table realises its bound, the
    # bound is the optimum; otherwise the exact model, hinted with what the relaxation found.
    best_play = round(solver.objective_value)
    total = sum(len(meld) for meld in position.table)
    expected_moved: int | None = None
    for relaxed in (True, False):
        budget = max(time_limit - solver.response_proto.deterministic_time, 0.05)
        solver = _solver(budget)
        keeper = _Model(position, with_slots=True, opening=False, relaxed=relaxed)
        keeper.model.add(keeper.play_objective(objective) == best_play)
        keeper.model.maximize(keeper.kept)
        if relaxed:
            # Most turns move nothing: asking for exactly that first is far quicker than
            # letting the search climb there.
            untouched = keeper.nothing_moves()
            clock.lap("build_ms")
            if solver.solve(keeper.model) == cp_model.OPTIMAL:
                clock.lap("search_ms", solver)
                candidate = _realize_relaxed(position, _decode(keeper, solver))
                if candidate is not None and cards_moved(position.table, candidate) == 0:
                    table, expected_moved = candidate, 0
                    break
            clock.lap("search_ms", solver)
            domain = keeper.model.proto.variables[untouched.index].domain
            domain[0] = domain[1] = 0
        _hint_from_table(keeper, position, table, decoded.played)
        clock.lap("build_ms")
        stage2 = solver.solve(keeper.model)
        clock.lap("search_ms", solver)
        if stage2 not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if stage2 == cp_model.UNKNOWN:
                proved = False
                break
            raise SolverBugError(f"stage 2 lost the stage 1 solution (status {stage2})")
        decoded_keep = _decode(keeper, solver)
        candidate = (
            _realize_relaxed(position, decoded_keep) if relaxed
            else _realize(position, decoded_keep, opening)
        )
        if candidate is not None and (
            cards_kept(position.table, candidate) >= cards_kept(position.table, table)
        ):
            table = candidate
        bound = total - int(solver.best_objective_bound)
        if stage2 == cp_model.OPTIMAL and cards_moved(position.table, table) == bound:
            expected_moved = bound
            break
        if stage2 == cp_model.FEASIBLE or not relaxed:
            proved = False
            bounds["cards_moved_at_least"] = max(0, bound)
            break
    played = Counter(card for meld in table for card in meld.cards) - position.table_cards
    return clock.stamp(_finish(
        position, objective, min_moves, table, played, proved, bounds, expected_moved
    ))


class _Clock:
    """Splits a solve's time into model building, CP-SAT search and the rest."""

    def __init__(self) -> None:
        self.timings = {"build_ms": 0.0, "search_ms": 0.0, "finish_ms": 0.0, "search_dtime": 0.0}
        self.last = time.perf_counter()

    def lap(self, name: str, solver: cp_model.CpSolver | None = None) -> None:
        now = time.perf_counter()
        self.timings[name] += (now - self.last) * 1000
        self.last = now
        if solver is not None:
            # CP-SAT's deterministic time: the same on any machine, load or not.
            self.timings["search_dtime"] += solver.response_proto.deterministic_time

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


def _play_bounds(position: Position, objective: Objective, bound: int) -> dict[str, int]:
    """Read the first level back out of a bound on the folded objective (see play_weights)."""
    rules = position.rules
    before = hand_penalty(position.hand, rules, position.opened)
    if objective is Objective.POINTS:
        most_shed = bound // (len(position.hand) + 1)
        return {"penalty_after_at_least": max(0, before - most_shed)}
    hand_points = sum(rules.card_penalty(card.rank) for card in position.hand)
    return {"cards_played_at_most": min(len(position.hand), bound // (hand_points + 1))}


def _realize_relaxed(position: Position, decoded: _Decoded) -> list[Meld] | None:
    """A table for the relaxation's answer, or None where its jokers cannot all be placed."""
    try:
        return _realize(position, decoded, opening=False)
    except SolverBugError:
        return None


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
    """Hint stage 2 with a known table, each meld held by the slot of its best match."""
    rules = position.rules
    matched = match_melds(position.table, table)
    owner = {target: index for index, target in enumerate(matched) if target >= 0}
    free_index = {(t.kind, t.types): n for n, t in enumerate(model.templates)}
    free_count = [0] * len(model.templates)
    free_real: Counter[tuple[int, int]] = Counter()
    joker_for = [0] * NUM_TYPES
    hints: list[tuple[cp_model.IntVar, int]] = []
    chosen: dict[int, tuple[Template, Meld]] = {}
    for index, meld in enumerate(table):
        template = _template_of(meld, rules)
        jokers = _joker_types(meld, template)
        for t in jokers:
            joker_for[t] += 1
        slot = model.slots[owner[index]] if index in owner else None
        if slot is not None and slot.hint(template):
            chosen[slot.original] = (template, meld)
            continue
        for piece in _free_pieces(template):
            number = free_index.get((piece.kind, piece.types))
            if number is None:
                return
            free_count[number] += 1
            for t in piece.types:
                if t not in jokers:
                    free_real[number, t] += 1
    for slot in model.slots:
        template, meld = chosen.get(slot.original, (None, None))
        hints += slot.hint(template)
        real_there = {card.index for card in meld.real_cards} if meld else set()
        jokers_there = _joker_types(meld, template) if meld else []
        hints += [(var, int(t in real_there)) for t, var in slot.keep_real.items()]
        kept_jokers = set(jokers_there[: slot.jokers])
        hints += [(var, int(t in kept_jokers)) for t, var in slot.keep_joker.items()]
        hints += [(var, int(t in real_there)) for t, var in slot.real_at.items()]
        if slot.alone is not None:
            hints.append((slot.alone, 0))
    hints += list(zip(model.uses, free_count, strict=True))
    for number, places in enumerate(model.real_in):
        hints += [(var, free_real[number, t]) for t, var in places.items()]
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
    verdict = refereed(position, table, played_cards)
    status = honest_status(proved, verdict, expected_moved, bounds)
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
