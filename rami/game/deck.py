"""The deck of a preset, the deal, and the seeded random streams of a game (docs/rules.md
decision 12).

Every random choice of a game comes from its seed through named streams: ``stream(seed, "deal",
2)`` is the shuffle of round 2, ``stream(seed, "reshuffle", 2, 1)`` the first reshuffle of its
discard pile. A stream is a ``random.Random`` seeded with a 64-bit number derived by SHA-256 from
the seed and the stream's name, so it is the same in every process, on every machine, whatever
else the game drew before it.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rami.cards import ALL_CARDS, JOKER, Card
from rami.game.presets import game_rules
from rami.position import COPIES_PER_CARD
from rami.rules import Ruleset


def make_deck(rules: Ruleset) -> tuple[Card, ...]:
    """Two 52-card decks plus the preset's jokers, in card order (the unshuffled deck)."""
    return tuple(card for card in ALL_CARDS for _ in range(COPIES_PER_CARD)) + (
        (JOKER,) * rules.jokers
    )


def deck_counts(rules: Ruleset) -> Counter[Card]:
    return Counter(make_deck(rules))


def derive_seed(seed: int | str, *parts: object) -> int:
    """A 64-bit number from a seed and a stream name; stable across processes and versions."""
    text = ":".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def stream(seed: int | str, *parts: object) -> random.Random:
    """The random stream named ``parts`` of the game seeded ``seed``."""
    return random.Random(derive_seed(seed, *parts))


def shuffled(cards: Iterable[Card], rng: random.Random) -> list[Card]:
    """The cards in a random order (from card order first, so the result depends on the multiset
    and the stream only)."""
    out = sorted(cards)
    rng.shuffle(out)
    return out


#: Returns the new stock, top first, from the cards of the discard pile less its top.
Reshuffler = Callable[[list[Card], int], list[Card]]


@dataclass(frozen=True)
class Deal:
    """A round's deal: each seat's hand (empty for a seat out of the game), the card turned to
    start the discard pile (or None) and the stock, top first."""

    hands: tuple[tuple[Card, ...], ...]
    discard: Card | None
    stock: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "hands": [[str(card) for card in hand] for hand in self.hands],
            "discard": None if self.discard is None else str(self.discard),
            "stock": [str(card) for card in self.stock],
        }


def deal(rules: Ruleset, active: Sequence[bool], rng: random.Random) -> Deal:
    """Shuffle the preset's deck and deal it: hands in seat order, then the turned card."""
    game = game_rules(rules)
    deck = shuffled(make_deck(rules), rng)
    hands: list[tuple[Card, ...]] = []
    at = 0
    for playing in active:
        if playing:
            hands.append(tuple(sorted(deck[at : at + game.deal])))
            at += game.deal
        else:
            hands.append(())
    turned = None
    if game.first_discard:
        turned = deck[at]
        at += 1
    return Deal(tuple(hands), turned, tuple(deck[at:]))


def random_reshuffler(rng: random.Random) -> Reshuffler:
    return lambda cards, _count: shuffled(cards, rng)
