"""Cards: small value types, parsing and canonical formatting.

A card *type* is one of 52 (rank, suit) pairs or the joker. Two decks hold two identical copies
of each type; copies are never told apart (docs/rules.md, "identical copies are interchangeable").
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from collections.abc import Iterable
from enum import IntEnum
from typing import TYPE_CHECKING

from rami.errors import NotationError
from rami.lang import ENGLISH, FRENCH, Language


class Suit(IntEnum):
    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]


RANK_LETTERS = "A23456789TJQK"
#: Looked up rather than built: calling an IntEnum costs microseconds in hot loops.
_SUITS = tuple(Suit)
SUIT_INPUT = {
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
JOKER_INDEX = 52
NUM_TYPES = 52

_RANK_OF: tuple[int, ...] = (*(index % 13 + 1 for index in range(NUM_TYPES)), 0)
_SUIT_OF: tuple[Suit | None, ...] = (*(_SUITS[index // 13] for index in range(NUM_TYPES)), None)
_TEXT_OF: tuple[str, ...] = (
    *(RANK_LETTERS[index % 13] + "SHDC"[index // 13] for index in range(NUM_TYPES)),
    "*",
)

_CARD_RE = re.compile(r"(10|[A2-9TJQK1])([SHDC♠♥♦♣♤♡♢♧])|\*|🃏", re.IGNORECASE)

#: French notation: as, 2-10, valet, dame, roi; pique, cœur, carreau, trèfle (or the symbols).
#: ``7C`` is a seven of hearts here, which is why a language is always chosen, never guessed.
FRENCH_RANK_LETTERS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "V", "D", "R")
FRENCH_SUIT_LETTERS = "PCKT"
FRENCH_SUIT_INPUT = {
    "P": Suit.SPADES,
    "C": Suit.HEARTS,
    "K": Suit.DIAMONDS,
    "T": Suit.CLUBS,
    **{key: suit for key, suit in SUIT_INPUT.items() if not key.isascii()},
}
_FRENCH_CARD_RE = re.compile(r"(10|[A2-9VDR])([PCKT♠♥♦♣♤♡♢♧])|\*|🃏", re.IGNORECASE)
_FRENCH_TEXT_OF: tuple[str, ...] = (
    *(FRENCH_RANK_LETTERS[index % 13] + "♠♥♦♣"[index // 13] for index in range(NUM_TYPES)),
    "*",
)
_FRENCH_LETTERS_OF: tuple[str, ...] = (
    *(
        FRENCH_RANK_LETTERS[index % 13] + FRENCH_SUIT_LETTERS[index // 13]
        for index in range(NUM_TYPES)
    ),
    "*",
)
_PATTERNS = {ENGLISH: _CARD_RE, FRENCH: _FRENCH_CARD_RE}
_EXPECTED = {
    ENGLISH: "a rank (A 2-9 T/10 J Q K) and a suit (S H D C or ♠ ♥ ♦ ♣), or * for a joker",
    FRENCH: "a rank (A 2-10 V D R) and a suit (P C K T or ♠ ♥ ♦ ♣), or * for a joker",
}


def _read(match: re.Match[str], language: Language) -> Card:
    """The card a full match of the language's pattern names."""
    if match.group(1) is None:
        return JOKER
    rank_text = match.group(1).upper()
    suit_text = match.group(2).upper()
    if language is FRENCH:
        return Card.of(FRENCH_RANK_LETTERS.index(rank_text) + 1, FRENCH_SUIT_INPUT[suit_text])
    rank = 10 if rank_text == "10" else RANK_LETTERS.index(rank_text) + 1
    return Card.of(rank, SUIT_INPUT[suit_text])


def _in_other_language(token: str, language: Language) -> str:
    """Why a token unknown in ``language`` is likely written in the other one ('' if not)."""
    other = FRENCH if language is ENGLISH else ENGLISH
    match = _PATTERNS[other].fullmatch(token)
    if match is None or match.group(1) == "1":
        return ""
    card = _read(match, other)
    if language is ENGLISH:
        return (
            f"; it reads as French notation ({card.text(FRENCH)}, "
            f"{card.text(ENGLISH)} in English): {_SWITCH_TO.format(FRENCH)}"
        )
    return (
        f"; it reads as English notation ({card.text(ENGLISH)}, "
        f"{card.text(FRENCH)} in French): {_SWITCH_TO.format(ENGLISH)}"
    )


#: How to choose the other language, from the command line, its environment or a request.
_SWITCH_TO = 'set the language to {0} (--lang {0}, RAMI_LANG={0}, or "lang": "{0}" in a request)'


def unknown_card(token: str, language: Language, context: str = "") -> NotationError:
    """The error for a token that is no card in ``language``, naming a likely mix-up."""
    said = f" in {context!r}" if context else f": expected {_EXPECTED[language]}"
    return NotationError(f"unknown card {token!r}{said}{_in_other_language(token, language)}")


