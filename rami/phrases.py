"""The phrase book: every sentence the solver says about a turn, in English and in French, and
the fixed words of its report (:data:`WORDS`) and of the review's grades (:data:`GRADE_WORDS`).

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
    key: str
    english: str
    french: str
    pattern: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
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


LAY = Phrase(
    "lay",
    "lay {cards} from your hand as meld {target}",
    "posez {cards} de votre main comme combinaison {target}",
)
ADD = Phrase(
    "add",
    "add {cards} from your hand to meld {target}",
    "ajoutez {cards} de votre main à la combinaison {target}",
)
SPLIT = Phrase(
    "split",
    "split {run} (meld {source}) after {cut}: {piece} becomes meld {target}",
    "coupez {run} (combinaison {source}) après {cut} : {piece} devient la combinaison {target}",
)
MOVE = Phrase(
    "move",
    "move {cards} from meld {source} to meld {target}",
    "déplacez {cards} de la combinaison {source} vers la combinaison {target}",
)
SLIDE_JOKER = Phrase(
    "slide_joker",
    "in meld {target}, slide the joker to stand for {now} (not {was})",
    "dans la combinaison {target}, faites glisser le joker pour qu'il remplace {now} (et non plus "
    "{was})",
)
SLIDE_JOKERS = Phrase(
    "slide_jokers",
    "in meld {target}, slide the jokers to stand for {now} (not {was})",
    "dans la combinaison {target}, faites glisser les jokers pour qu'ils remplacent {now} (et non "
    "plus {was})",
)
REPLACE_JOKER = Phrase(
    "replace_joker",
    "put {card} from your hand in place of the joker in meld {target}",
    "mettez {card} de votre main à la place du joker dans la combinaison {target}",
)
SWAP_TO_HAND = Phrase(
    "swap_to_hand",
    "put {card} in place of the joker in meld {target}: the joker goes to your hand",
    "mettez {card} à la place du joker dans la combinaison {target} : le joker va dans votre main",
)
SWAP_AND_RELAY = Phrase(
    "swap_and_relay",
    "put {card} in place of the joker in meld {target}: lay the joker again this turn",
    "mettez {card} à la place du joker dans la combinaison {target} : reposez le joker pendant ce "
    "tour",
)
DISCARD = Phrase(
    "discard",
    "discard {card} to end your turn",
    "défaussez {card} pour finir votre tour",
)
DISCARD_GOING_OUT = Phrase(
    "discard_going_out",
    "discard {card}: your hand is empty, you go out",
    "défaussez {card} : votre main est vide, vous sortez",
)
EMPTY_HAND = Phrase(
    "empty_hand",
    "the hand is empty",
    "la main est vide",
)
NO_PURE_RUN = Phrase(
    "no_pure_run",
    "no opening possible: the hand holds no pure run (3+ in a row, no joker)",
    "pas d'ouverture possible : la main n'a pas de suite pure (3 cartes qui se suivent ou plus, "
    "sans joker)",
)
NO_OPENING_POINTS = Phrase(
    "no_opening_points",
    "no opening possible: the hand cannot make {points} points of melds",
    "pas d'ouverture possible : la main ne fait pas {points} points de combinaisons",
)
NO_OPENING_POINTS_PURE = Phrase(
    "no_opening_points_pure",
    "no opening possible: the hand cannot make {points} points of melds with a pure run",
    "pas d'ouverture possible : la main ne fait pas {points} points de combinaisons avec une "
    "suite pure",
)
NOT_OPENING = Phrase(
    "not_opening",
    "the hand could open but does not this turn",
    "la main pourrait ouvrir mais n'ouvre pas ce tour-ci",
)
NOTHING_PLAYABLE = Phrase(
    "nothing_playable",
    "no card of the hand can be played",
    "aucune carte de la main ne peut être jouée",
)
NOTHING_IN_TIME = Phrase(
    "nothing_in_time",
    "no play found within the time limit",
    "aucun coup trouvé dans le temps imparti",
)

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


#: The fixed words of ``rami solve``'s report and the hints: English, French.
WORDS: dict[str, tuple[str, str]] = {
    "status": ("Status", "Statut"),
    "optimal": ("optimal", "optimal"),
    "feasible": ("feasible", "non prouvé"),
    "objective": ("objective", "objectif"),
    "points": ("points", "points"),
    "cards": ("cards", "cartes"),
    "not minimised": ("cards moved not minimised", "cartes déplacées non minimisées"),
    "not proved": (
        "Not proved optimal: the time limit stopped the search.",
        "Optimalité non prouvée : la limite de temps a arrêté la recherche.",
    ),
    "bounds": ("Proved bounds", "Bornes prouvées"),
    "note": ("Note", "Note"),
    "new table": ("New table", "Nouvelle table"),
    "empty": ("(empty)", "(vide)"),
    "played": ("Cards played", "Cartes jouées"),
    "hand left": ("Hand left", "Main restante"),
    "penalty": ("Penalty", "Pénalité"),
    "opens": ("Opens this turn.", "Vous ouvrez ce tour-ci."),
    "moved": ("Cards moved", "Cartes déplacées"),
    "moves": ("Moves", "Coups"),
    "no move": ("(none: nothing can be played)", "(aucun : rien ne peut être joué)"),
    "key move": ("Key move", "Coup clé"),
}

#: The grades as a person reads them: English, French.
GRADE_WORDS: dict[str, tuple[str, str]] = {
    "best": ("best", "meilleur coup"),
    "good": ("good", "bon coup"),
    "inaccuracy": ("inaccuracy", "imprécision"),
    "mistake": ("mistake", "erreur"),
    "blunder": ("blunder", "gaffe"),
}


def word(key: str, language: Language = ENGLISH) -> str:
    """One of the report's fixed words (:data:`WORDS`) in ``language``."""
    english, french = WORDS[key]
    return french if language is FRENCH else english


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
    french = language is FRENCH
    total = len(position.hand)
    cards = plural(total, "card", language, "carte")
    laid = f"{plural(len(played), 'carte', language)} jouée{'s' if len(played) > 1 else ''}"
    discard_text = discard.text(language) if discard is not None else ""
    if not played:
        parts = [translate(reason or why_nothing(position), language)]
    elif not hand_after:
        if discard is not None or position.rules.discard:
            if french:
                how = (
                    f"défausse {discard_text}"
                    if discard is not None
                    else ("la dernière carte posée")
                )
                return f"sortie : {laid} sur {total}, {how}"
            how = f"discard {discard_text}" if discard is not None else "the last card laid"
            return f"goes out: {len(played)} of {cards} played, {how}"
        if french:
            return "la seule carte jouée" if total == 1 else f"les {total} cartes jouées"
        return "the only card played" if total == 1 else f"all {total} cards played"
    else:
        parts = [f"{laid} sur {total}" if french else f"{len(played)} of {cards} played"]
    flat = position.rules.unopened_flat_penalty
    if not opened_after and flat is not None:
        parts.append(
            f"pas ouvert : forfait de {penalty_after}"
            if french
            else f"not opened: flat {penalty_after}"
        )
    elif played:
        parts.append(
            f"{plural(penalty_after, 'point', language)} restant{'s' if penalty_after > 1 else ''}"
            if french
            else f"{penalty_after} points left"
        )
    if discard is not None:
        parts.append(f"défausse {discard_text}" if french else f"discard {discard_text}")
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
    "GRADE_WORDS",
    "PHRASES",
    "WORDS",
    "Phrase",
    "Said",
    "leading_phrase",
    "phrase_of",
    "plural",
    "say_in",
    "translate",
    "turn_note",
    "why_nothing",
    "word",
]
