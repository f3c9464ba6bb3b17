"""The exhaustive reference's opening requirement (:mod:`support.reference`): which plays split
into (or, with the decision 1 flag, hold) new melds that open, and one such split laid at its
best opening points."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from rami.cards import Card
from rami.melds import Meld
from rami.position import Position
from rami.rules import Ruleset
from support.reference_melds import (
    IMPOSSIBLE,
    Candidate,
    Space,
    _legal_melds,
    _sub_multisets,
    candidate_melds,
    fits,
    meld_points,
)


def opening_test(
    position: Position, search: tuple[Space, Any, Callable[[int], tuple[int, int]]] | None = None
) -> Callable[[Counter[Card]], bool]:
    """Whether some cards of the hand split into new melds meeting the opening requirement."""
    space, _, best_opening = search or opening_search(position)
    rules = position.rules

    def splits_into_opening(play: Counter[Card]) -> bool:
        any_split, with_pure = best_opening(space.pack(play))
        score = with_pure if rules.opening_pure_run else any_split
        return score > IMPOSSIBLE and score >= rules.opening_points

    def holds_opening(play: Counter[Card]) -> bool:
        # With the decision 1 flag the played cards need only *hold* such melds: the other
        # cards played may go anywhere on the rearranged table.
        return any(splits_into_opening(part) for part in _sub_multisets(play) if part)

    return holds_opening if rules.open_and_rearrange_same_turn else splits_into_opening


def opening_search(
    position: Position,
) -> tuple[Space, dict[int, list[Candidate]], Callable[[int], tuple[int, int]]]:
    rules = position.rules
    hand = Counter(position.hand)
    space = Space(hand)
    with_points = rules.opening_points > 0
    candidates = candidate_melds(space, hand, rules, with_points=with_points)
    memo: dict[int, tuple[int, int]] = {}

    def best_opening(code: int) -> tuple[int, int]:
        """(most points of any split, most points of a split holding a pure run) of ``code``.

        Either is IMPOSSIBLE when no such split exists.
        """
        known = memo.get(code)
        if known is not None:
            return known
        first = space.first_real(code)
        if first < 0:
            result = (0, IMPOSSIBLE) if code == 0 else (IMPOSSIBLE, IMPOSSIBLE)
        else:
            any_split = with_pure = IMPOSSIBLE
            for candidate in candidates.get(first, ()):
                if not fits(candidate, code):
                    continue
                rest_any, rest_pure = best_opening(code - candidate.code)
                if rest_any > IMPOSSIBLE:
                    any_split = max(any_split, rest_any + candidate.points)
                    if candidate.pure:
                        with_pure = max(with_pure, rest_any + candidate.points)
                if rest_pure > IMPOSSIBLE:
                    with_pure = max(with_pure, rest_pure + candidate.points)
            result = (any_split, with_pure)
        memo[code] = result
        return result

    return space, candidates, best_opening


def opening_melds(
    space: Space,
    candidates: dict[int, list[Candidate]],
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
            if not fits(candidate, code):
                continue
            rest_any, rest_pure = best_opening(code - candidate.code)
            if need_pure and not candidate.pure:
                rest, still_pure = rest_pure, True
            else:
                rest, still_pure = rest_any, False
            if rest > IMPOSSIBLE and rest + candidate.points == target:
                break
        else:  # pragma: no cover - the memo says a choice exists
            raise AssertionError("reference: lost the opening split")
        melds.append(_best_layout(candidate, rules))
        code -= candidate.code
        need_pure = still_pure
    return tuple(melds)


def _best_layout(candidate: Candidate, rules: Ruleset) -> Meld:
    """The candidate laid so that it scores its best opening points (jokers placed by choice)."""
    if not candidate.points or meld_points(candidate.meld, rules) == candidate.points:
        return candidate.meld
    counts = candidate.meld.counts()
    for meld in _legal_melds(counts, rules):
        if meld.counts() == counts and meld_points(meld, rules) == candidate.points:
            return meld
    raise AssertionError("reference: no layout reaches the best opening points")  # pragma: no cover
