"""Whether the person may take the discard pile's top card in a :class:`GameSession`: the
engine accepts the draw, but some presets would then leave no turn the referee accepts."""

from __future__ import annotations

from rami.game.actions import DISCARD, Play
from rami.game.presets import DrawRule
from rami.game.state import View


def discard_draw_problems(view: View, rule: DrawRule) -> list[str]:
    """Why taking the top discard now would be a trap (empty: take it). A card taken from
    the discard pile may not be discarded the same turn, so some turn must follow it; in rami
    51 it must be laid in the same turn (docs/rules.md, decision 10)."""
    if DISCARD not in view.draws:
        return []
    if not _can_follow(view):
        return [f"no legal turn would follow taking {view.top_discard} (a card taken from the "
                "discard pile may not be discarded the same turn): draw from the stock"]
    if rule is DrawRule.LAID_ONLY and not _lays_it(view):
        return [f"no turn the solver finds lays {view.top_discard} as {view.rules.name} asks "
                "(decision 10: a card taken from the discard pile is laid in the same turn"
                + ("" if view.is_opened else ", in the opening") + "): draw from the stock"]
    return []


def _lays_it(view: View) -> bool:
    """Rami 51: does the solver's best turn with the top discard lay it as decision 10 asks?
    (Else taking it would leave the person no turn the engine accepts.)"""
    from rami.errors import RamiError
    from rami.game.bots import laid_by_rule, timed_solve
    from rami.position import Position

    top = view.top_discard
    assert top is not None
    position = Position(view.table, (*view.hand, top), view.is_opened, view.rules, top)
    try:
        solution = timed_solve(position)
    except RamiError:
        return False
    return laid_by_rule(position, Play(solution.table, solution.played, solution.discard), top)


def _can_follow(view: View) -> bool:
    from rami.game.human import _can_follow as can_follow

    return can_follow(view)


__all__ = ["discard_draw_problems"]
