"""Hints in ``rami play``: at the draw, at a claim and at the play, from the moves already made.

``hint [1|2|3]`` shows the advice of :func:`rami.game.advice.advise` for the decision asked;
``play hint`` (short ``ph``) shows the whole advice and does what it says: the draw, the claim,
or the turn, which goes to the referee like a turn typed move by move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rami.game.actions import Action
from rami.game.advice import advise, advised_action
from rami.game.state import View
from rami.lang import ENGLISH, Language
from rami.melds import Meld

#: The command that plays the hint, and the lines that stand for it.
PLAY_HINT = "play hint"
_PLAY_HINT_LINES = frozenset({"play hint", "ph"})


def is_play_hint(line: str) -> bool:
    """Is ``line`` the command that plays the hint (``play hint``, ``ph``)?"""
    return " ".join(line.split()).lower() in _PLAY_HINT_LINES


def hint_text(view: View, level: int, language: Language = ENGLISH,
              working: Sequence[Meld] | None = None) -> str:
    """The hint of ``level`` for the decision ``view`` asks; at the play from ``working``, the
    table as the person has rearranged it so far (the melds in the person's numbering)."""
    return advise(view, level=level, language=language, working=working).text


def hinted_action(view: View, echo: Callable[[str], None], language: Language = ENGLISH,
                  working: Sequence[Meld] | None = None) -> Action | None:
    """The whole hint shown, and the action it advises (None: no hint this time)."""
    advice = advise(view, level=3, language=language, working=working)
    echo(advice.text)
    return advised_action(view, advice)


__all__ = ["PLAY_HINT", "hint_text", "hinted_action", "is_play_hint"]
