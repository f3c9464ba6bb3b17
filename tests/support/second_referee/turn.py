"""The second referee's judgment of a whole turn: :func:`judge` and its :class:`Verdict` (cards
played from the hand, cards neither appearing nor vanishing, the table changed only when the
player may, the discard, the penalty left and the cards moved)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rami.cards import JOKER, Card
from rami.melds import Meld
from rami.position import Position
from rami.rules import GoingOut, TableJoker
from support.second_referee.layoffs import layoff_faults
from support.second_referee.matching import cards_moved
from support.second_referee.melds import cards_text, meld_faults, same_meld_key
from support.second_referee.opening import cards_hold_opening, opening_faults
from support.second_referee.pins import pin_faults


@dataclass(frozen=True)
class Verdict:
    legal: bool
    problems: tuple[str, ...]
    hand_after: tuple[Card, ...]
    penalty_after: int
    cards_moved: int
    opened_after: bool


def _discard_faults(
    position: Position, hand_after: Counter[Card], discard: Card | None
) -> list[str]:
    rules = position.rules
    left = sum(hand_after.values())
    if not rules.discard:
        return [] if discard is None else [f"{rules.name} has no discard"]
    if discard is None:
        if left == 0 and rules.going_out is GoingOut.PLACE_OR_DISCARD:
            return []
        if left == 0:
            return [f"{rules.name}: a turn ends with a discard, so a card must be kept for it"]
        return [f"{rules.name}: the turn must end with a discard"]
    if hand_after[discard] == 0:
        return [f"the discard {discard} is not in the hand after playing"]
    faults = []
    last = left == 1
    locked = getattr(rules, "taken_discard_locked", True)
    if (
        locked
        and position.taken_discard is not None
        and discard == position.taken_discard
        and not last
    ):
        faults.append(f"{discard} was just taken from the discard pile (decision 8)")
    if rules.joker_kept_until_last and discard.is_joker and not last:
        faults.append(f"{rules.name}: a joker is discarded only as the last card")
    return faults


def judge(
    position: Position,
    table_after: Sequence[Meld],
    played: Sequence[Card],
    discard: Card | None = None,
) -> Verdict:
    """Judge one turn: the table after it, the cards played from the hand, the discard."""
    rules = position.rules
    before = tuple(position.table)
    after = tuple(table_after)
    problems: list[str] = []

    hand = Counter(position.hand)
    played_counts = Counter(played)
    for card, count in sorted(played_counts.items()):
        if count > hand[card]:
            problems.append(f"{card} played {count} time(s), the hand holds {hand[card]}")
    hand_after = hand - played_counts

    all_valid = True
    for number, meld in enumerate(after, start=1):
        faults = meld_faults(meld, rules)
        if faults:
            all_valid = False
            problems.extend(f"meld {number} after: {fault}" for fault in faults)

    played_any = bool(played_counts)
    if rules.rearrangement:
        # Decision 1: the table changes once opened, or in the opening turn with the flag.
        may_change = position.opened or (rules.open_and_rearrange_same_turn and played_any)
    else:
        # Decision 4: lay-offs and swaps in the opening turn once the opening melds are down.
        may_change = position.opened or played_any

    before_counts: Counter[Card] = Counter()
    for meld in before:
        before_counts.update(meld.cards)
    after_counts: Counter[Card] = Counter()
    for meld in after:
        after_counts.update(meld.cards)
    supplied = before_counts + played_counts
    appeared = after_counts - supplied
    vanished = supplied - after_counts
    jokers_missing = vanished.pop(JOKER, 0)
    if appeared:
        problems.append(f"card(s) appeared on the table: {cards_text(sorted(appeared.elements()))}")
    if vanished:
        problems.append(
            f"card(s) vanished from the table: {cards_text(sorted(vanished.elements()))}"
        )
    if jokers_missing:
        if rules.table_joker is TableJoker.SWAP_TO_HAND and may_change:
            if jokers_missing > before_counts[JOKER]:
                problems.append("a joker said to be played is not on the table")
            else:
                hand_after[JOKER] += jokers_missing  # checked against the swaps below
        else:
            problems.append(
                f"{jokers_missing} joker(s) left the table: under {rules.name} no joker goes "
                "from the table to a hand"
            )

    opened_after = position.opened
    if not may_change:
        # The table stays as it is; the other melds after are new melds from the hand.
        left = Counter(same_meld_key(meld) for meld in after)
        changed = Counter(same_meld_key(meld) for meld in before) - left
        if changed:
            problems.append(
                "a meld of the table changed before the player may change the table "
                "(decisions 1 and 4)"
            )
        if played_any:
            # Not opened (an opened player may always change the table): every meld left as
            # it was is one of the table's; the others are the new melds, from the hand.
            unmatched = Counter(same_meld_key(meld) for meld in before)
            new = []
            for meld in after:
                key = same_meld_key(meld)
                if unmatched[key] > 0:
                    unmatched[key] -= 1
                else:
                    new.append(meld)
            if all_valid:
                problems.extend(opening_faults(new, rules))
            opened_after = True
    elif rules.rearrangement:
        if not position.opened:
            if not cards_hold_opening(played_counts, rules):
                problems.append("the cards played hold no opening (decision 1 flag)")
            opened_after = True
        if (
            rules.table_joker is TableJoker.REPLACE_AND_RELAY
            and all_valid
            and not appeared
            and not vanished
            and not jokers_missing
        ):
            problems.extend(pin_faults(before, after, rules))
    else:
        if all_valid:
            problems.extend(layoff_faults(position, after, jokers_missing, played_counts[JOKER]))
        if not position.opened:
            opened_after = True

    problems.extend(_discard_faults(position, hand_after, discard))
    if discard is not None and rules.discard and hand_after[discard] > 0:
        hand_after[discard] -= 1

    legal = not problems
    hand_left = tuple(sorted(hand_after.elements()))
    if not opened_after and rules.unopened_flat_penalty is not None:
        penalty = rules.unopened_flat_penalty
    else:
        penalty = sum(rules.card_penalty(card.rank) for card in hand_left)
    return Verdict(
        legal=legal,
        problems=tuple(problems),
        hand_after=hand_left,
        penalty_after=penalty,
        cards_moved=cards_moved(before, after) if legal else 0,
        opened_after=opened_after,
    )
