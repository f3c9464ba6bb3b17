"""The second referee's lay-offs and joker swaps (point 3 of the spec), for the presets without
rearrangement: each meld of the table extended by a distinct meld after the turn, and the
opening from the hand in the same turn (decision 4)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rami.melds import Meld, MeldKind
from rami.position import Position
from rami.rules import Ruleset, TableJoker
from support.second_referee.melds import card_at, real_cards, run_places, run_suit
from support.second_referee.opening import opening_faults


def _extension_swaps(before: Meld, after: Meld, rules: Ruleset, swaps_allowed: bool) -> int | None:
    """Jokers swapped out when ``after`` extends ``before`` (None when it does not extend it)."""
    if before.kind is not after.kind:
        return None
    if before.kind is MeldKind.SET:
        old = Counter(real_cards(before.cards))
        new = Counter(real_cards(after.cards))
        if old - new:
            return None
        swaps = max(0, before.jokers - after.jokers)
        if swaps and not swaps_allowed:
            return None
        gained = sum((new - old).values())  # real cards of suits the set lacked
        return swaps if swaps <= gained else None
    old_start = run_places(before.cards, rules)
    new_start = run_places(after.cards, rules)
    if old_start is None or new_start is None:
        return None
    suit = run_suit(before)
    swaps = 0
    for index, card in enumerate(before.cards):
        spot = old_start + index - new_start
        if not 0 <= spot < len(after.cards):
            return None
        now = after.cards[spot]
        if card.is_joker:
            if now.is_joker:
                continue
            if now != card_at(old_start + index, suit) or not swaps_allowed:
                return None
            swaps += 1
        elif now != card:
            return None
    return swaps


def _extension_matchings(
    before: Sequence[Meld], after: Sequence[Meld], rules: Ruleset, swaps_allowed: bool
) -> set[tuple[frozenset[int], int]]:
    """Every way to pair each meld before with a distinct meld after extending it: the set of
    (melds after used, jokers swapped out)."""
    options = [
        [
            (col, swaps)
            for col, new in enumerate(after)
            if (swaps := _extension_swaps(old, new, rules, swaps_allowed)) is not None
        ]
        for old in before
    ]
    found: set[tuple[frozenset[int], int]] = set()
    seen: set[tuple[int, frozenset[int], int]] = set()

    def walk(row: int, used: frozenset[int], swaps: int) -> None:
        if row == len(before):
            found.add((used, swaps))
            return
        key = (row, used, swaps)
        if key in seen:
            return
        seen.add(key)
        for col, more in options[row]:
            if col not in used:
                walk(row + 1, used | {col}, swaps + more)

    walk(0, frozenset(), 0)
    return found


def _opening_from_hand_faults(new: Sequence[Meld], played_jokers: int, rules: Ruleset) -> list[str]:
    """The new melds meet the opening requirement as they lie (point 4), and they come from the
    hand: they hold no more jokers than the hand played (decision 4: a joker swapped this turn
    goes on an old meld or to the hand, never into a new meld of the opening turn)."""
    faults = opening_faults(new, rules)
    jokers = sum(meld.jokers for meld in new)
    if jokers > played_jokers:
        faults.append(
            f"the new melds hold {jokers} joker(s) but the hand played {played_jokers}: a joker "
            "swapped in the opening turn never joins a new meld (decision 4)"
        )
    return faults


def layoff_faults(
    position: Position, after: Sequence[Meld], jokers_missing: int, played_jokers: int
) -> list[str]:
    """Point 3 of the spec: lay-offs, swaps, new melds and the opening for lay-off presets."""
    rules = position.rules
    swaps_allowed = rules.table_joker in (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
    matchings = _extension_matchings(position.table, after, rules, swaps_allowed)
    if not matchings:
        return [
            "some meld of the table is not extended by a meld after the turn: "
            f"{rules.name} allows only lay-offs" + (" and joker swaps" if swaps_allowed else "")
        ]
    first_faults: list[str] | None = None
    for used, swaps in sorted(matchings, key=lambda item: (sorted(item[0]), item[1])):
        faults: list[str] = []
        if jokers_missing > swaps:
            faults.append(
                f"{jokers_missing} joker(s) left the table but only {swaps} were swapped out"
            )
        if not position.opened:
            new = [meld for index, meld in enumerate(after) if index not in used]
            faults.extend(_opening_from_hand_faults(new, played_jokers, rules))
        if not faults:
            return []
        if first_faults is None:
            first_faults = faults
    assert first_faults is not None
    return first_faults
