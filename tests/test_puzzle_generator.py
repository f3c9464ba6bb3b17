"""The puzzle generator's speed-ups change nothing they should not: the fast meld listing of the
re-split gives the same melds in the same order as the plain one, and a candidate is judged
the same however early the judge may stop (docs/puzzles.md, "Throughput")."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from rami.cards import JOKER, Card
from rami.melds import Meld, MeldKind, is_valid
from rami.position import Position
from rami.puzzles.difficulty import TIERS, score_bounds
from rami.puzzles.draw import candidate, candidate_seed, rules_for
from rami.puzzles.evaluate import Evaluation, Rejected, evaluate, solve_goal
from rami.puzzles.resplit import _card_at, _melds_with
from rami.rules import Ruleset
from rami.signature import signature


def _melds_with_plainly(
    first: Card, cards: Counter[Card], jokers: int, rules: Ruleset, max_run: int
) -> list[Meld]:
    """The re-split's meld listing as first written (window by window, card by card)."""
    from itertools import combinations

    found: list[Meld] = []
    suit = first.index // 13
    own = (1, 14) if first.rank == 1 and rules.top_rank == 14 else (first.rank,)
    for position in own:
        for length in range(3, max_run + 1):
            for start in range(position - length + 1, position + 1):
                end = start + length - 1
                if start < 1 or end > rules.top_rank:
                    continue
                laid = []
                used = 0
                for p in range(start, end + 1):
                    card = _card_at(p, suit)
                    if p == position or cards[card] > 0:
                        laid.append(card)
                    else:
                        laid.append(JOKER)
                        used += 1
                if used > jokers or laid[0].is_joker or laid[-1].is_joker:
                    continue
                meld = Meld(tuple(laid), MeldKind.RUN)
                if is_valid(meld, rules):
                    found.append(meld)
    others = [s for s in range(4) if s != suit and cards[Card.of(first.rank, s)] > 0]
    for size in range(len(others) + 1):
        for chosen in combinations(others, size):
            for extra in range(min(jokers, 3 - size) + 1):
                if 3 <= 1 + size + extra <= 4:
                    real = sorted([first, *(Card.of(first.rank, s) for s in chosen)])
                    found.append(Meld((*real, *(JOKER,) * extra), MeldKind.SET))
    return found


@pytest.mark.parametrize("jokers", [0, 4])
def test_fast_meld_listing_is_the_plain_one(jokers: int) -> None:
    rules = rules_for(jokers)
    rng = random.Random(f"melds-with-{jokers}")
    for _ in range(600):
        suits = rng.sample(range(4), rng.randint(1, 4))
        low = rng.randint(1, 10)
        region = [
            Card.of(rank, suit)
            for suit in suits
            for rank in range(low, min(low + rng.randint(3, 7), 14))
        ]
        cards = Counter(rng.choices(region, k=rng.randint(1, 14)))
        if rng.random() < 0.3:
            cards[Card.of(1, rng.choice(suits))] += 1  # an ace, low or high
        first = min(cards)
        for max_run in (7, 8):
            for free in range(jokers + 1):
                assert _melds_with(first, cards, free, rules, max_run) == _melds_with_plainly(
                    first, cards, free, rules, max_run
                ), (first, cards, free, max_run)


# ------------------------------------------------------------- the judge and its early exits


def _judge_as_first_written(position: Position, kind: str | None = None) -> Evaluation:
    """The judge before its shortcuts: every pruned position judged again from scratch."""
    from rami.puzzles import evaluate as judge
    from rami.puzzles.model import UndecidedError

    def prune(position: Position, solution, metrics) -> Position | None:
        for index in judge._untouched(position.table, tuple(solution.table)):
            table = position.table[:index] + position.table[index + 1 :]
            if not table:
                continue
            smaller = replace(position, table=table)
            try:
                judge._check_position(smaller)
                _kind, goal, smaller_solution = judge.solve_goal(smaller)
            except Rejected:
                continue
            smaller_metrics = judge._measure_solution(smaller, goal, smaller_solution)
            if judge._decoy_profile(smaller_metrics) == judge._decoy_profile(metrics):
                return smaller
        return None

    def run(position: Position, kind: str | None) -> Evaluation:
        judge._check_position(position)
        kind, goal, solution = judge.solve_goal(position, kind)
        if goal["cards_played"] < 2 and kind == "best-score":
            raise Rejected("the best play lays a single card")
        judge.check_needs_rearrangement(position, kind, goal)
        intended = signature(solution.table, position.rules)
        if judge.other_solutions(position, kind, goal, intended):
            raise Rejected("cooked: a second solution reaches the goal")
        metrics = judge._measure_solution(position, goal, solution)
        pruned = prune(position, solution, metrics)
        if pruned is not None:
            return run(pruned, kind)
        return Evaluation(
            position, kind, goal, tuple(solution.table), tuple(solution.played), intended, metrics
        )

    try:
        return run(position, kind)
    except UndecidedError as error:
        raise Rejected(f"undecided: {error}") from None


def _judged(judge, position: Position, **options) -> Evaluation | str:
    try:
        return judge(position, **options)
    except Rejected as error:
        return str(error)


def _same_judgement(tier: str, jokers: int, index: int, seed: int = 11) -> None:
    """The judge with its shortcuts says what the judge as first written says, and asked for
    one tier it keeps exactly the puzzles of that tier."""
    position = candidate(candidate_seed(seed, index), tier=tier, jokers=jokers)
    if position is None:
        return
    expected = _judged(_judge_as_first_written, position)
    assert _judged(evaluate, position) == expected, (tier, jokers, index)
    for wanted in TIERS:
        found = _judged(evaluate, position, tier=wanted)
        if isinstance(expected, Evaluation) and expected.metrics.tier == wanted:
            assert found == expected, (tier, jokers, index, wanted)
        else:
            assert isinstance(found, str), (tier, jokers, index, wanted)


#: Candidates (profile, jokers, index of seed 11) that are sound puzzles of every tier, most of
#: them with melds to prune (one, two or three), and some that are not sound.
SAMPLE = [
    ("hard", 0, 5),
    ("hard", 0, 7),
    ("hard", 0, 35),
    ("hard", 0, 212),
    ("hard", 0, 0),
    ("hard", 4, 5),
    ("hard", 4, 92),
    ("hard", 4, 107),
    ("hard", 4, 0),
    ("hard", 4, 1),
]


@pytest.mark.parametrize(("tier", "jokers", "index"), SAMPLE)
def test_early_exits_keep_the_judgement(tier: str, jokers: int, index: int) -> None:
    _same_judgement(tier, jokers, index)


@pytest.mark.slow
@pytest.mark.parametrize("jokers", [0, 4])
@pytest.mark.parametrize("tier", ["hard", "expert"])
def test_early_exits_keep_the_judgement_on_many_candidates(tier: str, jokers: int) -> None:
    for index in range(300, 360):
        _same_judgement(tier, jokers, index)


def test_score_bounds_hold_for_judged_puzzles() -> None:
    """The bounds the early exits use contain the score the judge gives, pruned or not."""
    for tier, jokers, index in SAMPLE:
        position = candidate(candidate_seed(11, index), tier=tier, jokers=jokers)
        assert position is not None
        try:
            kind, _goal, solution = solve_goal(position)
            judged = evaluate(position)
        except Rejected:
            continue
        metrics = judged.metrics
        for fails, near in (
            (None, None),
            (metrics.greedy_fails, None),
            (metrics.greedy_fails, metrics.near_solutions),
        ):
            low, high = score_bounds(position, kind, solution.cards_moved, fails, near)
            assert low <= metrics.score <= high, (tier, jokers, index)
