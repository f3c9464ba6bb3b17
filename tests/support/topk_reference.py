"""Every distinct answer of a small position, by brute force: the reference for ``--top``.

Every play ``P`` (a sub-multiset of the hand) and every partition of the cards of the table
after the turn into legal melds (each meld laid every legal way, jokers in every place) is
judged by the second referee (:mod:`support.second_referee`); each legal final table is grouped
by its puzzle signature, and a signature's value is its best turn's levels: least penalty left,
most cards played (swapped by the objective), then fewest cards moved (the referee's count).
As the solver decides, a turn playing no card leaves the table as it is (one answer).

Exponential: meant for a dozen cards or so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from rami.cards import Card
from rami.melds import Meld
from rami.position import Position
from rami.signature import Signature, answer_signature
from support.reference_melds import _legal_melds, _sub_multisets
from support.second_referee import judge

Value = tuple[int, ...]


def _partitions(cards: Counter[Card], melds: list[Meld]) -> Iterator[list[Meld]]:
    """Every split of ``cards`` into melds of ``melds`` (the smallest real card covered first)."""
    real = sorted(card for card, n in cards.items() if n and not card.is_joker)
    if not real:
        if not +cards:
            yield []
        return
    first = real[0]
    for meld in melds:
        counts = Counter(meld.cards)
        if counts[first] == 0 or any(n > cards[card] for card, n in counts.items()):
            continue
        for rest in _partitions(cards - counts, melds):
            yield [meld, *rest]


def _value(penalty: int, played: int, moved: int, objective: str, min_moves: bool) -> Value:
    levels = (penalty, -played) if objective == "points" else (-played, penalty)
    return (*levels, moved) if min_moves else levels


def distinct_values(
    position: Position, objective: str = "points", min_moves: bool = True
) -> dict[Signature, Value]:
    """Each signature a legal turn reaches, with the value of its best turn."""
    rules = position.rules
    hand = Counter(position.hand)
    table_cards = position.table_cards
    rearranges = position.opened or rules.open_and_rearrange_same_turn
    best: dict[Signature, Value] = {}
    for play in _sub_multisets(hand):
        left = hand - play
        discards: list[Card | None] = sorted(left) if rules.discard else [None]
        if rules.discard and not left:
            discards = [None]
        if not play:
            finals: Iterator[list[Meld]] = iter([list(position.table)])
        elif rearranges:
            pool = table_cards + play
            layings = list(dict.fromkeys(_legal_melds(pool, rules)))
            finals = _partitions(pool, layings)
        else:
            layings = list(dict.fromkeys(_legal_melds(play, rules)))
            finals = ([*position.table, *melds] for melds in _partitions(play, layings))
        for final in finals:
            sig = answer_signature(final, rules)
            for discard in discards:
                verdict = judge(position, final, list(play.elements()), discard)
                if not verdict.legal:
                    continue
                value = _value(
                    verdict.penalty_after,
                    sum(play.values()),
                    verdict.cards_moved,
                    objective,
                    min_moves,
                )
                if sig not in best or value < best[sig]:
                    best[sig] = value
    return best


def ranked_values(
    position: Position, objective: str = "points", min_moves: bool = True
) -> list[Value]:
    """The values of every distinct answer, best first."""
    return sorted(distinct_values(position, objective, min_moves).values())
