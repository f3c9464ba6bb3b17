"""Rami fou's credit on cards kept: what the pinned slots miss of decision 7's count (mixed into
``StageModel`` through :class:`rami.solver.rearrange.slotmodel.SlotConstraints`).

Pins are judged on the matching of old melds to new ones sharing the most *real* cards (the
slots, decision 5); cards moved are counted on the one keeping the most cards, jokers included
(decision 7). ``* TC JC QC KC`` to ``QC KC *`` and ``8C 9C TC JC``: pins judge the second
piece, cards moved the first (2 moved, not 3). The credit makes the slots' count of cards kept
a true upper bound of decision 7's; docs/solver.md, "Rami fou's two matchings".
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from rami.melds import MeldKind
from rami.position import Position
from rami.solver.counts import CardCounts
from rami.solver.cpsat import Expr
from rami.solver.rearrange.slots import Slot
from rami.solver.templates import Template


class CreditConstraints:
    """The freed-joker credit of the pinned slot model."""

    # Set by StageModel.__init__ before the slots are added.
    model: cp_model.CpModel
    position: Position
    counts: CardCounts
    pinned: bool
    pinned_whole: bool
    credited: bool
    matching_cuts: bool
    play: list[Expr]
    joker_for: list[Expr]
    templates: list[Template]
    real_in: list[dict[int, cp_model.IntVar]]
    uses: list[cp_model.IntVar]
    slots: list[Slot]
    pieces: list[Slot]
    pins: list[tuple[Slot, Expr, Expr]]
    staying: dict[int, Expr]

    def _freed_joker_credit(self) -> Expr:
        """Kept cards the slots miss, so that ``kept`` stays a relaxation of decision 7 where
        pins hold the slots to decision 5's matching (call it R; decision 7's is M).

        Why it never cuts off a legal turn. Take M, among the matchings keeping the most cards,
        closest to R. Their difference splits into alternating chains of originals and melds;
        on each chain M keeps more cards than R (else R's part of the chain would make an M
        closer to R), but no more real ones (else R's part swapped for M's would share more
        real cards than R). So each chain holds an original with jokers that keeps more of
        them in its M-meld than in its slot: the credit is at most the sum, over the chains,
        of what their originals gain, and that sum is bounded twice over the originals of the
        chains (``member`` chooses them, any set the model likes: the true one is one of
        them, and the model maximises):

        * jokers: an original keeps at most its jokers, and in its M-meld at most the table's
          jokers outside its slot; its slot keeps what it holds, and loses at most the jokers
          freed and those kept away from it (:meth:`_joker_gains`);
        * cards: an original keeps in its M-meld at most its real cards outside its slot and
          the jokers above, and in its slot at least the real cards there. A card type of the
          original in both melds needs two copies on the table after the turn: its real card
          in the slot is subtracted once more only where no second copy can be
          (:meth:`_card_gain`). With matching cuts, also: its M-meld is one meld, so it keeps
          there at most what one meld other than its slot holds of its types and jokers
          (:meth:`_one_meld_gain`); where that meld is another original's slot, that original
          is in a chain too (its slot's meld is M-matched to another original, so not to it).
          An original outside the chains gains nothing: ``member`` off, it counts 0. Without
          matching cuts an original without jokers counts where its bound is positive, in a
          chain or not (cheaper to search: the first pinned model, docs/benchmarks.md).

        A run's jokers kept away from its slot in another piece (decision 5, revised) leave the
        slot too. They need the credit only where the slots must be the referee's matching: a
        joker freed, a set's pinned jokers, or matching cuts (``matching_cuts``). Elsewhere the
        slots may be decision 7's own matching, which judges those pins just as well.
        """
        if not self.pinned or self.pinned_whole or not self.pins or not self.credited:
            return 0
        model = self.model
        joker_gains = self._joker_gains()
        live = [slot for slot in self.slots if slot.lanes or slot.sets]
        member = {slot.original: model.new_bool_var(f"ch{slot.original}") for slot in live}
        joker_credit: list[Expr] = []
        card_credit: list[Expr] = [
            len(self.position.table[slot.original])
            for slot in self.slots
            if slot.original not in member  # matched by no slot: all it holds
        ]
        for slot in live:
            if not self.matching_cuts and slot.original not in joker_gains:
                card_credit.append(
                    self._positive_part(
                        self._card_gain(slot, 0), len(slot.real_types), f"g{slot.original}"
                    )
                )
                continue
            inside = member[slot.original]
            jokers: Expr = 0
            in_meld = None
            if slot.original in joker_gains:
                joker_gain, gain, in_slot = joker_gains[slot.original]
                in_meld = (in_slot, gain)
                credited = model.new_int_var(0, slot.jokers, f"cj{slot.original}")
                model.add(credited <= gain)
                model.add(credited <= slot.jokers * inside)
                joker_credit.append(credited)
                # Its jokers' gain: at most both bounds of _joker_gains (one may be negative).
                jokers = model.new_int_var(-slot.jokers, slot.jokers, f"je{slot.original}")
                model.add(jokers <= joker_gain)
                model.add(jokers <= gain)
            bound = len(self.position.table[slot.original])
            cards = model.new_int_var(-bound, bound, f"cc{slot.original}")
            model.add(cards <= self._card_gain(slot, jokers) + 3 * bound * (1 - inside))
            if self.matching_cuts:
                one_meld = self._one_meld_gain(slot, member, in_meld)
                model.add(cards <= one_meld + 3 * bound * (1 - inside))
            model.add(cards <= bound * inside)
            card_credit.append(cards)
        credit = model.new_int_var(0, sum(slot.jokers for slot, _, _ in self.pins), "credit")
        model.add(credit <= sum(joker_credit))
        model.add(credit <= sum(card_credit))
        return credit

    def _joker_gains(self) -> dict[int, tuple[Expr, cp_model.IntVar, cp_model.IntVar]]:
        """Per original holding jokers: the jokers it may keep outside its slot less those it
        keeps in it, a variable at most that and at most the jokers its slot loses, and the
        jokers it keeps in its slot."""
        model = self.model
        jokers_on_table = sum(self.joker_for)
        away_credited = self.matching_cuts or any(
            self.position.table[slot.original].kind is MeldKind.SET for slot, _, _ in self.pins
        )
        any_freed: Expr = 1
        if not away_credited:
            any_freed = model.new_bool_var("anyfreed")
            model.add(any_freed <= sum(freed for _, freed, _ in self.pins))
        gains: dict[int, tuple[Expr, cp_model.IntVar, cp_model.IntVar]] = {}
        for slot, freed, jokers_here in self.pins:
            in_slot = self._at_most(jokers_here, slot.jokers, f"js{slot.original}")
            elsewhere = self._at_most(
                jokers_on_table - jokers_here, slot.jokers, f"jx{slot.original}"
            )
            gain = self._positive_part(elsewhere - in_slot, slot.jokers, f"jg{slot.original}")
            # The slot holds its staying jokers: it loses at most those freed and those away.
            away = model.new_int_var(0, slot.jokers, f"ja{slot.original}")
            model.add(away <= slot.jokers - self.staying[slot.original] - freed)
            model.add(away <= slot.jokers * any_freed)
            model.add(gain <= freed + away)
            gains[slot.original] = (elsewhere - in_slot, gain, in_slot)
        return gains

    def _card_gain(self, slot: Slot, joker_gain: Expr) -> Expr:
        """At least the cards the original keeps in another meld less those it keeps in its
        slot, given ``joker_gain`` bounding the jokers' part: its real cards outside the slot,
        less the real cards of its types in the slot, where no second copy can be elsewhere."""
        real = len(self.position.table[slot.original].real_cards)
        here: list[Expr] = []
        once: list[Expr] = []
        for t in slot.real_types:
            if t not in slot.real_at:
                continue
            real_at = slot.real_at[t]
            here.append(real_at)
            table = self.counts.table[t]
            if table >= 2:
                continue  # the other copy may be in the original's other meld
            if table == 1 and self.counts.hand[t]:
                # A second copy only if the hand's is played.
                alone = self.model.new_bool_var(f"one{slot.original}_{t}")
                self.model.add(alone >= real_at - self.play[t])
                once.append(alone)
            else:
                once.append(real_at)
        return real - sum(here) - sum(once) + joker_gain

    def _one_meld_gain(
        self, slot: Slot, member: dict[int, Expr], jokers: tuple[Expr, Expr] | None
    ) -> Expr:
        """Like :meth:`_card_gain`, in one meld: the original's M-meld is another original's
        slot (that original is then in a chain too), a piece, a free run (all those of a suit
        together: a free run longer than a template is several), a free set (all those of a
        rank together) or, without jokers, a meld sharing one card type with it. It keeps
        there at most the real cards of its types and, with ``jokers`` (the jokers it keeps in
        its slot, and its joker gain's bound), the jokers there."""
        model = self.model
        types = sorted(set(slot.real_types))
        real = len(types)
        options = [
            (real_there, jokers_there, member.get(other, 1))
            for other, real_there, distinct, jokers_there in self._melds_sharing(slot, types)
            if jokers is not None or distinct >= 2
        ]
        share = model.new_int_var(0, real, f"sh{slot.original}")
        kept_jokers = model.new_int_var(0, slot.jokers, f"sj{slot.original}")
        chosen = [model.new_bool_var(f"sh{slot.original}_{n}") for n in range(len(options))]
        model.add(sum(chosen) <= 1)
        for (real_there, jokers_there, chain), var in zip(options, chosen, strict=True):
            model.add(share <= real_there + real * (1 - var))
            model.add(kept_jokers <= jokers_there + slot.jokers * (1 - var))
            model.add(var <= chain)
        here = sum(slot.real_at[t] for t in slot.real_types if t in slot.real_at)
        if jokers is None:
            model.add(share <= 1 + real * sum(chosen))
            return share - here
        model.add(share <= real * sum(chosen))
        in_slot, gain = jokers
        joker_part = model.new_int_var(-slot.jokers, slot.jokers, f"sg{slot.original}")
        model.add(joker_part <= kept_jokers - in_slot)
        model.add(joker_part <= gain)
        return share - here + joker_part

    def _melds_sharing(self, slot: Slot, types: list[int]) -> list[tuple[int, Expr, int, Expr]]:
        """Every meld but the slot's, as (original or -1, real cards of ``types`` there, how
        many types it may share, jokers there); free melds grouped."""
        found: list[tuple[int, Expr, int, Expr]] = []
        for other in self.slots + self.pieces:
            if other is slot or not other.here:
                continue
            shared = [other.real_at[t] for t in types if t in other.real_at]
            jokers_there = sum(other.here.values()) - sum(other.real_at.values())
            found.append((other.original, sum(shared), len(shared), jokers_there))
        groups: dict[tuple[MeldKind, int], list[int]] = {}
        for number, template in enumerate(self.templates):
            key = template.suit if template.kind is MeldKind.RUN else template.types[0] % 13
            groups.setdefault((template.kind, key), []).append(number)
        for numbers in groups.values():
            shared = [self.real_in[n][t] for n in numbers for t in types if t in self.real_in[n]]
            distinct = {t for n in numbers for t in types if t in self.real_in[n]}
            jokers_there = sum(
                len(self.templates[n].types) * self.uses[n] - sum(self.real_in[n].values())
                for n in numbers
            )
            found.append((-1, sum(shared), len(distinct), jokers_there))
        return found

    def _at_most(self, expr: Expr, cap: int, name: str) -> cp_model.IntVar:
        var = self.model.new_int_var(0, cap, name)
        self.model.add_min_equality(var, [expr, cap])
        return var

    def _positive_part(self, expr: Expr, bound: int, name: str) -> cp_model.IntVar:
        """A variable at most ``max(expr, 0)`` (``expr`` <= ``bound``): the credit only needs
        an upper bound."""
        var = self.model.new_int_var(0, bound, name)
        positive = self.model.new_bool_var(f"{name}pos")
        self.model.add(var <= bound * positive)
        self.model.add(var <= expr + 3 * bound * (1 - positive))
        return var
