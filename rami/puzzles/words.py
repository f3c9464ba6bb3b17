"""The puzzles' words in English and in French: the goal, the themes' names and sentences, and
the verdicts on an answer (docs/puzzles.md; the page and ``lang=fr`` of the service say them).

One book per language (:data:`ENGLISH_BOOK`, :data:`FRENCH_BOOK`), the same keys in each; every
text is said from its key and its fields, never read back from English. Cards are written in
the language's notation (``KH``; in French ``R♥``), counts with :func:`rami.phrases.plural`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rami.cards import Card
from rami.lang import ENGLISH, FRENCH, Language
from rami.phrases import plural

ENGLISH_BOOK: dict[str, str] = {
    "goal-one": "Play the only card of your hand.",
    "goal-all": "Play all {played} cards of your hand.",
    "goal-shed": "Your hand cannot be emptied: shed as many points as you can "
    "(the best play leaves {points} in hand).",
    "short-all": "legal, but it plays {count} of {cards}: the goal is to play them all "
    "(left: {left})",
    "short-one": "legal, but it plays {count} of {cards}: the goal is to play it (left: {left})",
    "too-many-points": "legal, but it leaves {points} in hand: the best play leaves {goal}",
    "solved-intended": "solved: this is the intended solution",
    "solved-other": "solved, by another route than the intended solution (it still counts)",
}

FRENCH_BOOK: dict[str, str] = {
    "goal-one": "Jouez la seule carte de votre main.",
    "goal-all": "Jouez les {played} cartes de votre main.",
    "goal-shed": "Votre main ne peut pas être vidée : posez le plus de points possible "
    "(le meilleur coup laisse {points} en main).",
    "short-all": "légal, mais il joue {count} sur {cards} : le but est de toutes les jouer "
    "(reste : {left})",
    "short-one": "légal, mais il joue {count} sur {cards} : le but est de la jouer "
    "(reste : {left})",
    "too-many-points": "légal, mais il laisse {points} en main : le meilleur coup en laisse {goal}",
    "solved-intended": "résolu : c'est la solution prévue",
    "solved-other": "résolu, par une autre voie que la solution prévue (cela compte quand même)",
}

#: Theme -> its name in French and its sentence in French (the English ones: the tag itself
#: and :data:`rami.puzzles.themes.THEMES`).
FRENCH_THEMES: dict[str, tuple[str, str]] = {
    "all-cards": ("main vidée", "La main est vidée : toutes ses cartes sont jouées."),
    "best-score": (
        "meilleur score",
        "La main ne peut pas être vidée : se défaire du plus de points.",
    ),
    "joker-swap": ("échange de joker", "Une carte de la main prend la place d'un joker."),
    "joker-freed": ("joker libéré", "Un joker de la table quitte sa combinaison."),
    "joker-from-hand": ("joker de la main", "Un joker est joué depuis la main."),
    "no-joker": ("sans joker", "Aucun joker sur la table ni dans la main."),
    "borrow-from-set": (
        "emprunt à une série",
        "Une carte est prise à une série de quatre, qui reste une série.",
    ),
    "borrow-from-run": (
        "emprunt à une suite",
        "Une ou deux cartes sont prises au bout d'une suite, qui reste une suite.",
    ),
    "split-run": ("suite coupée", "Une suite est coupée en deux."),
    "merge-runs": ("suites réunies", "Deux suites de la table sont réunies en une."),
    "set-to-runs": (
        "série défaite",
        "Une série est défaite : deux de ses cartes ou plus vont dans des suites.",
    ),
    "run-to-sets": ("suite défaite", "Deux cartes ou plus d'une suite vont dans des séries."),
    "ace-high": (
        "as haut",
        "Une suite passant par D-R-A (l'as au-dessus du roi) est construite ou changée.",
    ),
    "long-run": ("longue suite", "Une suite de {long} cartes ou plus est construite ou changée."),
    "twin-cards": ("cartes jumelles", "Les deux exemplaires d'une carte (deux jeux) sont joués."),
}


def say(key: str, language: Language = ENGLISH, **fields: object) -> str:
    """The text ``key`` of the language's book, its fields filled in."""
    book = FRENCH_BOOK if language is FRENCH else ENGLISH_BOOK
    return book[key].format(**fields)


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
    return FRENCH_THEMES[theme][0] if language is FRENCH else theme


def theme_sentence(theme: str, language: Language = ENGLISH) -> str:
    """What a theme means, in one sentence of ``language``."""
    from rami.puzzles.themes import LONG_RUN, describe

    if language is FRENCH:
        return FRENCH_THEMES[theme][1].format(long=LONG_RUN)
    return describe(theme)


__all__ = [
    "ENGLISH_BOOK",
    "FRENCH_BOOK",
    "FRENCH_THEMES",
    "goal_text",
    "points_reason",
    "short_reason",
    "solved_reason",
    "theme_name",
    "theme_sentence",
]
