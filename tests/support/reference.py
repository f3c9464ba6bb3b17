"""An independent, exhaustive reference solver for small positions.

It shares nothing with the CP-SAT engine (no OR-Tools, no ``rami.solver`` module) nor with the
primary referee: legality is judged by the second referee (:mod:`support.second_referee`), which
lays no meld, scores no opening and counts no card moved with the project's own code. It is
exponential and meant for small positions (about 16 cards in table and hand together); larger
ones are refused with :class:`~rami.errors.UnsupportedError` rather than left to run for hours.

Method (docs/rules.md decisions 1, 6 and 7):

* Cards are counted per card *type*, never per physical copy, so identical copies are
  interchangeable by construction (docs/rules.md "Identical copies are interchangeable").
* Every legal meld that the available cards allow is listed once as a multiset of card types
  (runs of 3..13 cards, sets of 3..4 distinct suits, jokers in every legal place), and each one is
  laid out with :func:`rami.melds.arrange` and judged by the second referee's ``meld_faults``.
* A multiset of cards is split into melds by a memoised search that always covers the smallest
  real card type left first, with a meld whose smallest real card is that type.
* Opened player: every sub-multiset ``P`` of the hand is a candidate play; the table after the
  turn must be a partition of (table cards + ``P``) into legal melds. Plays are tried in the
  order of the first two levels; every feasible play of the best level is then searched for the
  final table that keeps the most table cards in place. "Kept" is searched jointly with the
  matching of decision 7: each new meld may be labelled with one distinct old meld and keeps the
  cards the two share; the best labelling of a partition is exactly the maximum-weight matching
  of decision 7; the second referee judges the answer and counts its cards moved as a
  cross-check.
* Player not opened: the table stays as it is; a non-empty play must split into new melds of
  hand cards only that meet the opening requirement (a pure run in rami chinois, 30 points in
  Rummikub, each meld scored at its best joker placement, with the second referee's places).
  With the decision 1 flag (``open_and_rearrange_same_turn``) the turn is searched as an opened
  player's, over the plays that hold such an opening by themselves.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from rami.cards import JOKER, Card, Suit
from rami.errors import UnsupportedError
from rami.melds import (
    MAX_SET,
    MIN_MELD,
    Meld,
    MeldKind,
    arrange,
)
from rami.position import Position, hand_penalty
from rami.rules import Ruleset
from support.second_referee import judge, meld_faults, opening_value_of, run_places

#: Presets whose turn this solver models (full rearrangement, free table jokers, no discard).
SUPPORTED_PRESETS = ("rami-chinois", "rummikub")
#: Largest position accepted: cards in table and hand together.
MAX_CARDS = 22
#: Largest number of distinct plays (sub-multisets of the hand) accepted.
MAX_PLAYS = 1 << 13

OBJECTIVES = ("points", "cards")

_BITS = 3  # bits per card type in a packed count vector (counts 0..7; at most 2 copies, 6 jokers)
_FIELD = (1 << _BITS) - 1
_IMPOSSIBLE = -(10**9)


@dataclass(frozen=True)
class ReferenceResult:
    """The optimum of one turn, level by level, with one final table that reaches it."""

    penalty_after: int
    cards_played: int
    cards_moved: int
    table: tuple[Meld, ...]
    played: tuple[Card, ...]
    opened_after: bool


@dataclass(frozen=True)
class _Candidate:
    """One legal meld as a multiset of card types, packed over a card space."""

    code: int  # packed counts
    parts: tuple[tuple[int, int], ...]  # (shift, count) per card type it holds
    first: int  # index of its smallest real card type
    meld: Meld  # one legal way to lay it
    points: int  # best opening points over its legal layouts (0 when not asked for)
    pure: bool  # a pure run (decision 3)


class _Space:
    """The card types of a multiset, indexed 0..n-1 in card order (the joker last)."""

    def __init__(self, cards: Iterable[Card]) -> None:
        self.types: tuple[Card, ...] = tuple(sorted(set(cards)))
        self.index = {card: number for number, card in enumerate(self.types)}
        reals = [number for number, card in enumerate(self.types) if not card.is_joker]
        self.real_mask = sum(_FIELD << (_BITS * number) for number in reals)

    def pack(self, counts: Counter[Card]) -> int:
        code = 0
        for card, count in counts.items():
            if count:
                if count > _FIELD:
                    raise UnsupportedError(f"{count} copies of {card} do not fit the reference")
                code += count << (_BITS * self.index[card])
        return code

    def first_real(self, code: int) -> int:
        """Index of the smallest real card type in ``code``, -1 when it holds none."""
        real = code & self.real_mask
        if not real:
            return -1
        return ((real & -real).bit_length() - 1) // _BITS


def _fits(candidate: _Candidate, code: int) -> bool:
    return all(((code >> shift) & _FIELD) >= count for shift, count in candidate.parts)


def _run_card(position_rank: int, suit: int) -> Card:
    return Card.of(1 if position_rank == 14 else position_rank, suit)


def _legal_melds(available: Counter[Card], rules: Ruleset) -> Iterator[Meld]:
    """Every legal laying (runs with jokers in place, sets) of cards drawn from ``available``.

    Layings that hold the same multiset are all produced (they may score different opening
    points); the caller deduplicates.
    """
    jokers = available[JOKER]
    least_real = max(1, rules.min_real_cards)
    for suit in Suit:
        for start in range(1, rules.top_rank + 1):
            for length in range(MIN_MELD, rules.max_run_length + 1):
                end = start + length - 1
                if end > rules.top_rank:
                    break
                window = [_run_card(rank, suit) for rank in range(start, end + 1)]
                present = [slot for slot, card in enumerate(window) if available[card] > 0]
                missing = length - len(present)
                if missing > jokers or len(present) < least_real:
                    continue
                spare = min(jokers - missing, len(present) - least_real)
                for extra in range(spare + 1):
                    for to_joker in itertools.combinations(present, extra):
                        real = set(present).difference(to_joker)
                        cards = tuple(
                            card if slot in real else JOKER for slot, card in enumerate(window)
                        )
                        yield Meld(cards, MeldKind.RUN)
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(available):
        if not card.is_joker and available[card] > 0:
            by_rank.setdefault(card.rank, []).append(card)
    for rank in sorted(by_rank):
        suits = by_rank[rank]
        for size in range(least_real, min(len(suits), MAX_SET) + 1):
            for real in itertools.combinations(suits, size):
                for extra in range(0, min(jokers, MAX_SET - size) + 1):
                    if size + extra >= MIN_MELD:
                        yield Meld(tuple(real) + (JOKER,) * extra, MeldKind.SET)


def _candidates(
    space: _Space, available: Counter[Card], rules: Ruleset, with_points: bool
) -> dict[int, list[_Candidate]]:
    """Candidate melds over ``space`` that fit in ``available``, grouped by smallest real type."""
    best_points: dict[int, int] = {}
    counts_of: dict[int, Counter[Card]] = {}
    for meld in _legal_melds(available, rules):
        counts = meld.counts()
        if any(count > available[card] for card, count in counts.items()):
            continue
        code = space.pack(counts)
        if code not in counts_of:
            counts_of[code] = counts
            best_points[code] = 0
        if with_points:
            # Decision 2: a joker counts as the card it stands for; the player picks the layout.
            best_points[code] = max(best_points[code], meld_points(meld, rules))
    grouped: dict[int, list[_Candidate]] = {}
    for code, counts in counts_of.items():
        cards = sorted(counts.elements())
        meld = arrange(cards, rules)
        if meld is None or meld_faults(meld, rules):  # pragma: no cover - a domain bug
            raise AssertionError(f"reference: {cards} listed as a meld but arrange() refuses it")
        parts = tuple((_BITS * space.index[card], count) for card, count in sorted(counts.items()))
        first = space.first_real(code)
        grouped.setdefault(first, []).append(
            _Candidate(code, parts, first, meld, best_points[code], is_pure(meld))
        )
    for group in grouped.values():
        # Larger melds first: the search finds a partition sooner.
        group.sort(key=lambda candidate: (-len(candidate.meld), candidate.code))
    return grouped


def _sub_multisets(counts: Counter[Card]) -> Iterator[Counter[Card]]:
    cards = sorted(counts)
    for choice in itertools.product(*(range(counts[card] + 1) for card in cards)):
        yield Counter({card: n for card, n in zip(cards, choice, strict=True) if n})


def _check_supported(position: Position, objective: str) -> None:
    rules = position.rules
    if objective not in OBJECTIVES:
        raise UnsupportedError(f"unknown objective {objective!r}: use 'points' or 'cards'")
    if rules.name not in SUPPORTED_PRESETS:
        raise UnsupportedError(
            f"the reference solver handles {' and '.join(SUPPORTED_PRESETS)} only, "
            f"not {rules.option_string}"
        )
    total = sum(len(meld.cards) for meld in position.table) + len(position.hand)
    if total > MAX_CARDS:
        raise UnsupportedError(
            f"position too large for the exhaustive reference solver: {total} cards in table "
            f"and hand, at most {MAX_CARDS}"
        )
    plays = 1
    for count in Counter(position.hand).values():
        plays *= count + 1
    if plays > MAX_PLAYS:
        raise UnsupportedError(
            f"position too large for the exhaustive reference solver: {plays} possible plays "
            f"from the hand, at most {MAX_PLAYS}"
        )


def reference_solve(position: Position, objective: str = "points") -> ReferenceResult:
    """The exact optimum of the turn of the player to move (docs/rules.md decision 6).

    ``objective="points"``: least hand penalty left, then most cards played, then fewest table
    cards moved (decision 7). ``objective="cards"``: most cards played first, then least penalty,
    then fewest cards moved.
    """
    position.checked()
    _check_supported(position, objective)
    if position.opened:
        return _solve_opened(position, objective)
    if position.rules.open_and_rearrange_same_turn:
        # Decision 1 flag: the opener may rearrange the table at once; the cards played from
        # the hand must hold an opening by themselves.
        return _solve_opened(position, objective, _opening_test(position))
    return _solve_not_opened(position, objective)


def _level(
    hand: Counter[Card], play: Counter[Card], rules: Ruleset, opened_after: bool, objective: str
) -> tuple[int, int]:
    penalty = hand_penalty((hand - play).elements(), rules, opened_after)
    played = sum(play.values())
    return (penalty, -played) if objective == "points" else (-played, penalty)


def _solve_opened(
    position: Position, objective: str, opens: Callable[[Counter[Card]], bool] | None = None
) -> ReferenceResult:
    """``opens``: for a player not opened yet (decision 1 flag), which plays open."""
    rules = position.rules
    table = position.table_cards
    hand = Counter(position.hand)
    space = _Space(list(table) + list(hand))
    candidates = _candidates(space, table + hand, rules, with_points=False)
    feasible_memo: dict[int, bool] = {}

    def feasible(code: int) -> bool:
        known = feasible_memo.get(code)
        if known is not None:
            return known
        first = space.first_real(code)
        if first < 0:
            result = code == 0  # jokers alone never make a meld (>= 1 real card per meld)
        else:
            result = any(
                _fits(candidate, code) and feasible(code - candidate.code)
                for candidate in candidates.get(first, ())
            )
        feasible_memo[code] = result
        return result

    # A hand card that no candidate meld holds can never be played: drop it from the plays.
    playable = {card for group in candidates.values() for c in group for card in c.meld.cards}
    playable_hand = Counter({card: n for card, n in hand.items() if card in playable})
    plays = sorted(
        (
            play
            for play in _sub_multisets(playable_hand)
            if opens is None or not play or opens(play)
        ),
        key=lambda play: _level(hand, play, rules, True, objective),
    )
    table_code = space.pack(table)
    best: list[Counter[Card]] = []
    for _, group in itertools.groupby(
        plays, key=lambda play: _level(hand, play, rules, True, objective)
    ):
        best = [play for play in group if feasible(table_code + space.pack(play))]
        if best:
            break
    assert best, "the table itself is always a legal final table"
    olds = [meld.counts() for meld in position.table]
    search = _KeptSearch(space, candidates, olds, feasible)
    every_old = (1 << len(olds)) - 1
    best_kept = _IMPOSSIBLE
    best_play: Counter[Card] = Counter()
    for play in best:
        kept = search.kept(table_code + space.pack(play), every_old)
        if kept > best_kept:
            best_kept, best_play = kept, play
    final = search.table(table_code + space.pack(best_play), every_old)
    if not best_play and not position.opened:
        final = tuple(position.table)  # a player who does not open leaves the table as it is
    moved = _refereed(position, final, best_play).cards_moved
    total = sum(table.values())
    if moved != total - best_kept:  # pragma: no cover - would be a bug here or in the referee
        raise AssertionError(
            f"reference: kept search says {total - best_kept} moved, the referee says {moved}"
        )
    penalty = hand_penalty((hand - best_play).elements(), rules, True)
    return ReferenceResult(
        penalty_after=penalty,
        cards_played=sum(best_play.values()),
        cards_moved=moved,
        table=final,
        played=tuple(sorted(best_play.elements())),
        opened_after=position.opened or bool(best_play),
    )


class _KeptSearch:
    """Most table cards kept in place over all partitions of a multiset (decision 7).

    State: the cards left to cover and the old melds not yet matched. Covering the smallest real
    card type left with a candidate meld, that meld is matched to one unmatched old meld (keeping
    their overlap) or to none.
    """

    def __init__(
        self,
        space: _Space,
        candidates: dict[int, list[_Candidate]],
        olds: list[Counter[Card]],
        feasible: Callable[[int], bool],
    ) -> None:
        self.space = space
        self.candidates = candidates
        self.olds = olds
        self.feasible = feasible
        self.old_parts = [
            tuple((_BITS * space.index[card], count) for card, count in old.items()) for old in olds
        ]
        self.overlaps: dict[int, tuple[int, ...]] = {}
        for group in candidates.values():
            for candidate in group:
                counts = candidate.meld.counts()
                self.overlaps[candidate.code] = tuple(
                    sum(min(count, counts[card]) for card, count in old.items()) for old in olds
                )
        self.memo: dict[tuple[int, int], int] = {}

    def _bound(self, code: int, unmatched: int) -> int:
        bound = 0
        for number, parts in enumerate(self.old_parts):
            if unmatched >> number & 1:
                bound += sum(min(count, (code >> shift) & _FIELD) for shift, count in parts)
        return bound

    def _choices(self, code: int, unmatched: int) -> Iterator[tuple[int, _Candidate, int]]:
        """(cards kept by this meld, candidate, old meld matched or -1) covering the first card."""
        for candidate in self.candidates.get(self.space.first_real(code), ()):
            if not _fits(candidate, code) or not self.feasible(code - candidate.code):
                continue
            yield 0, candidate, -1
            for number, weight in enumerate(self.overlaps[candidate.code]):
                if weight and unmatched >> number & 1:
                    yield weight, candidate, number

    def kept(self, code: int, unmatched: int) -> int:
        """Most old-table cards kept when ``code`` is split into melds (or _IMPOSSIBLE)."""
        if not self.feasible(code):
            return _IMPOSSIBLE
        if code & self.space.real_mask == 0:
            return 0
        key = (code, unmatched)
        known = self.memo.get(key)
        if known is not None:
            return known
        bound = self._bound(code, unmatched)
        best = _IMPOSSIBLE
        if bound == 0:
            best = 0
        else:
            for weight, candidate, number in self._choices(code, unmatched):
                rest = unmatched & ~(1 << number) if number >= 0 else unmatched
                value = weight + self.kept(code - candidate.code, rest)
                if value > best:
                    best = value
                    if best == bound:
                        break
        self.memo[key] = best
        return best

    def table(self, code: int, unmatched: int) -> tuple[Meld, ...]:
        """One partition reaching :meth:`kept`, melds in the order of the old melds they keep."""
        matched: dict[int, Meld] = {}
        loose: list[Meld] = []
        target = self.kept(code, unmatched)
        while code & self.space.real_mask:
            for weight, candidate, number in self._choices(code, unmatched):
                rest = unmatched & ~(1 << number) if number >= 0 else unmatched
                if weight + self.kept(code - candidate.code, rest) == target:
                    break
            else:  # pragma: no cover - the memo says a choice exists
                raise AssertionError("reference: lost the optimal partition")
            if number >= 0:
                matched[number] = candidate.meld
            else:
                loose.append(candidate.meld)
            code -= candidate.code
            unmatched = rest
            target -= weight
        return tuple(matched[number] for number in sorted(matched)) + tuple(loose)


def _opening_test(
    position: Position, search: tuple[_Space, Any, Callable[[int], tuple[int, int]]] | None = None
) -> Callable[[Counter[Card]], bool]:
    """Whether some cards of the hand split into new melds meeting the opening requirement."""
    space, _, best_opening = search or _opening_search(position)
    rules = position.rules

    def splits_into_opening(play: Counter[Card]) -> bool:
        any_split, with_pure = best_opening(space.pack(play))
        score = with_pure if rules.opening_pure_run else any_split
        return score > _IMPOSSIBLE and score >= rules.opening_points

    def holds_opening(play: Counter[Card]) -> bool:
        # With the decision 1 flag the played cards need only *hold* such melds: the other
        # cards played may go anywhere on the rearranged table.
        return any(splits_into_opening(part) for part in _sub_multisets(play) if part)

    return holds_opening if rules.open_and_rearrange_same_turn else splits_into_opening


def _opening_search(
    position: Position,
) -> tuple[_Space, dict[int, list[_Candidate]], Callable[[int], tuple[int, int]]]:
    rules = position.rules
    hand = Counter(position.hand)
    space = _Space(hand)
    with_points = rules.opening_points > 0
    candidates = _candidates(space, hand, rules, with_points=with_points)
    memo: dict[int, tuple[int, int]] = {}

    def best_opening(code: int) -> tuple[int, int]:
        """(most points of any split, most points of a split holding a pure run) of ``code``.

        Either is _IMPOSSIBLE when no such split exists.
        """
        known = memo.get(code)
        if known is not None:
            return known
        first = space.first_real(code)
        if first < 0:
            result = (0, _IMPOSSIBLE) if code == 0 else (_IMPOSSIBLE, _IMPOSSIBLE)
        else:
            any_split = with_pure = _IMPOSSIBLE
            for candidate in candidates.get(first, ()):
                if not _fits(candidate, code):
                    continue
                rest_any, rest_pure = best_opening(code - candidate.code)
                if rest_any > _IMPOSSIBLE:
                    any_split = max(any_split, rest_any + candidate.points)
                    if candidate.pure:
                        with_pure = max(with_pure, rest_any + candidate.points)
                if rest_pure > _IMPOSSIBLE:
                    with_pure = max(with_pure, rest_pure + candidate.points)
            result = (any_split, with_pure)
        memo[code] = result
        return result

    return space, candidates, best_opening


def _solve_not_opened(position: Position, objective: str) -> ReferenceResult:
    rules = position.rules
    hand = Counter(position.hand)
    search = space, candidates, best_opening = _opening_search(position)
    opens = _opening_test(position, search)

    playable = {card for group in candidates.values() for c in group for card in c.meld.cards}
    playable_hand = Counter({card: n for card, n in hand.items() if card in playable})
    plays = sorted(
        _sub_multisets(playable_hand),
        key=lambda play: _level(hand, play, rules, bool(play), objective),
    )
    chosen: Counter[Card] = Counter()
    for play in plays:
        if not play or opens(play):
            chosen = play
            break
    new_melds = _opening_melds(space, candidates, best_opening, space.pack(chosen), rules)
    final = tuple(position.table) + new_melds
    return ReferenceResult(
        penalty_after=hand_penalty((hand - chosen).elements(), rules, bool(chosen)),
        cards_played=sum(chosen.values()),
        cards_moved=_refereed(position, final, chosen).cards_moved,
        table=final,
        played=tuple(sorted(chosen.elements())),
        opened_after=bool(chosen) or position.opened,
    )


def _opening_melds(
    space: _Space,
    candidates: dict[int, list[_Candidate]],
    best_opening: Callable[[int], tuple[int, int]],
    code: int,
    rules: Ruleset,
) -> tuple[Meld, ...]:
    """Rebuild one split of ``code`` that reaches :func:`best_opening`'s score."""
    melds: list[Meld] = []
    need_pure = rules.opening_pure_run and code != 0
    while code:
        any_split, with_pure = best_opening(code)
        target = with_pure if need_pure else any_split
        for candidate in candidates.get(space.first_real(code), ()):
            if not _fits(candidate, code):
                continue
            rest_any, rest_pure = best_opening(code - candidate.code)
            if need_pure and not candidate.pure:
                rest, still_pure = rest_pure, True
            else:
                rest, still_pure = rest_any, False
            if rest > _IMPOSSIBLE and rest + candidate.points == target:
                break
        else:  # pragma: no cover - the memo says a choice exists
            raise AssertionError("reference: lost the opening split")
        melds.append(_best_layout(candidate, rules))
        code -= candidate.code
        need_pure = still_pure
    return tuple(melds)


