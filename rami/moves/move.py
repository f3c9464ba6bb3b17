"""The :class:`Move` type and its :class:`MoveError` (the package's docstring says more)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rami.cards import Card, localize_cards
from rami.errors import NotationError
from rami.lang import ENGLISH, Language
from rami.phrases import Said, say_in


class MoveError(NotationError):
    """A move that does not parse, or whose cards are not where it says; the message says
    which."""


class MoveKind(StrEnum):
    """What a move does (a string enum: ``move.kind == "lay"`` holds)."""

    LAY = "lay"  # new meld from the hand
    ADD = "add"  # hand cards onto a meld
    MOVE = "move"  # table cards from one meld to another
    SPLIT = "split"  # a run cut in two, the upper part a new meld
    SHIFT = "shift"  # a run's jokers slide to stand for other cards (nothing else changes)
    REPLACE = "replace"  # a hand card takes a joker's place (rami fou)
    SWAP = "swap"  # a hand card takes a joker's place, the joker goes on (BFmania, Café)
    DISCARD = "discard"  # the card that ends the turn

    @property
    def touches_table(self) -> bool:
        """Takes cards out of a meld already on the table."""
        return self in (MoveKind.MOVE, MoveKind.SPLIT, MoveKind.REPLACE, MoveKind.SWAP)


@dataclass(frozen=True)
class Move:
    """One step a person can do at the table; meld numbers are 1-based, new melds numbered on.

    ``text`` is the move in English (the contract's); a move the solver writes carries the key
    of its phrase in the book (:mod:`rami.phrases`) and the phrase's fields, from which every
    language says it (a ``text`` given as a :class:`rami.phrases.Said` gives them). ``after``
    is the card a typed split cuts after (the solver's splits name the cards split off in
    ``cards``)."""

    kind: MoveKind
    cards: tuple[Card, ...]
    source: int | None
    target: int | None
    text: str = ""
    after: Card | None = None
    phrase: str = field(default="", compare=False)
    fields: tuple[tuple[str, object], ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", MoveKind(self.kind))
        if isinstance(self.text, Said):
            object.__setattr__(self, "phrase", self.text.key)
            object.__setattr__(self, "fields", self.text.fields)
            object.__setattr__(self, "text", str(self.text))

    def said(self, language: Language = ENGLISH) -> str:
        """The move as a person reads it, in ``language``: said from its phrase; a move typed
        (no phrase) as it was typed, its cards written in ``language``."""
        if language is ENGLISH:
            return self.text
        if self.phrase:
            return say_in(self.phrase, self.fields, language)
        return localize_cards(self.text, language)

    def to_json(self, language: Language = ENGLISH) -> dict[str, Any]:
        """Cards in the contract's codes whatever the language; ``text`` in ``language``."""
        return {
            "kind": self.kind.value,
            "cards": [str(card) for card in self.cards],
            "from": self.source,
            "to": self.target,
            "text": self.said(language),
        }
