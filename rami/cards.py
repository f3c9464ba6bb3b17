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
SUIT_INPUT = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS,
              "♠": Suit.SPADES, "♥": Suit.HEARTS, "♦": Suit.DIAMONDS, "♣": Suit.CLUBS,
              "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
JOKER_INDEX = 52
NUM_TYPES = 52

JOKER_INPUT = ("*", "🃏")

_RANK_OF: tuple[int, ...] = (*(index % 13 + 1 for index in range(NUM_TYPES)), 0)
_SUIT_OF: tuple[Suit | None, ...] = (*(_SUITS[index // 13] for index in range(NUM_TYPES)), None)
_TEXT_OF: tuple[str, ...] = (
    *(RANK_LETTERS[index % 13] + "SHDC"[index // 13] for index in range(NUM_TYPES)), "*"
)

_CARD_RE = re.compile(r"(10|[A2-9TJQK1])([SHDC♠♥♦♣♤♡♢♧])|\*|🃏", re.IGNORECASE)


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
    def parse(cls, text: str) -> Card:
        """Parse one card: ``7H``, ``TH``, ``10H``, ``Q♠``, ``*`` or ``🃏`` (case-insensitive)."""
        token = text.strip()
        match = _CARD_RE.fullmatch(token)
        if match is None or (match.group(1) == "1"):
            raise NotationError(
                f"unknown card {text!r}: expected a rank (A 2-9 T/10 J Q K) and a suit "
                f"(S H D C or ♠ ♥ ♦ ♣), or * for a joker"
            )
        if token in JOKER_INPUT:
            return JOKER
        rank_text = match.group(1).upper()
        rank = 10 if rank_text == "10" else RANK_LETTERS.index(rank_text) + 1
        return cls.of(rank, SUIT_INPUT[match.group(2).upper()])

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


def split_cards(text: str) -> list[str]:
    """Split a card list written with or without spaces/commas into card tokens."""
    tokens: list[str] = []
    for chunk in re.split(r"[\s,]+", text.strip()):
        if not chunk:
            continue
        position = 0
        while position < len(chunk):
            match = _CARD_RE.match(chunk, position)
            if match is None or match.group(1) == "1":
                raise NotationError(f"unknown card {chunk[position:]!r} in {text!r}")
            tokens.append(match.group(0))
            position = match.end()
    return tokens


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a list of cards such as ``"7H 8H 9H"``, ``"7H8H9H"`` or ``"7♥, 8♥"``."""
    return tuple(Card.parse(token) for token in split_cards(text))


def sort_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Canonical hand order: by suit S H D C, then rank A..K, jokers last."""
    return tuple(sorted(cards))


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(str(card) for card in cards)


def card_counts(cards: Iterable[Card]) -> Counter[Card]:
    return Counter(cards)
