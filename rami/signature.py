"""The signature of a final table: what makes two solutions of a puzzle the same solution.

Two final tables are the *same solution* when they differ only by

* swapping identical copies (the two 7 of hearts),
* the order of the melds,
* how one suit's consecutive cards are cut into runs (``3H..8H + 9H..JH`` is ``3H..JH``;
  ``3H..7H + 4H..8H`` is ``3H..8H + 4H..7H``),
* where the jokers stand (see below).

The signature records, for the real cards only:

* ``runs``: per suit (S H D C) and run position 1..14 (14 is the ace above the king), how many
  real cards of that suit lie in runs at that position (0, 1 or 2). A run's cut points vanish
  from this count, which is exactly the "cuts" equivalence;
* ``sets``: the multiset of sets, each written as its rank and the suits of its real cards.

Jokers do not enter the signature: a joker is a wildcard, and which place it fills (the top or
the bottom of a run, a run or a set) is a dual, not a second solution. What the jokers make
possible still shows: a run ``5H * 7H`` puts 5H and 7H in runs while 6H is elsewhere, which is a
different signature from ``5H 6H 7H``. Cards left in hand need no entry: the real cards on the
final table are the table's plus the cards played, so the signature fixes which cards were
played.

This module has no solver dependency; :mod:`rami.puzzles.model` expresses the same signature
as CP-SAT expressions to count solutions.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rami.cards import RANK_LETTERS
from rami.melds import Meld, MeldKind, stands_for
from rami.rules import Ruleset

POSITIONS = 14
SUIT_LETTERS = "SHDC"

#: One set of the signature: rank 1..13 and the sorted suits (0..3) of its real cards.
SetKey = tuple[int, tuple[int, ...]]


def _position_letter(position: int) -> str:
    return RANK_LETTERS[(position - 1) % 13]


@dataclass(frozen=True, order=True)
class Signature:
    """Real cards in runs per (suit, position), and the sets by rank and real suits."""

    runs: tuple[tuple[int, ...], ...]
    sets: tuple[tuple[SetKey, int], ...]

    @classmethod
    def build(cls, runs: dict[tuple[int, int], int], sets: Counter[SetKey]) -> Signature:
        """From sparse counts: ``runs[(suit, position)]`` and a counter of set keys."""
        grid = tuple(
            tuple(runs.get((suit, position), 0) for position in range(1, POSITIONS + 1))
            for suit in range(4)
        )
        return cls(grid, tuple(sorted((key, n) for key, n in sets.items() if n)))

    def run_count(self, suit: int, position: int) -> int:
        return self.runs[suit][position - 1]

    def set_counts(self) -> Counter[SetKey]:
        return Counter(dict(self.sets))

    def __str__(self) -> str:
        return self.text()

    def text(self) -> str:
        """Canonical text: ``runs H:3-J+5-7 S:Q-A; sets 7:SHD 9:HDCx2`` (``-`` when empty).

        Each suit's run coverage is written as layers of maximal intervals (a second layer where
        both copies lie in runs), so any cutting of the same cards prints the same.
        """
        run_parts = []
        for suit in range(4):
            layers = []
            for level in (1, 2):
                covered = [count >= level for count in self.runs[suit]]
                position = 0
                while position < POSITIONS:
                    if not covered[position]:
                        position += 1
                        continue
                    start = position
                    while position < POSITIONS and covered[position]:
                        position += 1
                    low, high = start + 1, position
                    layers.append(f"{_position_letter(low)}-{_position_letter(high)}")
            if layers:
                run_parts.append(f"{SUIT_LETTERS[suit]}:{'+'.join(layers)}")
        set_parts = []
        for (rank, suits), count in self.sets:
            text = f"{RANK_LETTERS[rank - 1]}:{''.join(SUIT_LETTERS[s] for s in suits)}"
            set_parts.append(text + (f"x{count}" if count > 1 else ""))
        return f"runs {' '.join(run_parts) or '-'}; sets {' '.join(set_parts) or '-'}"

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": {
                SUIT_LETTERS[suit]: list(self.runs[suit])
                for suit in range(4)
                if any(self.runs[suit])
            },
            "sets": [
                {
                    "rank": RANK_LETTERS[rank - 1],
                    "suits": "".join(SUIT_LETTERS[s] for s in suits),
                    "count": count,
                }
                for (rank, suits), count in self.sets
            ],
        }


def meld_contribution(meld: Meld, rules: Ruleset) -> tuple[list[tuple[int, int]], SetKey | None]:
    """The run places ``(suit, position)`` of a meld's real cards, or its set key."""
    if meld.kind is MeldKind.SET:
        real = meld.real_cards
        return [], (real[0].rank, tuple(sorted(int(card.index // 13) for card in real)))
    places = []
    for card, position in zip(meld.cards, stands_for(meld, rules), strict=True):
        if not card.is_joker:
            places.append((card.index // 13, position))
    return places, None


def signature(table: Iterable[Meld], rules: Ruleset) -> Signature:
    """The signature of a final table (every meld must be valid under ``rules``)."""
    runs: Counter[tuple[int, int]] = Counter()
    sets: Counter[SetKey] = Counter()
    for meld in table:
        places, key = meld_contribution(meld, rules)
        runs.update(places)
        if key is not None:
            sets[key] += 1
    return Signature.build(dict(runs), sets)


def same_solution(first: Iterable[Meld], second: Iterable[Meld], rules: Ruleset) -> bool:
    """Are two final tables the same solution (equal signatures)?"""
    return signature(first, rules) == signature(second, rules)


def answer_signature(table: Iterable[Meld], rules: Ruleset) -> Signature:
    """The signature of a turn's answer (``rami solve --top``): :func:`signature`, except that a
    meld of one real card and up to three jokers counts as a set whatever its kind: ``AS * *``
    laid as a run or as a set differs only by where its jokers stand, so it is one answer. (A
    meld of one real card and four jokers can only be a run.)"""
    runs: Counter[tuple[int, int]] = Counter()
    sets: Counter[SetKey] = Counter()
    for meld in table:
        real = meld.real_cards
        if len(real) == 1 and len(meld.cards) <= 4:
            sets[(real[0].rank, (int(real[0].index // 13),))] += 1
            continue
        places, key = meld_contribution(meld, rules)
        runs.update(places)
        if key is not None:
            sets[key] += 1
    return Signature.build(dict(runs), sets)
