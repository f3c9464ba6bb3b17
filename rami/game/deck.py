"""The deck of a preset and the seeded random streams of a game (docs/rules.md decision 12).

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
from collections.abc import Iterable

from rami.cards import ALL_CARDS, JOKER, Card
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
