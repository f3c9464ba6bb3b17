"""The CP-SAT model of one stage: templates, cards played, jokers, the discard, the opening."""

from __future__ import annotations

from ortools.sat.python import cp_model

from rami.cards import JOKER, NUM_TYPES, Card
from rami.melds import MeldKind
from rami.position import Position
from rami.rules import GoingOut
from rami.solver.counts import CardCounts
from rami.solver.cpsat import Clock, Expr, Model
from rami.solver.rearrange.objective import discard_weight, play_weights, template_points
from rami.solver.rearrange.slotmodel import SlotConstraints
from rami.solver.rearrange.slots import Slot
from rami.solver.solution import Objective
from rami.solver.templates import Template, free_templates, long_runs


class StageModel(SlotConstraints):
    """A CP-SAT model built for one position: the opening turn, or stage 2 with its slots.

    (Stage 1 of an opened player runs on the prebuilt model of ``playmodel``.)
    """

    def __init__(
        self,
        position: Position,
        *,
        with_slots: bool,
        opening: bool,
        relaxed: bool = False,
        pinned: bool = False,
        pinned_whole: bool = False,
        exact: bool = False,
        credited: bool = True,
        matching_cuts: bool = False,
        clock: Clock | None = None,
    ) -> None:
        """``clock``: building the slots raises :class:`rami.solver.cpsat.OutOfTime` once its
        wall time is spent."""
        self.clock = clock
        self.relaxed = relaxed
        #: Rami fou: count the cards kept as a relaxation (SlotConstraints._freed_joker_credit);
        #: False counts them on the slots alone, a restriction that finds tables, not bounds.
        self.credited = credited
        #: Rami fou: the model may be given matching cuts (add_matching_cuts), which hold its
        #: slots to the referee's matching: its count of cards kept then needs more credit.
        self.matching_cuts = matching_cuts
        #: Rami fou: each meld holding table jokers keeps them, or the cards they stand for, in
        #: the meld matched to it (decision 5; the referee's pin rule, as constraints).
        self.pinned = pinned and with_slots and not relaxed
        #: Also keep every real card of such a meld in it (a restriction, see search_pinned).
        self.pinned_whole = self.pinned and pinned_whole
        #: Originals whose slot has its matching cuts (added lazily, see add_matching_cuts).
        self.cut: set[int] = set()
        self.duals: dict[int, cp_model.IntVar] = {}
        #: Set templates split by real places (template number: [(real types, copies)]).
        self.set_split: dict[int, list[tuple[frozenset[int], cp_model.IntVar]]] = {}
        self.dual_pairs: set[tuple[int, int]] = set()
        #: Originals a rejected table of this model mismatched (they want matching cuts).
        self.rejected: set[int] = set()
        self.position = position
        self.rules = position.rules
        self.counts = counts = CardCounts.of(position)
        self.opening = opening
        self.model = Model()
        jokers = counts.hand_jokers if opening else counts.jokers
        self._add_play_variables(jokers)
        cover = self._add_templates(jokers, exact)
        # With 3+ jokers a meld could be all jokers; stage 2 then tracks which places are real
        # (levels 1-2 need not: such jokers can always join melds with real cards, realize.py).
        # The opening's jokers come from the hand alone, and the pure run it needs cannot take
        # them: with three or more, an all-joker meld would not merge away either.
        # ``exact``: every place real or joker, always (the alternatives' signatures need it).
        self.exact_jokers = (
            exact
            or (
                with_slots
                and not relaxed
                and (counts.jokers >= 3 or (self.pinned and counts.table_jokers > 0))
            )
            or (opening and counts.hand_jokers >= 3)
        )
        self.real_cover: list[list[Expr]] = [[] for _ in range(NUM_TYPES)]
        self.real_in: list[dict[int, cp_model.IntVar]] = []
        if self.exact_jokers:
            self._add_real_places()
        self.slots: list[Slot] = []
        #: Rami fou's pinned slots: (slot, jokers freed, jokers in it), see _add_pins.
        self.pins: list[tuple[Slot, Expr, Expr]] = []
        #: Each table joker of a run: (its slot, the type it stands for, kept in the slot,
        #: away from the slot in another piece of its run), see _add_pins.
        self.run_pins: list[tuple[Slot, int, cp_model.IntVar, Expr]] = []
        #: Jokers of each pinned original staying in its slot.
        self.staying: dict[int, Expr] = {}
        #: Runs holding pinned jokers away from their slots, matched to no original.
        self.pieces: list[Slot] = []
        #: Where jokers kept away from their slots may be: (slot or piece, that joker there).
        self.away_places: list[tuple[Slot, cp_model.IntVar]] = []
        if with_slots:
            self._add_slots(cover)
        self.open_now: Expr = None
        if opening:
            self._add_opening(cover)
        self._add_card_balance(cover)
        self.discard: dict[Card, cp_model.IntVar] = {}
        if self.rules.discard:
            self._add_discard()
        if not opening and not position.opened:
            self._add_opening_witness()

    def _add_play_variables(self, jokers: int) -> None:
        """The cards played from the hand by type, the jokers played, what each joker stands
        for."""
        model, counts = self.model, self.counts
        self.play = [
            model.new_int_var(0, counts.hand[t], f"p{t}") if counts.hand[t] else 0
            for t in range(NUM_TYPES)
        ]
        self.play_jokers = model.new_int_var(0, counts.hand_jokers, "pj")
        self.joker_for = [
            model.new_int_var(0, jokers, f"j{t}") if jokers else 0 for t in range(NUM_TYPES)
        ]

    def _add_templates(self, jokers: int, exact: bool) -> list[list[Expr]]:
        """The free melds: one count per template the cards at hand can fill. Returns what
        covers each card type (the templates' counts so far)."""
        model, counts = self.model, self.counts
        supply = (
            counts.hand
            if self.opening
            else [counts.table[t] + counts.hand[t] for t in range(NUM_TYPES)]
        )
        self.templates: list[Template] = []
        self.uses: list[cp_model.IntVar] = []
        self.use_bounds: list[int] = []
        self.pure: list[tuple[Template, cp_model.IntVar]] = []
        cover: list[list[Expr]] = [[] for _ in range(NUM_TYPES)]
        for template in free_templates(self.rules.top_rank) + (
            long_runs(self.rules.top_rank, self.rules.max_run_length)
            if exact and jokers >= 2
            else ()
        ):
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
        return cover

    def _add_real_places(self) -> None:
        """Each template's real places by type (the rest of its places are jokers)."""
        model = self.model
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

    def _add_card_balance(self, cover: list[list[Expr]]) -> None:
        """Every card on the table after the turn, real places and jokers: what was there plus
        what is played."""
        model, counts, opening = self.model, self.counts, self.opening
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
            # Jokers alone make no meld: a meld needs a real card (docs/rules.md).
            model.add(self.play_jokers <= counts.hand_jokers * sum(self.play))

    def _add_opening_witness(self) -> None:
        """Decision 1 flag: the opener rearranges the table in the same turn. Whatever becomes
        of them there, the cards played from the hand must hold melds that meet the opening
        requirement (as the referee reads it): a pure run of three (any longer one holds one),
        or melds of enough points, jokers counting as the card they stand for."""
        model, counts, rules = self.model, self.counts, self.rules
        self.open_now = model.new_bool_var("open")
        model.add(sum(self.play) + self.play_jokers <= len(self.position.hand) * self.open_now)
        if rules.opening_pure_run:
            pure_cover: list[list[Expr]] = [[] for _ in range(NUM_TYPES)]
            runs: list[cp_model.IntVar] = []
            for template in free_templates(rules.top_rank):
                if (
                    template.kind is MeldKind.RUN
                    and len(template.types) == 3
                    and all(counts.hand[t] for t in template.types)
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
            real_cover: list[list[Expr]] = [[] for _ in range(NUM_TYPES)]
            jokers_used = []
            points: list[Expr] = []
            for template in free_templates(rules.top_rank):
                missing = sum(1 for t in template.types if counts.hand[t] == 0)
                if missing > counts.hand_jokers or missing == len(template.types):
                    continue
                copies = model.new_int_var(0, 2, f"wm{len(points)}")
                points.append(template_points(template, rules) * copies)
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
        out_by_placing: Expr = 0
        if rules.going_out is GoingOut.PLACE_OR_DISCARD:
            out_by_placing = model.new_bool_var("out")
            model.add(cards_left <= most_left * (1 - out_by_placing))
        model.add(sum(self.discard.values()) + out_by_placing == 1)

    def _add_opening(self, cover: list[list[Expr]]) -> None:
        model = self.model
        self.open_now = model.new_bool_var("open")
        total: Expr = sum(self.uses)
        if self.rules.opening_pure_run:
            pure_cover: list[list[Expr]] = [[] for _ in range(NUM_TYPES)]
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
                template_points(template, self.rules) * var
                for template, var in zip(self.templates, self.uses, strict=True)
            ) + sum(template_points(template, self.rules) * var for template, var in self.pure)
            model.add(points >= self.rules.opening_points * self.open_now)
        if self.rules.opening_any_meld:
            model.add(total >= self.open_now)
        model.add(total <= len(self.position.hand) * self.open_now)

    def play_objective(self, objective: Objective) -> Expr:
        weights, joker_weight = play_weights(self.position, objective)
        value = (
            sum(weight * var for weight, var in zip(weights, self.play, strict=True) if weight)
            + joker_weight * self.play_jokers
        )
        if self.discard:
            value += sum(
                discard_weight(self.position, objective, card) * var
                for card, var in self.discard.items()
            )
        return value
