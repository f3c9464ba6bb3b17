"""The puzzles' words in English and in French: the goal, the themes' names and sentences, and
the verdicts on an answer (docs/puzzles.md; the page and ``lang=fr`` of the service say them).

The texts are the phrase book's (``puzzle.<key>``, ``theme-name.<tag>``, ``theme.<tag>``,
:mod:`rami.phrasebook`): every text is said from its key and its fields, never read back from
English. Cards are written in the language's notation (``KH``; in French ``R♥``), counts with
:func:`rami.phrases.plural`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import rami.phrasebook as phrasebook
from rami.cards import Card
from rami.lang import ENGLISH, Language
from rami.phrases import plural


def say(key: str, language: Language = ENGLISH, **fields: object) -> str:
    """The puzzle text ``key`` (``puzzle.<key>`` in the phrase book) with its fields."""
    return phrasebook.say(f"puzzle.{key}", language, **fields)


def goal_text(kind: str, goal: dict[str, Any], language: Language = ENGLISH) -> str:
    """The goal as a sentence (in English as each record stores it in ``goal.text``)."""
    if kind == "empty-hand":
        played = goal["cards_played"]
        return say("goal-one" if played == 1 else "goal-all", language, played=played)
    points = plural(goal["penalty_after"], "point", language)
    return say("goal-shed", language, points=points)


def short_reason(count: int, hand: int, left: Sequence[Card], language: Language = ENGLISH) -> str:
    """An empty-hand puzzle answered with a legal turn that leaves cards in the hand."""
    cards = plural(hand, "card", language, "carte")
    shown = " ".join(card.text(language) for card in left)
    key = "short-all" if hand > 1 else "short-one"
    return say(key, language, count=count, cards=cards, left=shown)


def points_reason(penalty: int, goal: int, language: Language = ENGLISH) -> str:
    """A best-score puzzle answered with a legal turn that leaves more points than the best."""
    return say("too-many-points", language, points=plural(penalty, "point", language), goal=goal)


def solved_reason(intended: bool, language: Language = ENGLISH) -> str:
    return say("solved-intended" if intended else "solved-other", language)


def theme_name(theme: str, language: Language = ENGLISH) -> str:
    """A theme as a player reads it: the tag in English, its French name in French."""
    return phrasebook.template(f"theme-name.{theme}", language)


def theme_sentence(theme: str, language: Language = ENGLISH) -> str:
    """What a theme means, in one sentence of ``language``."""
    from rami.puzzles.themes import LONG_RUN

    return phrasebook.say(f"theme.{theme}", language, long=LONG_RUN)


__all__ = [
    "goal_text",
    "points_reason",
    "short_reason",
    "solved_reason",
    "theme_name",
    "theme_sentence",
]
