"""Strength between the beginner and the confirmed bot: each turn one or the other, by lot.

The confirmed bot's strength in the rearranging presets comes from rebuilding the table, which
the beginner never does; a bot that sees no rearrangement at all but finds the best melds in
its hand measured no stronger than the beginner in rami chinois (+12 Elo [-25, +49], 100
pairs). What grades strength there is how often a player sees the table's rearrangements:
:class:`MixedBot` plays the confirmed bot's answer with probability ``strength`` and the
beginner's otherwise, drawn for each turn from its seed and the view (so a game replays the
same). ``strength`` 0 is the beginner, 1 the confirmed bot; the named level ``intermediate`` is
1/2, and a target Elo is turned into a strength by the preset's measured ladder
(:data:`LADDERS`, docs/game.md "Levels").

Above the confirmed bot (``strength`` between 1 and 2) the mix is of the confirmed bot and the
expert, drawn once a round, not once a turn: where nothing is discarded the expert's strength
is a plan kept over the round (hold back until it goes out, :mod:`rami.game.holdback`), and a
plan kept on one turn in two measured no stronger than the confirmed bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

from rami.game.actions import Action
from rami.game.bots import BeginnerBot, Bot, ConfirmedBot
from rami.game.deck import derive_seed
from rami.game.expert import ExpertBot
from rami.game.presets import GameError
from rami.game.state import View

#: Measured Elo (beginner at 0) by strength, per preset: (strength, Elo) in strength order.
#: Filled from paired one-round matches (docs/game.md, "Levels"); a preset absent here takes
#: named levels only.
LADDERS: dict[str, Sequence[tuple[float, float]]] = {
    # One-round games, 100 pairs a step, the mean of seeds 1 and 2: novice +495 over the
    # beginner (+576, +413), intermediate +271 over the novice (+295, +246), confirmed +110
    # over the intermediate (+115, +104); strength 1.5 +198 over the confirmed bot (+186,
    # +210), 1.8 +387 over it (+392, +382).
    "rami-chinois": ((0.0, 0.0), (0.1, 495.0), (0.5, 766.0), (1.0, 876.0), (1.5, 1074.0),
                     (1.8, 1263.0)),
    # The same steps in Rummikub, the mean of seeds 1 and 2: novice +593 (+655, +531),
    # intermediate +275 over it (+269, +282), confirmed +89 over it (+67, +111); strength 1.5
    # +196 over the confirmed bot (+205, +186), 1.8 +402 (+413, +392).
    "rummikub": ((0.0, 0.0), (0.1, 593.0), (0.5, 868.0), (1.0, 957.0), (1.5, 1153.0),
                 (1.8, 1359.0)),
}


def strength_for(rules_name: str, elo: float) -> float:
    """The strength whose measured Elo is ``elo`` (linear between measured points, clamped)."""
    ladder = LADDERS.get(rules_name)
    if not ladder:
        raise GameError(f"no measured ladder for {rules_name}: ask a level by name "
                        f"(a target Elo is offered for {', '.join(sorted(LADDERS)) or 'none'})")
    if elo <= ladder[0][1]:
        return ladder[0][0]
    for (s0, e0), (s1, e1) in pairwise(ladder):
        if elo <= e1:
            return s0 + (s1 - s0) * (elo - e0) / (e1 - e0) if e1 > e0 else s1
    return ladder[-1][0]


class MixedBot(Bot):
    """The confirmed bot's answer with probability ``strength``, else the beginner's; with
    ``elo`` instead, the strength the preset's ladder gives that Elo."""

    def __init__(self, seed: int = 0, strength: float | None = None, elo: float | None = None,
                 level: str = "intermediate") -> None:
        super().__init__(seed)
        if (strength is None) == (elo is None):
            raise GameError("a mixed bot takes a strength or a target Elo")
        if strength is not None and not 0.0 <= strength <= 2.0:
            raise GameError(f"strength must lie between 0 and 2, got {strength}")
        self.strength = strength
        self.elo = elo
        self.level = level
        self.strong = ConfirmedBot(seed)
        self.weak = BeginnerBot(seed)
        self.expert = ExpertBot(seed)

    def share(self, view: View) -> float:
        if self.strength is not None:
            return self.strength
        assert self.elo is not None
        return strength_for(view.rules.name, self.elo)

    def act(self, view: View) -> Action:
        self.share(view)  # a target Elo the preset has no ladder for is bad input, said now
        return super().act(view)

    def pick(self, view: View) -> Bot:
        """The bot that answers for this turn: one lot a turn, so that the draw (or claim) and
        the play of a turn come from the same bot (rami 51 lets a discard be taken only to lay
        it: the play must be that of the bot that took it)."""
        share = self.share(view)
        if share > 1.0:
            lot = random.Random(derive_seed(self.seed, "mixed-round", view.round,
                                            view.seat)).random()
            return self.expert if lot < share - 1.0 else self.strong
        lot = random.Random(derive_seed(self.seed, "mixed", view.round, view.turn,
                                        view.seat)).random()
        return self.strong if lot < share else self.weak

    def decide(self, view: View) -> Action:
        return self.pick(view).decide(view)
