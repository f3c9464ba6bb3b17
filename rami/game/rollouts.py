"""Rounds played on from a seat's view: the hidden cards put back, candidates applied, the
round played to its end by a policy, the result valued.

Shared by the ceiling (:mod:`rami.game.lookahead`, the true hidden cards) and the expert's
look-ahead (:mod:`rami.game.sampling`, hidden cards dealt at random among those unseen).

- :func:`restore`: a round at a view's play request with given hands and stock.
- :func:`deal`: the others' hands and the stock dealt from the unseen cards, consistently with
  what the seat has seen (the others' known cards stay in their hands, every hand and the stock
  keep their sizes).
- :func:`candidates`: a turn and its hold-back variants (legal ones only).
- :func:`rollout` and :func:`value`: a round played on, and its value for a seat.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rami.cards import Card
from rami.game.actions import Play
from rami.game.presets import GameOptions, game_rules
from rami.game.rounds import Round
from rami.game.scoring import STOCK, score_round
from rami.game.state import PLAY, RoundState, View
from rami.referee import validate_turn


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


def deal(view: View, rng: random.Random) -> State | None:
    """The others' hands and the stock (top first) dealt at random from the cards ``view``'s
    seat cannot see; each other hand keeps its known cards and its size. None when the view's
    counts do not add up (a view made by hand)."""
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
    if len(pool) != view.stock_size:
        return None
    return hands, pool


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


def candidates(view: View, first: Play, whole: Play) -> list[Play]:
    """``first`` (the expert's turn), then ``whole`` (the confirmed bot's) and its hold-back
    variants (legal ones only, distinct)."""
    return _distinct(view, [first, *_held_variants(view, whole)])


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
