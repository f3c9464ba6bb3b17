"""The in-place search's view of a turn (:mod:`rami.solver.in_place`): the table's melds and the
new ones as piles that grow, and where each hand card can go now.

A card's options are its lay-offs (at a run's ends, or where the run's jokers make room; a
missing suit of a set) and the new melds of three it makes with other hand cards, the likeliest
first; two relaxations tell a card with no place yet from one that can never have one
(:meth:`_HandOptions.reachable`), and a card the options would place with hand jokers where a
hand card could bridge the gap instead (:meth:`_HandOptions._latent`). Each answer is kept until
a card laid (or taken back) changes it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from rami.cards import Card
from rami.melds import MAX_SET, MIN_MELD, Meld, MeldKind, stands_for
from rami.position import Position


@dataclass(slots=True)
class _Pile:
    """A meld on the table, or a new one, as it grows: what the search needs to extend it."""

    kind: MeldKind
    #: Suit of a run, rank of a set.
    key: int
    #: Run positions (1..14) holding a real card; suits of a set's real cards.
    reals: set[int]
    size: int
    original: Meld | None = None
    added: list[Card] = field(default_factory=list)
    #: A run's lowest and highest real place (read in the search's innermost loop).
    low: int = 0
    high: int = 0

    def __post_init__(self) -> None:
        if self.kind is MeldKind.RUN:
            self.low, self.high = min(self.reals), max(self.reals)

    def jokers_to_add(self, place: int, longest: int) -> int | None:
        """Jokers from the hand a run needs to take a real card at ``place`` (None: it cannot)."""
        if place in self.reals:
            return None
        span = max(self.high, place) - min(self.low, place) + 1
        size = max(self.size + 1, span)
        if size > longest:
            return None
        return size - self.size - 1

    def add(self, cards: list[Card], place: int | None) -> None:
        self.added.extend(cards)
        self.size += len(cards)
        if place is not None:
            self.reals.add(place)
            self.low, self.high = min(self.low, place), max(self.high, place)

    def remove(self, cards: list[Card], place: int | None) -> None:
        del self.added[len(self.added) - len(cards) :]
        self.size -= len(cards)
        if place is not None:
            self.reals.discard(place)
            if place in (self.low, self.high):
                self.low, self.high = min(self.reals), max(self.reals)


@dataclass(frozen=True, slots=True)
class _Shape:
    """A new meld of three cards from the hand (a longer one grows from it like any other)."""

    kind: MeldKind
    #: Suit of a run, rank of a set.
    key: int
    #: Run places, or set suits, of its real cards.
    reals: frozenset[int]


#: A way to place a card: (the pile it joins or the new meld's shape, real cards laid, jokers
#: laid, the run place it takes or None).
_Option = tuple[_Pile | _Shape, tuple[Card, ...], int, int | None]
#: A new meld holding a card: (real cards, jokers, shape).
_Candidate = tuple[tuple[Card, ...], int, _Shape]


class _HandOptions:
    """The hand and the table as piles, and each hand card's options."""

    def __init__(self, position: Position) -> None:
        rules = self.rules = position.rules
        self.top = rules.top_rank
        self.longest = min(rules.max_run_length, rules.top_rank)
        self.hand: Counter[Card] = Counter(card for card in position.hand if not card.is_joker)
        self.jokers = len(position.hand) - sum(self.hand.values())
        self.whole_hand = Counter(self.hand)
        self.all_jokers = self.jokers
        self.piles: list[_Pile] = []
        self.runs: dict[int, list[_Pile]] = {}
        self.sets: dict[int, list[_Pile]] = {}
        for meld in position.table:
            real = meld.real_cards
            if meld.kind is MeldKind.RUN:
                places = stands_for(meld, rules)
                suit = real[0].suit
                assert suit is not None  # a real card
                pile = _Pile(
                    MeldKind.RUN,
                    suit,
                    {
                        place
                        for place, card in zip(places, meld.cards, strict=True)
                        if not card.is_joker
                    },
                    len(meld.cards),
                    meld,
                )
                self.runs.setdefault(pile.key, []).append(pile)
            else:
                suits: set[int] = {card.suit for card in real if card.suit is not None}
                pile = _Pile(MeldKind.SET, real[0].rank, suits, len(meld.cards), meld)
                self.sets.setdefault(pile.key, []).append(pile)
            self.piles.append(pile)
        #: The new melds laid, and the search's nodes so far (none: nothing laid yet).
        self.new: list[_Pile] = []
        self.nodes = 0
        #: New-meld candidates per card, listed from the whole hand (see _new_melds).
        self.candidates: dict[Card, list[_Candidate]] = {}
        #: Per suit: the whole hand's card at each run place.
        self.held: dict[int, list[Card | None]] = {}
        #: Each card's options as the search left them; see _laid for what makes one stale.
        self.known: dict[Card, list[_Option]] = {}
        #: Each card's reachable() and _latent() answers, made stale by the same changes.
        self.reach_known: dict[Card, bool] = {}
        self.latent_known: dict[Card, bool] = {}

    def _places(self, card: Card) -> tuple[int, ...]:
        return (1, 14) if card.rank == 1 and self.top == 14 else (card.rank,)

    def options(self, card: Card) -> list[_Option]:
        """Every way to place ``card`` now, the likeliest first: on the table without a joker,
        then new melds without one, then with jokers from the hand."""
        known = self.known.get(card)
        if known is None:
            known = self.known[card] = self._list_options(card)
        return known

    def _laid(self, cards: tuple[Card, ...], jokers: int) -> None:
        """Forget the options that laying (or taking back) ``cards`` and ``jokers`` changed.

        A card's options read the runs of its suit, the sets of its rank, the hand's count of
        cards sharing its suit or rank (its new melds) and the jokers left: nothing else."""
        caches: tuple[dict[Card, list[_Option]] | dict[Card, bool], ...] = (
            self.known,
            self.reach_known,
            self.latent_known,
        )
        if jokers:
            for known in caches:
                known.clear()
            return
        suits = {card.suit for card in cards}
        ranks = {card.rank for card in cards}
        for known in caches:
            for card in [card for card in known if card.suit in suits or card.rank in ranks]:
                del known[card]

    def _list_options(self, card: Card) -> list[_Option]:
        found: list[_Option] = []
        with_jokers: list[_Option] = []
        suit = card.suit
        assert suit is not None  # the hand's jokers are not searched
        for pile in self.runs.get(suit, ()):
            for place in self._places(card):
                needed = pile.jokers_to_add(place, self.longest)
                if needed is not None and needed <= self.jokers:
                    (with_jokers if needed else found).append((pile, (card,), needed, place))
        for pile in self.sets.get(card.rank, ()):
            if card.suit not in pile.reals and pile.size < MAX_SET:
                found.append((pile, (card,), 0, None))
        for cards, jokers, shape in self._new_melds(card):
            (with_jokers if jokers else found).append((shape, cards, jokers, None))
        return found + with_jokers

    def _new_melds(self, card: Card) -> list[_Candidate]:
        """New melds of three from the hand holding ``card``, fewest jokers first: listed once
        from the whole hand, filtered by what is left of it."""
        listed = self.candidates.get(card)
        if listed is None:
            listed = self.candidates[card] = self._list_new_melds(card)
        if self.nodes == 0:
            return listed  # nothing laid yet: every candidate is still there
        hand, jokers = self.hand, self.jokers
        return [
            candidate
            for candidate in listed
            if candidate[1] <= jokers and all(hand[other] for other in candidate[0])
        ]

    def _list_new_melds(self, card: Card) -> list[_Candidate]:
        hand, jokers, least_real = self.whole_hand, self.all_jokers, self.rules.min_real_cards
        melds: list[_Candidate] = []
        assert card.suit is not None  # the hand's jokers are not searched
        suit = int(card.suit)
        held = self.held.get(suit)
        if held is None:
            # The hand's card at each run place of the suit (1..top; an ace at both ends).
            held = self.held[suit] = [
                None,
                *(
                    Card(suit * 13 + (spot - 1) % 13)
                    if hand[Card(suit * 13 + (spot - 1) % 13)]
                    else None
                    for spot in range(1, self.top + 1)
                ),
            ]
        for place in self._places(card):
            for low in range(max(1, place - MIN_MELD + 1), min(place, self.top - MIN_MELD + 1) + 1):
                others = [
                    spot
                    for spot in range(low, low + MIN_MELD)
                    if spot != place and held[spot] is not None
                ]
                # Every subset: a hand card in the window may end in another meld.
                for size in range(len(others), -1, -1):
                    for spots in combinations(others, size):
                        needed = MIN_MELD - 1 - size
                        if needed <= jokers and size + 1 >= least_real:
                            # held[spot] is a card for each spot of ``others``.
                            laid = (c for spot in spots if (c := held[spot]) is not None)
                            melds.append(
                                (
                                    (card, *laid),
                                    needed,
                                    _Shape(MeldKind.RUN, suit, frozenset((place, *spots))),
                                )
                            )
        rank = card.rank - 1
        suits = [other for other in range(4) if other != suit and hand[Card(other * 13 + rank)]]
        for size in range(min(len(suits), MIN_MELD - 1), -1, -1):
            for other_suits in combinations(suits, size):
                needed = MIN_MELD - 1 - size
                if needed <= jokers and size + 1 >= least_real:
                    melds.append(
                        (
                            (card, *(Card(other * 13 + rank) for other in other_suits)),
                            needed,
                            _Shape(MeldKind.SET, card.rank, frozenset((suit, *other_suits))),
                        )
                    )
        melds.sort(key=lambda meld: meld[1])
        return melds

    def reachable(self, card: Card) -> bool:
        """Whether ``card`` could be placed at all, with the whole hand still to come (a
        relaxation: a run may be reached through hand cards or jokers in between)."""
        known = self.reach_known.get(card)
        if known is None:
            known = self.reach_known[card] = self._reachable(card)
        return known

    def _reachable(self, card: Card) -> bool:
        if self.options(card):
            return True
        spare = self.jokers
        suit = card.suit
        assert suit is not None  # the hand's jokers are not searched
        for pile in self.runs.get(suit, ()):
            table_jokers = pile.size - len(pile.reals)
            for place in self._places(card):
                low, high = min(pile.low, place), max(pile.high, place)
                holes = sum(
                    1
                    for spot in range(low, high + 1)
                    if spot not in pile.reals
                    and not self.hand[Card(int(suit) * 13 + (spot - 1) % 13)]
                )
                if holes <= spare + table_jokers:
                    return True
        return False

    def _latent(self, card: Card) -> bool:
        """Whether ``card`` could join a run beyond a gap that its options fill with jokers
        from the hand, where a card still in the hand could fill the gap instead, or could take
        a joker's place inside the run and free that joker for the gap."""
        known = self.latent_known.get(card)
        if known is None:
            known = self.latent_known[card] = self._gap_to_fill(card)
        return known

    def _gap_to_fill(self, card: Card) -> bool:
        suit = card.suit
        assert suit is not None  # the hand's jokers are not searched
        base = int(suit) * 13
        for pile in self.runs.get(suit, ()):
            low, high = pile.low, pile.high
            for place in self._places(card):
                if low <= place <= high or not pile.jokers_to_add(place, self.longest):
                    continue
                spots = range(low, place) if place > high else range(place + 1, high + 1)
                if any(
                    spot not in pile.reals and self.hand[Card(base + (spot - 1) % 13)]
                    for spot in spots
                ):
                    return True
        return False
