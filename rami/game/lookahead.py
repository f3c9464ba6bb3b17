"""The ceiling: a yardstick that sees every card and weighs a turn's alternatives on them.

The expert plays the solver's best turn, or, where nothing is discarded, holds it back
(:mod:`rami.game.holdback`). What neither sees is the hidden cards: what the others would lay
from the cards a turn puts on the table, what the stock brings next. :class:`Ceiling` weighs
that with perfect sight:

- **Candidates** (:func:`candidates`): the expert's turn first; then the confirmed bot's turn
  (the solver's whole turn) and its hold-back variants: the same turn less one new meld made
  only of hand cards (kept to lay later), and laying nothing where the rules allow it.
- **Rollouts**: each candidate is applied to a copy of the round with the true hidden cards
  (:func:`restore`, every turn still judged by the referee) and the round is played on by the
  expert without the cards-moved level for every seat, to its end (:data:`HORIZON` requests
  at most, a round not over then scored as if the stock ran out). A candidate's value is its
  result against the others by round score, as a match scores a game, then its score margin
  (:data:`Value`).
- The ceiling leaves the expert's turn only for a candidate with a strictly better value.

It measures how much a reading of the hidden cards could add to the expert with these
candidates (docs/game.md, "Matches and levels"); it is never offered as a level.
Deterministic: the solver runs under its deterministic time limit.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rami.cards import Card
from rami.game.actions import IllegalActionError, Play
from rami.game.bots import ConfirmedBot
from rami.game.expert import ExpertBot
from rami.game.presets import GameOptions, game_rules
from rami.game.rounds import Round
from rami.game.scoring import STOCK, score_round
from rami.game.state import PLAY, RoundState, View
from rami.referee import validate_turn

#: Rollout turns (all seats together) before a round not over is scored as it stands.
HORIZON = 400


class FastExpert(ExpertBot):
    """The rollout policy: the expert without the cards-moved level."""

    level = "expert"

    def with_fewest_moves(self, position: Any, best: Any) -> Any:
        return best


def restore(view: View, hands: dict[int, Counter[Card]], stock: list[Card]) -> Round:
    """A round at ``view``'s play request, with the others' ``hands`` and the ``stock`` (top
    first) as given: the state a rollout starts from."""
    rules = view.rules
    rnd = Round.__new__(Round)
    rnd.rules = rules
    rnd.game = game_rules(rules)
    rnd.options = (
        GameOptions(target=view.target).resolved(rules)
        if game_rules(rules).target is not None or view.target is not None
        else GameOptions().resolved(rules)
    )
    rnd.number = view.round
    rnd.active = view.active
    rnd.players = view.players
    rnd.first = view.first
    rnd.totals = view.scores
    rnd.reshuffler = lambda cards, count: random.Random(count).sample(cards, len(cards))
    rnd.deck = Counter()  # filled below from the state itself
    rnd.events = []
    rnd.turns = view.turn
    rnd.reshuffles = view.reshuffles
    rnd.passes = 0
    rnd.phase = PLAY
    rnd.to_move = view.seat
    rnd.taken, rnd.drawn, rnd.claimed = view.taken_discard, view.drawn, view.claimed
    rnd.claim_queue = []
    rnd.after_claims = view.seat
    rnd.result = None
    seats = [seat for seat in range(view.players) if view.active[seat]]
    all_hands = dict(hands)
    all_hands[view.seat] = Counter(view.hand)
    rnd.state = RoundState(
        stock=list(reversed(stock)),
        discard=list(view.discard_pile),
        hands={seat: Counter(all_hands[seat]) for seat in seats},
        table=view.table,
        opened={seat: view.opened[seat] for seat in seats},
        laid={seat: view.opened[seat] for seat in seats},
        known={seat: Counter(view.known[seat]) for seat in seats},
    )
    rnd.deck = rnd.state.all_cards()
    return rnd


#: The others' hands and the stock, top first.
State = tuple[dict[int, Counter[Card]], list[Card]]


def true_state(rnd: Round) -> State:
    """Every hand and the stock's order, top first (the ceiling's sight)."""
    hands = {seat: Counter(hand) for seat, hand in rnd.state.hands.items()}
    return hands, list(reversed(rnd.state.stock))


#: A candidate's value: its mean pairwise result against the other seats by round score (win
#: 1, tie 1/2, loss 0, as a match scores a game), then its score margin (the others' mean score
#: less its own, higher better).
Value = tuple[float, float]


def value(rnd: Round, seat: int) -> Value:
    """The seat's :data:`Value` for the round as it stands (scored as if the stock ran out
    when it is not over)."""
    if rnd.result is not None:
        scores = list(rnd.result.scores)
    else:
        scores = list(
            score_round(
                rnd.rules, rnd.game, rnd.players, rnd.state.hands, rnd.state.opened, STOCK
            ).scores
        )
    sign = 1 if rnd.game.rummikub_scoring else -1  # Rummikub's scores are gains
    others = [sign * scores[s] for s in range(rnd.players) if s != seat and rnd.active[s]]
    if not others:
        return 0.5, 0.0
    mine = sign * scores[seat]
    result = sum(1.0 if mine > other else 0.5 if mine == other else 0.0 for other in others)
    return result / len(others), mine - sum(others) / len(others)


def rollout(rnd: Round, seat: int, policy: Any, horizon: int) -> Value:
    """Play on with ``policy`` for every seat, at most ``horizon`` requests; the value."""
    for _ in range(horizon):
        if rnd.over:
            break
        rnd.apply(policy.act(rnd.view()))
    return value(rnd, seat)


def candidates(view: View, first: Play, whole: Play, others: Sequence[Play] = ()) -> list[Play]:
    """``first`` (the expert's turn), then ``whole`` (the confirmed bot's) and its hold-back
    variants, then ``others`` (legal ones only, distinct)."""
    return _distinct(view, [first, *_held_variants(view, whole), *others])


def _held_variants(view: View, first: Play) -> list[Play]:
    """``first``, the same turn less one new meld made only of hand cards, and nothing."""
    found = [first]
    before = Counter(card for meld in view.table for card in meld.cards)
    played = Counter(first.played)
    for index, meld in enumerate(first.table):
        counts = meld.counts()
        if counts - played or not first.played:
            continue  # holds table cards: not the player's own meld to keep
        table = first.table[:index] + first.table[index + 1 :]
        kept = played - counts
        if Counter(c for m in table for c in m.cards) - before != kept:
            continue
        found.append(Play(table, tuple(sorted(kept.elements())), first.discard))
    if first.played and (view.is_opened or not view.rules.discard):
        found.append(Play(view.table, (), first.discard))
    return found


def _distinct(view: View, found: Sequence[Play]) -> list[Play]:
    """The legal plays of ``found`` once each, the first kept as it is."""
    position = view.position()
    legal: list[Play] = []
    for play in found:
        if play in legal:
            continue
        if not legal or validate_turn(position, play.table, play.played, play.discard).legal:
            legal.append(play)
    return legal


def values(
    view: View, plays: Sequence[Play], state: State, policy: Any | None = None
) -> list[Value]:
    """Each candidate's value on ``state`` (-inf where the round refuses it), every seat
    played on by ``policy`` (the expert without the cards-moved level by default)."""
    policy = FastExpert(0) if policy is None else policy
    out: list[Value] = []
    for play in plays:
        rnd = restore(view, *state)
        try:
            rnd.apply(play)
        except IllegalActionError:
            out.append((-math.inf, -math.inf))
            continue
        out.append(rollout(rnd, view.seat, policy, HORIZON))
    return out


def choose(view: View, plays: Sequence[Play], state: State) -> Play:
    """The first play unless another ends the round with a strictly better value."""
    if len(plays) < 2:
        return plays[0]
    found = values(view, plays, state)
    if math.isinf(found[0][0]):
        return plays[0]
    best = max(range(len(plays)), key=lambda k: (found[k], -k))
    return plays[best] if found[best] > found[0] else plays[0]


class Ceiling(ExpertBot):
    """The yardstick: the expert's turn, the confirmed bot's and its hold-backs, weighed on the
    true hidden cards (it sees every hand and the stock's order). Never offered as a level."""

    level = "ceiling"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.round: Round | None = None

    def see(self, rnd: Round) -> None:
        self.round = rnd

    def play(self, view: View) -> Play:
        first = super().play(view)
        if self.round is None:
            return first
        whole = ConfirmedBot.play(self, view)
        return choose(view, candidates(view, first, whole), true_state(self.round))
