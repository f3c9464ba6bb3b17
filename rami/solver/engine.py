"""The CP-SAT rearrangement solver (rami chinois, rummikub, rami fou once opened).

Model (NOTES.md): integer counts of meld templates over card *types*, jokers pooled as a count of
jokers standing for each type. Levels are solved in two stages: first the least penalty / most
cards (both folded into one exact integer objective, since the second level is bounded), then,
with that value fixed, the most table cards kept in place. Each original meld gets a "slot":
one final meld matched to it (any run of its suit or set of its rank holding at least one of its
real cards); kept cards are counted there, so maximising them equals the best one-to-one matching
of decision 7.

Rami fou adds the discard (one more choice in the objective) and pinned table jokers, which need
the slots in both stages (see ``_search_pinned``). The decision 1 flag adds "witness" melds: the
cards played must hold the opening (``_Model._add_opening_witness``).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace

from ortools.sat.python import cp_model

from rami.cards import JOKER, NUM_TYPES, Card
from rami.errors import IllegalTurnError, SolverBugError, UnsupportedError
from rami.matching import cards_kept, cards_moved, match_melds
from rami.melds import MIN_MELD, Meld, MeldKind, joker_cards, stands_for
from rami.position import Position, hand_penalty
from rami.referee import unpinned_jokers
from rami.rules import GoingOut, Ruleset, TableJoker
from rami.solver.api import (
    Move,
    Objective,
    Solution,
    Status,
    costliest_discard,
    honest_status,
    refereed,
)
from rami.solver.counts import CardCounts
from rami.solver.explain import explain_moves, in_number_order, meld_numbers
from rami.solver.in_place import InPlace, lay_whole_hand, searches
from rami.solver.playmodel import PlayVariables, play_model_for
from rami.solver.realize import MeldSpec, realize
from rami.solver.templates import (
    FREE_RUN_LENGTHS,
    Template,
    free_templates,
    run_template,
    set_template,
    sets_containing,
    type_at,
)

#: From this many table cards on, max-play's stage 1 branches on its LP (see ``_search``).
LP_SEARCH_TABLE_CARDS = 30
#: From this many table cards on, max-play tries the in-place fast path first (see _in_place).
IN_PLACE_MAX_PLAY_TABLE_CARDS = 70


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
    #: Places of the slot's meld (a linear expression per card type it may cover).
    here: dict[int, object] = field(default_factory=dict)
    #: In the relaxation: how many of its jokers stay together away from its real cards.
    alone: cp_model.IntVar | None = None
    #: Cards of the original counted as kept here.
    kept: object = 0

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
    meld: Meld, rules: Ruleset, counts: CardCounts, relaxed: bool, pinned: bool = False
) -> tuple[list[tuple[int, int, int]], list[Template]]:
    """Runs (as lanes: suit and position range) and other melds that may be matched to ``meld``.

    A run keeping real cards within [a, b] need reach no more than 4 past them: a longer tail
    of 3+ cards can leave as a run of its own. That tail may be all jokers, which only the
    ``relaxed`` model (an upper bound on cards kept) allows, so with 3+ jokers about the exact
    model gets the whole suit; so does a meld with jokers, whose kept jokers may stand anywhere,
    and one with an ace, which may move to the other end of its suit. A meld whose jokers are
    ``pinned`` (rami fou) may be matched to any run or set holding its jokers: every option is
    listed, so that the pin constraints bound every legal turn.
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
    if pinned and meld.jokers:
        lanes = [(suit, 1, top) for suit in range(4)]
        options += [t for t in free_templates(top) if t.kind is MeldKind.SET]
    elif meld.jokers and not relaxed:
        # Its jokers alone may stay together in a meld that shares no real card with it.
        options += free_templates(top)
    found: dict[tuple[MeldKind, tuple[int, ...]], Template] = {}
    for template in options:
        if _fits(template, counts, counts.jokers):
            found.setdefault((template.kind, template.types), template)
    return [lane for lane in lanes if lane[2] - lane[1] >= 2], list(found.values())


