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
from collections.abc import Sequence

from rami.game.actions import IllegalActionError, Play
from rami.game.bots import ConfirmedBot
from rami.game.expert import ExpertBot
from rami.game.rollouts import State, Value, candidates, restore, rollout, true_state
from rami.game.rounds import Round
from rami.game.sampling import HORIZON, FastExpert
from rami.game.state import View


def values(view: View, plays: Sequence[Play], state: State) -> list[Value]:
    """Each candidate's value on ``state`` (-inf where the round refuses it)."""
    policy = FastExpert(0)
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
