"""The lay-off turn as one CP-SAT model (see :mod:`rami.solver.layoff` for the model's parts)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from rami.cards import JOKER, NUM_TYPES, Card
from rami.melds import MAX_SET, MIN_MELD, Meld, MeldKind, stands_for
from rami.position import Position
from rami.rules import GoingOut, TableJoker
from rami.solver.cpsat import Expr, Model
from rami.solver.layoff.parts import (
    MAX_RUN,
    SWAPPING,
    OldRun,
    OldSet,
    Window,
    least_real,
    type_at,
)
from rami.solver.solution import Objective


class TurnModel:
    """One CP-SAT model: the opened player's turn, or the opening turn (new melds only)."""

    def __init__(
        self, position: Position, *, opening: bool, objective: Objective, min_moves: bool
    ) -> None:
        self.position = position
        self.rules = rules = position.rules
        self.opening = opening
        self.model = model = Model()
        hand = Counter(position.hand)
        self.h = [hand[Card(t)] for t in range(NUM_TYPES)]
        self.hand_jokers = hand[JOKER]
        # Decision 4: the opener of a lay-off preset may lay off (and swap) once the opening
        # melds are down; rami fou's opening turn (decision 1) lays new melds only.
        self.lay_off = not (opening and rules.rearrangement)
        self.swap = self.lay_off and rules.table_joker in SWAPPING
        table_jokers = sum(meld.jokers for meld in position.table)
        #: Most jokers that can ever be laid this turn.
        self.joker_budget = self.hand_jokers + (table_jokers if self.swap else 0)
        self.uses: list[list[Any]] = [[] for _ in range(NUM_TYPES)]
        self.joker_terms: list[Any] = []
        self.moved_terms: list[Any] = []
        self.old_runs: list[OldRun] = []
        self.old_sets: list[OldSet] = []
        self.windows: list[Window] = []
        #: Jokers laid in new melds (the opening's melds come from the hand).
        self.window_jokers: list[Any] = []
        if self.lay_off:
            for index, meld in enumerate(position.table):
                if meld.kind is MeldKind.RUN:
                    self._old_run(index, meld)
                else:
                    self._old_set(index, meld)
        self._new_runs(pure=False)
        self._new_sets()
        if opening and rules.opening_pure_run:
            self._new_runs(pure=True)

        self.play: list[Expr] = [
            model.new_int_var(0, self.h[t], f"p{t}") if self.h[t] else 0 for t in range(NUM_TYPES)
        ]
        for t in range(NUM_TYPES):
            if self.h[t]:
                model.add(sum(self.uses[t]) == self.play[t])
        # Net jokers leaving the hand (negative: swapped jokers come to the hand, BFmania).
        low = -table_jokers if self.swap else 0
        self.net_jokers = model.new_int_var(low, self.hand_jokers, "net_jokers")
        model.add(self.net_jokers == sum(self.joker_terms))
        if self.swap and rules.table_joker is TableJoker.SWAP_AND_RELAY:
            model.add(self.net_jokers >= 0)  # Café: a swapped joker is laid again this turn
        if low < 0:
            self.played_jokers = model.new_int_var(0, self.hand_jokers, "played_jokers")
            model.add_max_equality(self.played_jokers, [self.net_jokers, 0])
        else:
            self.played_jokers = self.net_jokers
        self.jokers_left = self.hand_jokers - self.net_jokers
        self.played = sum(self.play) + self.played_jokers
        left = [self.h[t] - self.play[t] for t in range(NUM_TYPES)]
        self.cards_left = sum(left) + self.jokers_left
        self._discard(left)
        self.penalty = (
            sum(rules.card_penalty(t % 13 + 1) * left[t] for t in range(NUM_TYPES) if self.h[t])
            + rules.joker_penalty * self.jokers_left
            - sum(rules.card_penalty(card.rank) * var for card, var in self.discard.items())
        )
        self.moved = sum(self.moved_terms)
        if opening:
            self._opening()
        self.max_played = len(position.hand)
        self.max_penalty = sum(
            rules.card_penalty(card.rank) for card in position.hand
        ) + rules.joker_penalty * (table_jokers if self.swap else 0)
        self.max_moved = table_jokers if (self.swap and min_moves) else 0
        self.objective = objective
        self.min_moves = min_moves
        model.maximize(self.value())

    # The old table.

    def _old_run(self, index: int, meld: Meld) -> None:
        model, rules, h = self.model, self.rules, self.h
        places = stands_for(meld, rules)
        suit = meld.real_cards[0].index // 13
        run = OldRun(index, suit, places[0], places[-1])
        filled_total = []
        jokers_laid = []
        reals_added = []
        for step, limit in (
            (-1, max(1, run.high - MAX_RUN + 1)),
            (1, min(rules.top_rank, run.low + MAX_RUN - 1)),
        ):
            place = run.low - 1 if step < 0 else run.high + 1
            previous = None
            gaps = 0
            while (place >= limit) if step < 0 else (place <= limit):
                can_real = h[type_at(suit, place)] > 0
                if not can_real:
                    gaps += 1
                    if gaps > self.joker_budget:
                        break
                filled = model.new_bool_var(f"g{index}_{place}")
                if previous is not None:
                    model.add(filled <= previous)  # a run grows from its end, no gap
                real: Expr = model.new_bool_var(f"gr{index}_{place}") if can_real else 0
                if can_real:
                    model.add(real <= filled)
                    self.uses[type_at(suit, place)].append(real)
                run.grow.append((place, filled, real))
                filled_total.append(filled)
                jokers_laid.append(filled - real)
                reals_added.append(real)
                previous = filled
                place += step
        if filled_total:
            model.add(len(meld.cards) + sum(filled_total) <= MAX_RUN)
        swapped = []
        for slot, (place, card) in enumerate(zip(places, meld.cards, strict=True)):
            if card.is_joker and self.swap and h[type_at(suit, place)] > 0:
                var = model.new_bool_var(f"w{index}_{slot}")
                self.uses[type_at(suit, place)].append(var)
                run.swaps.append((slot, place, var))
                swapped.append(var)
        self.joker_terms.extend(jokers_laid)
        self.joker_terms.extend(-var for var in swapped)
        if rules.naturals_at_least_jokers and (jokers_laid or swapped):
            naturals = len(meld.real_cards) + sum(reals_added) + sum(swapped)
            model.add(naturals >= meld.jokers - sum(swapped) + sum(jokers_laid))
        if swapped:
            moved = model.new_int_var(0, len(swapped), f"m{index}")
            model.add(moved >= sum(swapped) - sum(jokers_laid))
            self.moved_terms.append(moved)
        self.old_runs.append(run)

    def _old_set(self, index: int, meld: Meld) -> None:
        model, rules = self.model, self.rules
        rank = meld.real_cards[0].rank
        suits = {card.index // 13 for card in meld.real_cards}
        entry = OldSet(index, rank)
        for suit in range(4):
            if suit not in suits and self.h[suit * 13 + rank - 1]:
                var = model.new_bool_var(f"a{index}_{suit}")
                entry.added[suit] = var
                self.uses[suit * 13 + rank - 1].append(var)
        added = sum(entry.added.values())
        room = MAX_SET - len(suits)
        least = meld.jokers if not self.swap else 0
        most = room if self.joker_budget or self.swap else meld.jokers
        jokers: Expr  # set through a local: older mypy joins int and IntVar to object
        if least == most == meld.jokers:
            jokers = meld.jokers
        else:
            jokers = model.new_int_var(least, max(least, most), f"sj{index}")
        entry.jokers = jokers
        model.add(len(suits) + added + entry.jokers <= MAX_SET)
        if self.swap and meld.jokers:
            model.add(entry.jokers >= meld.jokers - added)  # only a real card frees a joker
            moved = model.new_int_var(0, meld.jokers, f"m{index}")
            model.add(moved >= meld.jokers - entry.jokers)
            self.moved_terms.append(moved)
        if rules.naturals_at_least_jokers:
            model.add(len(suits) + added >= entry.jokers)
        self.joker_terms.append(entry.jokers - meld.jokers)
        self.old_sets.append(entry)

    # New melds.

    def _new_runs(self, *, pure: bool) -> None:
        model, rules, h = self.model, self.rules, self.h
        for suit in range(4):
            # Copies of each place's card held, at most 2 (index 0 unused).
            counts = [0] + [min(h[type_at(suit, p)], 2) for p in range(1, rules.top_rank + 1)]
            most_missing = 0 if pure else self.joker_budget
            for low, high, total, missing in _run_windows(counts, rules.top_rank, most_missing):
                size = high - low + 1
                if pure:
                    most = min(counts[low : high + 1])  # every place held: none missing
                else:
                    least = least_real(rules, size)
                    most = self._copies_within_reach(total, least, missing)
                if most <= 0:
                    continue
                places = tuple(range(low, high + 1))
                tag = f"{'v' if pure else 'r'}{suit}_{low}_{high}"
                copies = model.new_int_var(0, most, tag)
                held = {p: counts[p] for p in places if counts[p]}
                if pure:
                    real: dict[int, Any] = dict.fromkeys(held, copies)
                    for p in held:
                        self.uses[type_at(suit, p)].append(copies)
                else:
                    real = self._real_counts(
                        tag,
                        {type_at(suit, p): (p, count) for p, count in held.items()},
                        copies,
                        most,
                        size,
                        least,
                    )
                points = sum(rules.opening_value(p) for p in places)
                self.windows.append(
                    Window(MeldKind.RUN, suit, places, size, copies, real, points, pure)
                )

    def _new_sets(self) -> None:
        model, rules, h = self.model, self.rules, self.h
        for rank in range(1, 14):
            avail = {s: min(h[s * 13 + rank - 1], 2) for s in range(4)}
            avail = {s: n for s, n in avail.items() if n}
            for size in (MIN_MELD, MAX_SET):
                least = least_real(rules, size)
                if len(avail) < least:
                    continue
                missing = max(0, size - len(avail))
                most = self._copies_within_reach(sum(avail.values()), least, missing)
                if most <= 0:
                    continue
                tag = f"s{rank}_{size}"
                copies = model.new_int_var(0, most, tag)
                real = self._real_counts(
                    tag,
                    {suit * 13 + rank - 1: (suit, count) for suit, count in avail.items()},
                    copies,
                    most,
                    size,
                    least,
                )
                # More suits than places: the copies hold no more real cards than places.
                model.add(sum(real.values()) <= size * copies)
                value = rules.opening_value(14 if rank == 1 else rank)
                self.windows.append(
                    Window(MeldKind.SET, rank, tuple(avail), size, copies, real, size * value)
                )

    def _copies_within_reach(self, reals: int, least: int, missing: int) -> int:
        """Most copies of a new meld the hand can fill (0: none): each takes ``least`` of the
        ``reals`` real cards it could hold, and a joker for each of its ``missing`` places."""
        if reals < least or missing > self.joker_budget:
            return 0
        most = reals // least
        return min(most, self.joker_budget // missing) if missing else most

    def _real_counts(
        self,
        tag: str,
        held: dict[int, tuple[int, int]],
        copies: Any,
        most: int,
        size: int,
        least: int,
    ) -> dict[int, Any]:
        """Real cards of each type (``held``: type -> (place or suit, cards in the hand)) in the
        copies of a new meld, at least ``least`` per copy; jokers fill its other places.
        Returns the counts by place or suit."""
        model = self.model
        real: dict[int, Any] = {}
        for card_type, (key, count) in held.items():
            real[key] = model.new_int_var(0, min(count, most), f"{tag}_{key}")
            model.add(real[key] <= copies)
            self.uses[card_type].append(real[key])
        total = sum(real.values())
        model.add(total >= least * copies)
        self.joker_terms.append(size * copies - total)
        self.window_jokers.append(size * copies - total)
        return real

    # The end of the turn.

    def _discard(self, left: list[Any]) -> None:
        model, rules, position = self.model, self.rules, self.position
        self.discard: dict[Card, Any] = {}
        most_left = len(position.hand) + (self.joker_budget - self.hand_jokers)
        locked: list[Any] = []
        for t in range(NUM_TYPES):
            if not self.h[t]:
                continue
            var = model.new_bool_var(f"d{t}")
            model.add(var <= left[t])
            self.discard[Card(t)] = var
            if position.taken_discard == Card(t):
                # Decision 8: neither copy goes, unless it is the last card.
                locked.append(var)
        if self.hand_jokers or (self.swap and rules.table_joker is TableJoker.SWAP_TO_HAND):
            var = model.new_bool_var("dj")
            model.add(var <= self.jokers_left)
            self.discard[JOKER] = var
            if rules.joker_kept_until_last or position.taken_discard == JOKER:
                # Café: a joker goes only as the last card; decision 8: so does a taken joker,
                # and any other joker, a swapped one included (jokers are identical).
                locked.append(var)
        for var in locked:
            model.add(self.cards_left <= 1 + most_left * (1 - var))
        self.goes_out_placing: Expr = 0
        if rules.going_out is GoingOut.PLACE_OR_DISCARD:
            self.goes_out_placing = model.new_bool_var("out")
            model.add(self.cards_left <= most_left * (1 - self.goes_out_placing))
        model.add(sum(self.discard.values()) + self.goes_out_placing == 1)

    def _opening(self) -> None:
        model, rules = self.model, self.rules
        melds = sum(window.copies for window in self.windows)
        model.add(melds >= 1)  # the opening turn lays at least one meld
        if rules.opening_points:
            model.add(
                sum(window.points * window.copies for window in self.windows)
                >= rules.opening_points
            )
        if rules.opening_pure_run:
            model.add(sum(window.copies for window in self.windows if window.pure) >= 1)
        if self.swap:
            # Decision 4: the new melds hold no joker the hand did not bring (a joker swapped
            # this turn goes to the hand or on an old meld). A new meld may copy an old one the
            # swapped joker grows (TS JS QS laid, 8S * added to the table's TS JS QS): decision 4
            # judges such identical copies by the pairing that leaves an opening.
            model.add(sum(self.window_jokers) <= self.played_jokers)

    def value(self) -> Any:
        """The objective to maximise: the levels of decision 6 as one exact integer."""
        moves = self.max_moved + 1
        moved = self.moved if self.max_moved else 0
        if self.objective is Objective.POINTS:
            second = (self.max_played + 1) * moves
            return -self.penalty * second + self.played * moves - moved
        second = (self.max_penalty + 1) * moves
        return self.played * second - self.penalty * moves - moved

    def bounds(self, bound: float) -> dict[str, int]:
        """What a proved bound on :meth:`value` says about the first level."""
        moves = self.max_moved + 1
        if self.objective is Objective.POINTS:
            # -penalty * second <= bound - played * moves + moved <= bound + max_moved
            second = (self.max_played + 1) * moves
            return {"penalty_after_at_least": max(0, -((int(bound) + self.max_moved) // second))}
        # played * second <= bound + penalty * moves + moved
        second = (self.max_penalty + 1) * moves
        top = int(bound) + self.max_penalty * moves + self.max_moved
        return {"cards_played_at_most": max(0, min(self.max_played, top // second))}


def _run_windows(
    counts: list[int], top: int, most_missing: int
) -> Iterator[tuple[int, int, int, int]]:
    """Each run window ``(low, high)`` of one suit (3 to :data:`MAX_RUN` places up to
    ``top``), with the copies held over it (``counts`` per place) and its places held none of;
    the windows missing more than ``most_missing`` places (more than the jokers to fill
    them) are left out."""
    for low in range(1, top - MIN_MELD + 2):
        total = sum(counts[low : low + MIN_MELD - 1])
        missing = sum(1 for p in range(low, low + MIN_MELD - 1) if not counts[p])
        for high in range(low + MIN_MELD - 1, min(top, low + MAX_RUN - 1) + 1):
            total += counts[high]
            missing += not counts[high]
            if missing > most_missing:
                break  # a longer window misses as many places at least
            yield low, high, total, missing
