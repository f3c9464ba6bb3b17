"""The turn validator: the referee an app needs.

Given the position before a turn, the table after it, the cards played from the hand (and the
discard, where the preset discards), say whether the turn is legal and every reason it is not.
It shares no checking code with the solver, which calls it on every answer it returns.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rami.cards import JOKER, Card, format_cards
from rami.matching import cards_moved, match_melds
from rami.melds import Meld, MeldKind, is_pure_run, meld_problems, opening_points, stands_for
from rami.position import Position, hand_penalty
from rami.rules import GoingOut, TableJoker


@dataclass(frozen=True)
class TurnVerdict:
    legal: bool
    problems: tuple[str, ...]
    hand_after: tuple[Card, ...] = ()
    penalty_after: int = 0
    cards_moved: int = 0
    opened_after: bool = False


def _multiset_text(counts: Counter[Card]) -> str:
    return format_cards(sorted(counts.elements()))


def _is_extension(before: Meld, after: Meld, allow_swap: bool, rules) -> tuple[bool, int]:
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


def _pinned_joker_problems(position: Position, after: Sequence[Meld]) -> list[str]:
    """Rami-fou: a table joker leaves its meld only when the card it stands for replaces it."""
    problems = []
    matched = match_melds(position.table, after)
    for number, (meld, target) in enumerate(zip(position.table, matched, strict=True), start=1):
        if not meld.jokers:
            continue
        if meld.kind is MeldKind.RUN:
            ranks = stands_for(meld, position.rules)
            suit = meld.real_cards[0].suit
            stood_for = [
                Card.of((rank - 1) % 13 + 1, suit)
                for rank, card in zip(ranks, meld.cards, strict=True)
                if card.is_joker
            ]
        else:
            stood_for = []
        after_meld = after[target] if target >= 0 else Meld((), MeldKind.RUN)
        if meld.kind is MeldKind.RUN:
            replaced = sum(1 for card in stood_for if card in after_meld.real_cards)
        else:
            rank = meld.real_cards[0].rank
            suits_before = {card.suit for card in meld.real_cards}
            replaced = sum(
                1 for card in after_meld.real_cards
                if card.rank == rank and card.suit not in suits_before
            )
        if after_meld.jokers + replaced < meld.jokers:
            problems.append(
                f"meld {number}: a joker left its meld without the card it stands for "
                f"taking its place ({position.rules.name})"
            )
    return problems


def validate_turn(
    position: Position,
    table_after: Sequence[Meld],
    played: Sequence[Card],
    discard: Card | None = None,
) -> TurnVerdict:
    """Judge one turn. ``played`` are the cards that left the hand for the table."""
    rules = position.rules
    problems: list[str] = []
    hand = Counter(position.hand)
    played_counts = Counter(played)
    missing = played_counts - hand
    for card in sorted(missing):
        problems.append(
            f"{card} is played {played_counts[card]} time(s) but the hand holds {hand[card]}"
        )
    hand_after = hand - played_counts

    for number, meld in enumerate(table_after, start=1):
        problems.extend(
            f"meld {number} after the turn: {reason}" for reason in meld_problems(meld, rules)
        )

    before_counts = position.table_cards
    after_counts: Counter[Card] = Counter()
    for meld in table_after:
        after_counts.update(meld.cards)
    supplied = before_counts + played_counts
    appeared = after_counts - supplied
    vanished = supplied - after_counts
    jokers_to_hand = 0
    if appeared:
        problems.append(f"card(s) appeared on the table from nowhere: {_multiset_text(appeared)}")
    vanished_jokers = vanished.pop(JOKER, 0)
    if vanished:
        problems.append(f"card(s) vanished from the table: {_multiset_text(vanished)}")
    if vanished_jokers:
        table_jokers_gone = min(vanished_jokers, before_counts[JOKER])
        played_jokers_gone = vanished_jokers - table_jokers_gone
        if played_jokers_gone:
            problems.append(f"{played_jokers_gone} joker(s) said to be played are not on the table")
        if table_jokers_gone:
            if rules.table_joker is TableJoker.SWAP_TO_HAND and position.opened:
                jokers_to_hand = table_jokers_gone
                hand_after[JOKER] += jokers_to_hand
            else:
                problems.append(
                    f"{table_jokers_gone} table joker(s) went back to a hand: under "
                    f"{rules.name} a joker on the table {rules.table_joker.value}"
                )

    new_melds: list[Meld] = []
    if not position.opened and not rules.open_and_rearrange_same_turn:
        remaining = list(table_after)
        for number, meld in enumerate(position.table, start=1):
            if meld in remaining:
                remaining.remove(meld)
            else:
                problems.append(
                    f"meld {number} ({meld}) changed before the player opened: before opening "
                    "a player may only lay new melds from the hand (decisions 1 and 4)"
                )
        new_melds = remaining
    elif not rules.rearrangement:
        matched = match_melds(position.table, table_after)
        used = set()
        allow_swap = rules.table_joker in (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
        for number, (meld, target) in enumerate(zip(position.table, matched, strict=True), 1):
            ok = target >= 0
            if ok:
                ok, _ = _is_extension(meld, table_after[target], allow_swap, rules)
            if not ok:
                problems.append(
                    f"meld {number} ({meld}) was rearranged: {rules.name} allows only lay-offs"
                    + (" and joker swaps" if allow_swap else "")
                )
            else:
                used.add(target)
        new_melds = [meld for index, meld in enumerate(table_after) if index not in used]
    else:
        if rules.table_joker is TableJoker.REPLACE_AND_RELAY:
            problems.extend(_pinned_joker_problems(position, table_after))

    opened_after = position.opened
    if not position.opened and played_counts:
        problems.extend(_opening_problems(new_melds, rules))
        opened_after = True

    if rules.discard:
        problems.extend(_discard_problems(position, hand_after, discard, played_counts))
        if discard is not None and hand_after[discard] > 0:
            hand_after[discard] -= 1
    elif discard is not None:
        problems.append(f"{rules.name} has no discard: a turn never ends by discarding")

    moved = cards_moved(position.table, table_after) if not problems else 0
    hand_left = tuple(sorted(hand_after.elements()))
    return TurnVerdict(
        legal=not problems,
        problems=tuple(problems),
        hand_after=hand_left,
        penalty_after=hand_penalty(hand_left, rules, opened_after),
        cards_moved=moved,
        opened_after=opened_after,
    )


def _opening_problems(new_melds: Sequence[Meld], rules) -> list[str]:
    problems = []
    valid = [meld for meld in new_melds if not meld_problems(meld, rules)]
    if rules.opening_any_meld and not valid:
        problems.append("opening needs at least one valid meld")
    if rules.opening_pure_run and not any(is_pure_run(meld) for meld in valid):
        problems.append(
            "opening needs a pure run (3+ cards in a row of one suit, no joker: a tierce franche)"
        )
    if rules.opening_points:
        points = sum(opening_points(meld, rules) for meld in valid)
        if points < rules.opening_points:
            problems.append(
                f"opening counts {points} points: {rules.name} needs at least "
                f"{rules.opening_points}"
            )
    return problems


def _discard_problems(
    position: Position, hand_after: Counter[Card], discard: Card | None, played: Counter[Card]
) -> list[str]:
    rules = position.rules
    cards_left = sum(hand_after.values())
    if discard is None:
        if cards_left == 0 and rules.going_out is GoingOut.PLACE_OR_DISCARD:
            return []
        return [f"{rules.name} ends every turn with a discard; none was given"]
    if hand_after[discard] == 0:
        return [f"the discard {discard} is not left in the hand"]
    problems = []
    last_card = cards_left == 1
    if position.taken_discard == discard and not last_card and hand_after[discard] == 1 \
            and Counter(position.hand)[discard] == 1:
        problems.append(
            f"{discard} was just taken from the discard pile and may not be discarded (decision 8)"
        )
    if rules.joker_kept_until_last and discard.is_joker and not last_card:
        problems.append(f"{rules.name} never discards a joker except as the last card")
    return problems
