"""One phrase book per language: every sentence and word rami says to a person, by key.

:mod:`rami.phrasebook.en` and :mod:`rami.phrasebook.fr` hold the same keys, and each key's
templates the same fields (``tests/test_phrasebook.py``). The rooms say their texts from these
books: the solver's moves and notes (:mod:`rami.phrases`), the report's words and the review's
grades, the advice at a game's decisions (:mod:`rami.game.advice_text`), the game log
(:mod:`rami.game.session_text`), ``rami play``'s every line (``play.*``, kept apart in
``en_play.py`` and ``fr_play.py`` and merged into each book), the puzzles' goal, verdicts and
themes (:mod:`rami.puzzles.words`), the reviews, the hints and the levels' notes. A text is
always said from its key and fields in the language asked, never translated back from English;
how a field is written (a card in the language's notation, a count with its plural) is the
room's business.
"""

from __future__ import annotations

import string

from rami.lang import ENGLISH, FRENCH, Language
from rami.phrasebook import en, fr

#: The books by language.
BOOKS: dict[Language, dict[str, str]] = {ENGLISH: en.BOOK, FRENCH: fr.BOOK}


def template(key: str, language: Language = ENGLISH) -> str:
    """The template of ``key`` in ``language`` (KeyError for a key no book has)."""
    return BOOKS[language][key]


def say(key: str, language: Language = ENGLISH, **fields: object) -> str:
    """The text of ``key`` in ``language`` with ``fields`` written in as given."""
    return template(key, language).format(**fields)


def singular(count: int, language: Language) -> bool:
    """Does ``count`` take the singular in ``language``? English: 1 only; French: 0 and 1."""
    return count <= 1 if language is FRENCH else count == 1


def say_count(key: str, count: int, language: Language = ENGLISH, **fields: object) -> str:
    """The text of ``key.one`` or ``key.many`` (as ``count`` agrees in ``language``), with
    ``count`` and ``fields`` written in: ``1 point lost``, ``2 points lost``; ``1 point
    perdu``, ``2 points perdus``."""
    number = "one" if singular(count, language) else "many"
    return say(f"{key}.{number}", language, count=count, **fields)


def fields_of(text: str) -> frozenset[str]:
    """The names of a template's fields (``{card}`` -> ``card``)."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


__all__ = ["BOOKS", "fields_of", "say", "say_count", "singular", "template"]
