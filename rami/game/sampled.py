"""The look-ahead: the ceiling's candidates weighed on sampled deals of the hidden cards.

The ceiling (:mod:`rami.game.lookahead`) weighs the expert's turn against the confirmed bot's
and its hold-backs on the true hidden cards. :class:`LookaheadBot` weighs the same
candidates, and where the preset discards the expert's turn with its next-preferred discards
(:func:`discard_variants`), on what it may know:

- **Worlds**: the cards it cannot see (:meth:`rami.game.state.View.unseen`) dealt at random to
  the others' hands, beside the cards known to be there, and to the stock, each hand at its
  size (:func:`sample_state`). Every candidate is played on the same worlds, so that their
  differences are paired.
- **Rollouts**: as the ceiling's, every seat played on by the expert without the cards-moved
  level to the end of the round.
- **The gate**: it leaves the expert's turn only for a candidate whose mean score margin over
  it, world by world, exceeds :data:`GATE` standard errors of that mean (the best such one).
- **The budget**: at most :attr:`LookaheadBot.worlds` worlds (4, one more per
  :data:`PER_WORLD` requests of a budget above the default), and no world begun once the
  requests simulated so far (draws and plays of every seat, all candidates) would, at their
  mean per world, pass :attr:`LookaheadBot.budget`. Counted in requests, not seconds, so that
  a seed gives the same game on any machine; docs/game.md has the time it takes.

It is the level ``lookahead``, offered only at the tables of
:data:`rami.game.levels.LOOKAHEAD_TABLES`: stronger than the expert at a rami chinois or
Rummikub table of four, weaker at a rami chinois table of two (docs/game.md, "Matches and
levels"); ``rami match`` seats it anywhere, to measure it.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rami.cards import Card
from rami.game.actions import Action, Play
from rami.game.bots import ConfirmedBot
from rami.game.deck import derive_seed
from rami.game.expert import ExpertBot
from rami.game.lookahead import FastExpert, State, candidates, values
from rami.game.presets import BudgetError
from rami.game.state import View
from rami.referee import validate_turn

#: Worlds sampled at most per move with the default budget.
WORLDS = 4
#: Requests simulated per move at most by default (see the module's budget): about 0.8 s on
#: one core of the machine of docs/game.md at 3 ms a request.
BUDGET = 280
#: A larger budget allows one more world per this many requests (the default's ratio).
PER_WORLD = BUDGET // WORLDS
#: The budgets a caller may set (0: the expert's turn, nothing simulated; 2,000 is about 6 s
#: on one core here).
MAX_BUDGET = 2_000
#: Candidates weighed at most: the expert's turn and the first others.
CANDIDATES = 5
#: Standard errors of the paired mean a candidate's gain must exceed.
GATE = 2.0
#: Where the preset discards: the expert's next discards weighed at most beside its own.
DISCARDS = 2


def sample_state(view: View, rng: random.Random) -> State | None:
    """The others' hands and the stock (top first), the unseen cards dealt at random beside
    each seat's known cards; None where the view's counts do not add up."""
    pool = sorted(view.unseen().elements())
    rng.shuffle(pool)
    hands: dict[int, Counter[Card]] = {}
    for seat in range(view.players):
        if seat == view.seat or not view.active[seat]:
            continue
        known = Counter(view.known[seat])
        need = view.hand_sizes[seat] - sum(known.values())
        if need < 0 or need > len(pool):
            return None
        hands[seat] = known + Counter(pool[:need])
        del pool[:need]
    return (hands, pool) if len(pool) == view.stock_size else None


def discard_variants(bot: ExpertBot, view: View, first: Play) -> list[Play]:
    """``first`` with the expert's next choices of discard instead of its own
    (:meth:`ExpertBot.discard_order`), at most :data:`DISCARDS`; none where it discards
    nothing or its last card."""
    if first.discard is None:
        return []
    position = view.position()
    verdict = validate_turn(position, first.table, first.played, first.discard)
    left = Counter(verdict.hand_after) + Counter([first.discard])  # the hand before discarding
    if not verdict.legal or sum(left.values()) <= 1:
        return []
    taken = position.taken_discard
    order = [card for card in bot.discard_order(left, view, taken) if card != first.discard]
    return [Play(first.table, first.played, card) for card in order[:DISCARDS]]


class _Counting:
    """A rollout policy that counts the requests it answers."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.requests = 0

    def act(self, view: View) -> Action:
        self.requests += 1
        action: Action = self.policy.act(view)
        return action


def margins(view: View, plays: Sequence[Play], state: State, policy: _Counting) -> list[float]:
    """Each candidate's score margin at the end of its rollout on ``state`` (-inf where the
    round refuses it)."""
    return [margin for _, margin in values(view, plays, state, policy)]


def gated(rows: Sequence[Sequence[float]], gate: float = GATE) -> int:
    """The candidate to play: the one of greatest mean gain over candidate 0 among those whose
    gain exceeds ``gate`` standard errors of its mean (0, the expert's turn, if none does).
    ``rows`` holds one list of margins per world."""
    if len(rows) < 2:
        return 0
    best, best_mean = 0, 0.0
    for k in range(1, len(rows[0])):
        gains = [row[k] - row[0] for row in rows]
        if any(math.isinf(gain) or math.isnan(gain) for gain in gains):
            continue
        mean = sum(gains) / len(gains)
        spread = math.sqrt(sum((gain - mean) ** 2 for gain in gains) / (len(gains) - 1))
        if mean > best_mean and mean > gate * spread / math.sqrt(len(gains)):
            best, best_mean = k, mean
    return best


class LookaheadBot(ExpertBot):
    """The expert, leaving its turn where sampled worlds show another candidate better."""

    level = "lookahead"

    def __init__(self, seed: int = 0, budget: int = BUDGET) -> None:
        super().__init__(seed)
        if not 0 <= budget <= MAX_BUDGET:
            raise BudgetError(
                f"a thinking budget is 0 to {MAX_BUDGET} simulated requests, not {budget}"
            )
        self.budget = budget
        self.worlds = max(WORLDS, budget // PER_WORLD)

    def play(self, view: View) -> Play:
        first = super().play(view)
        if self.budget == 0:
            return first
        others = discard_variants(self, view, first)
        plays = candidates(view, first, ConfirmedBot.play(self, view), others)[:CANDIDATES]
        if len(plays) < 2:
            return first
        rng = random.Random(derive_seed(self.seed, "lookahead", view.round, view.turn, view.seat))
        policy = _Counting(FastExpert(0))
        rows: list[list[float]] = []
        while len(rows) < self.worlds:
            if rows and policy.requests * (len(rows) + 1) > self.budget * len(rows):
                break  # one more world would pass the budget at the mean so far
            state = sample_state(view, rng)
            if state is None:
                break
            rows.append(margins(view, plays, state, policy))
        return plays[gated(rows)]
