"""The expert's plan where nothing is discarded (rami chinois, Rummikub): open small, hold the
rest, go out in one turn.

In these presets every card laid is the others' to rearrange (decision 7), and a card kept in
the hand loses nothing the player needs to go out: going out lays the hand and rearranges the
table in one turn, and a meld held in the hand can go down in that turn as well as it could
have lain on the table (the cards to arrange are the same; hand cards need not all be laid).
The confirmed bot lays every card it can at once and so feeds the table its opponents play
from. The expert, once :func:`holds_back` says so, plays instead (:func:`held_play`):

- **Go out** whenever the solver's turn empties the hand.
- **Open small**: not yet opened, the legal opening with the fewest cards among the melds of
  the solver's turn (rearranging starts with the next turn, so opening early pays).
- **Hold**: opened, lay nothing (Rummikub: draw a tile).

It lays the solver's whole turn instead (:func:`holds_back` is false) when the stock may end
the round before its next turn (every hand counts then). At a table of three or four it holds
as well (measured in docs/game.md, "Matches and levels": the margin is smaller there); laying
when an opponent is down to a few cards, or once the held points grow, gained nothing in short
trials.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from rami.game.actions import Play
from rami.game.state import View
from rami.melds import Meld
from rami.referee import validate_turn


def holds_back(view: View, solution: Any) -> bool:
    """Whether the expert plays :func:`held_play` instead of the solver's whole turn."""
    if view.rules.discard or not solution.played or not solution.hand:
        return False
    return view.stock_size >= view.players  # else the stock may end the round first


def held_play(view: View, solution: Any) -> Play:
    """Opened: lay nothing. Not yet opened: the legal opening with the fewest cards among the
    new melds of ``solution`` (the solver's whole turn when no smaller one is legal)."""
    if view.is_opened:
        return Play(view.table, (), None)
    new = [meld for meld in solution.table if meld not in view.table]
    return smallest_opening(view, new) or Play(solution.table, solution.played, None)


def smallest_opening(view: View, new: Sequence[Meld]) -> Play | None:
    """The legal opening laying the fewest cards, from subsets of ``new`` smaller than the
    whole (None: none is legal)."""
    position = view.position()
    for size in range(1, len(new)):
        best: Play | None = None
        for subset in combinations(new, size):
            cards = tuple(card for meld in subset for card in meld.cards)
            if best is not None and len(cards) >= len(best.played):
                continue
            table = (*view.table, *subset)
            if validate_turn(position, table, cards, None).legal:
                best = Play(table, cards, None)
        if best is not None:
            return best
    return None
