"""The apprentice: the solver's melds from its own hand, but no rearrangement of the table.

Between the beginner (greedy melds, no solver) and the confirmed bot (the solver's best turn
over the whole table), the apprentice plays as a person who has learnt to find the best melds
in a hand but not yet to rebuild the table: it asks the solver for the best turn on an empty
table (its hand's melds and, where the rules discard, the discard), then lays off what still
fits at the ends of the table's melds once opened (decisions 1 and 4), and keeps the beginner's
choices of pile and of claims. Its turn is judged by the referee; a turn the referee would
refuse gives way to the beginner's (docs/game.md, "Bots").
"""

from __future__ import annotations

from collections import Counter

from rami.errors import RamiError
from rami.game.actions import STOCK, Play
from rami.game.bots import BeginnerBot, ConfirmedBot, timed_solve
from rami.game.greedy import lay_offs
from rami.game.state import View
from rami.position import Position
from rami.referee import validate_turn


class ApprenticeBot(ConfirmedBot):
    level = "apprentice"

    def draw(self, view: View) -> str:
        return STOCK

    def claim(self, view: View) -> bool:
        return False

    def play(self, view: View) -> Play:
        position = view.position()
        try:
            own = timed_solve(Position((), view.hand, view.is_opened, view.rules,
                                       position.taken_discard), self.time_limit, False)
        except RamiError:
            return BeginnerBot(self.seed).play(view)
        table = list(view.table) + list(own.table)
        played = list(own.played)
        hand = Counter(own.hand)
        if view.is_opened or not view.rules.rearrangement:
            played.extend(card for card, _ in lay_offs(table, hand, view.rules))
        discard = own.discard
        if view.rules.discard and discard is None and +hand:
            return BeginnerBot(self.seed).play(view)
        play = Play(tuple(table), tuple(played), discard)
        if validate_turn(position, play.table, play.played, play.discard).legal:
            return play
        return BeginnerBot(self.seed).play(view)
