"""The expert bot: the decisions the solver does not make.

The solver plays the best turn for the hand held; the expert plays that turn and decides around
it, starting from the confirmed bot's choices and leaving them only where a sharper look at the
cards shows a gain (measured in docs/game.md):

- Which pile: the confirmed bot's rule (the solver's best turn with the discard lays it and ends
  lower), and besides it, once opened, a discard that lays at no cost (a lay-off: one card
  fewer in the hand than a stock card would leave), and, not yet opened where the card taken
  may stay in the hand (BFmania, Café Rummy), a discard that completes a meld in the hand
  towards the opening (the first pure run the opening needs, or 10 points more in melds).
- Which card to discard: the costliest dead card, a card that starts no meld or whose partners
  are all in sight (no unseen card completes it); when every card is live, the one with the
  fewest unseen cards to complete it (a meld already complete in the hand is kept), the
  costliest among equals.
- Whether to lay now or hold back: where nothing is discarded (rami chinois, Rummikub), open
  with the fewest cards and hold the rest until the whole hand goes out in one turn
  (:mod:`rami.game.holdback`); where the table is never rearranged and the opening asks 30
  points or fewer (Café Rummy, BFmania 30), lay nothing until the turn that goes out
  (:func:`holds_to_go_out`): a meld on the table only gives the others cards to lay off and
  jokers to swap, while every opponent holds more than :data:`HOLD_WHILE_ABOVE` cards; in rami
  fou, a player who could open but not go out holds back when the risk is low and every card
  left is live, to go out in one turn later (rami sec: the others' points doubled).
- Claims (rami fou): claimed when the sampled value with the card and its penalty card beats
  waiting, by a 1-ply evaluation of the hand left after the turn:

      value(hand) = penalty(hand) - (1 - risk) * potential(hand)

  ``risk`` is the chance that the round ends before the hand can improve (from the smallest
  hand among the opponents and the stock left), ``potential`` the points the hand may still
  lay: each card that starts a meld (a pair of a rank, two of a suit close together, a joker)
  counts its penalty times the chance of drawing a card that completes it among the unseen
  cards.

Deterministic: the solver runs under its deterministic time limit only, and the claim's sampling
stream is seeded from the bot's seed and the view's round, turn, phase and seat.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rami.cards import JOKER, Card
from rami.errors import RamiError
from rami.game.actions import DISCARD, STOCK, Play
from rami.game.bots import (
    SOLVER_TIME_LIMIT,
    ConfirmedBot,
    could_use,
    jokers_only_play,
    laid_by_rule,
    solver_discard,
)
from rami.game.deck import derive_seed
from rami.game.discards import guarded_discard
from rami.game.greedy import allowed_discards, hand_melds, is_useful
from rami.game.holdback import held_play, holds_back
from rami.game.presets import DrawRule, game_rules
from rami.game.state import View
from rami.melds import is_pure_run, opening_points
from rami.position import Position
from rami.referee import validate_turn
from rami.rules import Ruleset

#: Points of melds in the hand a discard taken before the opening must add (or the pure run).
OPENING_GAIN = 10
#: The expert holds its melds in the hand (:func:`holds_to_go_out`) while every opponent holds
#: more cards than this: an opponent this close to going out would catch the held points.
HOLD_WHILE_ABOVE = 3
#: ... where the table is never rearranged and the opening asks this many points or fewer
#: (Café Rummy's any meld, BFmania 30): measured there, not in the 51-point presets.
HOLD_OPENING_POINTS = 30


class ExpertBot(ConfirmedBot):
    level = "expert"

    def __init__(
        self, seed: int = 0, samples: int = 6, time_limit: float = SOLVER_TIME_LIMIT
    ) -> None:
        super().__init__(seed, time_limit)
        self.samples = samples

    # ------------------------------------------------------------------ evaluation

    def rng(self, view: View) -> random.Random:
        return random.Random(
            derive_seed(self.seed, view.round, view.turn, view.phase, view.seat, len(view.hand))
        )

    @staticmethod
    def risk(view: View) -> float:
        others = [
            size
            for seat, size in enumerate(view.hand_sizes)
            if seat != view.seat and view.active[seat]
        ]
        smallest = min(others) if others else 13
        risk = min(0.95, max(0.05, 1.5 / max(smallest, 1)))
        if view.stock_size < 2 * view.players and not view.rules.discard:
            risk = max(risk, 0.8)
        return risk

    @staticmethod
    def potential(
        hand: Counter[Card], rules: Ruleset, unseen: Counter[Card], draws: float
    ) -> float:
        total_unseen = max(sum(unseen.values()), 1)
        jokers = hand[JOKER]
        value = rules.card_penalty(0) * 0.9 * jokers
        for card, count in hand.items():
            if card.is_joker or count <= 0:
                continue
            outs, complete = _outs(card, hand, unseen, rules)
            sure = complete or (jokers and outs)
            chance = 1.0 if sure else min(1.0, outs * draws / total_unseen)
            value += rules.card_penalty(card.rank) * count * chance
        return value

    def value(self, hand: Counter[Card] | tuple[Card, ...], view: View) -> float:
        hand = Counter(hand)
        rules = view.rules
        risk = self.risk(view)
        draws = 1 + 3 * (1 - risk)
        penalty = sum(rules.card_penalty(card.rank) * n for card, n in hand.items())
        return penalty - (1 - risk) * self.potential(hand, rules, view.unseen(), draws)

    def sample(self, view: View, count: int) -> list[Card]:
        unseen = view.unseen()
        pool = sorted(unseen.elements())
        if not pool:
            return []
        rng = self.rng(view)
        return [pool[rng.randrange(len(pool))] for _ in range(count)]

    def best_value(self, view: View, hand: tuple[Card, ...], taken: Card | None) -> float | None:
        """The value after the solver's turn on ``hand`` and the expert's discard (None: no
        legal turn)."""
        position = Position(view.table, hand, view.is_opened, view.rules, taken)
        try:
            solution = self.solve(position)
        except RamiError:
            return None
        if (
            taken is not None
            and view.rules.name == "rami-51"
            and not laid_by_rule(
                position, Play(solution.table, solution.played, solution.discard), taken
            )
        ):
            return None
        left = Counter(solution.hand)
        if solution.discard is not None:
            left[solution.discard] += 1
            choice = self.choose_discard(left, view, taken)
            if choice is not None:
                left[choice] -= 1
        return self.value(left, view)

    def choose_discard(self, left: Counter[Card], view: View, taken: Card | None) -> Card | None:
        """The card to let go from ``left`` (the hand before the discard): the costliest dead
        card, else the live card with the fewest unseen cards to complete it; jokers kept."""
        order = self.discard_order(left, view, taken)
        return order[0] if order else None

    def discard_order(self, left: Counter[Card], view: View, taken: Card | None) -> list[Card]:
        """The cards ``left`` may let go, in :meth:`choose_discard`'s order of preference
        (jokers only where nothing else may go)."""
        rules = view.rules
        allowed = allowed_discards(left, rules, taken)
        pool = [card for card in allowed if not card.is_joker] or allowed
        unseen = view.unseen()

        def key(card: Card) -> tuple[int, int, int, Card]:
            penalty = rules.card_penalty(card.rank)
            if card.is_joker:
                return (0, -100, penalty, card)
            outs, complete = _outs(card, left, unseen, rules)
            if not is_useful(card, left) or not (complete or outs):
                return (1, 0, penalty, card)  # dead: the costliest goes first
            return (0, -100 if complete else -outs, penalty, card)

        return sorted(pool, key=key, reverse=True)

    # ------------------------------------------------------------------ decisions

    def draw(self, view: View) -> str:
        top = view.top_discard
        if DISCARD not in view.draws or top is None or not could_use(view, top):
            return STOCK
        taken = self.with_card(view, top)
        if (
            taken is not None
            and top in taken.played
            and (
                view.rules.name != "rami-51"
                or laid_by_rule(taken.position, Play(taken.table, taken.played, taken.discard), top)
            )
        ):
            base = self.solve(Position(view.table, view.hand, view.is_opened, view.rules))
            if taken.penalty_after < base.penalty_after:
                return DISCARD  # the confirmed bot's rule
            if view.is_opened and taken.penalty_after <= base.penalty_after:
                return DISCARD  # laid at no cost: a card fewer than a stock card leaves
        if (
            not view.is_opened
            and game_rules(view.rules).draw is DrawRule.FREE
            and builds_opening(view.hand, top, view.rules)
        ):
            return DISCARD
        return STOCK

    def claim(self, view: View) -> bool:
        top = view.claim_card or view.top_discard
        if top is None or view.stock_size < 1 or not could_use(view, top):
            return False
        cards = self.sample(view, max(2, self.samples // 2))
        claimed = [
            v
            for card in cards
            if (v := self.best_value(view, (*view.hand, top, card), top)) is not None
        ]
        if not claimed:
            return False
        next_to_play = view.next_seat(_discarder(view)) == view.seat
        if next_to_play:
            waiting = [
                v
                for card in cards
                if (v := self.best_value(view, (*view.hand, card), None)) is not None
            ]
        else:
            waiting = [self.value(Counter(view.hand), view)]
        if not waiting:
            return True
        return sum(claimed) / len(claimed) + 3 < sum(waiting) / len(waiting)

    def play(self, view: View) -> Play:
        stuck = jokers_only_play(view)
        if stuck is not None:
            return stuck
        position = view.position()
        best = self.solve(position)
        if holds_back(view, best):  # the held turn needs no cards-moved level
            return held_play(view, best)
        if holds_to_go_out(view, best):
            held = self.held_discarding(view, position, best)
            if held is not None:
                return held
        solution = self.with_fewest_moves(position, best)
        if self.waits_for_rami_sec(view, solution):
            hand = Counter(view.hand)
            choice = self.choose_discard(hand, view, position.taken_discard)
            if choice is not None:
                choice = guarded_discard(view, view.table, hand, choice, position.taken_discard)
                return Play(view.table, (), choice)
        play = Play(solution.table, solution.played, solver_discard(view, solution))
        return self.keeping_useful_cards(view, play, solution.hand)

    def held_discarding(self, view: View, position: Position, solution: Any) -> Play | None:
        """The hold of :func:`holds_to_go_out`: lay nothing and let go the card the expert
        would discard from what the solver's turn leaves in the hand (the melds stay whole in
        the hand); None when that discard is not legal (the solver's whole turn instead)."""
        left = Counter(solution.hand)
        left[solution.discard] += 1
        taken = position.taken_discard
        choice = self.choose_discard(left, view, taken)
        if choice is None:
            return None
        if sum(left.values()) > 1:
            choice = guarded_discard(view, view.table, left, choice, taken)
        play = Play(view.table, (), choice)
        if validate_turn(position, play.table, play.played, play.discard).legal:
            return play
        return None

    def waits_for_rami_sec(self, view: View, solution: Any) -> bool:
        """Rami fou: hold an opening back for a rami sec when it is cheap to wait."""
        if view.rules.name != "rami-fou" or view.is_opened or not solution.opened:
            return False
        left = Counter(solution.hand)
        if not left or len(solution.hand) > 3 or self.risk(view) > 0.25:
            return False
        unseen = view.unseen()
        return all(card.is_joker or _outs(card, left, unseen, view.rules)[0] > 0 for card in left)


def holds_melds(rules: Ruleset) -> bool:
    """Whether the expert of this preset holds its melds until the turn that goes out
    (:func:`holds_to_go_out`): a discard, a table never rearranged, a cheap opening."""
    return rules.discard and not rules.rearrangement and rules.opening_points <= HOLD_OPENING_POINTS


def holds_to_go_out(view: View, solution: Any) -> bool:
    """Whether the expert lays nothing this turn and keeps the solver's melds in the hand
    (:meth:`ExpertBot.held_discarding`): where the table is never rearranged and the opening is
    cheap (:data:`HOLD_OPENING_POINTS`: Café Rummy, BFmania 30), a meld laid only gives the
    others cards to lay off and jokers to swap, and the turn that goes out opens and lays it
    all at once. It lays the solver's turn when that goes out, when an opponent holds
    :data:`HOLD_WHILE_ABOVE` cards or fewer, or when the round may end before its next turn
    (the stock out of reshuffles, the turn cap)."""
    rules = view.rules
    if not holds_melds(rules):
        return False
    if not solution.played or not solution.hand or solution.discard is None:
        return False
    game = game_rules(rules)
    if game.turn_cap is not None and view.turn + view.players >= game.turn_cap:
        return False
    if (
        game.max_reshuffles is not None
        and view.reshuffles >= game.max_reshuffles
        and view.stock_size < view.players
    ):
        return False
    others = [
        size for seat, size in enumerate(view.hand_sizes) if seat != view.seat and view.active[seat]
    ]
    return bool(others) and min(others) > HOLD_WHILE_ABOVE


def opening_progress(hand: Counter[Card], rules: Ruleset) -> tuple[bool, int]:
    """The melds a player sees in a hand towards the opening: whether they hold the pure run
    the opening needs, and their opening points."""
    melds = hand_melds(Counter(hand), rules)
    pure = rules.opening_pure_run and any(is_pure_run(meld) for meld in melds)
    return pure, sum(opening_points(meld, rules) for meld in melds)


def builds_opening(hand: Sequence[Card], card: Card, rules: Ruleset) -> bool:
    """Before the opening: does ``card`` complete a meld in the hand, the first pure run the
    opening needs or :data:`OPENING_GAIN` points more (a joker counts only for a pure run,
    which it never makes)?"""
    pure, points = opening_progress(Counter(hand), rules)
    pure_with, points_with = opening_progress(Counter((*hand, card)), rules)
    if pure_with and not pure:
        return True
    return pure_with == pure and not card.is_joker and points_with >= points + OPENING_GAIN


def _discarder(view: View) -> int:
    """The seat that made the discard on offer: the claim goes round from its left."""
    seat = view.seat
    for _ in range(view.players):
        seat = (seat - 1) % view.players
        if view.active[seat]:
            return seat
    return view.seat


def _outs(
    card: Card, hand: Counter[Card], unseen: Counter[Card], rules: Ruleset
) -> tuple[int, bool]:
    """Unseen cards that would make a meld with ``card`` and a partner in ``hand``, and whether
    the hand already holds a meld with it."""
    rank, suit = card.rank, card.suit
    assert suit is not None  # a real card
    outs = 0
    same_rank = [s for s in range(4) if s != suit and hand[Card.of(rank, s)] > 0]
    if len(same_rank) >= 2:
        return 0, True
    if same_rank:
        taken = {suit, *same_rank}
        outs += sum(unseen[Card.of(rank, s)] for s in range(4) if s not in taken)
    top = rules.top_rank

    def at(position: int) -> Card | None:
        if 1 <= position <= top:
            return Card.of((position - 1) % 13 + 1, suit)
        return None

    values = (1, 14) if rank == 1 and rules.ace_high else (rank,)
    for value in values:
        near = {d: at(value + d) for d in (-2, -1, 1, 2)}
        held = {d for d, c in near.items() if c is not None and hand[c] > 0}
        if (-1 in held and 1 in held) or {1, 2} <= held or {-2, -1} <= held:
            return outs, True
        for d in held:
            if abs(d) == 1:
                for other in (value - 1, value + 2) if d == 1 else (value - 2, value + 1):
                    c = at(other)
                    if c is not None:
                        outs += unseen[c]
            else:
                c = at(value + d // 2)
                if c is not None:
                    outs += unseen[c]
    return outs, False
