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
Deterministic: cards and melds are tried in a fixed order. The piles and each card's options
(where it can go now) are :mod:`rami.solver.in_place_options`'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from rami.cards import JOKER, Card
from rami.melds import MAX_SET, Meld, MeldKind, arrange
from rami.position import Position
from rami.rules import TableJoker
from rami.solver.in_place_options import _HandOptions, _Option, _Pile, _Shape

#: Search nodes beyond one per hand card before giving up. A hand that goes down in place is
#: mostly found in one dive: over the benchmark suites it finds 73 of the 75 such hands with 3
#: spare nodes, as with 8 (45 with none), and the failing searches end 15-25% sooner.
SPARE_NODES = 3


class _Search(_HandOptions):
    """Places the hand's cards one at a time, depth first, the card with fewest options first."""

    def __init__(self, position: Position) -> None:
        super().__init__(position)
        self.node_budget = len(position.hand) + SPARE_NODES
        #: Whether every branching card's options held all the places it could end in.
        self.exhaustive = True

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
        rooms = [
            (MAX_SET if pile.kind is MeldKind.SET else self.longest) - pile.size for pile in piles
        ]
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
        position.opened
        and not rules.discard
        and rules.rearrangement
        and rules.table_joker is TableJoker.FREE
        and not rules.joker_kept_until_last
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
    if (
        max_unplaced is not None
        and sum(count for card, count in search.hand.items() if not search.options(card))
        > max_unplaced
    ):
        return InPlace(None)
    if search.solve():
        return InPlace(search.table())
    return InPlace(None, none_exists=search.exhaustive and search.nodes <= search.node_budget)