def _stood_for(meld: Meld, rules: Ruleset) -> list[int]:
    """Card types whose real card may take the place of the meld's jokers (decision 5)."""
    if meld.kind is MeldKind.RUN:
        return [card.index for card in joker_cards(meld, rules)]
    rank = meld.real_cards[0].rank
    suits = {card.index // 13 for card in meld.real_cards}
    return [suit * 13 + rank - 1 for suit in range(4) if suit not in suits]


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
        self, position: Position, *, with_slots: bool, opening: bool, relaxed: bool = False,
        pinned: bool = False, pinned_whole: bool = False,
    ) -> None:
        self.relaxed = relaxed
        #: Rami fou: each meld holding table jokers keeps them, or the cards they stand for, in
        #: the meld matched to it (decision 5; the referee's pin rule, as constraints).
        self.pinned = pinned and with_slots and not relaxed
        #: Also keep every real card of such a meld in it (a restriction, see _search_pinned).
        self.pinned_whole = self.pinned and pinned_whole
        #: Originals whose slot has its matching cuts (added lazily, see add_matching_cuts).
        self.cut: set[int] = set()
        self.duals: dict[int, cp_model.IntVar] = {}
        self.dual_pairs: set[tuple[int, int]] = set()
        #: Originals a rejected table of this model mismatched (they want matching cuts).
        self.rejected: set[int] = set()
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
        # The opening's jokers come from the hand alone, and the pure run it needs cannot take
        # them: with three or more, an all-joker meld would not merge away either.
        self.exact_jokers = (with_slots and not relaxed and (
            counts.jokers >= 3 or (self.pinned and counts.table_jokers > 0)
        )) or (opening and counts.hand_jokers >= 3)
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
        #: Rami fou's pinned slots: (slot, jokers freed, jokers in it), see _add_pins.
        self.pins: list[tuple[_Slot, object, object]] = []
        if with_slots:
            self._add_slots(cover)
        self.open_now = None
        if opening:
            self._add_opening(cover)
        if self.exact_jokers:
            table_real = [0] * NUM_TYPES if opening else counts.table
            for t in range(NUM_TYPES):
                if self.real_cover[t] or table_real[t] or counts.hand[t]:
                    model.add(sum(self.real_cover[t]) == table_real[t] + self.play[t])
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
        self.discard: dict[Card, cp_model.IntVar] = {}
        if self.rules.discard:
            self._add_discard()
        if not opening and not position.opened:
            self._add_opening_witness()

    def _add_opening_witness(self) -> None:
        """Decision 1 flag: the opener rearranges the table in the same turn. Whatever becomes
        of them there, the cards played from the hand must hold melds that meet the opening
        requirement (as the referee reads it): a pure run of three (any longer one holds one),
        or melds of enough points, jokers counting as the card they stand for."""
        model, counts, rules = self.model, self.counts, self.rules
        self.open_now = model.new_bool_var("open")
        model.add(sum(self.play) + self.play_jokers <= len(self.position.hand) * self.open_now)
        if rules.opening_pure_run:
            pure_cover: list[list] = [[] for _ in range(NUM_TYPES)]
            runs = []
            for template in free_templates(rules.top_rank):
                if template.kind is MeldKind.RUN and len(template.types) == 3 and all(
                    counts.hand[t] for t in template.types
                ):
                    var = model.new_bool_var(f"wp{len(runs)}")
                    runs.append(var)
                    for t in template.types:
                        pure_cover[t].append(var)
            for t in range(NUM_TYPES):
                if pure_cover[t]:
                    model.add(sum(pure_cover[t]) <= self.play[t])
            model.add(sum(runs) >= self.open_now)
        if rules.opening_points:
            real_cover: list[list] = [[] for _ in range(NUM_TYPES)]
            jokers_used = []
            points = []
            for template in free_templates(rules.top_rank):
                missing = sum(1 for t in template.types if counts.hand[t] == 0)
                if missing > counts.hand_jokers or missing == len(template.types):
                    continue
                copies = model.new_int_var(0, 2, f"wm{len(points)}")
                points.append(_template_points(template, rules) * copies)
                reals = []
                for t in template.types:
                    if counts.hand[t]:
                        real = model.new_int_var(0, 2, f"wr{len(points)}_{t}")
                        model.add(real <= copies)
                        real_cover[t].append(real)
                        reals.append(real)
                # A real card per copy (counted over the copies: Rummikub's two jokers
                # cannot fill a meld of three alone); the other places are jokers.
                model.add(sum(reals) >= copies)
                jokers_used.append(len(template.types) * copies - sum(reals))
            for t in range(NUM_TYPES):
                if real_cover[t]:
                    model.add(sum(real_cover[t]) <= self.play[t])
            model.add(sum(jokers_used) <= self.play_jokers)
            model.add(sum(points) >= rules.opening_points * self.open_now)

    def _add_discard(self) -> None:
        """The turn ends by discarding one card left in the hand (decisions 6 and 8)."""
        model, counts, position, rules = self.model, self.counts, self.position, self.rules
        left = [counts.hand[t] - self.play[t] for t in range(NUM_TYPES)]
        jokers_left = counts.hand_jokers - self.play_jokers
        cards_left = sum(left) + jokers_left
        most_left = len(position.hand)
        locked = []
        for t in range(NUM_TYPES):
            if counts.hand[t]:
                var = model.new_bool_var(f"d{t}")
                model.add(var <= left[t])
                self.discard[Card(t)] = var
                if position.taken_discard == Card(t):
                    locked.append(var)
        if counts.hand_jokers:
            var = model.new_bool_var("dj")
            model.add(var <= jokers_left)
            self.discard[JOKER] = var
            if rules.joker_kept_until_last or position.taken_discard == JOKER:
                locked.append(var)
        for var in locked:
            # Only as the last card in the hand.
            model.add(cards_left <= 1 + most_left * (1 - var))
        out_by_placing = 0
        if rules.going_out is GoingOut.PLACE_OR_DISCARD:
            out_by_placing = model.new_bool_var("out")
            model.add(cards_left <= most_left * (1 - out_by_placing))
        model.add(sum(self.discard.values()) + out_by_placing == 1)

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
                    if self.exact_jokers:
                        self.real_cover[t].append(var)
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
            lanes, sets = _slot_options(meld, self.rules, counts, self.relaxed, self.pinned)
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
            kept_here = slot.kept = sum(slot.keep_real.values()) + sum(slot.keep_joker.values())
            if isinstance(kept_here, int):
                model.add(used == 0)
            else:
                model.add(kept_here >= used)
            for t, vars_covering in slot_cover.items():
                here = slot.here[t] = sum(vars_covering)
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
            if self.pinned and slot.jokers:
                self._add_pins(slot, meld)
                if self.pinned_whole:
                    for t in slot.real_types:
                        model.add(slot.keep_real[t] == 1)
            self.slots.append(slot)
        for t in range(NUM_TYPES):
            if keep_real_by_type[t]:
                model.add(sum(keep_real_by_type[t]) <= counts.table[t] + self.play[t])
            if keep_joker_by_type[t]:
                model.add(sum(keep_joker_by_type[t]) <= self.joker_for[t])
        self._add_freed_places()
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

    def _add_pins(self, slot: _Slot, meld: Meld) -> None:
        """Decision 5 as constraints every legal turn meets: each table joker keeps standing for
        its card in the slot (a run's joker at the same place of a run of its suit, a set's in a
        set of its rank), or that card took its place there and the joker left for a place
        outside the slot. So a run's slot covers each place its jokers stood for, a set's slot
        is a set of its rank with a place for each joker in a suit it lacked; the jokers that
        stay are in the slot, and :meth:`_add_freed_places` finds the freed ones a place."""
        model = self.model
        stood_for = _stood_for(meld, self.rules)
        replacing = sum(slot.real_at[t] for t in stood_for if t in slot.real_at)
        jokers_here = sum(slot.here.values()) - sum(slot.real_at.values())
        if meld.kind is MeldKind.RUN:
            for t in stood_for:
                in_run = [
                    var for lane in slot.lanes if lane.suit == t // 13
                    for p, var in lane.cover.items() if type_at(lane.suit, p) == t
                ]
                model.add(sum(in_run) >= 1)
            freed = replacing
        else:
            in_set = [
                var for template, var in slot.sets for t in template.types if t in stood_for
            ]
            model.add(sum(in_set) >= slot.jokers)
            freed = model.new_int_var(0, slot.jokers, f"fj{slot.original}")
            model.add(freed <= replacing)
            model.add(jokers_here >= slot.jokers - freed)
        self.pins.append((slot, freed, jokers_here))

    def _add_freed_places(self) -> None:
        """A freed joker ends in a meld other than its own (decision 5): outside its slot, the
        table's jokers are at least the freed ones plus those staying pinned in other slots."""
        total = sum(self.joker_for)
        for slot, freed, jokers_here in self.pins:
            staying_elsewhere = sum(
                other.jokers - other_freed for other, other_freed, _ in self.pins
                if other is not slot
            )
            self.model.add(total - jokers_here - staying_elsewhere >= freed)

    def add_matching_cuts(self, originals: set[int]) -> bool:
        """Say that the slots of ``originals`` are matched as the referee's matching is (it
        judges pins on a matching that shares the most real cards, decision 5), through the
        dual of that assignment: a share ``dual[i]`` of the real cards original ``i`` keeps in
        its slot, with ``dual[i] >= shared(i, X)`` for every meld X left unmatched and
        ``dual[i] - dual[j] >= shared(i, slot j) - kept(j)``; shared cards are counted from
        below. Every legal turn meets them, so the model stays a relaxation; they are added only
        for originals a rejected table mismatched. False when every original named already has
        them."""
        new = originals - self.cut
        if not new or not self.exact_jokers:
            return False
        self.cut.update(new)
        live = [slot for slot in self.slots if slot.lanes or slot.sets]
        if not self.duals:
            for slot in live:
                dual = self.model.new_int_var(0, len(slot.real_types), f"u{slot.original}")
                self.model.add(dual <= sum(slot.keep_real.values()))
                self.duals[slot.original] = dual
        for index in sorted(new):
            slot = self.slots[index]
            if index not in self.duals:
                continue
            self._add_unmatched_cuts(slot)
            for other in live:
                if other is slot:
                    continue
                for one, two in ((slot, other), (other, slot)):
                    if (one.original, two.original) not in self.dual_pairs:
                        self.dual_pairs.add((one.original, two.original))
                        self._add_exchange_cut(one, two)
        return True

    def _add_unmatched_cuts(self, slot: _Slot) -> None:
        """A meld left unmatched shares no more real cards with an original than its dual. A
        free template stands for unmatched melds: their copies share at least ``real`` cards
        with the original in all, and each copy but the best at most ``shared``."""
        model = self.model
        for number, template in enumerate(self.templates):
            shared = [t for t in template.types if t in slot.real_types]
            if len(shared) < 2:
                continue
            copies = self.uses[number]
            any_copy = model.new_bool_var(f"any{slot.original}_{number}")
            model.add(copies >= any_copy)
            model.add(copies <= self.use_bounds[number] * any_copy)
            common = sum(self.real_in[number][t] for t in shared)
            model.add(self.duals[slot.original] >= common - len(shared) * (copies - any_copy))

    def _add_exchange_cut(self, one: _Slot, other: _Slot) -> None:
        """Original ``one`` matched to ``other``'s slot would share no more than the duals
        allow: dual(one) - dual(other) >= shared(one, other's slot) - kept(other), real cards
        only."""
        crossed = [other.real_at[t] for t in one.real_types if t in other.real_at]
        if crossed:
            self.model.add(
                self.duals[one.original] - self.duals[other.original]
                >= sum(crossed) - sum(other.keep_real.values())
            )

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
        value = sum(
            weight * var for weight, var in zip(weights, self.play, strict=True) if weight
        ) + joker_weight * self.play_jokers
        if self.discard:
            value += sum(
                discard_weight(self.position, objective, card) * var
                for card, var in self.discard.items()
            )
        return value


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