def _best_layout(candidate: _Candidate, rules: Ruleset) -> Meld:
    """The candidate laid so that it scores its best opening points (jokers placed by choice)."""
    if not candidate.points or meld_points(candidate.meld, rules) == candidate.points:
        return candidate.meld
    counts = candidate.meld.counts()
    for meld in _legal_melds(counts, rules):
        if meld.counts() == counts and meld_points(meld, rules) == candidate.points:
            return meld
    raise AssertionError("reference: no layout reaches the best opening points")  # pragma: no cover


def _refereed(position: Position, final: tuple[Meld, ...], played: Counter[Card]):
    """The second referee's verdict on the reference's answer; it must be legal."""
    verdict = judge(position, final, tuple(played.elements()))
    if not verdict.legal:  # pragma: no cover - a bug here or in the second referee
        raise AssertionError(f"reference answer refused for {position}: {verdict.problems}")
    return verdict


def is_pure(meld: Meld) -> bool:
    """A pure run (decision 3): a run of three or more cards, no joker."""
    return meld.kind is MeldKind.RUN and len(meld.cards) >= MIN_MELD and not meld.jokers


def meld_points(meld: Meld, rules: Ruleset) -> int:
    """Opening points of a laid meld (decision 2), counted with the second referee's places."""
    if meld.kind is MeldKind.SET:
        rank = meld.real_cards[0].rank
        return len(meld.cards) * opening_value_of(
            14 if rank == 1 and not rules.tiles else rank, rules
        )
    start = run_places(meld.cards, rules)
    assert start is not None
    return sum(opening_value_of(start + index, rules) for index in range(len(meld.cards)))
