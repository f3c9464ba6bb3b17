"""An independent, exhaustive reference for the presets without rearrangement (rami 51, BFmania
51/30, Café Rummy), to test :mod:`rami.solver.layoff` against.

It shares nothing with that engine (no OR-Tools, no model, no other ``rami.solver`` module): it
builds every legal final table card by card (the second referee's ``meld_faults`` judges every
meld it lays, and its ``judge`` every final turn, counting the cards moved) and scores each with
``hand_penalty``.
It is exponential and meant for small positions: larger ones are refused with
:class:`~rami.errors.UnsupportedError`.

Method (docs/rules.md presets table, decisions 2-4 and 6-8):

* Opened player. Each meld on the table may become any legal meld that holds its cards at the
  same places (a set: the same real cards) and adds cards around them: for a run, every wider
  window of its suit with each new place holding the real card (from the hand) or a joker; each
  of its jokers kept or, where the preset swaps jokers, replaced by the real card it stands for;
  for a set, every choice of missing suits from the hand and every final number of jokers (fewer
  only by swapping, at most one joker freed per suit added). Every combination over the table's
  melds is tried; the jokers it frees go to the hand (BFmania), must all be laid again (Café
  Rummy: the table ends with at least its jokers) or never leave (rami 51).
  The cards left (hand cards and jokers) are then split every possible way into "laid as new
  melds" (any partition into legal melds, searched exhaustively) and "kept".
* Player not opened: either lay nothing, or open: new melds from the hand whose opening points
  (decision 2, each joker scored as the card it stands for, every layout tried) and pure run
  meet the preset's requirement (any meld in Café Rummy), holding no more jokers than the hand,
  and then, as an opened player, lay-offs and swaps in the same turn (decision 4).
* Every resulting hand is ended by every legal discard (decision 8's card and Café Rummy's
  jokers only as the last card; BFmania may go out without one) and scored: least penalty after
  the discard (rami 51: flat 100 while not opened), then most cards played (or the reverse for
  ``objective="cards"``), then fewest cards moved, counted by :func:`rami.matching.cards_moved`
  on every final table of the best plays.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from rami.cards import JOKER, Card
from rami.errors import UnsupportedError
from rami.melds import Meld, MeldKind, stands_for
from rami.position import Position, hand_penalty
from rami.rules import GoingOut, Ruleset, TableJoker
from support.reference import is_pure, meld_points
from support.second_referee import judge, meld_faults

#: Largest hand accepted, and largest table (melds).
MAX_HAND = 9
MAX_TABLE_MELDS = 4
OBJECTIVES = ("points", "cards")

Cards = tuple[Card, ...]  # a sorted multiset (jokers last)


@dataclass(frozen=True)
class LayoffReferenceResult:
    """The optimum of one turn, level by level, with one turn that reaches it."""

    penalty_after: int
    cards_played: int
    cards_moved: int
    table: tuple[Meld, ...]
    played: Cards
    discard: Card | None
    opened_after: bool


def _multiset(counts: Counter[Card]) -> Cards:
    return tuple(sorted((+counts).elements()))


def _card_at(place: int, suit: int) -> Card:
    return Card.of(1 if place == 14 else place, suit)


def _check(position: Position, objective: str) -> None:
    rules = position.rules
    if objective not in OBJECTIVES:
        raise UnsupportedError(f"unknown objective {objective!r}: use 'points' or 'cards'")
    if rules.rearrangement or not rules.discard:
        raise UnsupportedError(
            f"the lay-off reference handles presets without rearrangement that discard, "
            f"not {rules.option_string}"
        )
    if rules.open_and_rearrange_same_turn:
        raise UnsupportedError("the lay-off reference does not handle open_and_rearrange_same_turn")
    if len(position.hand) > MAX_HAND or len(position.table) > MAX_TABLE_MELDS:
        raise UnsupportedError(
            f"position too large for the exhaustive lay-off reference: at most {MAX_HAND} hand "
            f"cards and {MAX_TABLE_MELDS} table melds"
        )


# --- Melds ----------------------------------------------------------------------------------


def _new_melds(available: Counter[Card], rules: Ruleset) -> list[Meld]:
    """Every legal meld (each joker layout apart) whose cards ``available`` holds."""
    jokers = available[JOKER]
    found: list[Meld] = []
    for suit in range(4):
        for low in range(1, rules.top_rank - 1):
            for high in range(low + 2, min(rules.top_rank, low + 12) + 1):
                places = range(low, high + 1)
                held = [p for p in places if available[_card_at(p, suit)]]
                missing = len(places) - len(held)
                if missing > jokers:
                    continue
                for extra in range(jokers - missing + 1):
                    for as_joker in itertools.combinations(held, extra):
                        cards = tuple(
                            _card_at(p, suit) if p in held and p not in as_joker else JOKER
                            for p in places
                        )
                        meld = Meld(cards, MeldKind.RUN)
                        if not meld_faults(meld, rules):
                            found.append(meld)
    for rank in range(1, 14):
        suits = [s for s in range(4) if available[Card.of(rank, s)]]
        for size in range(1, len(suits) + 1):
            for chosen in itertools.combinations(suits, size):
                for extra in range(min(jokers, 4 - size) + 1):
                    meld = Meld(
                        tuple(Card.of(rank, s) for s in chosen) + (JOKER,) * extra, MeldKind.SET
                    )
                    if len(meld.cards) >= 3 and not meld_faults(meld, rules):
                        found.append(meld)
    return found


class _Splitter:
    """Partitions of multisets of cards into legal new melds (exhaustive, memoised)."""

    def __init__(self, available: Counter[Card], rules: Ruleset) -> None:
        self.by_first: dict[Card, list[tuple[Meld, Counter[Card]]]] = {}
        for meld in _new_melds(available, rules):
            first = min(meld.real_cards)
            self.by_first.setdefault(first, []).append((meld, meld.counts()))
        self.memo: dict[Cards, list[tuple[Meld, ...]]] = {}
        self.can_memo: dict[Cards, bool] = {}

    def _choices(self, cards: Cards) -> Iterator[tuple[Meld, Cards]]:
        first = cards[0]  # the smallest real card left: every meld holds a real card
        have = Counter(cards)
        for meld, counts in self.by_first.get(first, ()):
            if not counts - have:
                yield meld, _multiset(have - counts)

    def can_split(self, cards: Cards) -> bool:
        if not cards:
            return True
        if cards[0].is_joker:
            return False
        known = self.can_memo.get(cards)
        if known is None:
            known = any(self.can_split(rest) for _, rest in self._choices(cards))
            self.can_memo[cards] = known
        return known

    def splits(self, cards: Cards) -> list[tuple[Meld, ...]]:
        """Every partition of ``cards`` into legal melds (each joker layout apart)."""
        if not cards:
            return [()]
        if cards[0].is_joker:
            return []
        known = self.memo.get(cards)
        if known is None:
            known = [
                (meld, *rest_split)
                for meld, rest in self._choices(cards)
                for rest_split in self.splits(rest)
            ]
            self.memo[cards] = known
        return known


def _sub_multisets(cards: Cards) -> Iterator[Cards]:
    counts = Counter(cards)
    kinds = sorted(counts)
    for choice in itertools.product(*(range(counts[card] + 1) for card in kinds)):
        yield tuple(card for card, n in zip(kinds, choice, strict=True) for _ in range(n))


# --- The table -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Grown:
    """One legal future of a table meld: the meld after, hand cards it takes, jokers it takes
    from the hand (negative: jokers it gives up)."""

    meld: Meld
    reals: Counter[Card]
    jokers: int


def _grown_runs(
    meld: Meld, hand: Counter[Card], jokers: int, swap: bool, rules: Ruleset
) -> list[_Grown]:
    places = stands_for(meld, rules)
    suit = meld.real_cards[0].index // 13
    low, high = places[0], places[-1]
    swappable = [
        p
        for p, card in zip(places, meld.cards, strict=True)
        if card.is_joker and swap and hand[_card_at(p, suit)]
    ]
    out: list[_Grown] = []
    for new_low in range(low, 0, -1):
        below = range(new_low, low)
        if sum(1 for p in below if not hand[_card_at(p, suit)]) > jokers:
            break
        for new_high in range(high, rules.top_rank + 1):
            grown = [*below, *range(high + 1, new_high + 1)]
            held = [p for p in grown if hand[_card_at(p, suit)]]
            missing = len(grown) - len(held)
            if missing > jokers:
                break
            for extra in range(jokers - missing + 1):
                for as_joker in itertools.combinations(held, extra):
                    for size in range(len(swappable) + 1):
                        for swapped in itertools.combinations(swappable, size):
                            cards = []
                            for place in range(new_low, new_high + 1):
                                card = _card_at(place, suit)
                                if low <= place <= high:
                                    old = meld.cards[place - low]
                                    cards.append(card if place in swapped else old)
                                else:
                                    real = place in held and place not in as_joker
                                    cards.append(card if real else JOKER)
                            after = Meld(tuple(cards), MeldKind.RUN)
                            if meld_faults(after, rules):
                                continue
                            reals = Counter(after.real_cards) - Counter(meld.real_cards)
                            if reals - hand:
                                continue
                            out.append(_Grown(after, reals, after.jokers - meld.jokers))
    return out


def _grown_sets(
    meld: Meld, hand: Counter[Card], jokers: int, swap: bool, rules: Ruleset
) -> list[_Grown]:
    rank = meld.real_cards[0].rank
    present = {card.suit for card in meld.real_cards}
    missing = [s for s in range(4) if s not in present and hand[Card.of(rank, s)]]
    out: list[_Grown] = []
    for size in range(len(missing) + 1):
        for added in itertools.combinations(missing, size):
            for final_jokers in range(5):
                freed = meld.jokers - final_jokers
                if freed > 0 and (not swap or freed > size):
                    continue  # a joker leaves a set only for a missing suit laid in its place
                if final_jokers - meld.jokers > jokers:
                    continue
                cards = (*meld.real_cards, *(Card.of(rank, s) for s in added))
                after = Meld(cards + (JOKER,) * final_jokers, MeldKind.SET)
                if meld_faults(after, rules):
                    continue
                reals = Counter(Card.of(rank, s) for s in added)
                out.append(_Grown(after, reals, final_jokers - meld.jokers))
    return out


def _table_futures(position: Position) -> dict[tuple[Cards, int], list[tuple[Meld, ...]]]:
    """Every combination of meld futures, by (hand real cards left, net jokers laid)."""
    rules = position.rules
    hand = Counter(card for card in position.hand if not card.is_joker)
    swap = rules.table_joker in (TableJoker.SWAP_TO_HAND, TableJoker.SWAP_AND_RELAY)
    table_jokers = sum(meld.jokers for meld in position.table)
    jokers = Counter(position.hand)[JOKER] + (table_jokers if swap else 0)
    options = [
        (_grown_runs if meld.kind is MeldKind.RUN else _grown_sets)(meld, hand, jokers, swap, rules)
        for meld in position.table
    ]
    futures: dict[tuple[Cards, int], list[tuple[Meld, ...]]] = {}

    def walk(number: int, left: Counter[Card], net: int, melds: tuple[Meld, ...]) -> None:
        if number == len(options):
            futures.setdefault((_multiset(left), net), []).append(melds)
            return
        for grown in options[number]:
            if grown.reals - left:
                continue
            walk(number + 1, left - grown.reals, net + grown.jokers, (*melds, grown.meld))

    walk(0, hand, 0, ())
    return futures


# --- Ending the turn -------------------------------------------------------------------------


def _discards(position: Position, left: Cards) -> list[Card | None]:
    """Every legal way to end the turn with ``left`` in hand (decision 6 and 8, presets)."""
    rules = position.rules
    if not left:
        return [None] if rules.going_out is GoingOut.PLACE_OR_DISCARD else []
    last = len(left) == 1
    out: list[Card | None] = []
    in_hand = Counter(left)
    for card in sorted(in_hand):
        if not last and card == position.taken_discard:
            continue  # decision 8: neither copy of the card taken, jokers all alike
        if not last and card.is_joker and rules.joker_kept_until_last:
            continue
        out.append(card)
    return out


@dataclass(frozen=True)
class _End:
    key: tuple[int, int]
    played: Cards
    discard: Card | None
    penalty: int


def _key(penalty: int, played: int, objective: str) -> tuple[int, int]:
    """The first two levels of decision 6, smaller is better."""
    return (penalty, -played) if objective == "points" else (-played, penalty)


def _end(position: Position, left: Cards, opened_after: bool, objective: str) -> _End | None:
    """The best legal discard for a hand ``left`` (cards and jokers held before discarding)."""
    rules = position.rules
    hand = Counter(position.hand)
    kept = Counter(left)
    played = Counter({c: n for c, n in (hand - kept).items() if not c.is_joker})
    played[JOKER] = max(0, hand[JOKER] - kept[JOKER])
    count = sum(played.values())
    best: _End | None = None
    for discard in _discards(position, left):
        after = kept.copy()
        if discard is not None:
            after[discard] -= 1
        penalty = hand_penalty((+after).elements(), rules, opened_after)
        key = _key(penalty, count, objective)
        if best is None or key < best.key:
            best = _End(key, _multiset(played), discard, penalty)
    return best


# --- The search ------------------------------------------------------------------------------


def layoff_reference(position: Position, objective: str = "points") -> LayoffReferenceResult | None:
    """The exact optimum of the turn of the player to move; None when no turn is legal."""
    position.checked()
    _check(position, objective)
    if position.opened:
        return _opened(position, objective)
    return _not_opened(position, objective)


def _opened(
    position: Position, objective: str, *, opening: bool = False
) -> LayoffReferenceResult | None:
    """The best turn of an opened player; with ``opening``, of a player who opens this turn
    (decision 4): the new melds meet the opening with the hand's cards, then lay-offs and
    swaps follow."""
    rules = position.rules
    hand_jokers = Counter(position.hand)[JOKER]
    swap_to_hand = rules.table_joker is TableJoker.SWAP_TO_HAND
    futures = _table_futures(position)
    most_jokers = hand_jokers + max((-net for _, net in futures), default=0)
    splitter = _Splitter(
        Counter(card for card in position.hand if not card.is_joker)
        + Counter({JOKER: max(0, most_jokers)}),
        rules,
    )
    # Per state of the hand after the lay-offs: the best end and the new melds that reach it.
    best_key: tuple[int, int] | None = None
    group: list[tuple[tuple[Meld, ...], Cards, _End]] = []
    for (reals_left, net), tables in sorted(futures.items()):
        jokers = hand_jokers - net
        if jokers < 0:
            continue  # more jokers laid off than the hand holds
        cards = reals_left + (JOKER,) * jokers
        for laid in _sub_multisets(cards):
            if not splitter.can_split(laid):
                continue
            left = _multiset(Counter(cards) - Counter(laid))
            played_jokers = max(0, hand_jokers - Counter(left)[JOKER])
            if opening and not any(
                _opens(split, rules, played_jokers) for split in splitter.splits(laid)
            ):
                continue
            if Counter(left)[JOKER] > hand_jokers and not swap_to_hand:
                continue  # Café Rummy: a swapped joker must be laid again in the same turn
            end = _end(position, left, True, objective)
            if end is None:
                continue
            if best_key is None or end.key < best_key:
                best_key, group = end.key, []
            if end.key == best_key:
                group.extend((table, laid, end) for table in tables)
    if best_key is None:
        return None
    best: tuple[int, tuple[Meld, ...], _End] | None = None
    for table, laid, end in group:
        for split in splitter.splits(laid):
            if opening and not _opens(split, rules, Counter(end.played)[JOKER]):
                continue
            final = (*table, *split)
            verdict = judge(position, final, end.played, end.discard)
            if not verdict.legal:
                continue
            if verdict.penalty_after != end.penalty:  # pragma: no cover - a bug, here or there
                raise AssertionError(f"layoff reference and second referee differ on {final}")
            if best is None or verdict.cards_moved < best[0]:
                best = (verdict.cards_moved, final, end)
    if best is None:  # pragma: no cover - a bug here or in the second referee
        raise AssertionError(f"the second referee refuses every best turn of {position}")
    moved, final, end = best
    return LayoffReferenceResult(
        end.penalty, len(end.played), moved, final, end.played, end.discard, True
    )


def _not_opened(position: Position, objective: str) -> LayoffReferenceResult | None:
    """Stay unopened (discard only), or open and lay off in the same turn (decision 4)."""
    hand = tuple(sorted(position.hand))
    stay = _end(position, hand, False, objective)
    opens = _opened(position, objective, opening=True)
    if opens is not None and (
        stay is None or _key(opens.penalty_after, opens.cards_played, objective) < stay.key
    ):
        return opens
    if stay is None:
        return None
    return LayoffReferenceResult(
        stay.penalty, len(stay.played), 0, position.table, stay.played, stay.discard, False
    )


def _opens(melds: tuple[Meld, ...], rules: Ruleset, played_jokers: int) -> bool:
    """Do these new melds meet the opening requirement (decisions 2-4), holding no more jokers
    than the hand played?"""
    if not melds or sum(meld.jokers for meld in melds) > played_jokers:
        return False
    if rules.opening_pure_run and not any(is_pure(meld) for meld in melds):
        return False
    return sum(meld_points(meld, rules) for meld in melds) >= rules.opening_points
