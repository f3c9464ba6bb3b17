"""The expert's look-ahead: a turn's alternatives weighed on sampled deals of the hidden cards.

Where laying the melds now or keeping them is the question the rules leave to the player (the
presets of :data:`SAMPLED_PRESETS`, where the ceiling showed what a reading of the hidden cards
could gain), the expert (:class:`LookaheadExpert`) weighs its own turn against the confirmed
bot's whole turn and its hold-back variants (:func:`rami.game.rollouts.candidates`):

- **Deals**: :data:`WORLDS` deals of the cards it cannot see, consistent with what it has seen
  (:func:`rami.game.rollouts.deal`), drawn from a stream seeded by the bot's seed and the view;
  every candidate is played on the same deals.
- **Rollouts**: on each deal, each candidate is applied and the round played to its end by
  :class:`FastExpert` for every seat (:data:`HORIZON` requests at most); its value is its score
  margin against the others.
- **The gate**: it leaves its own turn only for the candidate whose mean paired gain over it is
  above :data:`GATE` standard errors (a one-sided test on the deals' differences), so noise
  never moves it.

Elsewhere it plays as :class:`rami.game.expert.ExpertBot`. Deterministic: the deals are
seeded, the rollout bots are seeded, the solver runs under its deterministic time limit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rami.game.actions import IllegalActionError, Play
from rami.game.bots import BeginnerBot, ConfirmedBot
from rami.game.expert import ExpertBot
from rami.game.rollouts import State, candidates, deal, restore, rollout
from rami.game.state import View

#: The presets where the expert weighs its turn on sampled deals (measured in docs/game.md).
SAMPLED_PRESETS = frozenset({"cafe-rummy", "bfmania-30", "rummikub"})
#: Sampled deals per decision.
WORLDS = 8
#: Rollout requests (all seats together) before a round not over is scored as it stands.
HORIZON = 400
#: The rollout policy for every seat: "beginner" (greedy, no solver) or "fast" (the expert).
POLICY = "beginner"
#: Candidates weighed at most (the expert's turn first).
CANDIDATES = 5
#: Standard errors the mean paired gain must exceed for the expert to leave its own turn.
GATE = 2.0


class FastExpert(ExpertBot):
    """The rollout policy: the expert without the cards-moved level."""

    level = "expert"

    def with_fewest_moves(self, position: Any, best: Any) -> Any:
        return best


def margins(view: View, plays: Sequence[Play], state: State, policy: Any) -> list[float]:
    """Each candidate's score margin on one deal (-inf where the round refuses it)."""
    out: list[float] = []
    for play in plays:
        rnd = restore(view, *state)
        try:
            rnd.apply(play)
        except IllegalActionError:
            out.append(-math.inf)
            continue
        out.append(rollout(rnd, view.seat, policy, HORIZON)[1])
    return out


def gated(found: Sequence[Sequence[float]]) -> int:
    """The candidate to play given each deal's margins (``found[deal][candidate]``): the one
    with the best mean gain over candidate 0 if that gain passes :data:`GATE`, else 0."""
    if len(found) < 2:
        return 0
    best, best_mean = 0, 0.0
    for k in range(1, len(found[0])):
        gains = [row[k] - row[0] for row in found]
        if any(math.isinf(g) or math.isnan(g) for g in gains):
            continue
        mean = sum(gains) / len(gains)
        spread = sum((g - mean) ** 2 for g in gains) / (len(gains) - 1)
        error = math.sqrt(spread / len(gains))
        if mean > best_mean and mean > GATE * error:
            best, best_mean = k, mean
    return best


class LookaheadExpert(ExpertBot):
    """The expert: :class:`ExpertBot`'s turn, left for another candidate only where sampled
    deals show a significant gain (in :data:`SAMPLED_PRESETS`)."""

    level = "expert"

    def play(self, view: View) -> Play:
        first = super().play(view)
        if view.rules.name not in SAMPLED_PRESETS:
            return first
        whole = ConfirmedBot.play(self, view)
        plays = candidates(view, first, whole)[:CANDIDATES]
        if len(plays) < 2:
            return first
        rng = self.rng(view)
        policy = BeginnerBot(self.seed) if POLICY == "beginner" else FastExpert(self.seed)
        found = []
        for _ in range(WORLDS):
            state = deal(view, rng)
            if state is None:
                return first
            found.append(margins(view, plays, state, policy))
        return plays[gated(found)]
