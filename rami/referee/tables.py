"""How the table before a turn maps to the table after it, for the referee: which melds only
received cards (lay-offs, joker swaps) and which stayed as they were (decisions 1, 4 and 7).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rami.matching import max_weight_assignment
from rami.melds import Meld, MeldKind, stands_for
from rami.position import Position
from rami.rules import Ruleset


def is_extension(before: Meld, after: Meld, allow_swap: bool, rules: Ruleset) -> tuple[bool, int]:
    """Is ``after`` ``before`` with cards added (and jokers swapped out when allowed)?

    Returns (ok, jokers swapped out).
    """
    if before.kind is not after.kind:
        return False, 0
    if before.kind is MeldKind.SET:
        before_real = Counter(before.real_cards)
        after_real = Counter(after.real_cards)
        if before_real - after_real:
            return False, 0
        swapped = max(0, before.jokers - after.jokers)
        if swapped and not allow_swap:
            return False, 0
        new_real = sum((after_real - before_real).values())
        return swapped <= new_real, swapped
    try:
        before_ranks = stands_for(before, rules)
        after_ranks = stands_for(after, rules)
    except ValueError:
        return False, 0
    placed = dict(zip(after_ranks, after.cards, strict=True))
    swapped = 0
    for rank, card in zip(before_ranks, before.cards, strict=True):
        now = placed.get(rank)
        if now is None:
            return False, 0
        if card.is_joker and not now.is_joker:
            if not allow_swap:
                return False, 0
            swapped += 1
        elif now != card:
            return False, 0
    return True, swapped


def match_extensions(
    before: Sequence[Meld], after: Sequence[Meld], allow_swap: bool, rules: Ruleset
) -> list[int]:
    """Each meld before paired with a distinct meld after that extends it (or -1).

    Not the largest-overlap matching: two melds after can share as many cards with a meld
    before (``JH JD *`` -> ``JH JD JS`` or ``JS JD *``), and only one of them extends it.
    """
    weights = [
        [1 if is_extension(old, new, allow_swap, rules)[0] else 0 for new in after]
        for old in before
    ]
    if not before or not after:
        return [-1] * len(before)
    assignment = max_weight_assignment(weights)
    return [col if col >= 0 and weights[row][col] else -1 for row, col in enumerate(assignment)]


#: Most pairings tried when an opening turn's lay-offs could be read several ways.
MOST_EXTENSION_MATCHINGS = 5_000


def all_extension_matchings(
    before: Sequence[Meld], after: Sequence[Meld], allow_swap: bool, rules: Ruleset
) -> list[list[int]]:
    """Every pairing of each meld before with a distinct meld after that extends it, the
    pairings keeping melds as they were first (at most MOST_EXTENSION_MATCHINGS)."""
    options = [_extensions_of(old, after, allow_swap, rules) for old in before]
    found: list[list[int]] = []

    def walk(row: int, chosen: list[int]) -> None:
        if len(found) >= MOST_EXTENSION_MATCHINGS:
            return
        if row == len(options):
            found.append(list(chosen))
            return
        for col in options[row]:
            if col not in chosen:
                chosen.append(col)
                walk(row + 1, chosen)
                chosen.pop()

    walk(0, [])
    return found


def _extensions_of(old: Meld, after: Sequence[Meld], allow_swap: bool, rules: Ruleset) -> list[int]:
    """The melds after that extend ``old``, the one keeping it as it was first."""
    unchanged = _unchanged_key(old)
    return sorted(
        (col for col, new in enumerate(after) if is_extension(old, new, allow_swap, rules)[0]),
        key=lambda col: _unchanged_key(after[col]) != unchanged,
    )


def unused_melds(after: Sequence[Meld], matched: Sequence[int]) -> list[Meld]:
    taken = set(matched)
    return [meld for index, meld in enumerate(after) if index not in taken]


def changed_before_opening(position: Position, table_after: Sequence[Meld], rule: str) -> list[str]:
    """The melds before the turn not found unchanged after it (decisions 1 and 4)."""
    remaining = [_unchanged_key(meld) for meld in table_after]
    problems = []
    for number, meld in enumerate(position.table, start=1):
        key = _unchanged_key(meld)
        if key in remaining:
            remaining.remove(key)
        else:
            problems.append(
                f"meld {number} ({meld}) changed before the player opened: before opening a "
                f"player {rule} (decisions 1 and 4)"
            )
    return problems


def unmatched_unchanged(before: Sequence[Meld], after: Sequence[Meld]) -> list[Meld]:
    """The melds after the turn left once each meld before has taken its unchanged twin."""
    remaining = list(after)
    keys = [_unchanged_key(meld) for meld in remaining]
    for meld in before:
        key = _unchanged_key(meld)
        if key in keys:
            index = keys.index(key)
            del remaining[index], keys[index]
    return remaining


def _unchanged_key(meld: Meld) -> tuple[object, ...]:
    """What must stay equal for a meld to be untouched: a set's card order does not count."""
    cards = tuple(sorted(meld.cards)) if meld.kind is MeldKind.SET else meld.cards
    return (meld.kind, cards)
