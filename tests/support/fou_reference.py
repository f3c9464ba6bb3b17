"""An exhaustive reference for rami fou turns on small positions (no OR-Tools, no CP-SAT model).

Rami fou pins table jokers (docs/rules.md decision 5): a joker leaves its meld only when the card it
stands for takes its place (a run's joker kept in any piece of its cut run, still standing for its
card, has not left it). Whether a table obeys that depends on the whole table (the melds are
matched before and after the turn), so this reference does not split the search per meld as
:mod:`support.reference` does: it lists every partition of the cards into legal melds and
asks the second referee (:func:`support.second_referee.judge`, which shares no code with
:mod:`rami.referee`) about each whole turn.

* Every sub-multiset ``P`` of the hand that leaves a card to discard is a candidate play; the
  discard is the costliest card decision 8 lets go. Plays are tried in the order of the first two
  levels (decision 6); the first level group holding a legal turn is the optimum, and every legal
  table of that group is searched for the fewest cards moved (decision 7, the referee's count).
* Opened player: the table after the turn is any partition of (table cards + ``P``) into legal
  melds. Player not opened: the table stays and ``P`` is split into new melds (decision 1); the
  referee judges the 51 points.
* Melds are listed once per laying: a run's jokers in every place they may stand, since the pin
  rule reads where a joker stands (decision 5: it does not slide).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from rami.cards import JOKER, Card
from rami.errors import UnsupportedError
from rami.melds import Meld, MeldKind
from rami.position import Position, hand_penalty
from rami.rules import Ruleset, TableJoker
from support.reference import OBJECTIVES
from support.reference_melds import _legal_melds, _sub_multisets
from support.second_referee import judge, meld_faults

#: Largest position accepted: cards in table and hand together.
MAX_CARDS = 16


@dataclass(frozen=True)
class FouResult:
    penalty_after: int
    cards_played: int
    #: Fewest table cards moved among the optimal turns (None when ``min_moves`` is off).
    cards_moved: int | None
    table: tuple[Meld, ...]
    played: tuple[Card, ...]
    discard: Card
    #: Legal tables seen for the optimal play level (how much the search had to look at).
    tables_checked: int


def fou_reference_solve(
    position: Position, objective: str = "points", *, min_moves: bool = True
) -> FouResult:
    """The exact optimum of a rami fou turn (decisions 5, 6, 7 and 8)."""
    position.checked()
    _check_supported(position, objective)
    rules = position.rules
    hand = Counter(position.hand)
    groups: dict[tuple[int, int], list[tuple[Counter[Card], Card, int]]] = {}
    for play in _sub_multisets(hand):
        left = hand - play
        if not left:
            continue  # rami fou goes out by discarding the last card: one card stays for it
        discard = _best_discard(position, left)
        opened_after = position.opened or bool(play)
        penalty = hand_penalty((left - Counter([discard])).elements(), rules, opened_after)
        played = sum(play.values())
        key = (penalty, -played) if objective == "points" else (-played, penalty)
        groups.setdefault(key, []).append((play, discard, penalty))
    for key in sorted(groups):
        best: tuple[int, tuple[Meld, ...], Counter[Card], Card, int] | None = None
        seen = 0
        for play, discard, penalty in groups[key]:
            for table in _tables(position, play):
                verdict = judge(position, table, tuple(play.elements()), discard)
                if not verdict.legal:
                    continue
                seen += 1
                if verdict.penalty_after != penalty:  # pragma: no cover - a referee bug
                    raise AssertionError(f"reference and referee disagree on {table}")
                if best is None or verdict.cards_moved < best[0]:
                    best = (verdict.cards_moved, tuple(table), play, discard, penalty)
                if not min_moves or best[0] == 0:
                    break
            if best is not None and (not min_moves or best[0] == 0):
                break
        if best is not None:
            moved, table, play, discard, penalty = best
            return FouResult(
                penalty_after=penalty,
                cards_played=sum(play.values()),
                cards_moved=moved if min_moves else None,
                table=table,
                played=tuple(sorted(play.elements())),
                discard=discard,
                tables_checked=seen,
            )
    raise AssertionError("no legal rami fou turn: playing nothing is always legal")


def _check_supported(position: Position, objective: str) -> None:
    rules = position.rules
    if objective not in OBJECTIVES:
        raise UnsupportedError(f"unknown objective {objective!r}: use 'points' or 'cards'")
    if rules.table_joker is not TableJoker.REPLACE_AND_RELAY or not rules.discard:
        raise UnsupportedError(f"the rami fou reference does not handle {rules.option_string}")
    if rules.open_and_rearrange_same_turn:
        raise UnsupportedError("the rami fou reference does not open and rearrange in one turn")
    if not position.hand:
        raise UnsupportedError("the hand is empty: no card to discard")
    total = sum(len(meld.cards) for meld in position.table) + len(position.hand)
    if total > MAX_CARDS:
        raise UnsupportedError(
            f"position too large for the rami fou reference: {total} cards, at most {MAX_CARDS}"
        )


def _best_discard(position: Position, left: Counter[Card]) -> Card:
    """The costliest card left that decision 8 lets go (the taken card only as the last)."""
    rules = position.rules
    last = sum(left.values()) == 1
    taken = position.taken_discard
    allowed = [card for card in left if last or card != taken]
    return max(allowed, key=lambda card: (_penalty(card, rules), card.index))


def _penalty(card: Card, rules: Ruleset) -> int:
    return rules.joker_penalty if card.is_joker else rules.card_penalty(card.rank)


def _tables(position: Position, play: Counter[Card]) -> Iterator[list[Meld]]:
    if not position.opened:
        if not play:
            yield list(position.table)
            return
        for melds in _partitions(play, position.rules):
            yield [*position.table, *melds]
        return
    yield from _partitions(position.table_cards + play, position.rules)


def _partitions(cards: Counter[Card], rules: Ruleset) -> Iterator[list[Meld]]:
    """Every split of ``cards`` into legal melds, each laying of a multiset once: where its
    jokers stand matters to the pin rule (decision 5: a joker does not slide)."""
    by_first: dict[Card, list[tuple[Counter[Card], Meld]]] = {}
    seen: set[tuple[object, ...]] = set()
    for meld in _legal_melds(cards, rules):
        counts = meld.counts()
        if any(count > cards[card] for card, count in counts.items()):
            continue
        key = (meld.kind, meld.cards if meld.kind is MeldKind.RUN else tuple(sorted(meld.cards)))
        if key in seen:
            continue
        seen.add(key)
        if meld_faults(meld, rules):  # pragma: no cover - a domain bug
            raise AssertionError(f"rami fou reference: {meld} listed but not a legal meld")
        first = min(card for card in meld.cards if not card.is_joker)
        by_first.setdefault(first, []).append((counts, meld))

    def split(left: Counter[Card]) -> Iterator[list[Meld]]:
        real = [card for card, count in left.items() if count > 0 and not card.is_joker]
        if not real:
            if left[JOKER] == 0:
                yield []
            return
        first = min(real)
        for counts, meld in by_first.get(first, ()):
            if all(left[card] >= count for card, count in counts.items()):
                for rest in split(left - counts):
                    yield [meld, *rest]

    yield from split(+cards)
