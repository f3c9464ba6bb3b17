"""Near-legal variants of a turn, for differential tests of the referees.

``mutations(position, table_after, played, discard, rng)`` yields turns ``(table_after, played,
discard)`` close to the one given: a card swapped for another (inside a meld, or between the hand
and the table), a joker moved to another meld or place, a joker swapped for a hand card (kept in
the hand or laid again), a card dropped from the table or from the cards played, a meld split at
every cut, two melds merged, the taken discard thrown back, the discard changed to each other hand
card, a table joker taken into the hand, a played card moved to another meld, the melds listed in
another order. Most are illegal, some legal; the referees must
agree on each. The output depends only on the inputs and the state of ``rng``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from rami.cards import ALL_CARDS, JOKER, Card
from rami.melds import Meld
from rami.position import Position

Turn = tuple[tuple[Meld, ...], tuple[Card, ...], Card | None]


def _meld(cards: Sequence[Card], like: Meld | None = None) -> Meld:
    """A meld of ``cards``: the kind of ``like`` when the cards are its own, else inferred."""
    cards = tuple(cards)
    if like is not None and like.cards == cards:
        return like
    return Meld.of(cards)


def _replace(table: Sequence[Meld], index: int, cards: Sequence[Card]) -> tuple[Meld, ...]:
    """The table with meld ``index`` replaced by ``cards`` (dropped when empty)."""
    melds = list(table)
    if cards:
        melds[index] = _meld(cards, table[index])
    else:
        del melds[index]
    return tuple(melds)


def _discards(
    position: Position, table: Sequence[Meld], played: Sequence[Card], discard: Card | None
) -> Card | None:
    """Keep ``discard`` when the hand still holds it, else some card left in the hand."""
    if not position.rules.discard:
        return None
    left = Counter(position.hand) - Counter(played)
    if discard is not None and left[discard] > 0:
        return discard
    cards = sorted(left.elements())
    return cards[-1] if cards else None


def mutations(
    position: Position,
    table_after: Sequence[Meld],
    played: Sequence[Card],
    discard: Card | None,
    rng: random.Random,
    *,
    limit: int | None = None,
) -> Iterator[Turn]:
    """Near-legal variants of the turn, deduplicated, at most ``limit`` of them (sampled)."""
    table = tuple(table_after)
    played = tuple(played)
    seen: set[tuple[object, ...]] = set()
    out: list[Turn] = []

    def emit(melds: Sequence[Meld], cards: Sequence[Card], card: Card | None) -> None:
        turn = (tuple(melds), tuple(sorted(cards)), card)
        key = (tuple((m.cards, m.kind) for m in turn[0]), turn[1], card)
        if key not in seen:
            seen.add(key)
            out.append(turn)

    hand = Counter(position.hand)
    left = hand - Counter(played)
    left_cards = sorted(left)
    played_counts = Counter(played)

    # The turn itself, and passing (the table as it was, nothing played).
    emit(table, played, discard)
    for card in [None, *sorted(hand)]:
        emit(position.table, (), card if position.rules.discard else None)

    # The discard changed to each other card left in the hand, or none; the taken discard.
    for card in [None, *left_cards, *sorted(played_counts)]:
        emit(table, played, card)
    if position.taken_discard is not None:
        emit(table, played, position.taken_discard)

    # A card swapped for another card, inside a meld (any card type or a joker).
    spots = [(m, i) for m, meld in enumerate(table) for i in range(len(meld.cards))]
    for m, i in rng.sample(spots, min(len(spots), 6)):
        cards = list(table[m].cards)
        old = cards[i]
        others = [JOKER, *rng.sample(ALL_CARDS, 4)]
        if not old.is_joker:
            near = [
                c
                for c in ALL_CARDS
                if c.rank == old.rank or (c.suit == old.suit and abs(c.rank - old.rank) <= 1)
            ]
            others.extend(rng.sample(near, min(3, len(near))))
        for new in others:
            if new == old:
                continue
            cards[i] = new
            emit(_replace(table, m, cards), played, discard)
            # ... the new card taken from the hand (played), the old one back to the hand.
            if left[new] > 0:
                moved = Counter(played) + Counter([new])
                if played_counts[old] > 0:
                    moved -= Counter([old])
                new_played = tuple(sorted(moved.elements()))
                emit(
                    _replace(table, m, cards),
                    new_played,
                    _discards(position, table, new_played, discard),
                )
            cards[i] = old

    # A hand card laid into a meld at every place (a lay-off or a broken meld).
    for card in rng.sample(left_cards, min(len(left_cards), 3)):
        for m, meld in enumerate(table):
            for i in range(len(meld.cards) + 1):
                cards = [*meld.cards[:i], card, *meld.cards[i:]]
                new_played = (*played, card)
                emit(
                    _replace(table, m, cards),
                    new_played,
                    _discards(position, table, new_played, discard),
                )

    # A joker moved to another place of its meld, or to another meld.
    jokers = [
        (m, i) for m, meld in enumerate(table) for i, c in enumerate(meld.cards) if c.is_joker
    ]
    for m, i in jokers:
        rest = list(table[m].cards[:i] + table[m].cards[i + 1 :])
        shrunk = _replace(table, m, rest)
        for t, meld in enumerate(shrunk):
            for k in range(len(meld.cards) + 1):
                cards = [*meld.cards[:k], JOKER, *meld.cards[k:]]
                emit(_replace(shrunk, t, cards), played, discard)
        # A table joker taken into the hand (and maybe discarded).
        emit(shrunk, played, discard)
        emit(shrunk, played, JOKER if position.rules.discard else None)

    # A joker swapped for a hand card, the joker kept in the hand or laid again elsewhere.
    for m, i in jokers:
        for card in left_cards:
            if card.is_joker:
                continue
            cards = list(table[m].cards)
            cards[i] = card
            swapped = _replace(table, m, cards)
            new_played = (*played, card)
            new_discard = _discards(position, table, new_played, discard)
            emit(swapped, new_played, new_discard)
            for t, meld in enumerate(swapped):
                for k in (0, len(meld.cards)) if t == m else range(len(meld.cards) + 1):
                    relaid = [*meld.cards[:k], JOKER, *meld.cards[k:]]
                    emit(_replace(swapped, t, relaid), new_played, new_discard)

    # A card dropped from the table (also from the cards played, when it was played).
    for m, i in rng.sample(spots, min(len(spots), 8)):
        card = table[m].cards[i]
        cards = table[m].cards[:i] + table[m].cards[i + 1 :]
        emit(_replace(table, m, cards), played, discard)
        if played_counts[card] > 0:
            fewer = list(played)
            fewer.remove(card)
            emit(_replace(table, m, cards), fewer, _discards(position, table, fewer, discard))
    # A card dropped from the cards played only.
    for card in sorted(played_counts):
        fewer = list(played)
        fewer.remove(card)
        emit(table, fewer, discard)

    # A meld split at every cut (short melds included), two melds merged.
    for m, meld in enumerate(table):
        for cut in range(1, len(meld.cards)):
            melds = list(table)
            melds[m : m + 1] = [_meld(meld.cards[:cut]), _meld(meld.cards[cut:])]
            emit(melds, played, discard)
    pairs = [(a, b) for a in range(len(table)) for b in range(len(table)) if a != b]
    for a, b in rng.sample(pairs, min(len(pairs), 6)):
        melds = [meld for index, meld in enumerate(table) if index not in (a, b)]
        melds.append(_meld(table[a].cards + table[b].cards))
        emit(melds, played, discard)

    # A played card moved to another meld, at every place.
    for m, meld in enumerate(table):
        for i, card in enumerate(meld.cards):
            if played_counts[card] == 0:
                continue
            rest = meld.cards[:i] + meld.cards[i + 1 :]
            shrunk = _replace(table, m, rest)
            for t, other in enumerate(shrunk):
                if rest and t == m:
                    continue
                for k in range(len(other.cards) + 1):
                    cards = [*other.cards[:k], card, *other.cards[k:]]
                    emit(_replace(shrunk, t, cards), played, discard)

    # Two cards of one meld exchanged (runs out of order, a joker standing elsewhere).
    for m, meld in enumerate(table):
        if len(meld.cards) >= 2:
            i, k = sorted(rng.sample(range(len(meld.cards)), 2))
            cards = list(meld.cards)
            cards[i], cards[k] = cards[k], cards[i]
            emit(_replace(table, m, cards), played, discard)

    # The melds after listed in another order, a set's cards in another order: no verdict
    # depends on them.
    if len(table) > 1:
        emit(table[::-1], played, discard)
        shuffled = list(table)
        rng.shuffle(shuffled)
        emit(shuffled, played, discard)
    for m, meld in enumerate(table):
        if meld.kind.value == "set" and len(meld.cards) > 1:
            melds = list(table)
            melds[m] = Meld(meld.cards[::-1], meld.kind)
            emit(melds, played, discard)

    first, rest = out[:1], out[1:]
    if limit is not None and len(rest) > limit - 1:
        rest = rng.sample(rest, max(0, limit - 1))
    yield from first + rest
