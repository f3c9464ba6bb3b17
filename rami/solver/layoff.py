"""The turn solver for the presets that never rearrange the table: rami 51, BFmania 51/30 and
Café Rummy (RULES.md presets table, decisions 2-4, 6-8).

The table cannot be rearranged, so a turn is small: each meld already on the table may only grow
(cards laid off at either end of a run, missing suits added to a set) and, where the preset
allows it, give up jokers to the real card they stand for; the rest of the play is new melds
from the hand; one card is kept back for the discard. The problem is solved *exactly* with one
CP-SAT model per turn (one worker, fixed seed, deterministic time limit), the project's
optimiser; the models hold a few hundred variables and are proved optimal in milliseconds.

Model (all counts over the 52 card types; jokers are one pooled count):

* Old run: one boolean per place it may grow into at each end (contiguous from the end, 13
  cards at most), a boolean "real card" per such place (else a joker fills it), and one boolean
  per joker it holds: "swapped", the real card it stands for from the hand taking its place.
* Old set: one boolean per missing suit the hand holds, and its final number of jokers
  (it keeps at least ``jokers - suits added`` of them where swaps are allowed, all of them
  otherwise; 4 cards at most).
* New melds: every run window (suit, first place, last place, 3..13 cards) and every set size
  (rank, 3 or 4) has an integer number of copies and, per place, how many of its copies hold a
  real card there. The real cards are dealt round the copies in turn, so every copy gets at
  least ``total // copies`` of them: "each copy holds >= q real cards" is exactly
  ``total >= q * copies`` (q: at least one real card, ``min_real_cards``, and for Café Rummy
  as many naturals as jokers). The same dealing keeps a set's suits distinct.
* Jokers: the jokers laid (on new melds, on run ends, in sets) minus the jokers swapped out is
  the net count of jokers that leave the hand. It may not exceed the hand's jokers; BFmania
  lets it go below zero (swapped jokers go to the hand), Café Rummy does not (a swapped joker
  must be laid again in the same turn), rami 51 never swaps.
* Discard: one boolean per card type left in the hand (and the joker), exactly one of them set,
  except that BFmania may instead go out by placing its last card. The card just taken from the
  discard pile (decision 8) and, in Café Rummy, a joker may be discarded only as the last card.
* Objective (decision 6), folded into one exact integer since every level is bounded: least
  hand penalty after the discard, then most cards played (swapped by ``objective="cards"``),
  then fewest table cards moved. Growing a meld moves nothing (decision 7); a swapped joker
  that does not end in its own meld is one card moved, so the count is
  ``max(0, jokers swapped out - jokers laid on it)`` per meld; the referee's exact matching
  (rami.matching) is compared with it on every answer and the status is downgraded if they
  ever differ.

A player who has not opened either passes (discards only) or opens: new melds from the hand
meeting the preset's requirement (decision 2 points, each window counted with the cards its
jokers stand for; a pure run where asked; any one meld in Café Rummy), holding no more jokers
than the hand did. Once they are down the player has opened and may lay off and swap in the same
turn (decision 4); those cards do not count towards the opening. Rami fou's opening turn lays new
melds only (decision 1). Opening and passing are solved and compared on the objective, with rami
51's flat 100 for a player still not opened.

Every answer is checked by :func:`rami.referee.validate_turn` before it is returned.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rami.cards import JOKER, NUM_TYPES, Card
from rami.errors import IllegalTurnError, SolverBugError, UnsupportedError
from rami.melds import MAX_SET, MIN_MELD, Meld, MeldKind, stands_for
from rami.position import Position, hand_penalty
from rami.rules import GoingOut, Ruleset, TableJoker
from rami.solver.api import (
    Move,
    Objective,
    Solution,
    costliest_discard,
    honest_status,
    refereed,
)
from rami.solver.explain import explain_moves, in_number_order

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

SWAPPING = (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
MAX_RUN = 13


def _type_at(suit: int, place: int) -> int:
    """Card type of run place 1..14 in ``suit`` (14 is the ace above the king)."""
    return suit * 13 + (place - 1) % 13


def _least_real(rules: Ruleset, size: int) -> int:
    """Real cards a meld of ``size`` cards needs (RULES.md row "real cards per meld")."""
    least = max(1, rules.min_real_cards)
    if rules.naturals_at_least_jokers:
        least = max(least, (size + 1) // 2)
    return least


def _check_supported(position: Position) -> None:
    rules = position.rules
    # The opening turn of a rearranging preset that discards (rami fou) lays new melds from the
    # hand only (decision 1): the same turn as here.
    opening_only = rules.rearrangement and not position.opened
    if (rules.rearrangement and not opening_only) or not rules.discard:
        raise UnsupportedError(
            f"the lay-off solver handles presets without rearrangement that discard, "
            f"not {rules.option_string}"
        )
    if not opening_only and rules.table_joker not in (TableJoker.STAYS, *SWAPPING):
        raise UnsupportedError(f"the joker rule of {rules.name} is not implemented in the solver")
    if rules.open_and_rearrange_same_turn and not position.opened:
        raise UnsupportedError(
            "opening and laying off (or rearranging) in the same turn "
            "(open_and_rearrange_same_turn) is not solved for presets that discard"
        )


# --- The model ---------------------------------------------------------------------------------


@dataclass
class _OldRun:
    index: int
    suit: int
    low: int
    high: int
    #: (place, filled, real) for each place the run may grow into, below then above.
    grow: list[tuple[int, Any, Any]] = field(default_factory=list)
    #: (slot in meld.cards, place, swapped) for each joker the hand could swap out.
    swaps: list[tuple[int, int, Any]] = field(default_factory=list)


@dataclass
class _OldSet:
    index: int
    rank: int
    added: dict[int, Any] = field(default_factory=dict)  # suit -> boolean
    jokers: Any = 0  # final number of jokers


@dataclass
class _Window:
    """A new-meld template: a run window (places) or a set size (suits), with its copies."""

    kind: MeldKind
    suit_or_rank: int
    places: tuple[int, ...]  # run places, or the suits a set may use
    size: int
    copies: Any
    real: dict[int, Any]  # place (run) or suit (set) -> copies holding a real card there
    points: int
    pure: bool = False


class _TurnModel:
    """One CP-SAT model: the opened player's turn, or the opening turn (new melds only)."""

    def __init__(
        self, position: Position, *, opening: bool, objective: Objective, min_moves: bool
    ) -> None:
        from ortools.sat.python import cp_model

        self.position = position
        self.rules = rules = position.rules
        self.opening = opening
        self.model = model = cp_model.CpModel()
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
        self.old_runs: list[_OldRun] = []
        self.old_sets: list[_OldSet] = []
        self.windows: list[_Window] = []
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

        self.play = [
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
        self.max_penalty = (
            sum(rules.card_penalty(card.rank) for card in position.hand)
            + rules.joker_penalty * (table_jokers if self.swap else 0)
        )
        self.max_moved = table_jokers if (self.swap and min_moves) else 0
        self.objective = objective
        self.min_moves = min_moves
        model.maximize(self.value())

    # The old table.

    def _old_run(self, index: int, meld: Meld) -> None:
        model, rules, h = self.model, self.rules, self.h
        places = stands_for(meld, rules)
        suit = meld.real_cards[0].index // 13
        run = _OldRun(index, suit, places[0], places[-1])
        filled_total = []
        jokers_laid = []
        reals_added = []
        for step, limit in ((-1, max(1, run.high - MAX_RUN + 1)),
                            (1, min(rules.top_rank, run.low + MAX_RUN - 1))):
            place = run.low - 1 if step < 0 else run.high + 1
            previous = None
            gaps = 0
            while (place >= limit) if step < 0 else (place <= limit):
                can_real = h[_type_at(suit, place)] > 0
                if not can_real:
                    gaps += 1
                    if gaps > self.joker_budget:
                        break
                filled = model.new_bool_var(f"g{index}_{place}")
                if previous is not None:
                    model.add(filled <= previous)  # a run grows from its end, no gap
                real = model.new_bool_var(f"gr{index}_{place}") if can_real else 0
                if can_real:
                    model.add(real <= filled)
                    self.uses[_type_at(suit, place)].append(real)
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
            if card.is_joker and self.swap and h[_type_at(suit, place)] > 0:
                var = model.new_bool_var(f"w{index}_{slot}")
                self.uses[_type_at(suit, place)].append(var)
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
        entry = _OldSet(index, rank)
        for suit in range(4):
            if suit not in suits and self.h[suit * 13 + rank - 1]:
                var = model.new_bool_var(f"a{index}_{suit}")
                entry.added[suit] = var
                self.uses[suit * 13 + rank - 1].append(var)
        added = sum(entry.added.values())
        room = MAX_SET - len(suits)
        least = meld.jokers if not self.swap else 0
        most = room if self.joker_budget or self.swap else meld.jokers
        if least == most == meld.jokers:
            entry.jokers = meld.jokers
        else:
            entry.jokers = model.new_int_var(least, max(least, most), f"sj{index}")
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
            for low in range(1, rules.top_rank - MIN_MELD + 2):
                for high in range(low + MIN_MELD - 1, min(rules.top_rank, low + MAX_RUN - 1) + 1):
                    places = tuple(range(low, high + 1))
                    avail = {p: min(h[_type_at(suit, p)], 2) for p in places}
                    size = len(places)
                    missing = sum(1 for p in places if not avail[p])
                    if pure:
                        most = 0 if missing else min(avail.values())
                    else:
                        least = _least_real(rules, size)
                        most = self._copies_within_reach(sum(avail.values()), least, missing)
                    if most <= 0:
                        continue
                    tag = f"{'v' if pure else 'r'}{suit}_{low}_{high}"
                    copies = model.new_int_var(0, most, tag)
                    held = {p: count for p, count in avail.items() if count}
                    if pure:
                        real: dict[int, Any] = dict.fromkeys(held, copies)
                        for p in held:
                            self.uses[_type_at(suit, p)].append(copies)
                    else:
                        real = self._real_counts(
                            tag, {_type_at(suit, p): (p, count) for p, count in held.items()},
                            copies, most, size, least,
                        )
                    points = sum(rules.opening_value(p) for p in places)
                    self.windows.append(
                        _Window(MeldKind.RUN, suit, places, size, copies, real, points, pure)
                    )

    def _new_sets(self) -> None:
        model, rules, h = self.model, self.rules, self.h
        for rank in range(1, 14):
            avail = {s: min(h[s * 13 + rank - 1], 2) for s in range(4)}
            avail = {s: n for s, n in avail.items() if n}
            for size in (MIN_MELD, MAX_SET):
                least = _least_real(rules, size)
                if len(avail) < least:
                    continue
                missing = max(0, size - len(avail))
                most = self._copies_within_reach(sum(avail.values()), least, missing)
                if most <= 0:
                    continue
                tag = f"s{rank}_{size}"
                copies = model.new_int_var(0, most, tag)
                real = self._real_counts(
                    tag, {suit * 13 + rank - 1: (suit, count) for suit, count in avail.items()},
                    copies, most, size, least,
                )
                # More suits than places: the copies hold no more real cards than places.
                model.add(sum(real.values()) <= size * copies)
                value = rules.opening_value(14 if rank == 1 else rank)
                self.windows.append(
                    _Window(MeldKind.SET, rank, tuple(avail), size, copies, real, size * value)
                )

    def _copies_within_reach(self, reals: int, least: int, missing: int) -> int:
        """Most copies of a new meld the hand can fill (0: none): each takes ``least`` of the
        ``reals`` real cards it could hold, and a joker for each of its ``missing`` places."""
        if reals < least or missing > self.joker_budget:
            return 0
        most = reals // least
        return min(most, self.joker_budget // missing) if missing else most

    def _real_counts(
        self, tag: str, held: dict[int, tuple[int, int]], copies: Any, most: int, size: int,
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
        self.goes_out_placing = 0
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
            # Decision 4: the new melds hold no joker the hand did not bring.
            model.add(sum(self.window_jokers) <= self.hand_jokers)

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


# --- Reading an answer -------------------------------------------------------------------------


@dataclass
class _Answer:
    """One turn: the table after it (old melds in order, then new ones), and how it is played."""

    table: list[Meld]
    played: tuple[Card, ...]
    discard: Card | None
    #: (old meld number from 1, real card) for each joker swapped out.
    swaps: list[tuple[int, Card]]
    moved: int = 0


def _deal(counts: dict[int, int], copies: int) -> list[set[int]]:
    """Deal ``counts[key]`` items of each key round the copies in turn (distinct per copy)."""
    hands: list[set[int]] = [set() for _ in range(copies)]
    turn = 0
    for key in sorted(counts):
        for _ in range(counts[key]):
            hands[turn % copies].add(key)
            turn += 1
    return hands


def _read(turn: _TurnModel, solver: cp_model.CpSolver) -> _Answer:
    def value(expr: Any) -> int:
        return expr if isinstance(expr, int) else int(solver.value(expr))

    position = turn.position
    table = list(position.table)
    swaps: list[tuple[int, Card]] = []
    for run in turn.old_runs:
        meld = position.table[run.index]
        cards = dict(zip(stands_for(meld, turn.rules), meld.cards, strict=True))
        changed = False
        for _, place, var in run.swaps:
            if value(var):
                cards[place] = Card(_type_at(run.suit, place))
                swaps.append((run.index + 1, cards[place]))
                changed = True
        for place, filled, real in run.grow:
            if value(filled):
                cards[place] = Card(_type_at(run.suit, place)) if value(real) else JOKER
                changed = True
        if changed:
            table[run.index] = Meld(tuple(cards[p] for p in sorted(cards)), MeldKind.RUN)
    for entry in turn.old_sets:
        meld = position.table[entry.index]
        added = [Card.of(entry.rank, s) for s, var in sorted(entry.added.items()) if value(var)]
        jokers = value(entry.jokers)
        for card in added[: max(0, meld.jokers - jokers)]:
            swaps.append((entry.index + 1, card))
        if added or jokers != meld.jokers:
            table[entry.index] = Meld(
                (*meld.real_cards, *added) + (JOKER,) * jokers, MeldKind.SET
            )
    for window in turn.windows:
        copies = value(window.copies)
        if not copies:
            continue
        counts = {key: value(var) for key, var in window.real.items()}
        for real in _deal(counts, copies):
            if window.kind is MeldKind.RUN:
                cards = tuple(
                    Card(_type_at(window.suit_or_rank, p)) if p in real else JOKER
                    for p in window.places
                )
            else:
                reals = tuple(Card.of(window.suit_or_rank, s) for s in sorted(real))
                cards = reals + (JOKER,) * (window.size - len(reals))
            table.append(Meld(cards, window.kind))
    played: Counter[Card] = Counter()
    for t in range(NUM_TYPES):
        if value(turn.play[t]):
            played[Card(t)] = value(turn.play[t])
    if value(turn.played_jokers):
        played[JOKER] = value(turn.played_jokers)
    discard = next((card for card, var in turn.discard.items() if value(var)), None)
    return _Answer(table, tuple(sorted(played.elements())), discard, swaps, value(turn.moved))


# --- Solving -----------------------------------------------------------------------------------


def _solver(time_limit: float) -> cp_model.CpSolver:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.random_seed = 0
    params.max_deterministic_time = time_limit
    # A wall-clock backstop only: the deterministic limit keeps answers reproducible.
    params.max_time_in_seconds = 3 * time_limit + 5
    # Measured on 400 positions of 20-60 table cards, hands of 8-15 (see the issue report):
    # presolve off halves the median search; the LP (level 2) keeps the tail short.
    params.linearization_level = 2
    params.cp_model_presolve = False
    return solver


@dataclass
class _Outcome:
    answer: _Answer
    proved: bool
    bounds: dict[str, int] = field(default_factory=dict)


class _TimedOut(Exception):
    """CP-SAT found no solution within the time limit (none proved impossible either)."""


def _run_model(
    position: Position, *, opening: bool, objective: Objective, min_moves: bool,
    time_limit: float, timings: dict[str, float],
) -> _Outcome | None:
    """Solve one model; None when it has no solution (proved by CP-SAT)."""
    from ortools.sat.python import cp_model

    started = time.perf_counter()
    turn = _TurnModel(position, opening=opening, objective=objective, min_moves=min_moves)
    built = time.perf_counter()
    solver = _solver(time_limit)
    status = solver.solve(turn.model)
    timings["build_ms"] += (built - started) * 1000
    timings["search_ms"] += (time.perf_counter() - built) * 1000
    if status == cp_model.OPTIMAL:
        return _Outcome(_read(turn, solver), True)
    if status == cp_model.FEASIBLE:
        return _Outcome(_read(turn, solver), False, turn.bounds(solver.best_objective_bound))
    if status == cp_model.INFEASIBLE:
        return None
    raise _TimedOut


def _pass(position: Position) -> _Answer | None:
    """Lay nothing and discard the costliest card the rules let go (None: no legal discard)."""
    discard = costliest_discard(position)
    if discard is None:
        if not position.hand and position.rules.going_out is GoingOut.PLACE_OR_DISCARD:
            return _Answer(list(position.table), (), None, [])
        return None
    return _Answer(list(position.table), (), discard, [])


def _opening_key(position: Position, answer: _Answer, objective: Objective) -> tuple:
    """Decision 6 levels of a turn of a player not opened yet (BFmania's swapped jokers come to
    the hand; the table moves nothing either way)."""
    hand = Counter(position.hand) - Counter(answer.played)
    jokers_before = sum(meld.jokers for meld in position.table)
    jokers_after = sum(meld.jokers for meld in answer.table)
    hand[JOKER] += jokers_before + Counter(answer.played)[JOKER] - jokers_after
    if answer.discard is not None:
        hand[answer.discard] -= 1
    penalty = hand_penalty((+hand).elements(), position.rules, bool(answer.played))
    played = len(answer.played)
    return (penalty, -played) if objective is Objective.POINTS else (-played, penalty)


def solve_layoff(
    position: Position, objective: Objective, *, min_moves: bool, time_limit: float
) -> Solution:
    """Best turn of the player to move for a preset without rearrangement (see the module)."""
    _check_supported(position)
    timings = {"build_ms": 0.0, "search_ms": 0.0, "finish_ms": 0.0}
    fallback = _pass(position)
    try:
        outcome = _run_model(position, opening=not position.opened, objective=objective,
                             min_moves=min_moves, time_limit=time_limit, timings=timings)
    except _TimedOut:
        if fallback is None:
            raise UnsupportedError(
                f"no legal turn found within the time limit ({time_limit} s)"
            ) from None
        outcome = _Outcome(fallback, False)
    if outcome is None:
        # Proved: no turn of the model's kind (for an opened player: no legal turn at all).
        if fallback is None or position.opened:
            raise _no_legal_turn(position)
        outcome = _Outcome(fallback, True)
    elif not position.opened and fallback is not None and (
        _opening_key(position, fallback, objective)
        < _opening_key(position, outcome.answer, objective)
    ):
        # Not opening is better: only where opening leaves more than a flat penalty.
        outcome = _Outcome(fallback, outcome.proved, outcome.bounds)
    started = time.perf_counter()
    solution = _finish(position, objective, min_moves, outcome)
    timings["finish_ms"] = (time.perf_counter() - started) * 1000
    return replace(solution, timings={k: round(v, 3) for k, v in timings.items()})


def _no_legal_turn(position: Position) -> IllegalTurnError:
    rules = position.rules
    reasons = [f"no legal turn exists: {rules.name} ends every turn with a discard, and no card "
               "of this hand may be discarded"]
    if position.taken_discard is not None:
        reasons.append(
            f"{position.taken_discard} was just taken from the discard pile (decision 8)"
        )
    if rules.joker_kept_until_last and JOKER in position.hand:
        reasons.append(f"{rules.name} never discards a joker except as the last card")
    return IllegalTurnError(reasons)


def _finish(
    position: Position, objective: Objective, min_moves: bool, outcome: _Outcome
) -> Solution:
    rules = position.rules
    answer = outcome.answer
    table = in_number_order(position.table, answer.table)
    verdict = refereed(position, table, answer.played, answer.discard)
    bounds = dict(outcome.bounds)
    status = honest_status(outcome.proved, verdict, answer.moved if min_moves else None, bounds)
    moves = _moves(position, answer, table, verdict.hand_after)
    return Solution(
        status=status,
        position=position,
        table=tuple(table),
        played=answer.played,
        hand=verdict.hand_after,
        penalty_before=hand_penalty(position.hand, rules, position.opened),
        penalty_after=verdict.penalty_after,
        cards_moved=verdict.cards_moved,
        moves=moves,
        opened=verdict.opened_after,
        objective=objective,
        min_moves=min_moves,
        bounds=bounds,
        message=_summary(position, answer, verdict.hand_after, verdict.penalty_after,
                         verdict.opened_after),
        discard=answer.discard,
    )


def _moves(
    position: Position, answer: _Answer, table: list[Meld], hand_after: tuple[Card, ...]
) -> tuple[Move, ...]:
    """Swaps first (each joker's card in its place), then lay-offs and new melds, then the
    discard; in an opening turn the new melds come first. The middle part is
    :func:`explain_moves` from the table with the swaps done."""
    rules = position.rules
    moves: list[Move] = []
    before = list(position.table)
    for number, card in answer.swaps:
        meld = before[number - 1]
        if meld.kind is MeldKind.RUN:
            places = stands_for(meld, rules)
            cards = tuple(
                card if c.is_joker and Card(_type_at(card.index // 13, p)) == card else c
                for p, c in zip(places, meld.cards, strict=True)
            )
        else:
            reals = [*meld.real_cards, card]
            cards = (*reals, *(JOKER,) * (meld.jokers - 1))
        before[number - 1] = Meld(cards, meld.kind)
        then = (
            "the joker goes to your hand" if rules.table_joker is TableJoker.SWAP_TO_HAND
            else "lay the joker again this turn"
        )
        moves.append(Move("swap", (card,), None, number,
                          f"put {card} in place of the joker in meld {number}: {then}"))
    after_counts: Counter[Card] = Counter()
    for meld in table:
        after_counts.update(meld.cards)
    before_counts: Counter[Card] = Counter()
    for meld in before:
        before_counts.update(meld.cards)
    rest = after_counts - before_counts
    if before_counts - after_counts:
        raise SolverBugError("a table card vanished from the solver's table")
    moves.extend(explain_moves(before, table, tuple(sorted(rest.elements()))))
    if not position.opened:
        # Decision 4: the opening melds go down first; lay-offs and swaps follow them.
        moves.sort(key=lambda move: move.kind != "lay")
    if answer.discard is not None:
        text = f"discard {answer.discard}" + (
            " to end your turn" if hand_after else ": your hand is empty, you go out"
        )
        moves.append(Move("discard", (answer.discard,), None, None, text))
    return tuple(moves)


def _summary(
    position: Position, answer: _Answer, hand_after: tuple[Card, ...], penalty: int,
    opened_after: bool,
) -> str:
    played = len(answer.played)
    total = len(position.hand)
    if not hand_after:
        how = f"discard {answer.discard}" if answer.discard is not None else "the last card laid"
        return f"goes out: {played} of {total} cards played, {how}"
    parts = [f"{played} of {total} cards played"]
    if answer.discard is not None:
        parts.append(f"discard {answer.discard}")
    if not opened_after and position.rules.unopened_flat_penalty is not None:
        parts.append(f"not opened: flat {penalty}")
    else:
        parts.append(f"{penalty} points left")
    return ", ".join(parts)
