"""A lay-off model's solution read back as a turn: the table after it, the cards played."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rami.cards import JOKER, NUM_TYPES, Card
from rami.melds import Meld, MeldKind, stands_for
from rami.solver.layoff.model import TurnModel
from rami.solver.layoff.parts import type_at

if TYPE_CHECKING:
    from ortools.sat.python import cp_model


@dataclass
class Answer:
    """One turn: the table after it (old melds in order, then new ones), and how it is played."""

    table: list[Meld]
    played: tuple[Card, ...]
    discard: Card | None
    #: (old meld number from 1, real card) for each joker swapped out.
    swaps: list[tuple[int, Card]]
    moved: int = 0


def _deal(counts: dict[int, int], copies: int) -> list[set[int]]:
    """Deal ``counts[key]`` items of each key round the copies in turn (distinct per copy)."""
    hands: list[set[int]] = [set() for _ in range(copies)]
    turn = 0
    for key in sorted(counts):
        for _ in range(counts[key]):
            hands[turn % copies].add(key)
            turn += 1
    return hands


def read_answer(turn: TurnModel, solver: cp_model.CpSolver) -> Answer:
    def value(expr: Any) -> int:
        return expr if isinstance(expr, int) else int(solver.value(expr))

    position = turn.position
    table = list(position.table)
    swaps: list[tuple[int, Card]] = []
    for run in turn.old_runs:
        meld = position.table[run.index]
        cards = dict(zip(stands_for(meld, turn.rules), meld.cards, strict=True))
        changed = False
        for _, place, var in run.swaps:
            if value(var):
                cards[place] = Card(type_at(run.suit, place))
                swaps.append((run.index + 1, cards[place]))
                changed = True
        for place, filled, real in run.grow:
            if value(filled):
                cards[place] = Card(type_at(run.suit, place)) if value(real) else JOKER
                changed = True
        if changed:
            table[run.index] = Meld(tuple(cards[p] for p in sorted(cards)), MeldKind.RUN)
    for entry in turn.old_sets:
        meld = position.table[entry.index]
        added = [Card.of(entry.rank, s) for s, var in sorted(entry.added.items()) if value(var)]
        jokers = value(entry.jokers)
        for card in added[: max(0, meld.jokers - jokers)]:
            swaps.append((entry.index + 1, card))
        if added or jokers != meld.jokers:
            table[entry.index] = Meld((*meld.real_cards, *added) + (JOKER,) * jokers, MeldKind.SET)
    for window in turn.windows:
        copies = value(window.copies)
        if not copies:
            continue
        counts = {key: value(var) for key, var in window.real.items()}
        for real in _deal(counts, copies):
            if window.kind is MeldKind.RUN:
                laid = tuple(
                    Card(type_at(window.suit_or_rank, p)) if p in real else JOKER
                    for p in window.places
                )
            else:
                reals = tuple(Card.of(window.suit_or_rank, s) for s in sorted(real))
                laid = reals + (JOKER,) * (window.size - len(reals))
            table.append(Meld(laid, window.kind))
    played: Counter[Card] = Counter()
    for t in range(NUM_TYPES):
        if value(turn.play[t]):
            played[Card(t)] = value(turn.play[t])
    if value(turn.played_jokers):
        played[JOKER] = value(turn.played_jokers)
    discard = next((card for card, var in turn.discard.items() if value(var)), None)
    return Answer(table, tuple(sorted(played.elements())), discard, swaps, value(turn.moved))
