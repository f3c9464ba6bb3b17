"""Stage 2's slots as constraints (kept cards, jokers placed exactly), rami fou's pins, and the
matching cuts that make the slots the referee's matching (mixed into ``StageModel``)."""

from __future__ import annotations

from ortools.sat.python import cp_model

from rami.cards import NUM_TYPES
from rami.errors import SolverBugError
from rami.melds import Meld, MeldKind
from rami.position import Position
from rami.rules import Ruleset
from rami.solver.counts import CardCounts
from rami.solver.cpsat import Clock, Expr
from rami.solver.rearrange.credit import CreditConstraints
from rami.solver.rearrange.pieces import PieceConstraints
from rami.solver.rearrange.slots import Lane, Slot, slot_options, stood_for_types
from rami.solver.templates import Template, type_at


class SlotConstraints(PieceConstraints, CreditConstraints):
    """The slots of stage 2 (see the package docstring) and rami fou's pins and matching cuts,
    as methods of :class:`rami.solver.rearrange.model.StageModel`."""

    # Set by StageModel.__init__ before the slots are added.
    model: cp_model.CpModel
    position: Position
    rules: Ruleset
    counts: CardCounts
    relaxed: bool
    pinned: bool
    pinned_whole: bool
    credited: bool
    matching_cuts: bool
    exact_jokers: bool
    play: list[Expr]
    joker_for: list[Expr]
    templates: list[Template]
    uses: list[cp_model.IntVar]
    use_bounds: list[int]
    real_cover: list[list[Expr]]
    real_in: list[dict[int, cp_model.IntVar]]
    slots: list[Slot]
    pins: list[tuple[Slot, Expr, Expr]]
    run_pins: list[tuple[Slot, int, cp_model.IntVar, Expr]]
    staying: dict[int, Expr]
    pieces: list[Slot]
    away_places: list[tuple[Slot, cp_model.IntVar]]
    cut: set[int]
    duals: dict[int, cp_model.IntVar]
    dual_pairs: set[tuple[int, int]]
    kept: Expr
    clock: Clock | None

    def _add_slots(self, cover: list[list[Expr]]) -> None:
        model = self.model
        counts = self.counts
        keep_real_by_type: list[list[Expr]] = [[] for _ in range(NUM_TYPES)]
        keep_joker_by_type: list[list[Expr]] = [[] for _ in range(NUM_TYPES)]
        for index, meld in enumerate(self.position.table):
            if self.clock is not None:
                self.clock.check()  # OutOfTime: the wall clock of the time limit ran out
            self._add_slot(index, meld, cover, keep_real_by_type, keep_joker_by_type)
        if self.run_pins:
            self._add_pieces(cover)
            self._add_away_places()
        for t in range(NUM_TYPES):
            if keep_real_by_type[t]:
                model.add(sum(keep_real_by_type[t]) <= counts.table[t] + self.play[t])
            if keep_joker_by_type[t]:
                model.add(sum(keep_joker_by_type[t]) <= self.joker_for[t])
        self._add_freed_places()
        self.kept = (
            sum(sum(slot.keep_real.values()) + sum(slot.keep_joker.values()) for slot in self.slots)
            + self._freed_joker_credit()
        )
        if self.relaxed:
            self._add_jokers_alone()

    def _add_slot(
        self,
        index: int,
        meld: Meld,
        cover: list[list[Expr]],
        keep_real_by_type: list[list[Expr]],
        keep_joker_by_type: list[list[Expr]],
    ) -> None:
        """The slot of table meld ``index``: the melds it may become, the cards it keeps."""
        model = self.model
        slot = Slot(
            original=index,
            real_types=tuple(sorted({card.index for card in meld.real_cards})),
            jokers=meld.jokers,
        )
        slot_cover = self._add_slot_options(slot, meld, cover)
        if not slot.lanes and not slot.sets:
            self.slots.append(slot)
            return
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
        self._add_slot_places(slot, slot_cover)
        if self.pinned and slot.jokers:
            self._add_pins(slot, meld)
            if self.pinned_whole:
                for t in slot.real_types:
                    model.add(slot.keep_real[t] == 1)
        self.slots.append(slot)

    def _add_slot_options(
        self, slot: Slot, meld: Meld, cover: list[list[Expr]]
    ) -> dict[int, list[Expr]]:
        """The lanes (runs) and set templates the slot may hold; returns what covers each card
        type in the slot."""
        model, index = self.model, slot.original
        lanes, sets = slot_options(meld, self.rules, self.counts, self.relaxed, self.pinned)
        slot_cover: dict[int, list[Expr]] = {}
        for number, (suit, low, high) in enumerate(lanes):
            lane = Lane(model, f"l{index}_{number}", suit, low, high)
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
        return slot_cover

    def _add_slot_places(self, slot: Slot, slot_cover: dict[int, list[Expr]]) -> None:
        """Each card type the slot holds: how many are there, and what is kept (a real place
        of its own when every place is tracked as real or joker)."""
        model, index = self.model, slot.original
        for t, vars_covering in slot_cover.items():
            here = slot.here[t] = sum(vars_covering)
            kept: Expr = 0
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
            model.add(sum(slot.real_at.values()) >= slot.used)

    def _add_jokers_alone(self) -> None:
        """A meld's jokers may stay together where none of its real cards is: counted, not
        placed (any table realising it is checked against the exact matching)."""
        model = self.model
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

    def _add_pins(self, slot: Slot, meld: Meld) -> None:
        """Decision 5 as constraints every legal turn meets: each table joker keeps standing for
        its card (a run's joker at the same place of a run of its suit, a set's in a set of its
        rank), or that card took its place in the slot and the joker left for a place outside
        it. A set's joker stays in the slot: the slot is a set of its rank with a place for each
        joker in a suit it lacked. A run's joker stays in the slot beside a real card of its
        run, or, its run cut into pieces, in another piece (decision 5, revised: a run holding a
        real card of its run, see :meth:`_add_away_places`). :meth:`_add_freed_places` finds
        the freed ones a place."""
        model = self.model
        stood_for = stood_for_types(meld, self.rules)
        replacing = sum(slot.real_at[t] for t in stood_for if t in slot.real_at)
        jokers_here = sum(slot.here.values()) - sum(slot.real_at.values())
        staying: Expr
        freed: Expr
        if meld.kind is MeldKind.RUN:
            beside = sum(slot.real_at[r] for r in slot.real_types if r in slot.real_at)
            kept_jokers = []
            freed_jokers = []
            for t in stood_for:
                in_run = sum(
                    var
                    for lane in slot.lanes
                    if lane.suit == t // 13
                    for p, var in lane.cover.items()
                    if type_at(lane.suit, p) == t
                )
                kept = model.new_bool_var(f"kp{slot.original}_{t}")
                model.add(kept <= in_run)
                model.add(kept <= beside)
                # Freed: its card in its place, in the slot's run (not in a set the slot is).
                real: Expr = 0
                if t in slot.real_at:
                    real = model.new_bool_var(f"fr{slot.original}_{t}")
                    model.add(real <= in_run)
                    model.add(real <= slot.real_at[t])
                    model.add(real >= in_run + slot.real_at[t] - 1)
                    model.add(kept + slot.real_at[t] <= slot.here[t])
                kept_jokers.append(kept)
                freed_jokers.append(real)
                # Neither kept in the slot nor freed there: away, in another piece.
                self.run_pins.append((slot, t, kept, 1 - kept - real))
            freed = sum(freed_jokers)
            staying = sum(kept_jokers)
        else:
            in_set = [var for template, var in slot.sets for t in template.types if t in stood_for]
            model.add(sum(in_set) >= slot.jokers)
            freed_var = model.new_int_var(0, slot.jokers, f"fj{slot.original}")
            model.add(freed_var <= replacing)
            model.add(jokers_here >= slot.jokers - freed_var)
            freed = freed_var
            staying = slot.jokers - freed_var
        self.pins.append((slot, freed, jokers_here))
        self.staying[slot.original] = staying

    def _add_freed_places(self) -> None:
        """A freed joker ends in a meld other than its own (decision 5): outside its slot, the
        table's jokers are at least the freed ones, those staying pinned in other slots, and
        those kept away from their slots outside it."""
        total = sum(self.joker_for)
        for slot, freed, jokers_here in self.pins:
            staying_elsewhere = sum(
                self.staying[other.original] for other, _, _ in self.pins if other is not slot
            )
            away_elsewhere = sum(var for host, var in self.away_places if host is not slot)
            self.model.add(total - jokers_here - staying_elsewhere - away_elsewhere >= freed)

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
        if self.credited and self.pins and not self.matching_cuts:
            raise SolverBugError("matching cuts on a pinned model built without their credit")
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

    def _add_unmatched_cuts(self, slot: Slot) -> None:
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
        for piece in self.pieces:
            shared_vars = [piece.real_at[t] for t in slot.real_types if t in piece.real_at]
            if len(shared_vars) >= 2:
                model.add(self.duals[slot.original] >= sum(shared_vars))

    def _add_exchange_cut(self, one: Slot, other: Slot) -> None:
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
