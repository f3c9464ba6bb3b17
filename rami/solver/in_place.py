"""A turn that lays the whole hand without moving a table card: the engine's fast path.

Late in a game most hands go down as lay-offs: cards added at the ends of runs (or where a
run's jokers make room), missing suits added to sets, new melds from the hand alone. Such a
turn is optimal at every level at once: no penalty left and every card played (docs/rules.md
decision 6), no table card moved (decision 7). When a short search finds one, no model needs to
be solved, and the answer is the one a player would look for first.

Every table the search returns is laid out by :func:`arrange`, which checks each meld. The
search gives up after ``SPARE_NODES`` nodes more than the hand has cards; where it finds nothing,
the engine solves the position as usual. It branches on a card whose options hold every place
the card can end in; where it ran to its end without giving up or branching on another kind of
card, finding nothing means no such turn exists, and the engine skips the model that would ask
the same question (the tests check both claims against the exhaustive reference).
Deterministic: cards and melds are tried in a fixed order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from rami.cards import JOKER, Card
from rami.melds import MAX_SET, MIN_MELD, Meld, MeldKind, arrange, stands_for
from rami.position import Position
from rami.rules import TableJoker

#: Search nodes beyond one per hand card before giving up. A hand that goes down in place is
#: mostly found in one dive: over the benchmark suites it finds 73 of the 75 such hands with 3
#: spare nodes, as with 8 (45 with none), and the failing searches end 15-25% sooner.
SPARE_NODES = 3


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
        del self.added[len(self.added) - len(cards):]
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


class _Search:
    """Places the hand's cards one at a time, depth first, the card with fewest options first."""

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
                pile = _Pile(MeldKind.RUN, suit, {
                    place for place, card in zip(places, meld.cards, strict=True)
                    if not card.is_joker
                }, len(meld.cards), meld)
                self.runs.setdefault(pile.key, []).append(pile)
            else:
                suits: set[int] = {card.suit for card in real if card.suit is not None}
                pile = _Pile(MeldKind.SET, real[0].rank, suits, len(meld.cards), meld)
                self.sets.setdefault(pile.key, []).append(pile)
            self.piles.append(pile)
        self.new: list[_Pile] = []
        self.nodes = 0
        self.node_budget = len(position.hand) + SPARE_NODES
        #: Whether every branching card's options held all the places it could end in.
        self.exhaustive = True
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
            self.known, self.reach_known, self.latent_known
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
            candidate for candidate in listed
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
            held = self.held[suit] = [None, *(
                Card(suit * 13 + (spot - 1) % 13) if hand[Card(suit * 13 + (spot - 1) % 13)]
                else None
                for spot in range(1, self.top + 1)
            )]
        for place in self._places(card):
            for low in range(max(1, place - MIN_MELD + 1), min(place, self.top - MIN_MELD + 1) + 1):
                others = [spot for spot in range(low, low + MIN_MELD)
                          if spot != place and held[spot] is not None]
                # Every subset: a hand card in the window may end in another meld.
                for size in range(len(others), -1, -1):
                    for spots in combinations(others, size):
                        needed = MIN_MELD - 1 - size
                        if needed <= jokers and size + 1 >= least_real:
                            # held[spot] is a card for each spot of ``others``.
                            laid = (c for spot in spots if (c := held[spot]) is not None)
                            melds.append((
                                (card, *laid), needed,
                                _Shape(MeldKind.RUN, suit, frozenset((place, *spots))),
                            ))
        rank = card.rank - 1
        suits = [other for other in range(4) if other != suit and hand[Card(other * 13 + rank)]]
        for size in range(min(len(suits), MIN_MELD - 1), -1, -1):
            for other_suits in combinations(suits, size):
                needed = MIN_MELD - 1 - size
                if needed <= jokers and size + 1 >= least_real:
                    melds.append((
                        (card, *(Card(other * 13 + rank) for other in other_suits)), needed,
                        _Shape(MeldKind.SET, card.rank, frozenset((suit, *other_suits))),
                    ))
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
                    1 for spot in range(low, high + 1)
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

    def solve(self) -> bool:
        """Place every card of the hand (depth first, the most constrained card first)."""
        self.nodes += 1
        if self.nodes > self.node_budget:
            return False
        if not +self.hand:
            return self._place_jokers()
        ready: list[tuple[int, Card, list[_Option]]] = []
        for card in sorted(+self.hand):
            options = self.options(card)
            if options:
                ready.append((len(options), card, options))
            elif not self.reachable(card):
                # A card with nowhere to go now may still go once others are laid, unless
                # even the relaxation finds it no place: then this branch is dead.
                return False
        if not ready:
            return False
        ready.sort(key=lambda entry: entry[0])
        # Branch on a card whose options hold every place it can end in: not one that could
        # end at a run's end beyond a gap that other hand cards may fill, directly or by freeing
        # a joker of the run (its options only fill the gap with hand jokers; see _latent).
        # Failing that, branch anyway: the search is then no longer exhaustive, so finding
        # nothing proves nothing.
        chosen = next((entry for entry in ready if not self._latent(entry[1])), None)
        if chosen is None:
            self.exhaustive = False
            chosen = ready[0]
        for target, cards, jokers, place in chosen[2]:
            self.hand.subtract(cards)
            self.jokers -= jokers
            laid = [*cards, *[JOKER] * jokers]
            if isinstance(target, _Shape):
                self._open(target, laid)
            else:
                target.add(laid, place)
            self._laid(cards, jokers)
            if self.solve():
                return True
            if isinstance(target, _Shape):
                self._close(target)
            else:
                target.remove(laid, place)
            self.jokers += jokers
            self.hand.update(cards)
            self._laid(cards, jokers)
            if self.nodes > self.node_budget:
                return False
        return False

    def _piles_like(self, shape: _Shape) -> list[_Pile]:
        piles = self.runs if shape.kind is MeldKind.RUN else self.sets
        return piles.setdefault(shape.key, [])

    def _open(self, shape: _Shape, cards: list[Card]) -> None:
        """Lay a new meld; later cards may join it as they join the table's."""
        pile = _Pile(shape.kind, shape.key, set(shape.reals), len(cards), None, cards)
        self.new.append(pile)
        self._piles_like(shape).append(pile)

    def _close(self, shape: _Shape) -> None:
        self.new.pop()
        self._piles_like(shape).pop()

    def _place_jokers(self) -> bool:
        """The hand's jokers left over go wherever a meld has room for one more card."""
        piles = [*self.new, *self.piles]
        rooms = [(MAX_SET if pile.kind is MeldKind.SET else self.longest) - pile.size
                 for pile in piles]
        if sum(rooms) < self.jokers:
            return False
        left = self.jokers
        for pile, room in zip(piles, rooms, strict=True):
            take = min(room, left)
            if take > 0:
                pile.add([JOKER] * take, None)
                left -= take
        return True

    def table(self) -> list[Meld] | None:
        """The melds after the turn (the table's in its order, then the new ones), each laid
        out and checked; None if one cannot be."""
        melds: list[Meld] = []
        for pile in [*self.piles, *self.new]:
            if pile.original is not None and not pile.added:
                melds.append(pile.original)
                continue
            cards = [*(pile.original.cards if pile.original else ()), *pile.added]
            meld = arrange(cards, self.rules, prefer=pile.kind)
            if meld is None or meld.kind is not pile.kind:
                return None
            melds.append(meld)
        return melds