def discard_weight(position: Position, objective: Objective, card: Card) -> int:
    """The discard sheds its penalty at the first or second level, as in :func:`play_weights`,
    without counting as a card played."""
    rules = position.rules
    penalty = rules.joker_penalty if card.is_joker else rules.card_penalty(card.rank)
    if objective is Objective.POINTS:
        return penalty * (len(position.hand) + 1)
    return penalty


def _play_value(played: Counter[Card], weights: tuple[list[int], int]) -> int:
    """The stage-1 objective of playing ``played`` (see play_weights)."""
    per_type, per_joker = weights
    return sum(
        count * (per_joker if card.is_joker else per_type[card]) for card, count in played.items()
    )


def _table_pieces(position: Position) -> list[Template]:
    """The templates the table's melds are made of, long runs cut into runs of 5 and a rest of
    3-4. Any cut is correct (it only guides the search); this one made the full objective 10-20%
    faster on the 60-card suites than cutting into runs of 3 (two interleaved runs)."""
    return [
        piece
        for meld in position.table
        for piece in _free_pieces(_template_of(meld, position.rules), FREE_RUN_LENGTHS[-1])
    ]


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


def _counts_read(
    model: _Model | PlayVariables, values: list[int]
) -> tuple[list[int], list[int], list[int]]:
    """Copies of each template used, cards of each type played, jokers standing for each."""
    if isinstance(model, PlayVariables):
        # The prebuilt model's proto indices are looked up once, not per solve.
        return tuple([values[i] for i in at] for at in model.indices)
    return tuple(
        [_value(values, expr) for expr in exprs]
        for exprs in (model.uses, model.play, model.joker_for)
    )


