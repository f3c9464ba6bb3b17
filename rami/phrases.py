"""The solver's sentences about a turn, the fixed words of its report (:func:`word`) and the
review's grades (:func:`grade_word`), said from the phrase book (:mod:`rami.phrasebook`).

The solver writes its moves in English through :meth:`Phrase.say` (the contract's ``text``): the
sentence is a :class:`Said`, which keeps the phrase's key and its fields, so a move
(:class:`rami.moves.Move`) is said in another language from them (:func:`say_in`), never read
back. Card fields are written in the language's notation (``3H..9H`` becomes ``3♥..9♥``); number
fields stay as they are. :func:`translate` reads back a note the solver built by joining
sentences (``no card of the hand can be played, discard KD``): each English template is also
the pattern that reads it.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rami.cards import Card, localize_cards
from rami.lang import ENGLISH, FRENCH, Language
from rami.phrasebook import say, say_count, template

if TYPE_CHECKING:
    from rami.position import Position

#: Fields holding numbers (meld numbers, points); every other field holds cards.
_NUMBER_FIELDS = frozenset({"source", "target", "points"})


class Said(str):
    "''A sentence of the book in English that keeps the key of its phrase and its fields.''"

    key: str
    fields: tuple[tuple[str, object], ...]

    def __new__(cls, text: str, key: str = "", fields: tuple[tuple[str, object], ...] = ()) -> Said:
        said = super().__new__(cls, text)
        said.key, said.fields = key, fields
        return said


@dataclass(frozen=True)
class Phrase:
    """The solver's sentence ``key``, its English and French templates from the phrase book
    (``solver.<key>``, :mod:`rami.phrasebook`)."""

    key: str
    english: str = field(init=False)
    french: str = field(init=False)
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "english", template(f"solver.{self.key}", ENGLISH))
        object.__setattr__(self, "french", template(f"solver.{self.key}", FRENCH))
        parts = []
        for literal, name, _, _ in string.Formatter().parse(self.english):
            parts.append(re.escape(literal))
            if name:
                parts.append(rf"(?P<{name}>\d+)" if name in _NUMBER_FIELDS else rf"(?P<{name}>.+?)")
        object.__setattr__(self, "pattern", re.compile("".join(parts)))

    def say(self, language: Language = ENGLISH, **fields: object) -> str:
        """The sentence in ``language`` (in English a :class:`Said`); card fields are given in
        canonical English."""
        if language is ENGLISH:
            return Said(self.english.format(**fields), self.key, tuple(fields.items()))
        return self.french.format(
            **{
                name: value if name in _NUMBER_FIELDS else localize_cards(str(value), language)
                for name, value in fields.items()
            }
        )


LAY = Phrase("lay")
ADD = Phrase("add")
SPLIT = Phrase("split")
MOVE = Phrase("move")
SLIDE_JOKER = Phrase("slide_joker")
SLIDE_JOKERS = Phrase("slide_jokers")
REPLACE_JOKER = Phrase("replace_joker")
SWAP_TO_HAND = Phrase("swap_to_hand")
SWAP_AND_RELAY = Phrase("swap_and_relay")
DISCARD = Phrase("discard")
DISCARD_GOING_OUT = Phrase("discard_going_out")
EMPTY_HAND = Phrase("empty_hand")
NO_PURE_RUN = Phrase("no_pure_run")
NO_OPENING_POINTS = Phrase("no_opening_points")
NO_OPENING_POINTS_PURE = Phrase("no_opening_points_pure")
NOT_OPENING = Phrase("not_opening")
NOTHING_PLAYABLE = Phrase("nothing_playable")
NOTHING_IN_TIME = Phrase("nothing_in_time")

PHRASES: tuple[Phrase, ...] = (
    LAY,
    ADD,
    SPLIT,
    MOVE,
    SLIDE_JOKER,
    SLIDE_JOKERS,
    REPLACE_JOKER,
    SWAP_TO_HAND,
    SWAP_AND_RELAY,
    DISCARD,
    DISCARD_GOING_OUT,
    EMPTY_HAND,
    NO_PURE_RUN,
    NO_OPENING_POINTS_PURE,
    NO_OPENING_POINTS,
    NOT_OPENING,
    NOTHING_PLAYABLE,
    NOTHING_IN_TIME,
)


#: The book by key.
BOOK: dict[str, Phrase] = {phrase.key: phrase for phrase in PHRASES}


def say_in(key: str, fields: Sequence[tuple[str, object]], language: Language) -> str:
    "''The phrase ``key`` said with ``fields`` in ``language``.''"
    return BOOK[key].say(language, **dict(fields))


def word(key: str, language: Language = ENGLISH) -> str:
    """One of the report's fixed words (``word.<key>`` in the phrase book) in ``language``."""
    return template(f"word.{key}", language)


