"""A greedy player: what someone who never looks ahead manages in one turn.

1. Lay off first, then new melds: repeatedly lay off a hand card onto the table as it lies (the
   end of a run, or a set missing that suit; highest penalty first, onto the first meld that
   takes it), and when none fits, lay the new meld of hand cards (two or more real cards) that
   sheds the most real-card points.
2. Then one card at a time: add the highest-penalty hand card such that the cards played so far
   plus that card can be laid by *some* rearrangement of the table; repeat until no card can be
   added or the goal is reached.

Step 1 alone fails on every puzzle by construction (a puzzle needs a rearrangement), hence
step 2. The greedy player commits to cards, never to a table, so the outcome is a fact about the
position, not about which of several equally good tables a solver returns. It fails when the
puzzle needs several cards placed *together*, or when it committed to a card (a tempting
lay-off) that the best play keeps in hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind, is_valid, stands_for
from rami.position import Position, hand_penalty
from rami.rules import Ruleset
from rami.solver.templates import type_at

#: Time limit (seconds) of the solver's answer to one greedy step.
FITS_LIMIT = 10.0


@dataclass(frozen=True)
class GreedyResult:
    table: tuple[Meld, ...]
    hand: tuple[Card, ...]
    penalty_after: int
    steps: tuple[str, ...]


def lay_off(meld: Meld, card: Card, rules: Ruleset) -> Meld | None:
    """``meld`` with ``card`` added at an end (run) or as a missing suit (set), or None."""
    if meld.kind is MeldKind.SET:
        if len(meld.cards) >= 4:
            return None
        real = list(meld.real_cards)
        if not card.is_joker:
            if card.rank != real[0].rank or any(c.suit == card.suit for c in real):
                return None
            real.append(card)
        jokers = meld.jokers + card.is_joker
        grown = Meld((*sorted(real), *(JOKER,) * jokers), MeldKind.SET)
        return grown if is_valid(grown, rules) else None
    ranks = stands_for(meld, rules)
    suit = meld.real_cards[0].index // 13
    low, high = ranks[0], ranks[-1]
    options = []
    if high < rules.top_rank and (card.is_joker or card.index == type_at(suit, high + 1)):
        options.append(Meld((*meld.cards, card), MeldKind.RUN))
    if low > 1 and (card.is_joker or card.index == type_at(suit, low - 1)):
        options.append(Meld((card, *meld.cards), MeldKind.RUN))
    for grown in options:
        if is_valid(grown, rules):
            return grown
    return None


def _hand_melds(hand: Counter[Card], rules: Ruleset) -> list[Meld]:
    """Every valid meld of hand cards holding 2+ real cards (jokers fill the rest)."""
    jokers = hand[JOKER]
    found: list[Meld] = []
    for suit in range(4):
        if sum(1 for rank in range(1, 14) if hand[Card.of(rank, suit)]) < 2:
            continue  # no run of 2+ real cards of this suit (the same list, found faster)
        for low in range(1, rules.top_rank + 1):
            for high in range(low + 2, min(rules.top_rank, low + 12) + 1):
                types = [type_at(suit, p) for p in range(low, high + 1)]
                cards = tuple(Card(t) if hand[Card(t)] else JOKER for t in types)
                used = sum(card.is_joker for card in cards)
                if used > jokers:
                    break  # a longer run from ``low`` misses these cards too
                padded = cards[0].is_joker or cards[-1].is_joker
                if len(cards) - used < 2 or (padded and len(cards) > 3):
                    continue
                meld = Meld(cards, MeldKind.RUN)
                if is_valid(meld, rules):
                    found.append(meld)
    for rank in range(1, 14):
        real = [Card.of(rank, s) for s in range(4) if hand[Card.of(rank, s)]]
        for extra in range(jokers + 1):
            if len(real) >= 2 and 3 <= len(real) + extra <= 4:
                found.append(Meld((*real, *(JOKER,) * extra), MeldKind.SET))
                break
    return found


def _real_points(meld: Meld, rules: Ruleset) -> int:
    return sum(rules.card_penalty(card.rank) for card in meld.real_cards)


def fits(position: Position, cards: Counter[Card]) -> bool:
    """Can exactly ``cards`` (from the hand) be played by some rearrangement of the table,
    leaving a valid table?

    ``PlayModel`` answers first, as a filter: every legal final table is one of its solutions,
    but not every solution is a legal table (a joker it "parks" may have no meld to go to:
    ``3S 3H 3C *`` with the 3D played frees a joker that no meld can take). A yes is then
    settled by the solver, on the position whose hand is exactly ``cards``: it plays them all
    exactly when a legal table takes them (the referee checks that table).
    """
    from rami.puzzles.model import PlayModel

    model = PlayModel.of(position)
    for t, var in enumerate(model.play):
        if not isinstance(var, int):
            model.model.add(var == cards[Card(t)])
    model.model.add(model.play_jokers == cards[JOKER])
    if model.find() is None:
        return False
    return _solver_plays_all(replace(position, hand=tuple((+cards).elements())))


def _solver_plays_all(position: Position) -> bool:
    from rami.puzzles.model import UndecidedError
    from rami.solver.api import Status, solve

    solution = solve(position, min_moves=False, time_limit=FITS_LIMIT, wall_clock=False)
    if not solution.hand:
        return True
    if solution.status is not Status.OPTIMAL:
        raise UndecidedError(f"greedy step undecided: the solver hit its limit on {position}")
    return False


def greedy_play(position: Position, *, stop_at_penalty: int = 0) -> GreedyResult:
    """Play ``position``'s turn greedily (see the module docstring)."""
    rules = position.rules
    table = list(position.table)
    hand: Counter[Card] = Counter(position.hand)
    played: Counter[Card] = Counter()
    steps: list[str] = []

    def by_penalty(cards: Iterable[Card]) -> list[Card]:
        return sorted(cards, key=lambda c: (-rules.card_penalty(c.rank), c))

    def done() -> bool:
        return not +hand or hand_penalty((+hand).elements(), rules) <= stop_at_penalty

    def commit(cards: Iterable[Card]) -> None:
        hand.subtract(cards)
        played.update(cards)

    # Lay off first, then new melds, on the table as it lies.
    while not done():
        laid = False
        for card in by_penalty(card for card in +hand if not card.is_joker):
            for index, meld in enumerate(table):
                grown = lay_off(meld, card, rules)
                if grown is not None:
                    table[index] = grown
                    commit([card])
                    steps.append(f"lay off {card} on {meld}")
                    laid = True
                    break
            if laid:
                break
        if laid:
            continue
        melds = _hand_melds(hand, rules)
        if not melds:
            break
        best = max(
            melds,
            key=lambda m: (_real_points(m, rules), -m.jokers, len(m), [-c.index for c in m.cards]),
        )
        table.append(best)
        commit(best.cards)
        steps.append(f"new meld {best}")
    # Then one card at a time, committed to cards, never to a table.
    while not done():
        for card in by_penalty(+hand):
            if fits(position, played + Counter([card])):
                commit([card])
                steps.append(f"rearrange for {card}")
                break
        else:
            break
    left = tuple(sorted((+hand).elements()))
    return GreedyResult(tuple(table), left, hand_penalty(left, rules), tuple(steps))