def _decode(model: _Model | PlayVariables, solver: cp_model.CpSolver) -> _Decoded:
    values = list(solver.response_proto.solution)
    uses, play, joker_for = _counts_read(model, values)
    specs: list[MeldSpec] = []
    for template, var in model.pure:
        specs.extend(MeldSpec(template, pure=True) for _ in range(_value(values, var)))
    for number, (template, copies) in enumerate(zip(model.templates, uses, strict=True)):
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
    played: Counter[Card] = Counter({Card(t): count for t, count in enumerate(play) if count})
    jokers = _value(values, model.play_jokers)
    if jokers:
        played[JOKER] = jokers
    stand_ins = Counter({t: count for t, count in enumerate(joker_for) if count})
    discards = getattr(model, "discard", {})
    discard = next((card for card, var in discards.items() if _value(values, var)), None)
    return _Decoded(specs, played, stand_ins, discard)


def _check_supported(position: Position) -> None:
    rules = position.rules
    if rules.table_joker not in (TableJoker.FREE, TableJoker.REPLACE_AND_RELAY):
        raise UnsupportedError(
            f"the rearrangement solver does not handle the joker rule of {rules.name}"
        )
    if not position.opened:
        if rules.open_and_rearrange_same_turn and (rules.discard or rules.opening_any_meld):
            raise UnsupportedError(
                f"opening and rearranging in the same turn (decision 1 flag) is solved for "
                f"rami-chinois and rummikub, not {rules.name}"
            )
        if rules.discard:
            raise UnsupportedError(
                f"the opening turn of {rules.name} is solved by the lay-off solver "
                "(rami.solver.layoff), not by the rearrangement engine"
            )
    if rules.discard and not position.hand:
        raise IllegalTurnError([
            f"no legal turn exists: {rules.name} ends every turn with a discard and the hand is "
            "empty"
        ])


