"""The difficulty of a sound puzzle: its metrics, the score and tier they give, and bounds on the
score before every metric is known.

The metrics are all computed, never guessed: fewest table cards moved (the solver's exact second
stage), melds broken by the intended solution, whether the greedy player (rami.puzzles.greedy)
fails, the near-solutions (signatures that play one card fewer than the solution, counted up to
:data:`NEAR_CAP`), and the jokers involved. Whether a position is a sound puzzle at all is the
judge's question (:mod:`rami.puzzles.evaluate`), which asks this module for the metrics.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rami.cards import Card
from rami.matching import max_weight_assignment, overlap
from rami.melds import Meld
from rami.position import Position

if TYPE_CHECKING:
    from rami.solver.solution import Solution

TIERS = ("easy", "medium", "hard", "expert")
NEAR_CAP = 12


@dataclass(frozen=True)
class Metrics:
    cards_moved: int
    melds_broken: int
    greedy_fails: bool
    near_solutions: int
    jokers_involved: int
    cards_played: int
    hand_cards: int
    table_cards: int
    table_melds: int

    @property
    def score(self) -> int:
        return difficulty_score(self)

    @property
    def tier(self) -> str:
        return tier_of(self.score)

    def to_json(self) -> dict[str, Any]:
        return {
            "tier": self.tier,
            "score": self.score,
            "cards_moved": self.cards_moved,
            "melds_broken": self.melds_broken,
            "greedy_fails": self.greedy_fails,
            "near_solutions": self.near_solutions,
            "near_solutions_capped": self.near_solutions >= NEAR_CAP,
            "jokers_involved": self.jokers_involved,
            "cards_played": self.cards_played,
            "hand_cards": self.hand_cards,
            "table_cards": self.table_cards,
            "table_melds": self.table_melds,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Metrics:
        return cls(**{name: data[name] for name in cls.__dataclass_fields__})


#: Tier thresholds on the difficulty score (docs/puzzles.md shows the distribution they cut).
TIER_FLOORS = {"medium": 6, "hard": 9, "expert": 12}


def difficulty_score(metrics: Metrics) -> int:
    """One number ordering the metrics: each term is a thing a solver (human) must find."""
    return (
        metrics.cards_moved
        + 2 * metrics.melds_broken
        + (5 if metrics.greedy_fails else 0)
        + min(metrics.near_solutions, NEAR_CAP) // 3
        + 2 * metrics.jokers_involved
    )


def tier_of(score: int) -> str:
    tier = "easy"
    for name in TIERS[1:]:
        if score >= TIER_FLOORS[name]:
            tier = name
    return tier


def _untouched(before: tuple[Meld, ...], after: tuple[Meld, ...]) -> list[int]:
    """Starting melds the final table holds exactly as they were.

    Each meld found unchanged counts as often as both tables hold it: a maximum matching of
    decision 7 pairs that many with their twins (an exchange argument), and which of two
    identical melds it pairs makes no difference; so no matching is asked for.
    """
    left = Counter(tuple(sorted(meld.cards)) for meld in after)
    found = []
    for index, meld in enumerate(before):
        key = tuple(sorted(meld.cards))
        if left[key]:
            left[key] -= 1
            found.append(index)
    return found


def melds_broken(before: tuple[Meld, ...], after: tuple[Meld, ...]) -> int:
    """Original melds whose cards do not all end in the meld matched to them, under the
    matching of decision 7 (largest overlap) that keeps the most melds whole.

    Several matchings often share the largest overlap, and they may break different numbers
    of melds: ``5C 6C * 8C 9C | 5C 6C 7C`` becoming ``5C 6C 7C 8C`` (and the rest elsewhere)
    keeps 3 cards whichever starting run is matched to it, but only the match of the 5C 6C 7C
    keeps a meld whole. The metric is the fewest melds broken over all the maximum matchings,
    so it never depends on how a tie is broken: overlaps are weighted above wholeness (each
    overlap times one more than the number of melds, plus 1 for a meld kept whole).
    """
    if not before:
        return 0
    if not after:
        return len(before)
    scale = len(before) + 1
    weights = []
    for meld in before:
        counts, size = meld.counts(), len(meld.cards)
        row = []
        for other in after:
            shared = overlap(counts, other.counts())
            row.append(shared * scale + (shared == size))
        weights.append(row)
    picks = max_weight_assignment(weights)
    whole = sum(1 for row, col in enumerate(picks) if col >= 0 and weights[row][col] % scale == 1)
    return len(before) - whole


def _moved_jokers(before: tuple[Meld, ...], after: tuple[Meld, ...]) -> int:
    """Table jokers in melds the solution changes (a joker may shift even inside its meld)."""
    untouched = set(_untouched(before, after))
    return sum(meld.jokers for index, meld in enumerate(before) if index not in untouched)


def near_solutions(position: Position, cards_played: int, limit: int = NEAR_CAP) -> int:
    """Signatures that play one card fewer than ``cards_played``, counted up to ``limit``."""
    from rami.puzzles.model import PlayModel, count_signatures

    if cards_played <= 1:
        return 0
    model = PlayModel.of(position)
    model.require_played(cards_played - 1)
    return len(count_signatures(model, limit=limit))


def greedy_fails(position: Position, goal: dict[str, Any]) -> bool:
    """Whether the greedy player (rami.puzzles.greedy) falls short of the goal."""
    from rami.puzzles.greedy import greedy_play

    greedy = greedy_play(position, stop_at_penalty=goal["penalty_after"])
    return bool(greedy.penalty_after > goal["penalty_after"])


def measure(
    position: Position,
    goal: dict[str, Any],
    table: tuple[Meld, ...],
    played: tuple[Card, ...],
    cards_moved: int,
) -> Metrics:
    """The difficulty metrics of a sound puzzle whose intended final table is ``table``."""
    return _metrics(
        position,
        goal,
        table,
        played,
        cards_moved,
        greedy_fails(position, goal),
        near_solutions(position, goal["cards_played"]),
    )


def _metrics(
    position: Position,
    goal: dict[str, Any],
    table: tuple[Meld, ...],
    played: tuple[Card, ...],
    cards_moved: int,
    fails: bool,
    near: int,
) -> Metrics:
    return Metrics(
        cards_moved=cards_moved,
        melds_broken=melds_broken(position.table, table),
        greedy_fails=fails,
        near_solutions=near,
        jokers_involved=sum(card.is_joker for card in played)
        + _moved_jokers(position.table, table),
        cards_played=goal["cards_played"],
        hand_cards=len(position.hand),
        table_cards=position.table_size,
        table_melds=len(position.table),
    )


def _measure_solution(position: Position, goal: dict[str, Any], solution: Solution) -> Metrics:
    return measure(
        position, goal, tuple(solution.table), tuple(solution.played), solution.cards_moved
    )


def score_bounds(
    position: Position,
    kind: str,
    cards_moved: int,
    fails: bool | None = None,
    near: int | None = None,
) -> tuple[int, int]:
    """The least and the most difficulty score a candidate can be judged to have, from its
    solve (kind, fewest cards moved) and, when known, the greedy player's fate and the
    near-solutions (None: not known yet).

    Taking superfluous melds away (``prune``) changes neither the goal nor the fewest cards
    moved (a meld the solution keeps whole adds nothing to a play and moves nothing), nor the
    greedy player's fate or the near-solutions (a meld that changes them is a decoy and stays).
    What may change is which melds count as broken and which jokers as involved, so those are
    bounded: each broken meld has a card that moved, and a move breaks some meld, so
    ``min(cards_moved, 1) <= melds_broken <= cards_moved``; the jokers involved are at most
    the position's jokers, and at least the hand's when the whole hand is played.
    """
    jokers = sum(meld.jokers for meld in position.table) + sum(
        card.is_joker for card in position.hand
    )
    hand_jokers = sum(card.is_joker for card in position.hand) if kind == "empty-hand" else 0
    fixed = cards_moved + (min(near, NEAR_CAP) // 3 if near is not None else 0)
    low = fixed + 2 * min(cards_moved, 1) + 2 * hand_jokers
    high = fixed + 2 * cards_moved + 2 * jokers
    if fails is None:
        high += 5
    elif fails:
        low += 5
        high += 5
    if near is None:
        high += NEAR_CAP // 3
    return low, high


def _tier_range(tier: str) -> tuple[int, int | None]:
    """The scores of a tier: from its floor up to the next tier's floor (exclusive)."""
    floor = TIER_FLOORS.get(tier, 0)
    above = [TIER_FLOORS[name] for name in TIERS[TIERS.index(tier) + 1 :]]
    return floor, (above[0] - 1 if above else None)
