"""Seeded random positions for tests, benchmarks and puzzle generation.

Everything is drawn from the ``random.Random`` passed in (no global state), so one seed always
gives the same position. Cards come from a double deck (docs/rules.md: two copies of each card) and
at
most the preset's jokers, so every position is valid: ``position.problems() == []``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

from rami.cards import JOKER, Card, Suit
from rami.melds import MAX_SET, MIN_MELD, Meld, MeldKind, stands_for
from rami.position import COPIES_PER_CARD, Position
from rami.rules import Ruleset

#: Run lengths drawn for the table and how often (short runs are the common case at a table).
_RUN_LENGTHS = (3, 4, 5, 6, 7, 8)
_RUN_WEIGHTS = (30, 26, 18, 12, 8, 6)
_TABLE_TRIES = 50


def _full_deck() -> Counter[Card]:
    return Counter({Card(index): COPIES_PER_CARD for index in range(52)})


def _card_at(position_rank: int, suit: Suit | int) -> Card:
    """The card standing at a run position (14 = the ace above the king)."""
    return Card.of(1 if position_rank == 14 else position_rank, suit)


def _meld_lengths(rng: random.Random, total: int) -> list[int]:
    """Split ``total`` (0 or >= 3) into meld lengths of 3 or more, mostly 3..8."""
    if total in (1, 2) or total < 0:
        raise ValueError(f"a table of {total} cards cannot be split into melds of 3 or more")
    lengths: list[int] = []
    left = total
    while left:
        choices = [
            (length, weight)
            for length, weight in zip(_RUN_LENGTHS, _RUN_WEIGHTS, strict=True)
            if length <= left and left - length not in (1, 2)
        ]
        if not choices:  # cannot happen (3, 4 or 5 always fits), kept for safety
            lengths.append(left)
            break
        length = rng.choices([c[0] for c in choices], [c[1] for c in choices])[0]
        lengths.append(length)
        left -= length
    rng.shuffle(lengths)
    return lengths


def _take(deck: Counter[Card], cards: Sequence[Card]) -> bool:
    need = Counter(cards)
    if any(deck[card] < count for card, count in need.items()):
        return False
    deck.subtract(need)
    return True


def _run_options(deck: Counter[Card], rules: Ruleset, length: int) -> list[list[Card]]:
    """Every run of ``length`` cards that the deck still holds."""
    options: list[list[Card]] = []
    if length > rules.max_run_length:
        return options
    for suit in Suit:
        for start in range(1, rules.top_rank - length + 2):
            cards = [_card_at(rank, suit) for rank in range(start, start + length)]
            if all(deck[card] > 0 for card in cards):
                options.append(cards)
    return options


def _set_options(deck: Counter[Card], length: int) -> list[list[Card]]:
    """Every rank of which the deck holds ``length`` suits (a set of that size can be drawn)."""
    if length > MAX_SET:
        return []
    options = []
    for rank in range(1, 14):
        cards = [Card.of(rank, suit) for suit in Suit if deck[Card.of(rank, suit)] > 0]
        if len(cards) >= length:
            options.append(cards)
    return options


def _random_meld(
    rng: random.Random, deck: Counter[Card], rules: Ruleset, length: int
) -> Meld | None:
    """A random meld of ``length`` cards taken from the deck, None when none is left."""
    runs = _run_options(deck, rules, length)
    sets = _set_options(deck, length)
    if sets and (not runs or rng.random() < 0.35):
        suits = rng.choice(sets)
        cards = sorted(rng.sample(suits, length))
        kind = MeldKind.SET
    elif runs:
        # Some runs end on the high ace (Q-K-A and longer) where the rules allow it.
        high = [cards for cards in runs if cards[-1].rank == 1 and cards[0].rank != 1]
        cards = rng.choice(high if high and rng.random() < 0.12 else runs)
        kind = MeldKind.RUN
    else:
        return None
    _take(deck, cards)
    return Meld(tuple(cards), kind)


def _random_table(
    rng: random.Random, deck: Counter[Card], rules: Ruleset, table_cards: int
) -> list[Meld]:
    """Melds of exactly ``table_cards`` cards in all, taken from the deck (several tries)."""
    for _ in range(_TABLE_TRIES):
        trial = deck.copy()
        table = _try_table(rng, trial, rules, table_cards)
        if table is not None:
            deck.clear()
            deck.update(trial)
            return table
    raise ValueError(f"could not draw a legal table of {table_cards} cards from a double deck")


def _try_table(
    rng: random.Random, deck: Counter[Card], rules: Ruleset, table_cards: int
) -> list[Meld] | None:
    lengths = _meld_lengths(rng, table_cards)
    table: list[Meld] = []
    while lengths:
        length = lengths.pop()
        meld = _random_meld(rng, deck, rules, length)
        if meld is not None:
            table.append(meld)
        elif length >= 2 * MIN_MELD:  # no such long run left: draw two shorter melds
            cut = rng.randint(MIN_MELD, length - MIN_MELD)
            lengths.extend((cut, length - cut))
        else:
            return None
    rng.shuffle(table)
    return table


def _least_real(rules: Ruleset) -> int:
    return max(1, rules.min_real_cards)


def _place_jokers(
    rng: random.Random, melds: list[Meld], deck: Counter[Card], rules: Ruleset, jokers: int
) -> int:
    """Replace up to ``jokers`` real table cards by jokers (the card goes back to the deck).

    A meld keeps at least two real cards (at least ``min_real_cards``, and as many naturals as
    jokers where the preset asks for it). Returns how many jokers were placed.
    """
    placed = 0
    for _ in range(jokers):
        spots: list[tuple[int, int]] = []
        for number, meld in enumerate(melds):
            real = len(meld.real_cards)
            keep = max(2, _least_real(rules))
            if real - 1 < keep:
                continue
            if rules.naturals_at_least_jokers and meld.jokers + 1 > real - 1:
                continue
            spots.extend(
                (number, slot) for slot, card in enumerate(meld.cards) if not card.is_joker
            )
        if not spots:
            break
        number, slot = rng.choice(spots)
        meld = melds[number]
        deck[meld.cards[slot]] += 1
        cards = (*meld.cards[:slot], JOKER, *meld.cards[slot + 1 :])
        melds[number] = Meld(cards, meld.kind)
        placed += 1
    return placed


def _connecting_cards(table: Sequence[Meld], rules: Ruleset) -> list[Card]:
    """Card types that play onto or next to the table: run ends, set suits, same-rank cards."""
    cards: list[Card] = []
    for meld in table:
        real = meld.real_cards
        if meld.kind is MeldKind.RUN:
            suit = real[0].suit
            assert suit is not None
            ranks = stands_for(meld, rules)
            for rank in (ranks[0] - 2, ranks[0] - 1, ranks[-1] + 1, ranks[-1] + 2):
                if 1 <= rank <= rules.top_rank:
                    cards.append(_card_at(rank, suit))
            for rank, card in zip(ranks, meld.cards, strict=True):
                if card.is_joker:
                    cards.append(_card_at(rank, suit))  # the card the joker stands for
                for other in Suit:
                    if other != suit:
                        cards.append(_card_at(rank, other))
        else:
            rank = real[0].rank
            cards.extend(Card.of(rank, suit) for suit in Suit)
            for card in real:
                assert card.suit is not None
                for step in (-2, -1, 1, 2):
                    if 1 <= rank + step <= 13:
                        cards.append(Card.of(rank + step, card.suit))
    return cards


def _draw(rng: random.Random, deck: Counter[Card], pool: Sequence[Card] = ()) -> Card | None:
    """One card from the deck: from ``pool`` if any of it is left, else uniformly."""
    choices = [card for card in pool if deck[card] > 0]
    if not choices:
        choices = list(deck.elements())
    if not choices:
        return None
    card = rng.choice(sorted(choices))
    deck[card] -= 1
    return card


def _hand_meld(rng: random.Random, deck: Counter[Card], rules: Ruleset) -> list[Card]:
    """Three cards of the deck that make a meld by themselves (a pure run two times in three)."""
    runs = _run_options(deck, rules, MIN_MELD)
    sets = _set_options(deck, MIN_MELD)
    if runs and (not sets or rng.random() < 0.67):
        cards = rng.choice(runs)
    elif sets:
        cards = sorted(rng.sample(rng.choice(sets), MIN_MELD))
    else:
        return []
    _take(deck, cards)
    return list(cards)


def _build(
    rng: random.Random,
    rules: Ruleset,
    *,
    table_cards: int,
    hand_cards: int,
    jokers: int,
    opened: bool,
    connect: float = 0.0,
    hand_meld: float = 0.0,
) -> Position:
    if not 0 <= jokers <= rules.jokers:
        raise ValueError(
            f"{rules.option_string} is played with {rules.jokers} jokers, not {jokers}"
        )
    if hand_cards < 0:
        raise ValueError(f"a hand cannot hold {hand_cards} cards")
    deck = _full_deck()
    hand_jokers = rng.randint(0, min(jokers, hand_cards)) if jokers else 0
    table = _random_table(rng, deck, rules, table_cards)
    _place_jokers(rng, table, deck, rules, jokers - hand_jokers)
    hand: list[Card] = [JOKER] * hand_jokers
    if hand_meld and hand_cards - len(hand) >= MIN_MELD and rng.random() < hand_meld:
        hand.extend(_hand_meld(rng, deck, rules))
    pool = _connecting_cards(table, rules)
    while len(hand) < hand_cards:
        card = _draw(rng, deck, pool if rng.random() < connect else ())
        if card is None:
            raise ValueError("the deck ran out of cards for the hand")
        hand.append(card)
    position = Position(tuple(table), tuple(hand), opened, rules)
    problems = position.problems()
    if problems:  # pragma: no cover - would be a bug in this module
        raise AssertionError(f"generated an invalid position {position}: {problems}")
    return position


def random_position(
    rng: random.Random,
    *,
    rules: Ruleset,
    table_cards: int,
    hand_cards: int,
    jokers: int,
    opened: bool = True,
) -> Position:
    """A random valid position drawn from a shuffled double deck plus ``jokers`` jokers.

    Guarantees (or ``ValueError``):

    * the table holds exactly ``table_cards`` cards (0, or 3 and more; 1 and 2 are refused),
      split into legal melds: runs of mostly 3..8 cards (some ending on the high ace where
      ``rules.ace_high``) and sets of 3 or 4;
    * the hand holds exactly ``hand_cards`` cards;
    * at most ``jokers`` jokers in all (``jokers <= rules.jokers``): a random number of them,
      at most ``hand_cards``, is in the hand; the others replace table cards while each meld
      keeps two real cards (the card a joker replaces goes back to the deck); those that find no
      place are left out;
    * ``position.problems() == []``; the same ``rng`` state gives the same position.

    A table of most of the deck (about 95 cards and more) may not be found: ``ValueError``.
    """
    return _build(
        rng, rules, table_cards=table_cards, hand_cards=hand_cards, jokers=jokers, opened=opened
    )


def small_position(
    rng: random.Random, rules: Ruleset, *, opened: bool | None = None, max_jokers: int = 3
) -> Position:
    """A small position for differential tests: 3..9 table cards, 1..5 hand cards.

    Half the time the hand is drawn mostly from cards that connect to the table (run ends, the
    cards table jokers stand for, other suits of table ranks), so that rearrangements matter;
    a player who has not opened often holds a ready meld of three. ``opened`` is random unless
    given; jokers are 0..``max_jokers`` (capped by the preset), none in a third of positions.
    """
    if opened is None:
        opened = rng.random() < 0.7
    most = min(max_jokers, rules.jokers)
    jokers = 0 if rng.random() < 0.34 or most == 0 else rng.randint(1, most)
    return _build(
        rng,
        rules,
        table_cards=rng.choice((3, 3, 4, 4, 5, 6, 6, 7, 8, 9)),
        hand_cards=rng.randint(1, 5),
        jokers=jokers,
        opened=opened,
        connect=0.75 if rng.random() < 0.5 else 0.0,
        hand_meld=0.0 if opened else 0.6,
    )


def medium_position(
    rng: random.Random, rules: Ruleset, *, opened: bool | None = None, max_jokers: int = 4
) -> Position:
    """A medium position (9..13 table cards, 3..6 hand cards), hand biased to connect."""
    if opened is None:
        opened = rng.random() < 0.8
    most = min(max_jokers, rules.jokers)
    return _build(
        rng,
        rules,
        table_cards=rng.randint(9, 13),
        hand_cards=rng.randint(3, 6),
        jokers=rng.randint(0, most),
        opened=opened,
        connect=0.8,
        hand_meld=0.0 if opened else 0.5,
    )


def positions(rng: random.Random, rules: Ruleset, count: int) -> Iterator[Position]:
    """``count`` small positions in a row from one generator."""
    for _ in range(count):
        yield small_position(rng, rules)