@dataclass
class _Turn:
    """A turn found by the search, before it is checked and explained."""

    table: list[Meld]
    played: Counter[Card]
    discard: Card | None
    proved: bool
    bounds: dict[str, int]
    #: The stage-1 objective (levels 1-2 folded, see play_weights), or None when no search ran.
    play_value: int | None = None
    #: Cards moved as stage 2 counted them (None: stage 2 did not run or did not prove it).
    expected_moved: int | None = None
    #: Set when nothing is played: why.
    message: str | None = None


def solve_position(
    position: Position, objective: Objective, *, min_moves: bool, time_limit: float
) -> Solution:
    _check_supported(position)
    clock = _Clock()
    if position.rules.table_joker is TableJoker.REPLACE_AND_RELAY and any(
        meld.jokers for meld in position.table
    ):
        turn = _search_pinned(position, objective, min_moves, time_limit, clock)
    else:
        turn = _search(position, objective, min_moves, time_limit, clock)
    return clock.stamp(_finish(position, objective, min_moves, turn))


def _pins_hold(position: Position, table: list[Meld]) -> bool:
    return not unpinned_jokers(position, table)


def _search_pinned(
    position: Position, objective: Objective, min_moves: bool, time_limit: float, clock: _Clock
) -> _Turn:
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
    """
    free = _search(position, objective, min_moves, time_limit, clock)
    if not min_moves and free.proved and not _pins_hold(position, free.table):
        free = replace(_search(position, objective, True, time_limit, clock), expected_moved=None)
    if free.proved and _pins_hold(position, free.table):
        return free
    bound = _Pinned(None, free.play_value, free.proved, free.expected_moved)
    found: list[_Turn] = []
    hint = free
    rejected: set[int] = set()
    for whole, cut in ((False, False), (True, False), (False, True)):
        budget = max(time_limit - clock.timings["search_dtime"], 0.05)
        floor = max((turn.play_value for turn in found if turn.play_value is not None),
                    default=None)
        attempt = _pinned_stages(
            position, objective, min_moves, budget, clock, hint,
            bound.best_play if bound.play_proved else None, floor, rejected,
            whole=whole, cut=cut,
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
    position: Position, objective: Objective, min_moves: bool, turn: _Turn, bound: _Pinned
) -> _Turn:
    """A legal turn, optimal where it reaches a relaxation's proved bounds."""
    bounds = dict(turn.bounds)
    proved = turn.proved and bound.play_proved and turn.play_value == bound.best_play
    if bound.play_proved and bound.best_play is not None and not proved:
        bounds.update(_play_bounds(position, objective, bound.best_play))
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

    turn: _Turn | None
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
    clock: _Clock,
    hint: _Turn,
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
    search ended."""
    deadline = clock.timings["search_dtime"] + time_limit
    model = _Model(position, with_slots=True, opening=False, pinned=True, pinned_whole=whole)
    model.model.maximize(model.play_objective(objective))
    if ceiling is not None:
        model.model.add(model.play_objective(objective) <= ceiling)
    if floor is not None and not whole:
        model.model.add(model.play_objective(objective) >= floor)
    if hint.played:
        _hint_from_table(model, position, hint.table, hint.played, hint.discard)
    if cut:
        model.add_matching_cuts(rejected)
    clock.lap("build_ms")
    found = _solve_cutting(position, model, clock, deadline, cut)
    if found is None:
        return _Pinned(None, rejected=model.rejected)
    proved, best_play, turn, _ = found
    if not proved or (turn is not None and not min_moves):
        return _Pinned(turn, best_play, proved, rejected=model.rejected)
    keeper = _Model(position, with_slots=True, opening=False, pinned=True, pinned_whole=whole)
    keeper.add_matching_cuts(model.cut)
    keeper.model.add(keeper.play_objective(objective) == best_play)
    keeper.model.maximize(keeper.kept)
    if turn is not None:
        _hint_from_table(keeper, position, turn.table, turn.played, turn.discard)
    clock.lap("build_ms")
    kept = _solve_cutting(position, keeper, clock, deadline, cut, best_play)
    rejected = model.rejected | keeper.rejected
    if kept is None:
        return _Pinned(turn, best_play, proved, rejected=rejected)
    _, _, kept_turn, kept_bound = kept
    if kept_turn is not None and (
        turn is None or cards_moved(position.table, kept_turn.table)
        <= cards_moved(position.table, turn.table)
    ):
        turn = kept_turn
    least_moved = position.table_size - kept_bound
    return _Pinned(turn, best_play, proved, max(0, least_moved), rejected)


def _solve_cutting(
    position: Position,
    model: _Model,
    clock: _Clock,
    deadline: float,
    cut: bool,
    play_value: int | None = None,
) -> tuple[bool, int, _Turn | None, int] | None:
    """Solve, and if ``cut``, add matching cuts for the melds a rejected table mismatched until
    the referee accepts the table or no cut is left to add. Returns (proved, value, turn or
    None, bound), None when no solution was found; the value and bound are the last (tightest)
    model's. The turn's play value is ``play_value`` where given, else the model's value."""
    while True:
        solver = _solver(max(deadline - clock.timings["search_dtime"], 0.05))
        status = solver.solve(model.model)
        clock.lap("search_ms", solver)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            if status not in (cp_model.UNKNOWN, cp_model.INFEASIBLE):
                raise SolverBugError(f"pinned model status {solver.status_name(status)}")
            return None
        proved = status == cp_model.OPTIMAL
        value = round(solver.objective_value)
        bound = int(solver.best_objective_bound)
        decoded = _decode(model, solver)
        table = _realize(position, decoded, False)
        turn = _pinned_turn(position, table, decoded.discard, play_value or value)
        if turn is not None or not proved:
            return proved, value, turn, bound
        mismatched = _mismatched(position, decoded, table)
        model.rejected |= mismatched
        if not cut or not model.add_matching_cuts(mismatched):
            return proved, value, None, bound
        _hint_solution(model, solver)
        clock.lap("build_ms")


