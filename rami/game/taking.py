"""Taking the top discard, as the rules let a person do it: whether a turn the rules accept
can follow (a card taken from the discard pile may not be discarded in the same turn; rami 51
lays it in the same turn, in the opening for a player not yet opened: docs/rules.md), why not
in plain words, and what the player must then do with it. Shared by every front end that lets
a person draw (:mod:`rami.game.human`, :mod:`rami.game.session`) and by the advice
(:mod:`rami.game.advice`).
"""

from __future__ import annotations

from rami.game.actions import DISCARD, Play
from rami.game.advice_text import text
from rami.game.bots import laid_by_rule, timed_solve
from rami.game.presets import DrawRule, game_rules
from rami.game.state import View
from rami.lang import ENGLISH, Language
from rami.position import Position
from rami.solver.solution import Solution


def taking_problem(view: View, language: Language = ENGLISH) -> str | None:
    """Why the player may not take the top discard now, in plain words (None: they may). The
    engine would accept the draw, but no turn the rules accept would follow it: a card taken
    from the discard pile may not be discarded in the same turn, and where the preset asks it
    (rami 51) it is laid in the same turn, in the opening for a player not yet opened
    (docs/rules.md). Shared by every front end that lets a person draw."""
    top = view.top_discard
    if DISCARD not in view.draws or top is None:
        return None
    solution = _turn_with_top(view)
    if solution is None:
        return text("cannot follow", language, card=top)
    if game_rules(view.rules).draw is DrawRule.LAID_ONLY and not laid_by_rule(
        solution.position, Play(solution.table, solution.played, solution.discard), top
    ):
        return text("cannot lay" if view.is_opened else "cannot lay opening", language, card=top)
    return None


def can_follow(view: View) -> bool:
    """Does some turn the rules accept follow taking the top discard? (A card taken from the
    discard pile may not be discarded in the same turn: a hand of its copies alone could not
    end the turn.)"""
    return _turn_with_top(view) is not None


def _turn_with_top(view: View) -> Solution | None:
    """The solver's best turn with the top discard taken (None: no legal turn follows)."""
    from rami.errors import IllegalTurnError

    top = view.top_discard
    assert top is not None
    position = Position(view.table, (*view.hand, top), view.is_opened, view.rules, top)
    try:
        solution: Solution = timed_solve(position, min_moves=False)
    except IllegalTurnError:
        return None
    return solution


def taking_reminder(view: View, language: Language = ENGLISH) -> str | None:
    """What a player who takes the top discard must do with it this turn (None: nothing)."""
    top = view.top_discard
    if top is None or game_rules(view.rules).draw is not DrawRule.LAID_ONLY:
        return None
    return text("must lay" if view.is_opened else "must lay opening", language, card=top)