@dataclass(frozen=True, slots=True)
class InPlace:
    """What the search found."""

    #: The table after the turn: the table's melds in their order, then the new ones. None
    #: when the search found no such turn.
    table: list[Meld] | None
    #: No such turn exists: the search ran to its end without giving up and found none. The
    #: engine only uses this to skip a model that could not find one either (its answers never
    #: rest on it: the next model still would).
    none_exists: bool = False


def searches(position: Position) -> bool:
    """Whether :func:`lay_whole_hand` searches this position at all: an opened player, free
    table jokers, rearrangement and no discard (rami chinois and Rummikub)."""
    rules = position.rules
    return (
        position.opened and not rules.discard and rules.rearrangement
        and rules.table_joker is TableJoker.FREE and not rules.joker_kept_until_last
    )


def places(position: Position) -> dict[Card, int]:
    """How many ways each of the hand's real cards (each once) has to go down on the table as
    it is: lay-offs, and new melds with other hand cards (rami fou's going-out fast path keeps
    back one of the cards with the fewest)."""
    search = _Search(position)
    return {card: len(search.options(card)) for card in search.hand}


def cards_without_place(position: Position) -> list[Card]:
    """The hand's real cards (each once) that have no place on the table as it is: no lay-off,
    and no new meld with other hand cards (stage 2's shortcut starts from them)."""
    return [card for card, count in places(position).items() if not count]


def lay_whole_hand(position: Position, *, max_unplaced: int | None = None) -> InPlace:
    """A turn laying every hand card with no table card moved, if the search finds one (this
    is a fast path: where it gives up, there may still be one).

    With ``max_unplaced``, the search gives up at once when more hand cards than that have no
    place yet (each must wait for other cards to bridge a gap, and such searches seldom
    succeed: see the engine)."""
    if not position.hand or not searches(position):
        return InPlace(None)
    search = _Search(position)
    if not all(search.reachable(card) for card in search.hand):
        return InPlace(None, none_exists=True)
    if max_unplaced is not None and sum(
        count for card, count in search.hand.items() if not search.options(card)
    ) > max_unplaced:
        return InPlace(None)
    if search.solve():
        return InPlace(search.table())
    return InPlace(None, none_exists=search.exhaustive and search.nodes <= search.node_budget)