def grade_word(grade: str, language: Language = ENGLISH) -> str:
    """A review's grade (best, good, inaccuracy, mistake, blunder) as a person reads it."""
    return template(f"grade.{grade}", language)


def phrase_of(text: str) -> tuple[Phrase, dict[str, str]] | None:
    "''The phrase an English sentence was said with, and its fields (None: not in the book).''"
    for phrase in PHRASES:
        match = phrase.pattern.fullmatch(text)
        if match is not None:
            return phrase, match.groupdict()
    return None


def leading_phrase(text: str) -> str | None:
    """The sentence of the book that starts ``text`` and ends it or a part of it (a note:
    ``"no card of the hand can be played, discard KD"``), None if none does."""
    for phrase in PHRASES:
        match = phrase.pattern.match(text)
        if match is None:
            continue
        rest = text[match.end() :]
        if not rest or rest.startswith(", "):
            return match.group(0)
    return None


def translate(text: str, language: Language) -> str:
    """An English sentence of the book in ``language``; a sentence the book does not hold
    keeps its words, its cards written in ``language``."""
    if language is ENGLISH:
        return text
    if isinstance(text, Said) and text.key:
        return say_in(text.key, text.fields, language)
    found = phrase_of(text)
    if found is None:
        return localize_cards(text, language)
    phrase, fields = found
    return phrase.say(language, **fields)


def plural(count: int, english: str, language: Language = ENGLISH, french: str = "") -> str:
    """``1 card``, ``2 cards``; in French ``0 carte``, ``1 carte``, ``2 cartes`` (0 and 1 are
    singular there)."""
    if language is FRENCH:
        word = french or english
        return f"{count} {word}{'' if count <= 1 else 's'}"
    return f"{count} {english}{'' if count == 1 else 's'}"


def turn_note(
    position: Position,
    played: Sequence[Card],
    hand_after: Sequence[Card],
    penalty_after: int,
    opened_after: bool,
    discard: Card | None,
    reason: str | None = None,
    language: Language = ENGLISH,
) -> str:
    """The one-line note on a turn: what was played, what is left, the discard; ``reason`` (an
    English sentence of the book) says why nothing is played."""
    total = len(position.hand)
    count = {
        "played": say_count("note.played-count", len(played), language),
        "total": say_count("note.total", total, language),
    }
    card = discard.text(language) if discard is not None else ""
    if not played:
        parts = [translate(reason or why_nothing(position), language)]
    elif not hand_after:
        if discard is not None or position.rules.discard:
            key = "note.goes-out-discard" if discard is not None else "note.goes-out-laid"
            return say(key, language, card=card, **count)
        if total == 1:
            return say("note.only-card", language)
        return say("note.all-cards", language, total=total)
    else:
        parts = [say("note.played", language, **count)]
    flat = position.rules.unopened_flat_penalty
    if not opened_after and flat is not None:
        parts.append(say("note.flat", language, penalty=penalty_after))
    elif played:
        parts.append(say_count("note.left", penalty_after, language))
    if discard is not None:
        parts.append(say("note.discard", language, card=card))
    return ", ".join(parts)


def why_nothing(position: Position) -> str:
    "''Why a turn plays no card (in English: the book translates it).''"
    if not position.hand:
        return EMPTY_HAND.say()
    if not position.opened:
        return _why_not_opening(position)
    return NOTHING_PLAYABLE.say()


def _why_not_opening(position: Position) -> str:
    """The requirement the hand misses (docs/rules.md presets table, "opening requirement";
    decisions 2 and 3), checked on the hand: the opening melds come from it (decision 4)."""
    from rami.melds import holds_pure_run, reaches_opening

    rules, hand = position.rules, position.hand
    if rules.opening_pure_run and not holds_pure_run(hand, rules):
        return NO_PURE_RUN.say()
    if rules.opening_points and not reaches_opening(
        hand, rules, rules.opening_points, pure_run=rules.opening_pure_run
    ):
        short = NO_OPENING_POINTS_PURE if rules.opening_pure_run else NO_OPENING_POINTS
        return short.say(points=rules.opening_points)
    if not reaches_opening(hand, rules, 1):
        return NOTHING_PLAYABLE.say()  # not a single meld (Café Rummy: any one meld opens)
    # The hand holds an opening this turn does not lay: a pass offered among the best turns,
    # or one that costs less than opening.
    return NOT_OPENING.say()


__all__ = [
    "BOOK",
    "PHRASES",
    "Phrase",
    "Said",
    "grade_word",
    "leading_phrase",
    "phrase_of",
    "plural",
    "say_in",
    "translate",
    "turn_note",
    "why_nothing",
    "word",
]
