"""Hints in ``rami play``: at the draw, at a claim and at the play, from the moves already made.

``hint [1|2|3]`` shows the advice of :func:`rami.game.advice.advise` for the decision asked;
``play hint`` (short ``ph``) shows the whole advice and does what it says: the draw, the claim,
or the turn, which goes to the referee like a turn typed move by move.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from rami.game.actions import Action
from rami.game.advice import advise, advised_action
from rami.game.advice_text import text as sentence
from rami.game.moves import WorkTable
from rami.game.state import View
from rami.lang import ENGLISH, Language
from rami.melds import Meld

#: The command that plays the hint, and the lines that stand for it.
PLAY_HINT = "play hint"
_PLAY_HINT_LINES = frozenset({"play hint", "ph"})


def is_play_hint(line: str) -> bool:
    """Is ``line`` the command that plays the hint (``play hint``, ``ph``)?"""
    return " ".join(line.split()).lower() in _PLAY_HINT_LINES


def hint_text(
    view: View, level: int, language: Language = ENGLISH, work: WorkTable | None = None
) -> str:
    """The hint of ``level`` for the decision ``view`` asks; at the play from ``work``, the
    table as the person has rearranged it so far, its melds in the person's numbering."""
    seen = _as_shown(view, work)
    advice = advise(seen, level=level, language=language, working=_table(work))
    return _numbered_as(advice.text, work, language)


def hinted_action(
    view: View,
    echo: Callable[[str], None],
    language: Language = ENGLISH,
    work: WorkTable | None = None,
) -> Action | None:
    """The whole hint shown, and the action it advises (None: no hint this time)."""
    seen = _as_shown(view, work)
    advice = advise(seen, level=3, language=language, working=_table(work))
    echo(_numbered_as(advice.text, work, language))
    return advised_action(seen, advice)


def _as_shown(view: View, work: WorkTable | None) -> View:
    """The view with the table in the order the person sees it numbered (a hint that starts
    from the turn's start numbers the melds so)."""
    return view if work is None else replace(view, table=work.original)


def _table(work: WorkTable | None) -> Sequence[Meld] | None:
    return None if work is None else work.table()


_MELD_NUMBER = re.compile(r"\b(meld|combinaison) (\d+)")


def _numbered_as(text: str, work: WorkTable | None, language: Language) -> str:
    """``text``'s meld numbers (the table's melds 1 to n, new melds on) as the person numbers
    them during the turn, where a meld emptied keeps its number (a hint from the turn's start
    numbers the melds as they stood then, as the person does)."""
    if work is None or text.startswith(sentence("from start", language)):
        return text
    numbers = [number for number, _ in work.numbered()]
    if numbers == list(range(1, len(work.melds) + 1)):
        return text

    def renumber(match: re.Match[str]) -> str:
        number = int(match.group(2))
        mapped = (
            numbers[number - 1]
            if number <= len(numbers)
            else number - len(numbers) + len(work.melds)
        )
        return f"{match.group(1)} {mapped}"

    return _MELD_NUMBER.sub(renumber, text)


__all__ = ["PLAY_HINT", "hint_text", "hinted_action", "is_play_hint"]
