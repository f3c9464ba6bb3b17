"""The beginner's eye: melds a player sees in a hand, lay-offs onto the table, a discard.

Plain greedy rules, no search and no solver: pure runs first (longest first), then sets, then a
joker to complete a pair or a broken run; lay-offs extend a meld at an end (or complete a set),
never rearranging the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind, is_valid, stands_for
from rami.rules import Ruleset

RANKS = range(1, 14)


_CARD_AT = {
    (position, suit): Card.of((position - 1) % 13 + 1, suit)
    for position in range(1, 15)
    for suit in range(4)
}


def _card_at(position: int, suit: int) -> Card:
    return _CARD_AT[position, suit]


def _by_suit(hand: Counter[Card]) -> list[set[int]]:
    ranks: list[set[int]] = [set(), set(), set(), set()]
    for card, count in hand.items():
        if count > 0 and card.suit is not None:
            ranks[card.suit].add(card.rank)
    return ranks


def _best_pure_run(hand: Counter[Card], rules: Ruleset) -> Meld | None:
    best: tuple[int, int, list[Card]] | None = None
    for suit, present in enumerate(_by_suit(hand)):
        if len(present) < 3:
            continue
        positions = set(present)
        if rules.ace_high and 1 in positions:
            positions.add(14)
        run: list[int] = []
        for position in range(1, rules.top_rank + 2):
            if position in positions and len(run) < rules.max_run_length:
                run.append(position)
                continue
            if len(run) >= 3:
                cards = [_card_at(p, suit) for p in run]
                value = sum(rules.card_penalty(card.rank) for card in cards)
                if best is None or (len(run), value) > best[:2]:
                    best = (len(run), value, cards)
            run = [position] if position in positions else []
    return Meld(tuple(best[2]), MeldKind.RUN) if best else None


def _best_set(hand: Counter[Card]) -> Meld | None:
    suits: dict[int, list[Card]] = {}
    for card, count in hand.items():
        if count > 0 and not card.is_joker:
            suits.setdefault(card.rank, []).append(card)
    best: tuple[int, int, list[Card]] | None = None
    for rank, cards in suits.items():
        if len(cards) >= 3 and (best is None or (len(cards), rank) > best[:2]):
            best = (len(cards), rank, sorted(cards))
    return Meld(tuple(best[2]), MeldKind.SET) if best else None


def _joker_meld(hand: Counter[Card], rules: Ruleset) -> Meld | None:
    """Two real cards and a joker: a pair of one rank, or two of a suit one gap apart."""
    if hand[JOKER] <= 0 or rules.min_real_cards > 2:
        return None
    best: tuple[int, Meld] | None = None
    by_rank: dict[int, list[Card]] = {}
    for card, count in hand.items():
        if count > 0 and not card.is_joker:
            by_rank.setdefault(card.rank, []).append(card)
    candidates: list[Meld] = []
    for cards in by_rank.values():
        if len(cards) >= 2:
            first, second = sorted(cards)[:2]
            candidates.append(Meld((first, second, JOKER), MeldKind.SET))
    for suit, present in enumerate(_by_suit(hand)):
        positions = set(present)
        if rules.ace_high and 1 in positions:
            positions.add(14)
        for low in sorted(positions):
            for gap in (1, 2):
                high = low + gap
                if high not in positions:
                    continue
                a, b = _card_at(low, suit), _card_at(high, suit)
                if gap == 2:
                    laid = (a, JOKER, b)
                elif high < rules.top_rank:
                    laid = (a, b, JOKER)
                else:
                    laid = (JOKER, a, b)
                candidates.append(Meld(laid, MeldKind.RUN))
    for meld in candidates:
        if not is_valid(meld, rules):
            continue
        value = sum(rules.card_penalty(card.rank) for card in meld.real_cards)
        if best is None or value > best[0]:
            best = (value, meld)
    return best[1] if best else None


def hand_melds(hand: Counter[Card], rules: Ruleset, jokers: bool = True) -> list[Meld]:
    """Disjoint melds taken greedily from ``hand`` (which is left holding the rest)."""
    melds: list[Meld] = []
    finders: tuple[Callable[[], Meld | None], ...] = (
        lambda: _best_pure_run(hand, rules),
        lambda: _best_set(hand),
    )
    for finder in finders:
        while (meld := finder()) is not None:
            melds.append(meld)
            hand.subtract(meld.cards)
    while jokers and (meld := _joker_meld(hand, rules)) is not None:
        melds.append(meld)
        hand.subtract(meld.cards)
    hand += Counter()  # drop zero counts
    return melds


def extend(meld: Meld, card: Card, rules: Ruleset) -> Meld | None:
    """``meld`` with ``card`` added at an end (runs) or as a missing suit (sets), else None."""
    if meld.kind is MeldKind.SET:
        if len(meld.cards) >= 4:
            return None
        if not card.is_joker:
            rank = meld.real_cards[0].rank
            if card.rank != rank or card.suit in {c.suit for c in meld.real_cards}:
                return None
        grown = Meld((*meld.cards, card), MeldKind.SET)
        return grown if is_valid(grown, rules) else None
    if len(meld.cards) >= rules.max_run_length:
        return None
    positions = stands_for(meld, rules)
    suit = meld.real_cards[0].suit
    assert suit is not None  # a real card
    low, high = positions[0], positions[-1]
    options = []
    if high < rules.top_rank and (card.is_joker or card == _card_at(high + 1, suit)):
        options.append((*meld.cards, card))
    if low > 1 and (card.is_joker or card == _card_at(low - 1, suit)):
        options.append((card, *meld.cards))
    for cards in options:
        grown = Meld(tuple(cards), MeldKind.RUN)
        if is_valid(grown, rules):
            return grown
    return None


@lru_cache(maxsize=4096)
def accepts(meld: Meld, rules: Ruleset) -> frozenset[Card]:
    """The real cards that extend ``meld`` (run ends, a set's missing suits)."""
    if meld.kind is MeldKind.SET:
        if len(meld.cards) >= 4 or not meld.real_cards:
            return frozenset()
        rank = meld.real_cards[0].rank
        suits = {card.suit for card in meld.real_cards}
        return frozenset(Card.of(rank, suit) for suit in range(4) if suit not in suits)
    if len(meld.cards) >= rules.max_run_length:
        return frozenset()
    positions = stands_for(meld, rules)
    suit = meld.real_cards[0].suit
    assert suit is not None  # a real card
    ends = []
    if positions[-1] < rules.top_rank:
        ends.append(_card_at(positions[-1] + 1, suit))
    if positions[0] > 1:
        ends.append(_card_at(positions[0] - 1, suit))
    return frozenset(ends)


def lay_offs(table: list[Meld], hand: Counter[Card], rules: Ruleset) -> list[tuple[Card, int]]:
    """Add hand cards to the table's melds while one fits (costliest first); returns each card
    laid off with the index of its meld."""
    played: list[tuple[Card, int]] = []
    fits = [accepts(meld, rules) for meld in table]
    progress = True
    while progress:
        progress = False
        for card in sorted(+hand, key=lambda c: (-rules.card_penalty(c.rank), c)):
            if card.is_joker:
                places = list(range(len(table)))
            else:
                places = [index for index, cards in enumerate(fits) if card in cards]
            for index in places:
                grown = extend(table[index], card, rules)
                if grown is not None:
                    table[index] = grown
                    fits[index] = accepts(grown, rules)
                    hand[card] -= 1
                    played.append((card, index))
                    progress = True
                    break
            if progress:
                break
    return played


def is_useful(card: Card, hand: Counter[Card]) -> bool:
    """Part of a start of a meld: a jokers, a card of the same rank in another suit, or a card
    of its suit at most two ranks away."""
    if card.is_joker:
        return True
    for other in hand:
        if other == card or other.is_joker or not hand[other]:
            continue
        if other.rank == card.rank and other.suit != card.suit:
            return True
        if other.suit == card.suit:
            distance = abs(other.rank - card.rank)
            if distance <= 2 or 13 - distance <= 1:  # the ace next to the king
                return True
    return False


def allowed_discards(hand: Counter[Card], rules: Ruleset, taken: Card | None) -> list[Card]:
    """The cards the rules let go now: the card just taken (both copies, decision 8) and, under
    Café Rummy, a joker go only as the last card."""
    last = sum(hand.values()) == 1
    allowed = [
        card
        for card in +hand
        if last or not (card == taken or (card.is_joker and rules.joker_kept_until_last))
    ]
    if not allowed and rules.joker_kept_until_last and all(card.is_joker for card in +hand):
        return [JOKER]  # only jokers left: the engine lets one go (docs/game.md)
    return allowed


def costliest_useless(
    hand: Counter[Card], rules: Ruleset, taken: Card | None, keep_jokers: bool = True
) -> Card | None:
    """The beginner's discard: the costliest card that starts no meld, jokers kept."""
    allowed = allowed_discards(hand, rules, taken)
    if not allowed:
        return None
    non_jokers = [card for card in allowed if not card.is_joker]
    pool = non_jokers if keep_jokers and non_jokers else allowed
    return max(pool, key=lambda c: (not is_useful(c, hand), rules.card_penalty(c.rank), c))


def cards_of(melds: Iterable[Meld]) -> list[Card]:
    return [card for meld in melds for card in meld.cards]
