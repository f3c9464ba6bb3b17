"""The move language applied: a table and a hand as moves leave them (:class:`Layout`).

Melds keep their numbers while the moves last: the table's melds 1..n, a new meld the next
number (n+1, then n+2...), a meld emptied stays empty under its number. Between moves the table
need not be valid (a player rearranges freely and only the final table is judged): a move only
has to be possible, its cards where it takes them from. Each pile left is laid out as a meld
(:func:`laid_out`: jokers kept where they stood where they can); a pile that makes no meld is
kept as it is, for the referee to say what is wrong with it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from rami.cards import Card, format_cards
from rami.melds import Meld, MeldKind, arrange, is_valid, run_start
from rami.moves.move import Move, MoveError, MoveKind
from rami.rules import Ruleset


@dataclass(frozen=True)
class Layout:
    """The melds by number (``piles[n - 1]``, in the order the cards were put there) and the
    hand; :meth:`apply` gives the layout after one more move."""

    rules: Ruleset | None  # None: moves that name their cards only (no pile laid out)
    original: tuple[Meld, ...]
    piles: tuple[tuple[Card, ...], ...]
    hand: tuple[Card, ...]

    @classmethod
    def start(cls, rules: Ruleset | None, table: Sequence[Meld], hand: Iterable[Card]) -> Layout:
        return cls(rules, tuple(table), tuple(meld.cards for meld in table), tuple(hand))

    def apply(self, move: Move) -> tuple[Layout, Move]:
        """The layout after ``move``, and the move as made (a split with the cards it cut off
        and the meld they became, a new meld with its number); MoveError when its cards are not
        where it says."""
        piles = [list(pile) for pile in self.piles]
        hand = Counter(self.hand)
        kind = move.kind
        if kind is MoveKind.SHIFT:
            self._pile(piles, move.target)
            return self, move  # jokers standing for other cards: no card moves
        if kind is MoveKind.DISCARD:
            raise MoveError("a discard ends the turn: it is not a move at the table")
        if kind is MoveKind.SPLIT:
            return self._split(piles, hand, move)
        cards = move.cards
        if kind in (MoveKind.REPLACE, MoveKind.SWAP):
            if len(cards) != 1:
                raise MoveError("one card takes a joker's place")
            pile = self._pile(piles, move.target)
            joker = next((card for card in pile if card.is_joker), None)
            if joker is None:
                raise MoveError(f"meld {move.target} holds no joker")
            _take_from_hand(hand, cards)
            if kind is MoveKind.SWAP:
                pile.remove(joker)
                hand[joker] += 1
            pile.extend(cards)
            return self._with(piles, hand), move
        return self._moved(piles, hand, move)

    def _moved(
        self, piles: list[list[Card]], hand: Counter[Card], move: Move
    ) -> tuple[Layout, Move]:
        """Cards from the hand or a meld to a meld."""
        cards = move.cards
        if move.source is None:
            _take_from_hand(hand, cards)
        else:
            pile = self._pile(piles, move.source)
            missing = Counter(cards) - Counter(pile)
            if missing:
                raise MoveError(
                    f"meld {move.source} does not hold {_listed(missing)} "
                    f"(it holds {_listed(Counter(pile))})"
                )
            for card in cards:
                pile.remove(card)
        target = self._target(piles, move)
        if target == move.source:
            raise MoveError(f"the cards are in meld {target} already")
        piles[target - 1].extend(cards)
        return self._with(piles, hand), replace(move, target=target)

    def _split(
        self, piles: list[list[Card]], hand: Counter[Card], move: Move
    ) -> tuple[Layout, Move]:
        pile = self._pile(piles, move.source)
        assert move.source is not None
        if move.after is None:  # the solver's split names the cards it cuts off
            return self._moved(piles, hand, move)
        meld = laid_out(pile, self._rules(), self._before(move.source))
        cards, cut_after = meld.cards, move.after
        if meld.kind is not MeldKind.RUN or run_start(meld, self._rules()) is None:
            raise MoveError(
                f"meld {move.source} ({format_cards(cards)}) is not a run: only a run is split"
            )
        if cut_after not in cards:
            raise MoveError(f"meld {move.source} ({format_cards(cards)}) does not hold {cut_after}")
        cut = len(cards) - cards[::-1].index(cut_after)
        if cut == len(cards):
            raise MoveError(
                f"{cut_after} is the last card of meld {move.source}: there is no "
                f"card after {cut_after} to split off"
            )
        target = self._target(piles, move)
        piles[move.source - 1] = list(cards[:cut])
        piles[target - 1].extend(cards[cut:])
        return self._with(piles, hand), replace(move, cards=cards[cut:], target=target)

    def _with(self, piles: list[list[Card]], hand: Counter[Card]) -> Layout:
        return replace(
            self, piles=tuple(tuple(pile) for pile in piles), hand=tuple(sorted(hand.elements()))
        )

    def _pile(self, piles: list[list[Card]], number: int | None) -> list[Card]:
        if number is None or not 1 <= number <= len(piles):
            raise MoveError(f"there is no meld {number} ({_numbers(len(piles))})")
        return piles[number - 1]

    def _target(self, piles: list[list[Card]], move: Move) -> int:
        """The meld the cards go to; a new meld is made for the next number."""
        new = len(piles) + 1
        target = move.target
        makes = move.kind in (MoveKind.LAY, MoveKind.SPLIT)
        if target is None:
            if not makes:
                raise MoveError("name the meld the cards go to")
            target = new
        if 1 <= target < new:
            if makes:
                raise MoveError(f"meld {target} exists already: a new meld is number {new}")
            return target
        if target != new:
            raise MoveError(f"there is no meld {target} ({_numbers(len(piles))})")
        piles.append([])
        return target

    def _rules(self) -> Ruleset:
        if self.rules is None:
            raise TypeError("a layout without rules lays out no pile")
        return self.rules

    def _before(self, number: int) -> Meld | None:
        return self.original[number - 1] if number <= len(self.original) else None

    def numbered(self) -> list[tuple[int, Meld]]:
        """The melds as they lie now, each with its number (empty ones left out)."""
        return [
            (number, laid_out(pile, self._rules(), self._before(number)))
            for number, pile in enumerate(self.piles, start=1)
            if pile
        ]

    def table(self) -> tuple[Meld, ...]:
        return tuple(meld for _, meld in self.numbered())


def _numbers(count: int) -> str:
    return f"melds 1-{count}; the next new meld is {count + 1}"


def _listed(cards: Counter[Card]) -> str:
    return format_cards(sorted(cards.elements())) if +cards else "nothing"


def _take_from_hand(hand: Counter[Card], cards: Sequence[Card]) -> None:
    missing = Counter(cards) - hand
    if missing:
        raise MoveError(f"your hand does not hold {_listed(missing)} (it holds {_listed(hand)})")
    hand.subtract(cards)


def laid_out(cards: Sequence[Card], rules: Ruleset, previous: Meld | None = None) -> Meld:
    """A pile as a meld: ``previous`` if it holds the same cards, else :func:`arrange_like`."""
    if previous is not None and previous.counts() == Counter(cards):
        return previous
    return arrange_like(list(cards), rules, previous)


def arrange_like(cards: list[Card], rules: Ruleset, previous: Meld | None = None) -> Meld:
    """``cards`` laid out as a meld; a run's jokers stay on the ranks they stood for in
    ``previous`` where they can. Cards that make no meld are returned as they are (the referee
    will say why)."""
    cards = list(cards)
    jokers = sum(card.is_joker for card in cards)
    best = arrange(cards, rules, prefer=previous.kind if previous is not None else None)
    if best is None:
        return Meld.of(cards)
    if (
        not jokers
        or best.kind is not MeldKind.RUN
        or previous is None
        or previous.kind is not MeldKind.RUN
        or not previous.jokers
    ):
        return best
    old_start = run_start(previous, rules)
    if old_start is None:
        return best
    old = {old_start + i for i, card in enumerate(previous.cards) if card.is_joker}
    real = [card for card in cards if not card.is_joker]
    length = len(cards)
    suit = real[0].suit
    assert suit is not None  # a real card
    scored: list[tuple[int, Meld]] = []
    for start in range(1, rules.top_rank - length + 2):
        laid: list[Card] = []
        left = Counter(real)
        for position in range(start, start + length):
            card = Card.of((position - 1) % 13 + 1, suit)
            if left[card] and (position != 1 or card.rank == 1):
                laid.append(card)
                left[card] -= 1
            else:
                laid.append(Card(52))
        if +left:
            continue
        meld = Meld(tuple(laid), MeldKind.RUN)
        if is_valid(meld, rules):
            kept = sum(1 for i, card in enumerate(laid) if card.is_joker and start + i in old)
            scored.append((kept, meld))
    if not scored:
        return best
    top = max(kept for kept, _ in scored)
    best_kept = next((kept for kept, meld in scored if meld == best), -1)
    return best if best_kept == top else next(meld for kept, meld in scored if kept == top)


__all__ = ["Layout", "arrange_like", "laid_out"]
