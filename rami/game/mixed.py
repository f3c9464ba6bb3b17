"""Strength between the beginner and the confirmed bot: each turn one or the other, by lot.

The confirmed bot's strength in the rearranging presets comes from rebuilding the table, which
the beginner never does; a bot that sees no rearrangement at all but finds the best melds in
its hand measured no stronger than the beginner in rami chinois (+12 Elo [-25, +49], 100
pairs). What grades strength there is how often a player sees the table's rearrangements:
:class:`MixedBot` plays the confirmed bot's answer with probability ``strength`` and the
beginner's otherwise, drawn for each turn from its seed and the view (so a game replays the
same). ``strength`` 0 is the beginner, 1 the confirmed bot; the named levels ``novice`` and
``intermediate`` are 0.1 and 1/2 (:data:`STRENGTHS`, in a preset whose ladder placed them
elsewhere its own: :data:`PRESET_STRENGTHS`), and a target Elo is turned into a strength by the
preset's measured ladder (:data:`LADDERS`, docs/game.md "Levels").

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

#: The strength of the mixed levels by name (the confirmed bot's share of the answers).
STRENGTHS: dict[str, float] = {"novice": 0.1, "intermediate": 0.5}
#: Where a preset's measured ladder placed a named mixed level elsewhere (docs/game.md
#: "Measured"): the levels' strengths there.
PRESET_STRENGTHS: dict[str, dict[str, float]] = {
    # rami 51, whole games: a tenth stood +58 over the beginner (both seeds), a half +205 over
    # that; 0.18 puts the novice between them (+115 and +143, the ladder below).
    "rami-51": {"novice": 0.18},
    # Rummikub, one round: at a half the confirmed bot stood only +89 over the intermediate
    # (+67, +111); at 0.4 it stands +121 over it (+123, +119) and the intermediate +240 over
    # the novice (+210, +269), 100 pairs a step, seeds 1 and 2.
    "rummikub": {"intermediate": 0.4},
    # rami fou, whole games: a tenth stood +95 and +108 over the beginner (seeds 1 and 2); 0.15
    # stands +120 and +147 over it, and the intermediate +147 and +161 over that novice.
    "rami-fou": {"novice": 0.15},
    # bfmania-51, whole games: at a half the confirmed bot stood only +80 over the intermediate
    # in seed 2; at 0.3 it stands +196 and +131 over it, and it +111 and +147 over the beginner.
    "bfmania-51": {"intermediate": 0.3},
}

#: Measured Elo (beginner at 0) by strength, per preset: (strength, Elo) in strength order.
#: Filled from paired matches (docs/game.md, "Measured"): one-round games where nothing is
#: discarded (a round is most of the game there), whole games in the discard presets (a
#: round there is one of many: the levels stand further apart over a game than over a round).
#: Strength 2 is the expert every round; it ends a ladder where the expert's Elo is finite. A
#: preset absent here takes named levels only.
LADDERS: dict[str, Sequence[tuple[float, float]]] = {
    # One-round games, 100 pairs a step, the mean of seeds 1 and 2: novice +495 over the
    # beginner (+576, +413), intermediate +271 over the novice (+295, +246), confirmed +110
    # over the intermediate (+115, +104); strength 1.5 +198 over the confirmed bot (+186,
    # +210), 1.8 +387 over it (+392, +382).
    "rami-chinois": (
        (0.0, 0.0),
        (0.1, 495.0),
        (0.5, 766.0),
        (1.0, 876.0),
        (1.5, 1074.0),
        (1.8, 1263.0),
    ),
    # The same steps in Rummikub, the mean of seeds 1 and 2: novice +593 (+655, +531),
    # intermediate +275 over it (+269, +282), confirmed +89 over it (+67, +111); strength 1.5
    # +196 over the confirmed bot (+205, +186), 1.8 +402 (+413, +392). Strength 0.4 (the
    # intermediate, PRESET_STRENGTHS) +240 over the novice (+210, +269).
    "rummikub": (
        (0.0, 0.0),
        (0.1, 593.0),
        (0.4, 833.0),
        (0.5, 868.0),
        (1.0, 957.0),
        (1.5, 1153.0),
        (1.8, 1359.0),
    ),
    # Whole games, the mean of seeds 1 and 2. Up to the confirmed bot, each point measured
    # directly against the beginner: the novice (0.1) +45 (+42, +49; 100 pairs), 0.3 +129
    # (+111, +147; 100 pairs), 0.5 +137 (+127, +147; 40 pairs), confirmed +277 (+285, +269; 40
    # pairs); the confirmed bot stands +196 and +131 over strength 0.3 (100 pairs), so 0.3 is
    # the intermediate (PRESET_STRENGTHS). Above it, steps over the confirmed bot: strength
    # 1.5 +89 (+108, +70; 40 pairs), the expert +229 (+255, +203; 40 pairs).
    "bfmania-51": (
        (0.0, 0.0),
        (0.1, 45.0),
        (0.3, 129.0),
        (0.5, 137.0),
        (1.0, 277.0),
        (1.5, 366.0),
        (2.0, 506.0),
    ),
    # Whole games, the mean of seeds 1 and 2: strength 0.1 +58 over the beginner (+58, +58;
    # 60 pairs), the novice (0.18, PRESET_STRENGTHS) +115 over it too (+140, +89; 60 pairs), the
    # intermediate +143 over the novice (+139, +147; 50 pairs), confirmed +147 over the
    # intermediate (+158, +137; 40 pairs); strength 1.5 +161 over the confirmed bot (+147,
    # +176; 30 pairs), the expert +293 over it (+301, +285; 40 pairs).
    "rami-51": (
        (0.0, 0.0),
        (0.1, 58.0),
        (0.18, 115.0),
        (0.5, 258.0),
        (1.0, 405.0),
        (1.5, 566.0),
        (2.0, 698.0),
    ),
    # Whole games, 30 pairs a step, the mean of seeds 1 and 2: novice +161.5 over the beginner
    # (+176, +147), intermediate +548.5 over the novice (+585, +512), confirmed +501 over the
    # intermediate (+417, +585). The expert stands +446 and +inf over the confirmed bot: no
    # finite mean, so the ladder ends at the confirmed bot and the expert is asked by name.
    "cafe-rummy": ((0.0, 0.0), (0.1, 161.5), (0.5, 710.0), (1.0, 1211.0)),
    # Whole games, the mean of seeds 1 and 2: novice +127.5 over the beginner (+108, +147),
    # intermediate +399.5 over the novice (+417, +382), confirmed +353.5 over the intermediate
    # (+382, +325), 30 pairs a step; the expert +335.5 over the confirmed bot (+321, +350; 22
    # and 17 pairs, the sequential test).
    "bfmania-30": ((0.0, 0.0), (0.1, 127.5), (0.5, 527.0), (1.0, 880.5), (2.0, 1216.0)),
    # Whole games, 30 pairs a step, the mean of seeds 1 and 2: strength 0.1 +101.5 over the
    # beginner (+95, +108), the novice (0.15, PRESET_STRENGTHS) +133.5 over it (+120, +147), the
    # intermediate +154 over the novice (+147, +161), confirmed +168.5 over the
    # intermediate (+176, +161); the expert +399.5 over the confirmed bot (+417, +382). No
    # strength between 1 and 2 was measured: the ladder is read linearly between them.
    "rami-fou": ((0.0, 0.0), (0.1, 101.5), (0.15, 133.5), (0.5, 287.5), (1.0, 456.0), (2.0, 855.5)),
}


def named_strength(level: str, rules_name: str) -> float:
    """The strength of the named mixed level ``level`` (novice, intermediate) in this preset."""
    return PRESET_STRENGTHS.get(rules_name, {}).get(level, STRENGTHS[level])


def strength_for(rules_name: str, elo: float) -> float:
    """The strength whose measured Elo is ``elo`` (linear between measured points, clamped)."""
    ladder = LADDERS.get(rules_name)
    if not ladder:
        raise GameError(
            f"no measured ladder for {rules_name}: ask a level by name "
            f"(a target Elo is offered for {', '.join(sorted(LADDERS)) or 'none'})"
        )
    if elo <= ladder[0][1]:
        return ladder[0][0]
    for (s0, e0), (s1, e1) in pairwise(ladder):
        if elo <= e1:
            return s0 + (s1 - s0) * (elo - e0) / (e1 - e0) if e1 > e0 else s1
    return ladder[-1][0]


class MixedBot(Bot):
    """The confirmed bot's answer with probability ``strength``, else the beginner's; with
    ``elo`` instead, the strength the preset's ladder gives that Elo; with ``named`` (novice,
    intermediate) instead, that level's strength in the preset (:func:`named_strength`)."""

    def __init__(
        self,
        seed: int = 0,
        strength: float | None = None,
        elo: float | None = None,
        level: str = "intermediate",
        named: str | None = None,
    ) -> None:
        super().__init__(seed)
        if [strength, elo, named].count(None) != 2:
            raise GameError("a mixed bot takes a strength, a target Elo or a named level")
        if named is not None and named not in STRENGTHS:
            raise GameError(f"no mixed level named {named!r}: they are {', '.join(STRENGTHS)}")
        if strength is not None and not 0.0 <= strength <= 2.0:
            raise GameError(f"strength must lie between 0 and 2, got {strength}")
        self.strength = strength
        self.elo = elo
        self.named = named
        self.level = level
        self.strong = ConfirmedBot(seed)
        self.weak = BeginnerBot(seed)
        self.expert = ExpertBot(seed)

    def share(self, view: View) -> float:
        if self.strength is not None:
            return self.strength
        if self.named is not None:
            return named_strength(self.named, view.rules.name)
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
            lot = random.Random(
                derive_seed(self.seed, "mixed-round", view.round, view.seat)
            ).random()
            return self.expert if lot < share - 1.0 else self.strong
        lot = random.Random(
            derive_seed(self.seed, "mixed", view.round, view.turn, view.seat)
        ).random()
        return self.strong if lot < share else self.weak

    def decide(self, view: View) -> Action:
        return self.pick(view).decide(view)
