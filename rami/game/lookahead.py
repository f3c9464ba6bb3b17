"""Looking ahead: a turn's candidates played on to the round's end, on sampled hidden cards.

The confirmed bot plays the solver's best turn for the hand it holds. What the solver does not
see is what comes after: the cards a turn puts on the table are the others' to rearrange, and a
meld kept in the hand may go down later. :class:`Lookahead` weighs that:

- **Candidates** (:func:`candidates`): the confirmed bot's turn first, then hold-back variants
  of it: the same turn less one new meld made only of hand cards (kept to lay later), and
  laying nothing where the rules allow it.
- **States**: the hidden cards (the others' hands less what they are known to hold, and the
  stock's order) are sampled consistently with the view (:func:`sample_state`): uniformly among
  the unseen cards. The same samples serve every candidate (common random numbers).
- **Rollouts**: on each sample, each candidate is applied to a copy of the round
  (:func:`restore`, every turn still judged by the referee) and the round is played on by fast
  policies (the confirmed bot without the cards-moved level, for every seat) for ``horizon``
  turns or to its end; a round not over is scored as if the stock ran out then. A candidate's
  value on a sample is its round score margin: the others' mean score less its own.
- **Gate**: the bot leaves the confirmed turn only for a candidate whose paired advantage over
  it, across the samples, is positive by more than ``gate`` standard errors.

The *ceiling* (:class:`Ceiling`) is the same search on the true hidden cards (one "sample":
every hand and the stock's order), without a gate: a yardstick for how much any reading of the
hidden cards could gain with these candidates and policies, never offered as a level. The
sampled search, tried as the expert's in rami chinois, left the confirmed bot's turn on no
measured pair (docs/game.md, "Levels"): no level uses it today.

Deterministic: the samples come from the bot's seed and the view; the solver runs under its
deterministic time limit.
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
from rami.game.deck import derive_seed
from rami.game.presets import GameOptions, game_rules
from rami.game.rounds import Round
from rami.game.scoring import STOCK, score_round
from rami.game.state import PLAY, RoundState, View
from rami.referee import validate_turn

#: Rollout turns (all seats together) before a round not over is scored as it stands.
HORIZON = 60


class FastConfirmed(ConfirmedBot):
    """The rollout policy: the confirmed bot without the cards-moved level."""

    level = "confirmed"

    def solve(self, position: Any, min_moves: bool = False) -> Any:
        return super().solve(position, False)


def restore(view: View, hands: dict[int, Counter[Card]], stock: list[Card]) -> Round:
    """A round at ``view``'s play request, with the others' ``hands`` and the ``stock`` (top
    first) as given: the state a rollout starts from."""
    rules = view.rules
    rnd = Round.__new__(Round)
    rnd.rules = rules
    rnd.game = game_rules(rules)
    rnd.options = GameOptions(target=view.target).resolved(rules) \
        if game_rules(rules).target is not None or view.target is not None \
        else GameOptions().resolved(rules)
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


def sample_state(view: View, rng: random.Random) -> tuple[dict[int, Counter[Card]], list[Card]]:
    """The others' hands and the stock (top first), drawn uniformly among the unseen cards."""
    pool = sorted(view.unseen().elements())
    rng.shuffle(pool)
    hands: dict[int, Counter[Card]] = {}
    for seat in range(view.players):
        if seat == view.seat or not view.active[seat]:
            continue
        known = Counter(view.known[seat])
        missing = view.hand_sizes[seat] - sum(known.values())
        hands[seat] = known + Counter(pool[:missing])
        del pool[:missing]
    return hands, pool[:view.stock_size]


def true_state(rnd: Round) -> tuple[dict[int, Counter[Card]], list[Card]]:
    """Every hand and the stock's order, top first (the ceiling's sight)."""
    hands = {seat: Counter(hand) for seat, hand in rnd.state.hands.items()}
    return hands, list(reversed(rnd.state.stock))


def margin(rnd: Round, seat: int) -> float:
    """The seat's round score margin: the others' mean score less its own (higher is better
    under Rummikub's scoring, where scores are gains)."""
    if rnd.result is not None:
        scores = list(rnd.result.scores)
    else:
        scores = list(score_round(rnd.rules, rnd.game, rnd.players, rnd.state.hands,
                                  rnd.state.opened, STOCK).scores)
    others = [scores[s] for s in range(rnd.players) if s != seat and rnd.active[s]]
    mean = sum(others) / len(others) if others else 0.0
    gain = scores[seat] - mean
    return gain if rnd.game.rummikub_scoring else -gain