class Card(int):
    """One card type: ``suit * 13 + rank - 1`` (0..51), or 52 for the joker.

    An ``int`` (python-chess style): hashing and comparing cards happen in the solver's hot
    loops, and an int does both in C. There is one instance per type (``Card(7) is Card(7)``),
    so building cards allocates nothing.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if index.__class__ is int and 0 <= index <= JOKER_INDEX:
            return _BY_INDEX[index]
        try:
            number = operator.index(index)  # a Card, a numpy integer...
        except TypeError:
            number = None
        if number is None or not 0 <= number <= JOKER_INDEX:
            raise NotationError(f"card index {index!r} out of range 0..52")
        return _BY_INDEX[number]

    #: The type number, as a plain int.
    index = property(int.__int__)

    @classmethod
    def of(cls, rank: int, suit: Suit | int) -> Card:
        if not 1 <= rank <= 13:
            raise NotationError(f"rank {rank!r} out of range 1..13")
        return cls(int(suit) * 13 + rank - 1)

    @classmethod
    def parse(cls, text: str, language: Language = ENGLISH) -> Card:
        """Parse one card: ``7H``, ``TH``, ``10H``, ``Q♠``, ``*`` or ``🃏`` (case-insensitive);
        in French ``7C`` (sept de cœur), ``10T``, ``R♠``."""
        token = text.strip()
        match = _PATTERNS[language].fullmatch(token)
        if match is None or (match.group(1) == "1"):
            raise unknown_card(text, language)
        return _read(match, language)

    if TYPE_CHECKING:
        # What the C getters below return, which the type checker cannot read from them.

        @property
        def is_joker(self) -> bool: ...

        @property
        def rank(self) -> int: ...

        @property
        def suit(self) -> Suit | None: ...

    else:
        # Looked up in tables by C getters: these are read in the solver's hot loops.
        is_joker = property(JOKER_INDEX.__eq__)
        #: 1 (ace) .. 13 (king); 0 for the joker.
        rank = property(_RANK_OF.__getitem__)
        #: None for the joker.
        suit = property(_SUIT_OF.__getitem__)

    def __str__(self) -> str:
        return _TEXT_OF[self]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def text(self, language: Language = ENGLISH, *, suit_letters: bool = False) -> str:
        """The card in a language's notation: ``KH``; in French ``R♥`` (``RC`` with
        ``suit_letters``). Each form parses back to this card in its language."""
        if language is FRENCH:
            return (_FRENCH_LETTERS_OF if suit_letters else _FRENCH_TEXT_OF)[self]
        return _TEXT_OF[self]

    def pretty(self) -> str:
        """Human form with a suit symbol, e.g. ``10♥``."""
        if self.is_joker:
            return "🃏"
        rank = "10" if self.rank == 10 else RANK_LETTERS[self.rank - 1]
        suit = self.suit
        assert suit is not None  # not the joker
        return rank + suit.symbol


_BY_INDEX: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(JOKER_INDEX + 1))
JOKER = Card(JOKER_INDEX)
ALL_CARDS: tuple[Card, ...] = _BY_INDEX[:NUM_TYPES]


def split_cards(text: str, language: Language = ENGLISH) -> list[str]:
    """Split a card list written with or without spaces/commas into card tokens."""
    pattern = _PATTERNS[language]
    tokens: list[str] = []
    for chunk in re.split(r"[\s,]+", text.strip()):
        if not chunk:
            continue
        position = 0
        while position < len(chunk):
            match = pattern.match(chunk, position)
            if match is None or match.group(1) == "1":
                raise unknown_card(_token_at(chunk, position), language, text)
            tokens.append(match.group(0))
            position = match.end()
    return tokens


def _token_at(chunk: str, position: int) -> str:
    """The card-sized token starting at ``position`` (the whole rest if none fits)."""
    rest = chunk[position:]
    for pattern in (_CARD_RE, _FRENCH_CARD_RE):
        match = pattern.match(rest)
        if match is not None and match.group(1) != "1":
            return match.group(0)
    return rest


def parse_cards(text: str, language: Language = ENGLISH) -> tuple[Card, ...]:
    """Parse a list of cards such as ``"7H 8H 9H"``, ``"7H8H9H"`` or ``"7♥, 8♥"`` (in French
    ``"7C 8C 9C"``, ``"V♠ D♠ R♠"``)."""
    pattern = _PATTERNS[language]
    return tuple(
        _read(m, language)
        for token in split_cards(text, language)
        if (m := pattern.fullmatch(token)) is not None
    )


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Canonical hand order: by suit S H D C, then rank A..K, jokers last."""
    return tuple(sorted(cards))


def format_cards(cards: Iterable[Card], language: Language = ENGLISH) -> str:
    if language is ENGLISH:
        return " ".join(str(card) for card in cards)
    return " ".join(card.text(language) for card in cards)


#: A card as the English notation writes it in a sentence (canonical: ``TH``, never ``10H``).
_CANONICAL_CARD = re.compile(r"(?<![\w*])([A2-9TJQK][SHDC])(?![\w])")


def localize_cards(text: str, language: Language) -> str:
    """A sentence written with canonical English cards, its cards in ``language``.

    For the referee's and the solver's sentences (``"run 7H 8H 9C mixes suits"``); quoted input
    is never passed through here.
    """
    if language is ENGLISH:
        return text
    return _CANONICAL_CARD.sub(lambda m: Card.parse(m.group(1)).text(language), text)


def card_counts(cards: Iterable[Card]) -> Counter[Card]:
    return Counter(cards)
