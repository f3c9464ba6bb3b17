"""The numbers melds go by in the move language (docs/notation.md, "Moves").

The old table's melds 1..n keep their numbers (the new meld matched to each, docs/rules.md
decision 7); new melds are numbered on from n+1.
"""

from __future__ import annotations

from collections.abc import Sequence

from rami.matching import match_melds
from rami.melds import Meld


def meld_numbers(before: Sequence[Meld], after: Sequence[Meld]) -> list[int]:
    """The number each meld after the turn goes by in the move list."""
    matched = match_melds(before, after)
    numbers = [0] * len(after)
    for index, target in enumerate(matched):
        if target >= 0:
            numbers[target] = index + 1
    next_number = len(before) + 1
    for index in range(len(after)):
        if not numbers[index]:
            numbers[index] = next_number
            next_number += 1
    return numbers


def numbered(before: Sequence[Meld], after: Sequence[Meld]) -> list[tuple[int, Meld]]:
    """The melds after the turn with their numbers, in number order."""
    return sorted(zip(meld_numbers(before, after), after, strict=True), key=lambda item: item[0])


__all__ = ["meld_numbers", "numbered"]