def rollout(rnd: Round, seat: int, policy: Any, horizon: int) -> float:
    """Play on with ``policy`` for every seat, at most ``horizon`` requests; the margin."""
    for _ in range(horizon):
        if rnd.over:
            break
        rnd.apply(policy.act(rnd.view()))
    return margin(rnd, seat)


def candidates(view: View, first: Play) -> list[Play]:
    """The confirmed turn, then its hold-back variants (legal ones only, distinct)."""
    position = view.position()
    found = [first]
    before = Counter(card for meld in view.table for card in meld.cards)
    played = Counter(first.played)
    for index, meld in enumerate(first.table):
        counts = meld.counts()
        if counts - played or not first.played:
            continue  # holds table cards: not the player's own meld to keep
        table = first.table[:index] + first.table[index + 1:]
        kept = played - counts
        if Counter(c for m in table for c in m.cards) - before != kept:
            continue
        found.append(Play(table, tuple(sorted(kept.elements())), first.discard))
    if first.played and (view.is_opened or not view.rules.discard):
        found.append(Play(view.table, (), first.discard))
    legal: list[Play] = []
    for play in found:
        if play in legal:
            continue
        if play is first or validate_turn(position, play.table, play.played, play.discard).legal:
            legal.append(play)
    return legal


class Lookahead:
    """The search: ``samples`` sampled states, rollouts of ``horizon`` requests, a gate."""

    def __init__(self, seed: int, samples: int = 8, horizon: int = HORIZON,
                 gate: float = 2.0) -> None:
        self.seed = seed
        self.samples = samples
        self.horizon = horizon
        self.gate = gate
        self.policy = FastConfirmed(seed)
        self.evaluated = 0

    def states(self, view: View) -> list[tuple[dict[int, Counter[Card]], list[Card]]]:
        rng = random.Random(derive_seed(self.seed, "lookahead", view.round, view.turn,
                                        view.seat, len(view.hand)))
        return [sample_state(view, rng) for _ in range(self.samples)]

    def values(self, view: View, plays: Sequence[Play],
               states: Sequence[tuple[dict[int, Counter[Card]], list[Card]]]) -> list[list[float]]:
        """values[c][s]: candidate c's margin on state s (None-free: an illegal apply counts
        as the worst margin seen)."""
        table: list[list[float]] = []
        for play in plays:
            row = []
            for hands, stock in states:
                rnd = restore(view, hands, stock)
                try:
                    rnd.apply(play)
                except IllegalActionError:
                    row.append(-math.inf)
                    continue
                row.append(rollout(rnd, view.seat, self.policy, self.horizon))
                self.evaluated += 1
            table.append(row)
        return table

    def choose(self, view: View, plays: Sequence[Play], states: Any) -> Play:
        """The first play unless another beats it by more than ``gate`` standard errors."""
        if len(plays) < 2:
            return plays[0]
        table = self.values(view, plays, states)
        best, best_mean = plays[0], 0.0
        for play, row in zip(plays[1:], table[1:], strict=True):
            diffs = [v - b for v, b in zip(row, table[0], strict=True)]
            if any(math.isinf(d) for d in diffs):
                continue
            mean = sum(diffs) / len(diffs)
            if len(diffs) > 1:
                spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
                error = spread / math.sqrt(len(diffs))
            else:
                error = 0.0
            if mean > self.gate * error and mean > best_mean:
                best, best_mean = play, mean
        return best


class Ceiling(ConfirmedBot):
    """The yardstick: the confirmed turn and its hold-backs, weighed on the true hidden cards
    (it sees every hand and the stock's order). Never offered as a level."""

    level = "ceiling"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.search = Lookahead(seed, samples=1, gate=0.0)
        self.round: Round | None = None

    def see(self, rnd: Round) -> None:
        self.round = rnd

    def play(self, view: View) -> Play:
        first = super().play(view)
        if self.round is None:
            return first
        return self.search.choose(view, candidates(view, first), [true_state(self.round)])