def _mismatched(position: Position, decoded: _Decoded, table: list[Meld]) -> set[int]:
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
        return _template_of(meld, rules) == template
    return all(card.index in template.types for card in meld.real_cards)


def _hint_solution(model: _Model, solver: cp_model.CpSolver) -> None:
    """Hint the model's next solve with the solution just found (cuts exclude it)."""
    model.model.clear_hints()
    values = list(solver.response_proto.solution)
    _add_hints(model.model, list(range(len(values))), values)


def _pinned_turn(
    position: Position, table: list[Meld], discard: Card | None, best_play: int
) -> _Turn | None:
    """The turn of a pinned model's table, or None where the referee's matching unpins a joker."""
    if not _pins_hold(position, table):
        return None
    played = Counter(card for meld in table for card in meld.cards) - position.table_cards
    if not played:
        table = list(position.table)
    return _Turn(table, played, discard, True, {}, best_play,
                 message=None if played else _why_nothing(position))


def _with_jokers_untouched(
    position: Position, objective: Objective, min_moves: bool, time_limit: float, clock: _Clock
) -> _Turn:
    """A legal rami fou turn whatever happens: melds holding jokers stay as they are, the rest of
    the table is solved freely."""
    untouched = [meld for meld in position.table if meld.jokers]
    rest = replace(position, table=tuple(meld for meld in position.table if not meld.jokers))
    turn = _search(rest, objective, min_moves, time_limit, clock)
    return replace(turn, table=untouched + turn.table)


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


