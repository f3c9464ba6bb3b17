"""Rami fou's fast path: go out with no table card moved, found without a model.

A preset that rearranges and discards (rami fou) ends every turn with a discard, so a turn can
play at most all the hand but one card. A turn that lays every card but one without moving a
table card, then discards the last one, is optimal at every level at once (docs/rules.md
decision 6: no penalty left, the most cards a turn can play; decision 7: nothing moved),
whichever card goes. It is looked for with the in-place search of rami chinois
(:func:`rami.solver.in_place.lay_whole_hand`), run under free jokers on the hand less the
card to discard; the referee then judges the turn under the real rules (decision 5's pinned
jokers, decision 8's discard), and a turn it rejects is not used.

Without it, such a position went through every pinned model: rami-fou-100[20] (it goes out by
laying five cards in place) took 3.7 s of CPU, and takes 17 ms with it (docs/benchmarks.md,
"Tried": rami-fou-100's median 91 -> 4 ms, 22 of its 24 positions answered here).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from rami.cards import Card
from rami.melds import Meld
from rami.position import Position
from rami.referee import validate_turn
from rami.rules import TableJoker
from rami.solver.in_place import lay_whole_hand, places

#: Discards tried where every card has a place, fewest places first. Over the 72 rami fou
#: suite positions: 28 answered with 2 tries, as with 3 or 4 (31 trying every card), a failed
#: search costing 8 ms at the p90 (13 with 3 tries, 43 with every card); holding back the
#: costliest cards first instead answered 25 with 3 tries.
TRIES = 2


@dataclass(frozen=True)
class OutInPlace:
    table: list[Meld]
    played: tuple[Card, ...]
    discard: Card


def takes(position: Position) -> bool:
    """An opened player of a preset that rearranges the table and ends each turn discarding."""
    rules = position.rules
    return position.opened and rules.discard and rules.rearrangement and len(position.hand) > 1


def go_out_in_place(position: Position) -> OutInPlace | None:
    """A legal turn laying all the hand but one card, nothing moved, and discarding that card
    (None: the search found none; there may still be one)."""
    if not takes(position):
        return None
    free = _free_jokers(position)
    return _keeping_back(position, free, Counter(position.hand), _discards(free), max_unplaced=1)


def lay_in_place(position: Position, played: Counter[Card], discard: Card) -> OutInPlace | None:
    """A turn laying ``played`` with no table card moved, then discarding ``discard``, that the
    referee accepts under the real rules; failing that, one keeping back another real card of
    ``played`` in the discard's place (None: the search found none). The swap keeps the turn's
    value: the same number of cards go down and the same cards leave the hand."""
    if not takes(position):
        return None
    others = sorted(card for card in played if not card.is_joker and card != discard)
    return _keeping_back(
        position, _free_jokers(position), played + Counter([discard]), [discard, *others]
    )


def _keeping_back(
    position: Position,
    free: Position,
    leaving: Counter[Card],
    candidates: list[Card],
    max_unplaced: int | None = None,
) -> OutInPlace | None:
    """The first of ``candidates`` kept back as the discard while the rest of ``leaving`` goes
    down in place (the search under ``free``'s rules), the turn judged by the referee."""
    for kept_back in candidates:
        laying = leaving.copy()
        laying[kept_back] -= 1
        laid = lay_whole_hand(
            replace(free, hand=tuple(laying.elements())), max_unplaced=max_unplaced
        )
        if laid.table is None:
            continue
        cards = tuple(sorted(laying.elements()))
        if validate_turn(position, laid.table, cards, kept_back).legal:
            return OutInPlace(laid.table, cards, kept_back)
    return None


def _free_jokers(position: Position) -> Position:
    """The position under the in-place search's rules: jokers free, no discard (the referee
    judges the real ones)."""
    rules = replace(
        position.rules,
        discard=False,
        table_joker=TableJoker.FREE,
        joker_kept_until_last=False,
        taken_discard_locked=False,
    )
    return replace(position, rules=rules, taken_discard=None)


def _discards(free: Position) -> list[Card]:
    """The cards worth holding back: the one card with no place yet, if one alone has none;
    else the real cards with the fewest places first (a card that fits nowhere with the
    others is the likeliest blocker), the costlier first among equals, then by card so that the
    answer is deterministic. A joker is never held back: it fits more melds than any card."""
    rules = free.rules
    found = places(free)
    homeless = [card for card, count in found.items() if not count]
    if homeless:
        return homeless if len(homeless) == 1 else []
    return sorted(
        found, key=lambda card: (found[card], -rules.card_penalty(card.rank), card.index)
    )[:TRIES]