def _search(
    position: Position, objective: Objective, min_moves: bool, time_limit: float, clock: _Clock
) -> _Turn:
    """Stage 1 (penalty and cards, one exact objective), then stage 2 (cards moved)."""
    # The opening turn lays new melds from the hand only, unless the decision 1 flag lets the
    # opener rearrange the table in the same turn.
    opening = not position.opened and not position.rules.open_and_rearrange_same_turn
    # Stage 1 runs on the lean model without slots, prebuilt and re-bounded for an opened
    # player of a preset without discard.
    solver = _solver(time_limit)
    no_lay_off = False
    #: Stage 1's objective is the play value times this, plus a bonus below it.
    scale = 1
    if not position.opened or position.rules.discard:
        model = _Model(position, with_slots=False, opening=opening)
        model.model.maximize(model.play_objective(objective))
    else:
        weights = play_weights(position, objective)
        in_place = _in_place(position, min_moves)
        if in_place.table is not None:
            # Optimal at every level with nothing left to prove: all played, nothing moved.
            clock.lap("search_ms")
            played = Counter(position.hand)
            return _Turn(in_place.table, played, None, True, {}, _play_value(played, weights),
                         expected_moved=0)
        no_lay_off = in_place.none_exists
        clock.lap("search_ms")
        if min_moves:
            # Among the plays of the best value, prefer one keeping the table's own melds:
            # stage 1's table is stage 2's hint, and stage 2 spends its time finding good
            # tables, not proving them (NOTES.md). Measured on the 40- and 60-card suites
            # (one interleaved run): medians 6-23% and sums of times 11-27% lower. A bonus of 1
            # per template used stays below one unit of the play value once that is scaled
            # past the most templates a table can hold.
            scale = (position.table_size + len(position.hand)) // MIN_MELD + 1
            per_type, per_joker = weights
            model = play_model_for(position.rules).load(
                position, [weight * scale for weight in per_type], per_joker * scale,
                dict.fromkeys(_table_pieces(position), 1),
            )
        else:
            model = play_model_for(position.rules).load(position, *weights)
        if not min_moves and position.table_size >= LP_SEARCH_TABLE_CARDS:
            # Measured on this model alone (144 positions of 60-100 cards, 10 interleaved
            # rounds): branching on the LP and no root cut rounds take 12% off the median and
            # 18% off the p90 wall time and 30% off the deterministic time, same optima, all
            # proved. On 20-card tables it was up to 25% slower. Max-play only: the table it
            # finds is another of the equally good ones, and as stage 2's hint those made the
            # full objective's tails longer (p99 x1.25 over the suites, one A/B round).
            solver.parameters.max_cut_rounds_at_level_zero = 0
            solver.parameters.search_branching = cp_model.LP_SEARCH
    clock.lap("build_ms")
    status = solver.solve(model.model)
    clock.lap("search_ms", solver)
    bounds: dict[str, int] = {}
    if status == cp_model.OPTIMAL:
        proved = True
    elif status == cp_model.FEASIBLE:
        proved = False
        bounds.update(
            _play_bounds(position, objective, int(solver.best_objective_bound) // scale)
        )
    else:
        return _Turn(
            list(position.table), Counter(), _fallback_discard(position), False, bounds,
            message="no play found within the time limit",
        )
    decoded = _decode(model, solver)
    best_play = round(solver.objective_value) // scale
    if not decoded.played:
        return _Turn(
            list(position.table), Counter(), decoded.discard, proved, bounds, best_play,
            message=_why_nothing(position),
        )
    table = _realize(position, decoded, opening)
    if not (min_moves and not opening and proved):
        return _Turn(table, decoded.played, decoded.discard, proved, bounds, best_play)
    # Stage 2: the same play value, the most table cards kept in the meld matched to their own.
    # A relaxation first (jokers may fill a meld alone): when a table realises its bound, the
    # bound is the optimum; otherwise the exact model, hinted with what the relaxation found.
    total = position.table_size
    discard = decoded.discard
    expected_moved: int | None = None
    # A turn moving nothing is optimal as soon as it is found. Where the whole hand is played,
    # the fast path has looked for one; else the in-place search looks for one laying stage
    # 1's cards, and CP-SAT is not asked: on the suites that question (the model with nothing
    # moved) never succeeded for a part of the hand (0 of 84 asked; 2 of 33 for whole hands)
    # and cost 3-16% of the full objective's time on 20-80 cards. Presets the search does not
    # handle (those that discard) still ask the model.
    whole_hand = sum(decoded.played.values()) == len(position.hand)
    part_in_place = not whole_hand and searches(position)
    if part_in_place:
        laid = lay_whole_hand(replace(position, hand=tuple(decoded.played.elements())))
        if laid.table is not None:
            clock.lap("search_ms")
            return _Turn(laid.table, decoded.played, None, True, {}, best_play, 0)
    for relaxed in (True, False):
        budget = max(time_limit - solver.response_proto.deterministic_time, 0.05)
        solver = _solver(budget)
        keeper = _Model(position, with_slots=True, opening=False, relaxed=relaxed)
        keeper.model.add(keeper.play_objective(objective) == best_play)
        keeper.model.maximize(keeper.kept)
        # Elsewhere the model is asked for such a turn first (not where the fast path proved
        # there is none): far quicker, when there is one, than letting the search climb there.
        ask_untouched = relaxed and not (no_lay_off if whole_hand else part_in_place)
        if ask_untouched:
            untouched = keeper.nothing_moves()
            clock.lap("build_ms")
            if solver.solve(keeper.model) == cp_model.OPTIMAL:
                clock.lap("search_ms", solver)
                decoded_keep = _decode(keeper, solver)
                candidate = _realize_relaxed(position, decoded_keep)
                if candidate is not None and cards_moved(position.table, candidate) == 0:
                    table, expected_moved, discard = candidate, 0, decoded_keep.discard
                    break
            clock.lap("search_ms", solver)
            domain = keeper.model.proto.variables[untouched.index].domain
            domain[0] = domain[1] = 0
        _hint_from_table(keeper, position, table, decoded.played, discard)
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
            table, discard = candidate, decoded_keep.discard
        bound = total - int(solver.best_objective_bound)
        if stage2 == cp_model.OPTIMAL and cards_moved(position.table, table) == bound:
            expected_moved = bound
            break
        if stage2 == cp_model.FEASIBLE or not relaxed:
            proved = False
            bounds["cards_moved_at_least"] = max(0, bound)
            break
    played = Counter(card for meld in table for card in meld.cards) - position.table_cards
    return _Turn(table, played, discard, proved, bounds, best_play, expected_moved)


def _fallback_discard(position: Position) -> Card | None:
    return costliest_discard(position) if position.rules.discard else None


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
    discard: Card | None = None


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


def _free_pieces(template: Template, piece: int = MIN_MELD) -> list[Template]:
    """``template`` as free templates: a run longer than the longest is cut from its low end
    into runs of ``piece`` cards (shorter where the rest would fall under a meld) and a rest."""
    longest = FREE_RUN_LENGTHS[-1]
    if template.kind is MeldKind.SET or len(template.types) <= longest:
        return [template]
    pieces = []
    low, high = template.positions[0], template.positions[-1]
    while high - low + 1 > longest:
        size = min(piece, high - low + 1 - MIN_MELD)
        pieces.append(run_template(template.suit, low, low + size - 1))
        low += size
    pieces.append(run_template(template.suit, low, high))
    return pieces


def _hint_from_table(
    model: _Model, position: Position, table: list[Meld], played: Counter[Card],
    discard: Card | None,
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
    hints += [(var, int(card == discard)) for card, var in model.discard.items()]
    _add_hints(model.model, [var.index for var, _ in hints], [int(value) for _, value in hints])


def _add_hints(model: cp_model.CpModel, indices: list[int], values: list[int]) -> None:
    """Hint variables (by proto index, none negated) in one write to the proto: one
    ``add_hint`` call per variable took 1.8 and 3.3 ms per position on the 20- and 60-card
    rami chinois suites, against 0.6 and 1.2 ms this way."""
    if indices and min(indices) < 0:
        raise SolverBugError("a hint names a negated literal")
    hint = model.proto.solution_hint
    hint.vars.extend(indices)
    hint.values.extend(values)


def _finish(position: Position, objective: Objective, min_moves: bool, turn: _Turn) -> Solution:
    rules = position.rules
    played_cards = tuple(sorted(turn.played.elements()))
    table = in_number_order(position.table, turn.table) if played_cards else list(position.table)
    bounds = dict(turn.bounds)
    if played_cards or turn.discard is not None:
        verdict = refereed(position, table, played_cards, turn.discard)
        status = honest_status(turn.proved, verdict, turn.expected_moved, bounds)
        hand, penalty_after, moved = verdict.hand_after, verdict.penalty_after, verdict.cards_moved
        opened = verdict.opened_after
    else:
        status = Status.OPTIMAL if turn.proved else Status.FEASIBLE
        hand, moved, opened = position.hand, 0, position.opened
        penalty_after = hand_penalty(hand, rules, opened)
    moves = explain_moves(position.table, table, played_cards) if played_cards else ()
    if moves:
        moves = _joker_shifts(position, table, moves)
    if rules.table_joker is TableJoker.REPLACE_AND_RELAY:
        moves = _replacements_first(position, moves)
    if turn.discard is not None:
        text = f"discard {turn.discard}" + (
            " to end your turn" if hand else ": your hand is empty, you go out"
        )
        moves = (*moves, Move("discard", (turn.discard,), None, None, text))
    message = turn.message or _summary(position, played_cards, penalty_after)
    if turn.discard is not None:
        message += f", discard {turn.discard}"
    return Solution(
        status=status,
        position=position,
        table=tuple(table),
        played=played_cards,
        hand=hand,
        penalty_before=hand_penalty(position.hand, rules, position.opened),
        penalty_after=penalty_after,
        cards_moved=moved,
        moves=moves,
        opened=opened,
        objective=objective,
        min_moves=min_moves,
        bounds=bounds,
        message=message,
        discard=turn.discard,
    )


def _joker_shifts(
    position: Position, table: list[Meld], moves: tuple[Move, ...]
) -> tuple[Move, ...]:
    """A run whose jokers all stay but stand for other cards (4S 5S 6S 7S * + 2S gives
    2S * 4S 5S 6S 7S) changes no card count, so the move list would not say it: a step sliding
    the jokers is told before the cards that need it arrive (it replays as a no-op)."""
    if not any(meld.jokers for meld in position.table):
        return moves
    numbers = meld_numbers(position.table, table)
    moves = list(moves)
    for index, meld in enumerate(table):
        number = numbers[index]
        if number > len(position.table) or meld.kind is not MeldKind.RUN or not meld.jokers:
            continue
        before = position.table[number - 1]
        if before.kind is not MeldKind.RUN or before.jokers != meld.jokers or any(
            move.source == number and JOKER in move.cards for move in moves
        ):
            continue
        was, now = joker_cards(before, position.rules), joker_cards(meld, position.rules)
        if was == now:
            continue
        text = (f"in meld {number}, slide the joker{'s' if len(now) > 1 else ''} to stand for "
                f"{' '.join(map(str, now))} (not {' '.join(map(str, was))})")
        first = next((n for n, move in enumerate(moves) if move.target == number), len(moves))
        moves.insert(first, Move("shift", (JOKER,) * len(now), number, number, text))
    return tuple(moves)


def _replacements_first(position: Position, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """Rami fou (decision 5): a joker leaves its meld by giving its place to the card it stands
    for, so the step laying that card from the hand is told first, as a replacement."""
    moves = list(moves)
    for index, move in enumerate(list(moves)):
        if move.kind != "move" or JOKER not in move.cards or move.source is None:
            continue
        original = position.table[move.source - 1] if move.source <= len(position.table) else None
        if original is None or not original.jokers:
            continue
        stood_for = set(_stood_for(original, position.rules))
        for later in range(index + 1, len(moves)):
            step = moves[later]
            if (step.kind == "add" and step.source is None and step.target == move.source
                    and len(step.cards) == 1 and step.cards[0].index in stood_for):
                text = (f"put {step.cards[0]} from your hand in place of the joker in meld "
                        f"{move.source}")
                moves.pop(later)
                moves.insert(moves.index(move), replace(step, kind="replace", text=text))
                break
    return tuple(moves)


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
